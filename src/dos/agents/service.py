"""What an agent may do at the server, as plain async functions over the server's ``Service``.

The HTTP agent API (``dos.agents.http``) and the MCP tools served by ``dos serve``
(``dos.agents.mcp_server``) are thin wrappers over ``Agents``; neither has game logic of its
own. The seat always comes from a verified seat token, checked as the WebSocket's ``hello``
checks it, and every action goes through ``Table.submit`` as the browser's does: the same
refusals (``stale``, ``notation``, ``illegal`` with the catalog's key, ``not_your_seat``,
``not_playing``), raised as the server's ``RefusedError``; a stale action's refusal also
tells the actions that moved the game since its version (``StaleError``).

What an agent is answered has one shape on both doors (``AgentView``, ``SeatGrant``,
``GameRecord``): the HTTP API sends it as JSON, the MCP tools as structured content.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import weakref
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from dos import ruleset
from dos.agents.text import LAST_ACTIONS, meaning, past, render
from dos.ratings.store import mark_agent
from dos.server.auth import TokenError
from dos.server.games import record_of
from dos.server.http_bodies import CreateTable, JoinTable
from dos.server.refusals import RefusedError
from dos.server.server_messages import TableInfo
from dos.server.service import Service
from dos.server.table_store import load_game
from dos.server.tables import Status, Table

log = logging.getLogger(__name__)

MARKED_KEPT = 100_000
"""How many players marked as AIs this process remembers (to write each mark once)."""

MAX_WAIT_SECONDS = 30.0
"""The longest one wait lasts (a long poll is answered by then)."""

Until = Literal["change", "turn"]
"""What a wait waits for: any change of the table, or a change after which the seat has
something to do (a legal action, or the game is over)."""

UNTIL: Until = "turn"
"""What a wait waits for unless told, on every path: the seat's turn (what an agent wants:
a change that gives it nothing to do, another seat's draw, does not end its wait)."""


# --- what an agent is answered (one shape on every path) ------------------------------------


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LegalAction(_Answer):
    """A legal action of the seat, in notation, and what it does in one English line."""

    action: str
    meaning: str


class PastAction(_Answer):
    """An action of the game: the version it was made on, its seat, its notation and what it
    did in one English line of public facts ("you" for the reader; a draw never says which
    card)."""

    version: int
    seat: int
    action: str
    words: str


class AgentJson(_Answer):
    """What a seat sees now: the table, the game's version, the table's change counter, the
    rule set's view of the seat (null before the first game), the result once over, the legal
    actions with their meanings, and the game's last actions (docs/agents.md)."""

    code: str
    seat: int
    version: int
    """The number of actions of the game so far: an action names the version it was made on."""
    change: int
    """Counts the table's changes; ``wait`` returns when it moves."""
    table: TableInfo
    view: dict[str, Any] | None
    result: dict[str, Any] | None
    legal: list[LegalAction]
    """The seat's legal actions now (``view.legal``), each with its meaning."""
    last_actions: list[PastAction]
    """The game's latest actions (at most 20), oldest first: what moved since a look."""


class AgentView(AgentJson):
    """``AgentJson`` and all of it as canonical text (``text``, docs/agents.md)."""

    text: str


class GameRecord(_Answer):
    """The record of a table's last game, named as the view names it: the table's ``code``,
    the ``game``'s number at the table (the view's ``game``), its ``game_id`` (the table's
    ``game_id``: ``GET /api/games/{game_id}``), and the ``record`` (JSON Lines,
    docs/records.md)."""

    code: str
    game: int
    game_id: int
    record: str


class StaleError(RefusedError):
    """``stale``, as the table refused it, with the actions that moved the game since the
    version the action was made on (``moved``: ``PastAction``, the latest 20 at most)."""

    def __init__(self, error: RefusedError, moved: list[dict[str, Any]]) -> None:
        super().__init__(error.code, error.message, error.reason, error.field, error.retry)
        self.moved = moved


