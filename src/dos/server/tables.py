"""A table: seats, connections, the game being played, and its life cycle.

The life cycle is an explicit state machine (``Status``, ``TRANSITIONS``): ``lobby`` ->
``playing`` (the host starts) -> ``finished`` (the game ends) -> ``playing`` (rematch). Any other
move raises ``RefusedError("bad_state")``.

A table is the only authority over its game. ``submit`` takes an action in notation from a
seat with the version it saw; a stale, unreadable or illegal action is refused with the
engine's reason and changes nothing; an accepted one is committed to the database, then sent
to every connection, each with its own seat's view. A lock serializes the changes of one
table, so the first call or catch accepted wins the DOS race and the next one is stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dos import ruleset
from dos.errors import DosError, IllegalActionError
from dos.i18n.explain import Words, error_reason
from dos.ruleset import RuleSet
from dos.server import seating
from dos.server.bots import STAND_IN, BotDriver
from dos.server.chat import ChatRoom
from dos.server.connections import Client
from dos.server.hints import hints_open
from dos.server.history import GameLog
from dos.server.messages import PROTOCOL_VERSION, server_message
from dos.server.metrics import Metrics
from dos.server.pause import RoundPause
from dos.server.reaction import Referee, reaction_limit
from dos.server.seat_claims import foreign_seat
from dos.server.storage import (
    Database,
    NewAction,
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    load_game,
    save_seat,
)
from dos.server.timers import Deadline
from dos.server.views import Views, head

log = logging.getLogger(__name__)


class Status(StrEnum):
    """Where a table is in its life cycle."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


TRANSITIONS: dict[Status, frozenset[Status]] = {
    Status.LOBBY: frozenset({Status.PLAYING}),
    Status.PLAYING: frozenset({Status.FINISHED}),
    Status.FINISHED: frozenset({Status.PLAYING}),
}
"""The moves the life cycle allows."""


class RefusedError(Exception):
    """A request the table refuses; nothing changed. ``code`` as in ``docs/protocol.md``."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: Words | None = None,
        field: str | None = None,
        retry: int | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry = retry
        """For ``rate_limited``: whole seconds until the client may ask again."""
        self.reason = reason
        """For ``illegal``: why, as a catalog key and its placeholders (``dos.i18n.explain``)."""
        self.field = field
        """The request field at fault, if one is (``seats.2``, ``options``)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server runs tables."""

    bot_delay: float = 1.0
    """Scale of the bots' delays: 1 human-like, 0 instant."""
    grace_seconds: float = 10.0
    """After a turn timer runs out, or a player's connection closes during a game: the wait
    before a stand-in bot plays for them (longer than a reload)."""
    pause_seconds: float = 30.0
    """The longest pause between two rounds for the players to read the summary (0: none)."""
    clock: Callable[[], float] = time.monotonic
    """The clock of the classic reaction test (``dos.server.reaction``): seconds, increasing.
    Tests give a ``FakeClock``."""
    metrics: Metrics = field(default_factory=Metrics, compare=False, repr=False)
    """Where the tables and their bots report their figures (``dos.server.metrics``): one
    registry per ``Settings``, so one per server unless servers share their settings."""


@dataclass(slots=True)
class Seat:
    """One seat: open, a guest, or a bot; and the guest's connection."""

    index: int
    name: str | None = None
    bot: str | None = None
    player_id: str | None = None
    away: bool = False
    client: Client | None = None
    left: bool = False
    """The player left during the game: the seat opens when it ends (``dos.server.seating``)."""
    remote: bool = False
    """The player plays over the agent API, where presence is a request, not a connection:
    no grace runs for their closed connection (they have none). In memory: after a restart an
    agent's first action takes its seat back from the stand-in."""
    leave_timer: Deadline = field(default_factory=Deadline)

    @property
    def open(self) -> bool:
        """Nobody sits here."""
        return self.name is None and self.bot is None

    def stored(self) -> StoredSeat:
        """The seat as stored."""
        return StoredSeat(self.index, self.name, self.bot, self.player_id)

    def display(self) -> str:
        """The seat's name for records: the guest's name or the bot's level."""
        return self.name if self.name is not None else f"{self.bot} bot"

    def info(self) -> dict[str, Any]:
        """The seat as ``SeatInfo``."""
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot is not None or self.client is not None,
            "away": self.away,
        }


