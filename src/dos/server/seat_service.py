"""What a program holding a seat token may do at the server: the service API of the layers
above it (``dos.agents``: the HTTP agent API, the MCP tools).

``SeatService`` lists, creates and joins tables as every other path does (the same limits,
the same grants), and opens a seat by its token (``seat``) as the WebSocket's ``hello``
checks it. A ``SeatAt`` is that seat: what it sees at one moment (``moment``: read under the
table's lock, as the WebSocket's resync), its actions (``act``, through ``Table.submit``, the
browser's way: the same refusals), leaving, starting, waiting for a change (``wait``: woken by
the table itself, no polling), the game's latest actions with the public brief before each
(``past``), and the last game's record (``record``). Nothing above the server touches a table
but through these.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import weakref
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.orm import Session

from dos.ratings.store import mark_agent
from dos.server.people.admins import refuse_banned
from dos.server.people.auth import TokenError
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.storage.models import GamePlayerRow
from dos.server.storage.table_store import load_game
from dos.server.tables import seating
from dos.server.tables.history import Entry
from dos.server.tables.info import table_info
from dos.server.tables.table import Status, Table

Until = Literal["change", "turn"]
"""What a wait waits for: any change of the table, or a change after which the seat has
something to do (a legal action, or the game is over)."""

MAX_WAIT_SECONDS = 30.0
"""The longest one wait lasts (a long poll is answered by then)."""


@dataclass(frozen=True, slots=True)
class PastAction:
    """An action of the game: its ``index`` (the version it was made on), its ``seat``, its
    notation, and the public brief of the game just before it (``None``: not kept), from
    which it is told in words; ``drawn``: the cards a draw gave, only in the past actions of
    the seat that drew them (empty otherwise)."""

    index: int
    seat: int
    action: str
    before: dict[str, Any] | None
    drawn: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class Moment:
    """What a seat sees at one moment: the table's ``info`` (``TableInfo``), the game's
    ``version``, the table's ``change`` counter, the rule set's view of the seat (``None``
    before the first game), the game's result once it is over, and its latest actions
    (``past``, oldest first). ``history``: the view with the game's whole history, when
    asked for."""

    code: str
    seat: int
    rules: str
    version: int
    change: int
    info: dict[str, Any]
    view: dict[str, Any] | None
    result: dict[str, Any] | None
    past: tuple[PastAction, ...]
    history: dict[str, Any] | None = None


_Seen = weakref.WeakKeyDictionary[Table, dict[int, Moment]]
"""Each table's latest moment per seat."""


def check_wait(timeout: float, until: str) -> None:
    """Refuses a wait (``bad_request``) whose ``timeout`` is not a number of seconds from 0
    to ``MAX_WAIT_SECONDS``, or whose ``until`` is neither ``change`` nor ``turn``."""
    if not (math.isfinite(timeout) and 0 <= timeout <= MAX_WAIT_SECONDS):
        raise RefusedError(
            "bad_request",
            f"timeout: a number of seconds from 0 to {MAX_WAIT_SECONDS:g}",
            field="timeout",
        )
    if until not in ("change", "turn"):
        raise RefusedError("bad_request", "until: 'change' or 'turn'", field="until")