@dataclass(slots=True)
class Seen:
    """What a seat sees at one change of its table (``data``, as ``AgentView``), and its JSON
    text, made once however many agents ask."""

    data: dict[str, Any]
    _json: str | None = field(default=None, repr=False)

    @property
    def json(self) -> str:
        """``data`` as JSON text (ASCII, compact)."""
        if self._json is None:
            self._json = json.dumps(self.data, ensure_ascii=True, separators=(",", ":"))
        return self._json


class Agents:
    """The operations of agents, over the server's tables."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._seen: weakref.WeakKeyDictionary[Table, dict[int, tuple[int, int, Seen]]] = (
            weakref.WeakKeyDictionary()
        )
        """Each table's latest answer per seat, by (change, version): long polls woken by
        one change share one view, text and JSON."""
        self._marked: set[str] = set()
        """The players marked as AIs by this process (``mark``)."""

    # --- tables -------------------------------------------------------------------------------

    async def tables(self, offset: int, limit: int) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first (``GET /api/tables``)."""
        total, tables = await self.service.public_tables(offset, limit)
        return {"tables": tables, "total": total, "offset": offset, "limit": limit}

    async def create(self, request: CreateTable, client: str) -> dict[str, Any]:
        """A new table with the agent as its host at seat 0: the ``SeatGrant``; counted
        against the ``client``'s ``create`` limit as every path to it is. The agent's player
        is marked an AI (``mark``)."""
        grant = await self._remote(await self.service.create(request, client))
        await self.mark(grant["player_id"])
        return grant

    async def join(self, code: str, request: JoinTable, client: str) -> dict[str, Any]:
        """Takes an open seat of a table in the lobby: the ``SeatGrant``; counted against
        the ``client``'s ``join`` limit. The agent's player is marked an AI (``mark``)."""
        grant = await self._remote(await self.service.join(code, request, client))
        await self.mark(grant["player_id"])
        return grant

    async def mark(self, player_id: str | None) -> None:
        """Marks the player as an AI, once (``dos.ratings.store.mark_agent``): whoever plays
        through the agent API or MCP is listed on the bots' leaderboard, apart from people
        (docs/ratings.md). A mark that cannot be stored is logged: play goes on."""
        if player_id is None or player_id in self._marked:
            return
        try:
            await self.service.db.call(mark_agent, player_id)
        except Exception:
            log.exception("could not mark player %s as an AI", player_id)
            return
        if len(self._marked) >= MARKED_KEPT:
            self._marked.clear()
        self._marked.add(player_id)

    async def _remote(self, grant: dict[str, Any]) -> dict[str, Any]:
        """Marks the granted seat as an agent's (``Seat.remote``)."""
        table = await self.service.table(grant["code"])
        if table is not None:
            table.seats[grant["seat"]].remote = True
        return grant

    # --- a seat -------------------------------------------------------------------------------

    async def seat(self, token: str) -> tuple[Table, int]:
        """The table and seat a seat token opens; raises ``RefusedError`` (``bad_token``,
        ``expired_token``, ``no_table``) as the WebSocket refuses the token (its ``hello``,
        or its address for ``no_table``)."""
        try:
            claim = self.service.signer.read_seat(token)
        except TokenError as error:
            raise RefusedError(error.code, error.message, field="token") from None
        table = await self.service.table(claim.code)
        if table is None:
            raise RefusedError("no_table", f"there is no table {claim.code!r} (any more)")
        if not table.opens(claim.seat, claim.player_id):
            raise RefusedError(
                "bad_token", "this token does not open a seat at this table", field="token"
            )
        if table.idle_since is not None:
            table.idle_since = self.service.clock.monotonic()  # an agent's request: presence
        table.seats[claim.seat].remote = True  # no connection to wait for (Seat.remote)
        return table, claim.seat

    async def look(self, token: str, history: bool = False) -> Seen:
        """The seat's view now: the table, version, change, view (JSON), result, the legal
        actions with their meanings, and the canonical text; with ``history``, the view
        holds the game's history too (every action, as the WebSocket's ``state`` has it: what
        a bot's ``SeatView`` is rebuilt from, ``dos.agents.seat_view``)."""
        table, seat = await self.seat(token)
        return await self._look(table, seat, history)

    async def _look(self, table: Table, seat: int, history: bool = False) -> Seen:
        await _ready_log(table)
        # Under the table's lock, as the WebSocket's resync: never an action mid-commit.
        async with table.lock:
            if history:  # the whole history grows with the game: made for each asker
                return Seen(self._view(table, seat, history=True))
            known = self._seen.setdefault(table, {})
            cached = known.get(seat)
            if cached is not None and cached[:2] == (table.change, table.version):
                return cached[2]
            seen = Seen(self._view(table, seat))
            known[seat] = (table.change, table.version, seen)
            return seen

    def _view(self, table: Table, seat: int, history: bool = False) -> dict[str, Any]:
        info = table.info()
        view = table.view(seat, history=False)
        result = _result(table)
        last = _past(table, seat, 0)
        text = render(
            info,
            seat,
            version=table.version,
            change=table.change,
            view=view,
            result=result,
            last=last,
        )
        if history and view is not None:
            view = table.view(seat, history=True)
        return {
            "code": table.code,
            "seat": seat,
            "version": table.version,
            "change": table.change,
            "table": info,
            "view": view,
            "result": result,
            "legal": _meanings(table.rules_name, view),
            "last_actions": last,
            "text": text,
        }

    async def act(self, token: str, action: str, version: int, dos: bool = False) -> Seen:
        """Plays ``action`` (notation) for the token's seat, made on ``version``; returns the
        seat's view after it. Refused exactly as the browser's ``action`` message; a stale
        action as ``StaleError``, which tells what moved the game since ``version`` (a lost
        DOS race: who caught the seat, or called first). An agent that left its seat to the
        stand-in takes it back by acting."""
        table, seat = await self.seat(token)
        await self.mark(table.seats[seat].player_id)
        table.back(seat)
        try:
            await table.submit(seat, action, version, dos=dos)
        except RefusedError as error:
            if error.code != "stale" or not 0 <= version < table.version:
                raise
            await _ready_log(table)
            raise StaleError(error, _past(table, seat, version)) from None
        return await self._look(table, seat)

    async def leave(self, token: str) -> Seen:
        """The seat leaves its table (``Table.leave``): in the lobby the seat opens again;
        during a game the stand-in plays it until the agent acts again."""
        table, seat = await self.seat(token)
        await table.leave(seat)
        return await self._look(table, seat)

    async def start(self, token: str) -> Seen:
        """The host starts the game (lobby), or deals a rematch (finished)."""
        table, seat = await self.seat(token)
        await self.mark(table.seats[seat].player_id)
        if table.status == Status.FINISHED:
            await table.rematch(seat)
        else:
            await table.start(seat)
        return await self._look(table, seat)

    async def wait(
        self,
        token: str,
        version: int,
        change: int | None,
        timeout: float,
        until: Until,
        *,
        history: bool = False,
    ) -> Seen:
        """Waits until the table is not as the agent saw it (``version`` of the game, and
        ``change`` of the table if given) — for ``until="turn"``, until then the seat has a
        legal action or no game is going on — or ``timeout`` seconds (at most 30) have
        passed; returns the seat's view (with the game's history if ``history``, as
        ``look``). Woken by the table itself after every change: no polling. A ``timeout``
        that is not a number of seconds from 0 to 30 is refused, on every path."""
        if not (math.isfinite(timeout) and 0 <= timeout <= MAX_WAIT_SECONDS):
            raise RefusedError(
                "bad_request",
                f"timeout: a number of seconds from 0 to {MAX_WAIT_SECONDS:g}",
                field="timeout",
            )
        if until not in ("change", "turn"):
            raise RefusedError("bad_request", "until: 'change' or 'turn'", field="until")
        table, seat = await self.seat(token)
        clock = self.service.clock
        deadline = clock.monotonic() + timeout
        with self.service.metrics.agent_waits.track_inprogress():
            while True:
                seen = table.change
                moved = table.version != version or (change is not None and seen != change)
                if moved and (until == "change" or _has_something_to_do(table, seat)):
                    break
                left = deadline - clock.monotonic()
                if left <= 0:
                    break
                if moved:
                    change = seen  # a change that gives the seat nothing to do: the next
                    version = table.version
                await table.changed(seen, left)
        return await self._look(table, seat, history)

    async def record(self, token: str) -> dict[str, Any]:
        """The record (JSON Lines, ``docs/records.md``) of the table's last game, once it
        is finished, named as the view names it (``GameRecord``: the game's number at the
        table, and its id)."""
        table, _seat = await self.seat(token)
        if table.game is None:
            raise RefusedError("bad_state", "no game has been played at this table")
        number, game_id = table.game.number, table.game.id
        game = await self.service.db.read(load_game, game_id)
        if game is None or game.status != "finished":
            raise RefusedError(
                "bad_state",
                f"game {number} of table {table.code} is not finished: its record stays hidden",
            )
        text = await asyncio.to_thread(record_of(game).dumps)
        return {"code": table.code, "game": number, "game_id": game_id, "record": text}