def replay_game(rules: RuleSet[Any, Any], game: StoredGame) -> Any:
    """The game's state from its seed and actions (the engine is deterministic). Pure: the
    server runs it on a worker thread, never on the event loop."""
    state = rules.new_game(game.options, game.seed)
    for text in game.actions:
        rules.apply(state, rules.parse_action(text))
    return state


class Table:
    """One table, in memory, backed by the database."""

    @classmethod
    async def load(cls, stored: StoredTable, db: Database, settings: Settings) -> Table:
        """A stored table, its game rebuilt on a worker thread."""
        state = None
        if stored.game is not None and stored.status != Status.LOBBY.value:
            state = await asyncio.to_thread(replay_game, ruleset.get(stored.rules), stored.game)
        table = cls(stored, db, settings, state)
        if table.status == Status.PLAYING:
            # Back after a restart: whoever does not come back within the grace is stood in for.
            for place in table.seats:
                if seating.person(place):
                    table.await_return(place.index)
        return table

    def __init__(
        self, stored: StoredTable, db: Database, settings: Settings, state: Any = None
    ) -> None:
        self.code = stored.code
        self.rules_name = stored.rules
        self.entry = ruleset.entry(stored.rules)
        """The rule set's registry entry: its capabilities (a DOS race, a reaction test)."""
        self.rules: RuleSet[Any, Any] = self.entry.rules()
        self.options = dict(stored.options)
        self.public = stored.public
        self.rated = stored.rated
        self.status = Status(stored.status)
        self.host = stored.host
        self.turn_seconds = stored.turn_seconds
        self.created_at = stored.created_at
        self.games = stored.games
        self.seats = [Seat(s.seat, s.name, s.bot, s.player_id) for s in stored.seats]
        self.spectators: set[Client] = set()
        self.db = db
        self.settings = settings
        self.lock = asyncio.Lock()
        self.state: Any = None
        self.version = 0
        self.game: StoredGame | None = None
        self.finish_pending = False
        self.turn_timer = Deadline()
        self._timer_seat: int | None = None
        self._timer_phase: str | None = None
        self._timer_key: tuple[int, int] | None = None
        self.referee = Referee(settings.clock, self.entry.reaction)
        self.reaction_timer = Deadline()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bots = BotDriver(self, settings.bot_delay, 0, settings.metrics)
        self.idle_since: float | None = time.monotonic()
        """Since when nobody has been connected (``None``: somebody is)."""
        self._views: tuple[int, Views] | None = None
        self.change = 0
        """Counts the changes of the table (actions, seats, status) since it was loaded."""
        self._changed = asyncio.Event()
        self.pause = RoundPause()
        self.chat = ChatRoom(stored.code, db, stored.chat)
        self.hints_allowed = False
        """The host allowed hints (``dos.server.hints``; in memory, as the chat's rules)."""
        self.log: GameLog | None = None
        """The current game's log (``dos.server.history``), kept as it is played."""
        if stored.game is not None and self.status != Status.LOBBY:
            if state is None:
                state = replay_game(self.rules, stored.game)
            self._install(stored.game, state)

    # --- the game ---------------------------------------------------------------------------

    def _install(self, game: StoredGame, state: Any) -> None:
        """Takes ``state``, rebuilt from ``game``'s seed and actions, as the current game."""
        self.state = state
        self.version = len(game.actions)
        self.game = game
        self.log = GameLog(self.rules, game, state)
        self.bots.reset(game.seed)
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        if self.status == Status.PLAYING and self.rules.is_over(self.state):
            # The last action was committed but not the game's end: finish it now.
            self.status = Status.FINISHED
            self.finish_pending = True

    def opens(self, seat: int, player_id: str) -> bool:
        """Whether a seat token's claim (``seat``, ``player_id``) opens a seat of this table."""
        return 0 <= seat < len(self.seats) and self.seats[seat].player_id == player_id

    def playing(self) -> bool:
        """Whether a game is being played (not while it pauses between rounds)."""
        return self.status == Status.PLAYING and self.state is not None and not self.pause.active

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot playing ``seat`` now: its own, or the stand-in's."""
        place = self.seats[seat]
        if place.bot is not None:
            return place.bot
        return STAND_IN if place.away else None

    # --- what clients see -------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The table as ``TableInfo``."""
        return {
            "code": self.code,
            "rules": self.rules_name,
            "options": self.options,
            "public": self.public,
            "rated": self.rated,
            "status": self.status.value,
            "host": self.host,
            "turn_seconds": self.turn_seconds,
            "game": self.games,
            "game_id": None if self.game is None else self.game.id,
            "seats": [s.info() for s in self.seats],
            "spectators": len(self.spectators),
            "hints": hints_open(self),
        }

    def view(self, seat: int | None, history: bool = True) -> dict[str, Any] | None:
        """The view of ``seat`` (``None``: a spectator's), or ``None`` before the first game."""
        if self.state is None:
            return None
        return Views(self.rules, self.state, history).data(seat)

    def timer(self) -> dict[str, Any] | None:
        """The running turn timer, if any."""
        if self._timer_seat is None or not self.turn_timer.running:
            return None
        return {
            "seat": self._timer_seat,
            "seconds": round(self.turn_timer.remaining(), 3),
            "phase": self._timer_phase,
        }

    def _result(self) -> dict[str, Any] | None:
        if self.state is None or not self.rules.is_over(self.state):
            return None
        result: dict[str, Any] = self.rules.result(self.state)
        return result

    def state_message(self, seat: int | None) -> str:
        """A full ``state`` message for ``seat``."""
        fields: dict[str, Any] = {
            "version": self.version,
            "table": self.info(),
            "result": self._result(),
            "timer": self.timer(),
        }
        if self.state is None:
            return server_message("state", view=None, **fields)
        return self._full_views().message("state", seat, **fields)

    def _full_views(self) -> Views:
        """The views with history of the current version, built once for every resync."""
        if (
            self._views is None
            or self._views[0] != self.version
            or self._views[1].state is not self.state
        ):
            self._views = (self.version, Views(self.rules, self.state, history=True))
        return self._views[1]

    async def _send_first_log(self, client: Client) -> None:
        try:
            await self.send_log(client)
        except Exception:  # a bug must not go unseen, nor end the table
            log.exception("table %s: the log could not be sent", self.code)

    async def send_log(self, client: Client, before: int | None = None) -> None:
        """Sends ``client`` a page of the current game's log (``dos.server.history``): the
        latest, or the one before the entry ``before``. Never a replay on the event loop."""
        log = self.log
        if log is None:
            return
        text = await log.message(client.seat, before)
        if log is self.log:  # not a new game meanwhile
            client.send(text)

    def clients(self) -> list[Client]:
        """Every connection at the table."""
        return self.seated() + list(self.spectators)

    def broadcast_table(self, spectators: bool = True) -> None:
        """Sends the table's info to everyone (to the seated players only when only the
        spectators changed: spectators learn their count with the next change, so N
        spectators coming one by one cost O(N) messages, not O(N²))."""
        text = server_message("table", table=self.info())
        for client in self.clients() if spectators else self.seated():
            client.send(text)
        self._signal_change()

    def _signal_change(self) -> None:
        """Wakes whoever waits for a change (``changed``): agents' long polls."""
        self.change += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self, change: int, timeout: float) -> None:
        """Returns once ``self.change`` is not ``change``, or after ``timeout`` seconds."""
        if self.change == change:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)

    def seated(self) -> list[Client]:
        """The connections of seated players."""
        return [s.client for s in self.seats if s.client is not None]

    def broadcast_state(self) -> None:
        """Sends everyone a full ``state``."""
        for seat in self.seats:
            if seat.client is not None:
                seat.client.send(self.state_message(seat.index))
        if self.spectators:
            text = self.state_message(None)
            for client in self.spectators:
                client.send(text)

    def _broadcast_update(
        self, actor: int, action: str, client_id: str | None, by_bot: bool
    ) -> None:
        views = Views(self.rules, self.state)
        fields: dict[str, Any] = {
            "version": self.version,
            "action": action,
            "seat": actor,
            "result": self._result(),
            "by_bot": by_bot,
        }
        common = head("update", id=None, **fields)
        for seat in self.seats:
            if seat.client is not None:
                if seat.index == actor and client_id is not None:
                    prefix = head("update", id=client_id, **fields)
                else:
                    prefix = common
                seat.client.send(views.with_head(prefix, seat.index))
        if self.spectators:
            text = views.with_head(common, None)
            for spectator in self.spectators:
                spectator.send(text)

    # --- the life cycle ---------------------------------------------------------------------

    def _move(self, new: Status) -> None:
        if new not in TRANSITIONS[self.status]:
            raise RefusedError("bad_state", f"the table is {self.status.value}: it cannot be {new}")

    async def join(self, name: str, player_id: str, wanted: int | None) -> int:
        """Seats a guest; returns the seat. The same player joining again gets their seat."""
        async with self.lock:
            for seat in self.seats:
                if seat.player_id == player_id and seat.bot is None:
                    return seat.index
            if self.status == Status.PLAYING:
                # Its own code: a client offers to watch the game instead (docs/protocol.md).
                raise RefusedError(
                    "started", "the game has started: watch it, or wait for a new table"
                )
            if wanted is not None:
                if not 0 <= wanted < len(self.seats):
                    raise RefusedError("bad_seat", f"there is no seat {wanted}")
                if not self.seats[wanted].open:
                    raise RefusedError("no_seat", f"seat {wanted} is taken")
                place = self.seats[wanted]
            else:
                free = [s for s in self.seats if s.open]
                if not free:
                    raise RefusedError("no_seat", "every seat is taken")
                place = free[0]
            stored = StoredSeat(place.index, name, None, player_id)
            await self.db.call(save_seat, self.code, stored)
            place.name, place.player_id = name, player_id
            await seating.seat_newcomer(self, place.index)
        self.broadcast_table()
        return place.index

    async def start(self, seat: int | None) -> None:
        """The host starts the game; open seats get bots."""
        await self._deal(seat, Status.LOBBY)

    async def rematch(self, seat: int | None) -> None:
        """The host deals a new game with the same seats."""
        await self._deal(seat, Status.FINISHED)

    async def _deal(self, by: int | None, expected: Status) -> None:
        async with self.lock:
            if by is None:
                raise RefusedError("not_seated", "spectators cannot start games")
            if by != self.host:
                raise RefusedError("not_host", "only the host (seat 0) can start the game")
            if self.status != expected:
                what = "a start" if expected == Status.LOBBY else "a rematch"
                raise RefusedError(
                    "bad_state",
                    f"the table is {self.status.value}: {what} needs it {expected.value}",
                )
            self._move(Status.PLAYING)
            seats = [s.stored() for s in self.seats]
            for seat in seats:
                if seat.name is None and seat.bot is None:
                    seat.bot = STAND_IN
            if any(s.bot is not None for s in seats) and self.bots.support is None:
                raise RefusedError(
                    "bad_state", f"bots cannot play {self.rules_name}: fill every seat"
                )
            seed = secrets.randbits(62)
            options = {**self.options, "players": len(self.seats)}
            state = self.rules.new_game(options, seed)
            names = [s.name if s.name is not None else f"{s.bot} bot" for s in seats]
            game = StoredGame(
                id=0,
                number=self.games + 1,
                rules=self.rules_name,
                options=self.rules.options_json(state),
                seed=seed,
                players=names,
                status="playing",
                result=None,
            )
            game.id = await self.db.call(insert_game, self.code, game, seats)
            for place, seat in zip(self.seats, seats, strict=True):
                place.bot = seat.bot
                place.away = False
            seating.deal_in(self)
            self.status = Status.PLAYING
            self.games = game.number
            self.game = game
            self.state = state
            self.log = GameLog(self.rules, game, state)
            self.version = 0
            self.bots.reset(seed)
            self.pause.cancel()
            self._timer_key = None
            self.broadcast_state()
        self.after_change()

    async def finish_if_pending(self) -> None:
        """Stores the end of a game whose last action was committed before a crash."""
        if self.finish_pending and self.game is not None:
            result = self.rules.result(self.state)
            await self.db.call(finish_game, self.code, self.game.id, result)
            self.game.status, self.game.result = "finished", result
            self.finish_pending = False

    # --- actions ----------------------------------------------------------------------------

    async def submit(
        self,
        seat: int,
        text: str,
        version: int,
        client_id: str | None = None,
        *,
        by_bot: bool = False,
        dos: bool = False,
    ) -> None:
        """Plays ``text`` for ``seat`` if it is legal on ``version``; raises ``RefusedError``.

        ``dos``: call "DOS!" with the move. If the move leaves ``seat`` with an open DOS
        obligation, its call is applied and committed right after it, before the lock is
        released: no catch can come between (two updates, in order, both with ``client_id``).
        A move that leaves no obligation open ignores it; a rule set without a DOS race
        (classic) refuses it as ``bad_message``, and nothing is played."""
        if dos and not self.entry.dos_race:  # a DOS race (RULES.md §6): DOS with the move
            raise RefusedError(
                "bad_message", f"dos: the {self.rules_name} rules have no DOS race to call"
            )
        received = time.perf_counter()  # dos_action_seconds counts the wait for the lock
        async with self.lock:
            await self._submit(seat, text, version, client_id, by_bot, received=received)
            if dos and self._owes_dos(seat):
                await self._submit(seat, "dos", self.version, client_id, by_bot, received=received)
        self.after_change()

    def _owes_dos(self, seat: int) -> bool:
        """Whether ``seat`` has an open DOS obligation in the game being played."""
        support = self.bots.support
        return self.playing() and support is not None and seat in support.obligations(self.state)

    async def submit_bot(self, seat: int, text: str, version: int) -> bool:
        """A bot's action; whether it was accepted."""
        try:
            await self.submit(seat, text, version, by_bot=True)
        except RefusedError:
            return False
        return True

    async def _submit(
        self,
        seat: int,
        text: str,
        version: int,
        client_id: str | None,
        by_bot: bool,
        *,
        received: float | None = None,
    ) -> None:
        received = time.perf_counter() if received is None else received
        if self.pause.active:
            raise RefusedError("paused", "the table waits for everyone to read the round summary")
        if not self.playing() or self.game is None:
            raise RefusedError("not_playing", f"the table is {self.status.value}: no game to play")
        if version != self.version:
            raise RefusedError(
                "stale",
                f"the game is at version {self.version}, the action was made on version "
                f"{version}: look again",
            )
        if foreign_seat(text, seat) is not None:  # every prefix, before the notation
            raise RefusedError(
                "not_your_seat", f"you play seat {seat}: {text.strip()!r} is another seat's action"
            )
        try:
            parsed = self.rules.parse_action(text)
        except DosError as error:
            raise RefusedError("notation", str(error)) from None
        # The seat comes from the connection alone: one parse by the engine, then any seat the
        # text names must be the connection's own (RULES §6's "N: " prefix is for tools).
        action = self.rules.by_seat(self.state, parsed, seat)
        if action is None:
            raise RefusedError(
                "not_your_seat", f"you play seat {seat}: {text.strip()!r} is another seat's action"
            )
        if not by_bot and self._watch_reaction():
            action = self.referee.judge(action)  # the server's clock, not the client's word
        rounds_before = self.rules.rounds_played(self.state)
        # Applied to a copy, committed, then taken: a refused or failed action leaves the
        # game as it was, with no replay.
        state = self.rules.copy(self.state)
        try:
            self.rules.apply(state, action)
        except IllegalActionError as error:
            # The engine's refusal says which it is: the message and its words agree.
            reason = error_reason(self.entry, error, action)
            raise RefusedError("illegal", str(error), reason) from None
        except DosError as error:
            raise RefusedError("notation", str(error)) from None
        canonical = str(action)
        rounds = self.rules.rounds_played(state)
        game = self.game
        index = self.version
        assert self.log is not None
        self.log.before_action(self.state, canonical, seat)
        try:
            await self.db.append(NewAction(game.id, index, canonical, seat, by_bot))
        except Exception:
            log.exception("table %s: could not commit action %d", self.code, index)
            await self._reload()
            raise RefusedError(
                "storage", "the database refused the action; nothing changed"
            ) from None
        metrics = self.settings.metrics
        metrics.action_done(by_bot, "committed", time.perf_counter() - received)
        self.state = state
        self.version += 1
        self.log.after_action(state)
        game.actions.append(canonical)
        game.action_seats.append(seat)
        game.by_bot.append(by_bot)
        over = self.rules.is_over(self.state)
        if over:
            self.status = Status.FINISHED
            self.finish_pending = True
        self._broadcast_update(seat, canonical, client_id, by_bot)
        metrics.action_done(by_bot, "sent", time.perf_counter() - received)
        if not over and rounds > rounds_before:
            self._pause_for_summary(rounds)
        if over:
            try:
                await self.finish_if_pending()
                await seating.after_game(self)
            except Exception:
                log.exception("table %s: could not store the game's end", self.code)
            self.broadcast_table()

    async def _reload(self) -> None:
        """After a failed commit, takes the game as the database has it (a commit can fail
        after it was written), rebuilt on a worker thread, and resyncs everyone."""
        assert self.game is not None
        with contextlib.suppress(Exception):
            stored = await self.db.call(load_game, self.game.id)
            if stored is not None and len(stored.actions) != self.version:
                self._install(stored, await asyncio.to_thread(replay_game, self.rules, stored))
        self.broadcast_state()

    # --- connections ------------------------------------------------------------------------

    async def attach(self, client: Client, seat: int | None) -> None:
        """Connects a client to its seat (replacing an older connection) or as a spectator,
        and sends ``welcome``, a full ``state``, and the chat's rules and lines kept (in the
        same step as it joins the table: each chat line reaches it exactly once)."""
        async with self.lock:
            if seat is None:
                self.spectators.add(client)
            else:
                place = self.seats[seat]
                old = place.client
                if old is not None and old is not client:
                    old.close(4000, "replaced by a newer connection of this seat")
                place.client = client
                place.leave_timer.cancel()
                place.left = False
                if place.away:
                    place.away = False
                    self._timer_key = None
            client.seat = seat
            client.send(
                server_message(
                    "welcome", protocol=PROTOCOL_VERSION, seat=seat, player_id=client.player_id
                )
            )
            client.send(self.state_message(seat))
            if self.pause.active:
                client.send(server_message("pause", **self.pause.message()))
            client.send(self.chat.rules_message())
            client.send(self.chat.history_message())
            self.idle_since = None
        self.broadcast_table(spectators=seat is not None)
        self.after_change()
        # The log may need a replay (a table loaded mid-game): it follows in its own task,
        # and the connection's messages are read meanwhile.
        self._spawn(self._send_first_log(client))

    def detach(self, client: Client) -> None:
        """Forgets a closed connection; a seated player's stand-in comes after the grace
        (``Settings.grace_seconds``), in every game, until they come back; a host's role
        passes on after it (``dos.server.seating``)."""
        watcher = client in self.spectators
        if watcher:
            self.spectators.discard(client)
        elif client.seat is not None and self.seats[client.seat].client is client:
            place = self.seats[client.seat]
            place.client = None
            if self.pause.active:
                self.proceed(place.index)  # not waited for any more
            # In every game, timed or not: a leaver must not freeze the table, nor keep a
            # losing game from its end (and its rating); nor a gone host the next game.
            self.await_return(place.index)
        else:
            return
        if not self.clients():
            self.idle_since = time.monotonic()
        self.broadcast_table(spectators=not watcher)

    def idle_for(self, now: float) -> float:
        """Seconds nobody has been connected (0 while somebody is)."""
        return 0.0 if self.idle_since is None else now - self.idle_since

    async def leave(self, seat: int) -> None:
        """A player leaves the table (``dos.server.seating``): between games their seat opens
        at once (the host's too: the role passes on); during a game the stand-in plays it
        from now on, until they come back (``back``, or a new connection) or the game ends."""
        await seating.leave(self, seat)

    def back(self, seat: int) -> None:
        """A player takes their seat back from the stand-in bot."""
        place = self.seats[seat]
        place.left = False
        if place.away:
            place.away = False
            self._timer_key = None
            self.broadcast_table()
            self.after_change()

    def await_return(self, seat: int) -> None:
        """``seat``'s player is not connected: past the grace, the stand-in plays for them
        during a game, and a host's role passes on."""
        place = self.seats[seat]
        if seating.person(place) and place.client is None and not place.remote:
            place.leave_timer.start(self.settings.grace_seconds, lambda: self._gone(seat))

    def _gone(self, seat: int) -> None:
        place = self.seats[seat]
        if place.client is not None or place.remote:
            return
        self.stand_in(seat)
        if seat == self.host:
            self._spawn(seating.pass_host(self))

    def stand_in(self, seat: int) -> None:
        """The stand-in bot plays ``seat`` from now on (during a game; also while the round
        summary pauses it), until its player comes back."""
        place = self.seats[seat]
        if place.bot is None and not place.away and self.status == Status.PLAYING:
            place.away = True
            self._timer_key = None
            self.broadcast_table()
            self.after_change()

    # --- the pause between rounds (dos.server.pause) -----------------------------------------

    def _pause_for_summary(self, rounds: int) -> None:
        humans = [s.index for s in self.seats if s.client is not None and s.bot is None]
        seconds = self.settings.pause_seconds
        if seconds > 0 and self.pause.start(rounds, humans, seconds, self._pause_over):
            self._send_pause()

    def proceed(self, seat: int) -> None:
        """``seat`` has read the round summary (``continue``); the last one ends the pause.
        A seat not waited for changes nothing and sends nothing."""
        if seat not in self.pause.waiting:
            return
        if self.pause.leave(seat):
            self._pause_over()
        elif self.pause.active:
            self._send_pause()

    def _pause_over(self) -> None:
        self._send_pause()
        self.after_change()

    def _send_pause(self) -> None:
        text = server_message("pause", **self.pause.message())
        for client in self.clients():
            client.send(text)

    # --- after each change ------------------------------------------------------------------

    def after_change(self) -> None:
        """Runs the reaction test's clock, wakes the bots and runs the turn timer; wakes the
        agents waiting for a change."""
        self._run_reaction()
        self.bots.poke()
        self._run_timer()
        self._signal_change()

    # --- the classic reaction test (dos.server.reaction) ------------------------------------

    def _watch_reaction(self) -> bool:
        """Starts the server's clock on a reaction test the game has just entered (if not
        running yet); whether a test is running."""
        limit = reaction_limit(self.entry, self.state) if self.playing() else None
        if limit is None or self.game is None:
            self.referee.stop()
            return False
        self.referee.start((self.game.id, self.version), limit)
        return True

    def _run_reaction(self) -> None:
        key = self.referee.key
        if not self._watch_reaction():
            self.reaction_timer.cancel()
            return
        if self.referee.key != key or not self.reaction_timer.running:
            self._arm_reaction(self.referee.key)

    def _arm_reaction(self, key: Any) -> None:
        """The deadline of the test ``key``, by the event loop; checked by the referee's clock
        when it comes (``Settings.clock`` may be a fake one)."""
        wait = max(self.referee.remaining(), 0.001)
        self.reaction_timer.start(wait, lambda: self._reaction_due(key))

    def _reaction_due(self, key: Any) -> None:
        if self.referee.key != key:
            return
        if not self.referee.expired():
            self._arm_reaction(key)
            return
        self._spawn(self.expire_reaction(key))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` in a task of the table's (cancelled when it closes)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def expire_reaction(self, key: Any = None) -> bool:
        """Applies ``timeout`` for the seat taking the reaction test if its time has run out
        by the server's clock (and it is still the test ``key``, when given); whether it did."""
        if key is not None and self.referee.key != key:
            return False
        if not self.referee.expired() or self.game is None or not self.playing():
            return False
        game_id, version = self.referee.key
        if game_id != self.game.id or version != self.version:
            return False
        try:
            await self.submit(self.rules.turn(self.state), "timeout", version)
        except RefusedError:
            return False  # answered meanwhile
        return True

    def _run_timer(self) -> None:
        if self.turn_seconds is None or not self.playing():
            self._stop_timer()
            return
        turn = self.rules.turn(self.state)
        if self.bot_level(turn) is not None:
            self._stop_timer()
            return
        key = (turn, self.version)
        if self._timer_key == key:
            return  # running, or in its grace period, or ran out: nothing new happened
        self._timer_key = key
        self._timer_seat = turn
        self._timer_phase = "turn"
        self.turn_timer.start(self.turn_seconds, lambda: self._timed_out(turn))
        self._send_timer()

    def _timed_out(self, seat: int) -> None:
        self._timer_phase = "grace"
        self.turn_timer.start(self.settings.grace_seconds, lambda: self._grace_over(seat))
        self._send_timer()

    def _grace_over(self, seat: int) -> None:
        self._send_timer()
        self.stand_in(seat)

    def _stop_timer(self) -> None:
        if self._timer_seat is not None:
            self.turn_timer.cancel()
            self._timer_seat = None
            self._timer_phase = None
            self._send_timer()
        self._timer_key = None

    def _send_timer(self) -> None:
        timer = self.timer()
        text = server_message(
            "timer",
            seat=None if timer is None else timer["seat"],
            seconds=None if timer is None else timer["seconds"],
            phase=None if timer is None else timer["phase"],
        )
        for client in self.clients():
            client.send(text)

    def close(self) -> None:
        """Stops the bots and timers (server shutdown)."""
        self.bots.stop()
        self.pause.cancel()
        self.turn_timer.cancel()
        self.reaction_timer.cancel()
        for task in self._tasks:
            task.cancel()
        for seat in self.seats:
            seat.leave_timer.cancel()


def new_code(taken: set[str]) -> str:
    """A fresh table code: 6 characters that cannot be misread (no 0/O, 1/I/L).

    >>> len(new_code(set()))
    6
    """
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    while True:
        code = "".join(secrets.choice(alphabet) for _ in range(6))
        if code not in taken:
            return code


def now() -> float:
    """The time, for rows."""
    return time.time()