class SeatAt:
    """A seat at a table, as its seat token opens it (``SeatService.seat``)."""

    def __init__(
        self,
        service: Service,
        seen: _Seen,
        table: Table,
        seat: int,
        player_id: str,
        *,
        left_game: int | None = None,
    ) -> None:
        self._service = service
        self._seen = seen
        self._table = table
        self.seat = seat
        self.player_id = player_id
        """The player whose token it is."""
        self.left_game = left_game
        """The id of the finished game the token only reads, its player having left the
        seat (``SeatService.seat``; ``None``: the player holds the seat): acting, starting
        and leaving are refused, and once another game is dealt, reading too."""

    def _same_game(self) -> None:
        """For a token that reads the game its player left: refused (``bad_token``) once the
        table has dealt another."""
        stored = self._table.current.stored
        if self.left_game is not None and (stored is None or stored.id != self.left_game):
            raise RefusedError(
                "bad_token",
                "you left this table, and the game you left is no longer its last",
                field="token",
            )

    def _seated(self, doing: str) -> None:
        if self.left_game is not None:
            raise RefusedError(
                "not_seated",
                f"{doing}: you left this table; your token reads the game you left, no more",
            )

    @property
    def code(self) -> str:
        """The table's code."""
        return self._table.code

    @property
    def rules(self) -> str:
        """The name of the table's rule set."""
        return self._table.rules_name

    @property
    def change(self) -> int:
        """The table's change counter now."""
        return self._table.audience.change

    @property
    def version(self) -> int:
        """The game's version now."""
        return self._table.current.version

    async def moment(self, *, last: int, history: bool = False) -> Moment:
        """What the seat sees now, with the game's ``last`` latest actions; read under the
        table's lock, as the WebSocket's resync (never an action mid-commit). Made once per
        change of the table, however many ask (but with the ``history``, which grows with the
        game: made for each asker)."""
        await self._ready_log(last)
        table, seat = self._table, self.seat
        async with table.lock:
            self._same_game()
            known = self._seen.setdefault(table, {})
            cached = known.get(seat)
            game = table.current
            now = (table.audience.change, game.version)
            if not history and cached is not None and (cached.change, cached.version) == now:
                return cached
            view = game.view(seat, history=False)
            moment = Moment(
                code=table.code,
                seat=seat,
                rules=table.rules_name,
                version=game.version,
                change=table.audience.change,
                info=table_info(table),
                view=view,
                result=game.result(),
                past=tuple(self._past(0, last)),
                history=game.view(seat, history=True) if history and view is not None else None,
            )
            if not history:
                known[seat] = moment
            return moment

    async def past(self, since: int, last: int) -> list[PastAction]:
        """The game's actions from version ``since`` on (the latest ``last`` at most)."""
        await self._ready_log(last)
        return self._past(since, last)

    async def act(self, action: str, version: int, dos: bool = False) -> None:
        """Plays ``action`` (notation), made on ``version``, for the seat, taking the seat
        back from its stand-in first. Refused exactly as the browser's ``action`` message."""
        self._seated("act")
        table = self._table
        table.stand_ins.back(self.seat)
        await table.submit(self.seat, action, version, dos=dos)

    async def leave(self) -> None:
        """The seat leaves (``dos.server.tables.seating.leave``): in the lobby the seat opens again;
        during a game the stand-in plays it until the seat acts again."""
        self._seated("leave")
        await seating.leave(self._table, self.seat)

    async def start(self) -> None:
        """The host starts the game (lobby), or deals a rematch (finished)."""
        self._seated("start")
        table = self._table
        if table.status == Status.FINISHED:
            await table.rematch(self.seat)
        else:
            await table.start(self.seat)

    async def wait(self, version: int, change: int | None, timeout: float, until: Until) -> None:
        """Waits until the table is not as it was seen (``version`` of the game, and
        ``change`` of the table if given) — for ``until="turn"``, until then the seat has a
        legal action or no game is going on — or ``timeout`` seconds (at most
        ``MAX_WAIT_SECONDS``) have passed. Woken by the table after every change. Refused as
        ``check_wait`` says."""
        check_wait(timeout, until)
        table, clock = self._table, self._service.clock
        deadline = clock.monotonic() + timeout
        with self._service.metrics.agent_waits.track_inprogress():
            while True:
                seen = table.audience.change
                moved = table.current.version != version or (change is not None and seen != change)
                if moved and (until == "change" or _has_something_to_do(table, self.seat)):
                    return
                left = deadline - clock.monotonic()
                if left <= 0:
                    return
                if moved:
                    change = seen  # a change that gives the seat nothing to do: the next
                    version = table.current.version
                await table.audience.changed(seen, left)

    async def record(self) -> tuple[int, int, str]:
        """The table's last game, once it is finished: its number at the table, its id, and
        its record (JSON Lines, docs/records.md). ``bad_state`` before."""
        table = self._table
        self._same_game()
        if table.current.stored is None:
            raise RefusedError("bad_state", "no game has been played at this table")
        number, game_id = table.current.stored.number, table.current.stored.id
        game = await self._service.db.read(load_game, game_id)
        if game is None or game.status != "finished":
            raise RefusedError(
                "bad_state",
                f"game {number} of table {table.code} is not finished: its record stays hidden",
            )
        text = await asyncio.to_thread(game.record().dumps)
        return number, game_id, text

    async def _ready_log(self, last: int) -> None:
        """Makes sure the log of the table's game holds its latest ``last`` entries: a game
        loaded mid-way (a restart) has its log replayed once, on a worker thread, as for a
        WebSocket's first ``log``; otherwise nothing to do."""
        log = self._table.current.log
        if log is not None and len(log.tail) < min(last, log.total):
            await log.page()

    def _past(self, since: int, last: int) -> list[PastAction]:
        table = self._table
        game, log = table.current.stored, table.current.log
        if game is None or last <= 0:
            return []
        stop = len(game.actions)
        start = max(since, stop - last, 0)
        entries: dict[int, Entry] = {}
        if log is not None and log.game is game:
            for entry in reversed(log.tail):
                if entry.index < start:
                    break
                if entry.index < stop:
                    entries[entry.index] = entry
        return [self._past_action(i, entries.get(i)) for i in range(start, stop)]

    def _past_action(self, index: int, entry: Entry | None) -> PastAction:
        """Action ``index`` of the game, from its log ``entry`` if kept: the cards it drew
        only for this seat's own draws."""
        game = self._table.current.stored
        assert game is not None
        seat = game.action_seats[index]
        if entry is None:
            return PastAction(index, seat, game.actions[index], None)
        drawn = entry.drawn if entry.drawn is not None and entry.seat == self.seat else ()
        return PastAction(index, seat, game.actions[index], _before(entry.public), drawn)