def _meanings(rules: str, view: dict[str, Any] | None) -> list[dict[str, str]]:
    """The legal actions of a view, each with its one-line meaning."""
    if view is None:
        return []
    return [{"action": a, "meaning": meaning(rules, view, a)} for a in view["legal"]]


async def _ready_log(table: Table) -> None:
    """Makes sure the log of the table's game holds its latest ``LAST_ACTIONS`` entries: a
    game loaded mid-way (a restart) has its log replayed once, on a worker thread, as for a
    WebSocket's first ``log``; otherwise nothing to do."""
    log = table.log
    if log is not None and len(log.tail) < min(LAST_ACTIONS, log.total):
        await log.page()


def _past(table: Table, viewer: int, start: int) -> list[dict[str, Any]]:
    """The game's actions from version ``start`` on (the latest ``LAST_ACTIONS`` at most),
    each as ``PastAction`` for ``viewer``: in words from the public brief before it that the
    table's log keeps (``dos.server.history``), never a hand."""
    game, log = table.game, table.log
    if game is None:
        return []
    stop = len(game.actions)
    start = max(start, stop - LAST_ACTIONS, 0)
    briefs: dict[int, str] = {}
    if log is not None and log.game is game:
        for entry in reversed(log.tail):
            if entry.index < start:
                break
            if entry.index < stop:
                briefs[entry.index] = entry.public
    rules = table.rules_name
    return [
        past(rules, i, game.action_seats[i], game.actions[i], viewer, before=_before(briefs.get(i)))
        for i in range(start, stop)
    ]