class SeatService:
    """The server's tables, for programs that play by seat token (see the module's text)."""

    def __init__(self, service: Service) -> None:
        self._service = service
        self._seen: _Seen = weakref.WeakKeyDictionary()

    @property
    def table_page(self) -> int:
        """The most tables one page of the lobby's list holds."""
        return self._service.limits.table_page

    async def tables(self, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many public tables are in the lobby or playing, and ``limit`` of them from
        ``offset``, newest first (``TableInfo``)."""
        return await self._service.public_tables(offset, limit)

    async def create(self, request: CreateTable, client: str) -> dict[str, Any]:
        """A new table, its host at seat 0 played by the program: the ``SeatGrant``; counted
        against ``client``'s ``create`` limit as every path to it is."""
        return await self._remote(await self._service.create(request, client))

    async def join(self, code: str, request: JoinTable, client: str) -> dict[str, Any]:
        """An open seat of a table in the lobby, played by the program: the ``SeatGrant``;
        counted against ``client``'s ``join`` limit."""
        return await self._remote(await self._service.join(code, request, client))

    async def _remote(self, grant: dict[str, Any]) -> dict[str, Any]:
        """Marks the granted seat as played from afar (``Seat.remote``: no connection to
        wait for)."""
        table = await self._service.table(grant["code"])
        if table is not None:
            table.seats[grant["seat"]].remote = True
        return grant

    async def seat(self, token: str) -> SeatAt:
        """The seat a seat token opens; ``RefusedError`` (``bad_token``, ``expired_token``,
        ``no_table``, ``banned``) as the WebSocket refuses the token (its ``hello``, or its
        address for ``no_table``). Counts as the seat's presence.

        A player who left keeps reading the game it left: while the table's last game is
        finished and the token's player played it in the token's seat (as stored, ``who
        sat where``), the token opens that seat to read it (``SeatAt.left_game``): the seat's view
        of that game, its result and record, and waits; nothing else, and nothing of a game
        dealt after it (then the token opens nothing)."""
        service = self._service
        try:
            claim = service.signer.read_seat(token)
        except TokenError as error:
            raise RefusedError(error.code, error.message, field="token") from None
        await refuse_banned(service.db, claim.player_id, service.clock.time())
        table = await service.table(claim.code)
        if table is None:
            raise RefusedError("no_table", f"there is no table {claim.code!r} (any more)")
        if not seating.opens(table, claim.seat, claim.player_id):
            game = await self._last_game_played(table, claim.seat, claim.player_id)
            if game is not None:
                seen = self._seen
                return SeatAt(service, seen, table, claim.seat, claim.player_id, left_game=game)
            raise RefusedError(
                "bad_token", "this token does not open a seat at this table", field="token"
            )
        if table.audience.idle_since is not None:
            table.audience.idle_since = service.clock.monotonic()  # a request of the seat: presence
        table.seats[claim.seat].remote = True  # no connection to wait for (Seat.remote)
        return SeatAt(service, self._seen, table, claim.seat, claim.player_id)

    async def _last_game_played(self, table: Table, seat: int, player_id: str) -> int | None:
        """The id of the table's last game if it is finished and ``player_id`` played
        ``seat`` in it (else ``None``)."""
        game = table.current.stored
        if table.status != Status.FINISHED or game is None or game.status != "finished":
            return None
        if not 0 <= seat < len(game.players):
            return None
        played = await self._service.db.read(_sat, game.id, seat) == player_id
        return game.id if played else None

    async def mark_agent(self, player_id: str) -> None:
        """Marks the player as an AI (``dos.ratings.store.mark_agent``): listed on the bots'
        leaderboard, apart from people (docs/ratings.md)."""
        await self._service.db.call(mark_agent, player_id)


def _sat(session: Session, game_id: int, seat: int) -> str | None:
    """The player who played ``seat`` in the stored game ``game_id`` (``None``: none)."""
    row = session.get(GamePlayerRow, (game_id, seat))
    return None if row is None else row.player_id


@functools.lru_cache(maxsize=512)
def _before(public: str | None) -> dict[str, Any] | None:
    """The public brief before an action, from its log entry's JSON (read once per entry)."""
    if public is None:
        return None
    before: dict[str, Any] = json.loads(public)["before"]
    return before


def _has_something_to_do(table: Table, seat: int) -> bool:
    if not table.playing():
        return True
    return bool(table.rules.legal_actions(table.current.state, seat))