@functools.lru_cache(maxsize=512)
def _before(public: str | None) -> dict[str, Any] | None:
    """The public brief before an action, from its log entry's JSON (read once per entry)."""
    if public is None:
        return None
    before: dict[str, Any] = json.loads(public)["before"]
    return before


def _result(table: Table) -> dict[str, Any] | None:
    """The game's result once it is over (as the ``state`` message gives it), else ``None``."""
    if table.state is None or not table.rules.is_over(table.state):
        return None
    result: dict[str, Any] = table.rules.result(table.state)
    return result


def _has_something_to_do(table: Table, seat: int) -> bool:
    if not table.playing():
        return True
    return bool(table.rules.legal_actions(table.state, seat))


def rules_text(name: str) -> str:
    """The rules of the rule set ``name`` in short, for agents (``rules_<name>.md``)."""
    known = [n for n in ruleset.names() if _rules_file(n).is_file()]
    if name not in known:
        raise RefusedError(
            "bad_request",
            f"rules: unknown rule set {name!r} (known: {', '.join(known)})",
            field="rules",
        )
    return _rules_file(name).read_text(encoding="utf-8")


def _rules_file(name: str) -> Traversable:
    """The agents' short rules of the rule set ``name`` (present or not)."""
    return resources.files(__package__).joinpath(f"rules_{name}.md")
