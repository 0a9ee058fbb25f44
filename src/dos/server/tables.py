"""A table: its seats, its life cycle, and the parts it is made of.

The life cycle is an explicit state machine (``Status``, ``TRANSITIONS``): ``lobby`` ->
``playing`` (the host starts) -> ``finished`` (the game ends) -> ``playing`` (rematch). Any other
move raises ``RefusedError("bad_state")``.

A table is the only authority over its game. ``submit`` takes an action in notation from a
seat with the version it saw; a stale (``dos.server.stale``), unreadable or illegal action is
refused with the engine's reason and changes nothing; an accepted one is committed to the
database, then sent to every connection, each with its own seat's view. A lock serializes the
changes of one table, so the first call or catch accepted wins the DOS race and the next one is
stale.

The table composes one part per concept and decides how they meet:

* ``current`` (``dos.server.current_game``): the game in play: an action applied to a copy,
  committed, then swapped in;
* ``audience`` (``dos.server.audience``): the connections, and what reaches them;
* the clocks: ``turn_timer`` and ``reaction`` (``dos.server.clocks``), ``pause``
  (``dos.server.pause``);
* ``bots`` (``dos.server.bots``), ``chat`` (``dos.server.chat``), and the seats
  (``dos.server.seat``; who sits where and who hosts: ``dos.server.seating``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dos import ruleset
from dos.errors import DosError
from dos.ruleset import RuleSet
from dos.server import seating
from dos.server.audience import Audience
from dos.server.bots import STAND_IN, BotDriver
from dos.server.chat import ChatRoom
from dos.server.clock import Clock, SystemClock
from dos.server.clocks import ReactionClock, TurnTimer
from dos.server.connections import Client
from dos.server.current_game import CurrentGame, replay_game
from dos.server.deals import Deals
from dos.server.handover import Handover, PauseClock, ReactionStart, TurnClock
from dos.server.hints import hints_open
from dos.server.history import GameLog
from dos.server.jobs import Jobs
from dos.server.messages import PROTOCOL_VERSION, server_message
from dos.server.metrics import Metrics
from dos.server.pause import RoundPause
from dos.server.reaction import Referee, reaction_limit
from dos.server.refusals import RefusedError
from dos.server.seat import Seat
from dos.server.seat_claims import foreign_seat
from dos.server.stale import only_calls_since, stale
from dos.server.storage import Database
from dos.server.table_store import StoredGame, StoredSeat, StoredTable, insert_game, save_seat
from dos.server.timers import Deadline
from dos.server.views import Views, head

log = logging.getLogger(__name__)


MOVED = 1012
"""The close code that sends a client to connect again (docs/protocol.md): the table it asked
for left this process meanwhile."""


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


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server runs tables."""

    bot_delay: float = 1.0
    """Scale of the bots' delays: 1 human-like, 0 instant."""
    bot_effort: float = 1.0
    """The share of their levels' budgets (iterations and seconds) the searching bots think
    with: 1 as the levels say; less spares a small machine (the bots play weaker)."""
    grace_seconds: float = 10.0
    """After a turn timer runs out, or a player's connection closes during a game: the wait
    before a stand-in bot plays for them (longer than a reload)."""
    pause_seconds: float = 30.0
    """The longest pause between two rounds for the players to read the summary (0: none)."""
    clock: Clock = field(default_factory=SystemClock, compare=False, repr=False)
    """The server's time (``dos.server.clock``): turn timers, grace, pauses, the reaction
    test, idleness, rows' times; the cluster's leases and loops read the same one. Tests give
    a ``ManualClock`` and move it."""
    deals: Deals = field(default_factory=Deals)
    """Where new tables' deals come from (``dos.server.deals``): at random unless seeded."""
    metrics: Metrics = field(default_factory=Metrics, compare=False, repr=False)
    """Where the tables and their bots report their figures (``dos.server.metrics``): one
    registry per ``Settings``, so one per server unless servers share their settings."""
    jobs: Jobs | None = field(default=None, compare=False, repr=False)
    """The job runner the bots decide through (``dos.server.jobs``): the service's, which
    ``Service`` puts here; ``None``: the bots decide in this process (a table on its own)."""


class Table:
    """One table, in memory, backed by the database."""

    @classmethod
    async def load(cls, stored: StoredTable, db: Database, settings: Settings) -> Table:
        """A stored table, its game rebuilt on a worker thread."""
        state = None
        if stored.game is not None and stored.status != Status.LOBBY.value:
            state = await asyncio.to_thread(replay_game, ruleset.get(stored.rules), stored.game)
        table = cls(stored, db, settings, state)
        # Idle since it was last active as stored, not since this process loaded it (after a
        # restart or a failover); ``loaded_at`` gives its people time to come back first.
        clock = settings.clock
        table.loaded_at = clock.monotonic()
        table.idle_since = table.loaded_at - max(0.0, clock.time() - stored.active_at)
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
        self.deal_seed = stored.deal_seed
        """The seed its games are dealt from (``dos.server.deals``); ``None``: at random."""
        self.status = Status(stored.status)
        self.host = stored.host
        self.turn_seconds = stored.turn_seconds
        self.created_at = stored.created_at
        self.games = stored.games
        self.seats = [
            Seat(s.seat, s.name, s.bot, s.player_id, leave_timer=Deadline(settings.clock))
            for s in stored.seats
        ]
        self.audience = Audience(self.seats, settings.clock)
        """Its connections, and what reaches them (``dos.server.audience``)."""
        self.db = db
        self.settings = settings
        self.lock = asyncio.Lock()
        self.current = CurrentGame(self.entry, self.rules, db, stored.code, settings.clock)
        """The game in play: applied to a copy, committed, then swapped in
        (``dos.server.current_game``)."""
        self.turn_timer = TurnTimer(
            settings.grace_seconds, self._send_timer, self.stand_in, settings.clock
        )
        """The turn timer and its grace (``dos.server.clocks``)."""
        self.reaction = ReactionClock(settings.clock, self.entry.reaction, self._reaction_due)
        """The reaction test's referee and deadline (``dos.server.clocks``)."""
        self.pause = RoundPause(settings.clock)
        """The pause between rounds (``dos.server.pause``)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bots = BotDriver(
            self,
            settings.bot_delay,
            0,
            settings.metrics,
            effort=settings.bot_effort,
            jobs=settings.jobs,
            clock=settings.clock,
        )
        self.chat = ChatRoom(stored.code, db, stored.chat, clock=settings.clock)
        self.hints_allowed = False
        """The host allowed hints (``dos.server.hints``; in memory, as the chat's rules)."""
        self.closed = False
        """Whether it was closed here (``close``): it plays no more."""
        self.loaded_at: float | None = None
        """When this process loaded it from the database (``None``: created here)."""
        self.on_handover: Callable[[Table], None] | None = None
        """Told whenever what the next owner takes over may have changed (``handover``): a
        server of many writes it down (``dos.cluster.handovers``)."""
        if stored.game is not None and self.status != Status.LOBBY:
            if state is None:
                state = replay_game(self.rules, stored.game)
            self._install(stored.game, state)

    @property
    def state(self) -> Any:
        """The game's state (``None`` before the first game)."""
        return self.current.state

    @property
    def version(self) -> int:
        """The number of actions accepted in the game."""
        return self.current.version

    @property
    def game(self) -> StoredGame | None:
        """The game as stored (``None`` before the first game)."""
        return self.current.stored

    @property
    def log(self) -> GameLog | None:
        """The game's log (``dos.server.history``), kept as it is played."""
        return self.current.log

    @property
    def finish_pending(self) -> bool:
        """The game's last action was committed but not its end."""
        return self.current.finish_pending

    @property
    def spectators(self) -> set[Client]:
        """The spectators' connections."""
        return self.audience.spectators

    @property
    def change(self) -> int:
        """Counts the changes of the table (actions, seats, status) since it was loaded."""
        return self.audience.change

    @property
    def idle_since(self) -> float | None:
        """Since when nobody has been connected (``None``: somebody is)."""
        return self.audience.idle_since

    @idle_since.setter
    def idle_since(self, since: float | None) -> None:
        self.audience.idle_since = since

    @property
    def referee(self) -> Referee:
        """The reaction test's referee."""
        return self.reaction.referee

    # --- the game ---------------------------------------------------------------------------

    def _install(self, game: StoredGame, state: Any) -> None:
        """Takes ``state``, rebuilt from ``game``'s seed and actions, as the current game."""
        self.current.install(game, state)
        self.bots.reset(game.seed)
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        if self.status == Status.PLAYING and self.rules.is_over(self.state):
            # The last action was committed but not the game's end: finish it now.
            self.status = Status.FINISHED
            self.current.finish_pending = True

    def opens(self, seat: int, player_id: str) -> bool:
        """Whether a seat token's claim (``seat``, ``player_id``) opens a seat of this table."""
        return 0 <= seat < len(self.seats) and self.seats[seat].player_id == player_id

    def playing(self) -> bool:
        """Whether a game is being played (not while it pauses between rounds, nor once the
        table is closed here)."""
        return (
            self.status == Status.PLAYING
            and self.state is not None
            and not self.pause.active
            and not self.closed
        )

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
            "seeded": self.deal_seed is not None,
        }

    def view(self, seat: int | None, history: bool = True) -> dict[str, Any] | None:
        """The view of ``seat`` (``None``: a spectator's), or ``None`` before the first game."""
        return self.current.view(seat, history)

    def timer(self) -> dict[str, Any] | None:
        """The running turn timer, if any."""
        return self.turn_timer.info()

    def _result(self) -> dict[str, Any] | None:
        return self.current.result()

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
        return self.current.full_views().message("state", seat, **fields)

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
        return self.audience.clients()

    def broadcast_table(self, spectators: bool = True) -> None:
        """Sends the table's info to everyone (to the seated players only when only the
        spectators changed: spectators learn their count with the next change, so N
        spectators coming one by one cost O(N) messages, not O(N²))."""
        self.audience.send(server_message("table", table=self.info()), spectators)
        self.audience.signal_change()

    async def changed(self, change: int, timeout: float) -> None:
        """Returns once ``self.change`` is not ``change``, or after ``timeout`` seconds."""
        await self.audience.changed(change, timeout)

    def broadcast_state(self) -> None:
        """Sends everyone a full ``state``."""
        self.audience.send_each(self.state_message)

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
        own = common if client_id is None else head("update", id=client_id, **fields)
        # The actor's own connection gets its message id back (docs/protocol.md).
        self.audience.send_each(
            lambda seat: views.with_head(own if seat == actor else common, seat)
        )

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
            seed = Deals.deal_seed(self.deal_seed, self.games + 1)
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
                started_at=self.settings.clock.time(),
            )
            game.id = await self.db.call(insert_game, self.code, game, seats)
            for place, seat in zip(self.seats, seats, strict=True):
                place.bot = seat.bot
                place.away = False
            seating.deal_in(self)
            self.status = Status.PLAYING
            self.games = game.number
            self.current.install(game, state)
            self.bots.reset(seed)
            self.pause.cancel()
            self.turn_timer.renew()
            self.broadcast_state()
        self.after_change()

    async def finish_if_pending(self) -> None:
        """Stores the end of a game whose last action was committed before a crash."""
        await self.current.finish()

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
        behind = version != self.version  # taken only if calls alone came since (stale.py)
        if behind and not only_calls_since(self.entry, self.game, version):
            raise stale(self.version, version)
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
        try:
            after = self.current.prepare(action)
        except RefusedError as error:
            if behind and error.code == "illegal":  # the calls since made it so: too late
                raise stale(self.version, version) from None
            raise
        canonical = str(action)
        rounds = self.rules.rounds_played(after)
        stored = self.current.stored
        try:
            await self.current.commit(canonical, seat, by_bot, after)
        except RefusedError:
            await self._resync_after_failed_commit(stored)
            raise
        metrics = self.settings.metrics
        metrics.action_done(by_bot, "committed", time.perf_counter() - received)
        over = self.rules.is_over(self.state)
        if over:
            self.status = Status.FINISHED
            self.current.finish_pending = True
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

    async def _resync_after_failed_commit(self, before: StoredGame | None) -> None:
        """After a failed commit the game is as the database has it (``CurrentGame.reload``;
        ``before``: the stored game it had): a game taken anew restarts the bots from it and
        may have ended; everyone is sent it."""
        game = self.current.stored
        if game is not None and game is not before:
            self.bots.reset(game.seed)
            self._finish_if_over()
        self.broadcast_state()

    # --- connections ------------------------------------------------------------------------

    async def attach(self, client: Client, seat: int | None) -> None:
        """Connects a client to its seat (replacing an older connection) or as a spectator,
        and sends ``welcome``, a full ``state``, and the chat's rules and lines kept (in the
        same step as it joins the table: each chat line reaches it exactly once). A table
        closed meanwhile (it left this process while the client waited for its lock) takes
        nobody: the client is told to connect again (1012), as those it had were."""
        async with self.lock:
            if self.closed:
                client.close(MOVED, "the table moved: connect again")
                return
            if seat is None:
                self.audience.watch(client)
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
                    self.turn_timer.renew()
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
            self.audience.present()
        self.broadcast_table(spectators=seat is not None)
        self.after_change()
        # The log may need a replay (a table loaded mid-game): it follows in its own task,
        # and the connection's messages are read meanwhile.
        self._spawn(self._send_first_log(client))

    def detach(self, client: Client) -> None:
        """Forgets a closed connection; a seated player's stand-in comes after the grace
        (``Settings.grace_seconds``), in every game, until they come back; a host's role
        passes on after it (``dos.server.seating``)."""
        watcher = self.audience.unwatch(client)
        if not watcher:
            if client.seat is None or self.seats[client.seat].client is not client:
                return  # replaced by a newer connection of its seat, or never attached
            place = self.seats[client.seat]
            place.client = None
            if self.pause.active:
                self.proceed(place.index)  # not waited for any more
            # In every game, timed or not: a leaver must not freeze the table, nor keep a
            # losing game from its end (and its rating); nor a gone host the next game.
            self.await_return(place.index)
        self.audience.check_idle()
        self.broadcast_table(spectators=not watcher)

    def idle_for(self, now: float) -> float:
        """Seconds nobody has been connected (0 while somebody is)."""
        return self.audience.idle_for(now)

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
            self.turn_timer.renew()
            self.broadcast_table()
            self.after_change()

    def await_return(self, seat: int) -> None:
        """``seat``'s player is not connected: past the grace, the stand-in plays for them
        during a game, and a host's role passes on."""
        place = self.seats[seat]
        if self.closed:
            return  # its connections end after it closed: nobody is awaited here any more
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
        if (
            place.bot is None
            and not place.away
            and self.status == Status.PLAYING
            and not self.closed
        ):
            place.away = True
            self.turn_timer.renew()
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
        self.audience.send(server_message("pause", **self.pause.message()))
        self.handover_changed()

    # --- handed over to the next owner (dos.server.handover) ---------------------------------

    def handover(self) -> Handover:
        """The clocks and the host's choices, as another process takes them over."""
        turn = self.turn_timer.held()
        pause = self.pause.held()
        referee = self.referee
        reaction = None
        if referee.running and self.reaction.started_at:
            game, version = referee.key
            reaction = ReactionStart(game, version, self.reaction.started_at)
        return Handover(
            turn=None if turn is None else TurnClock(*turn),
            pause=None if pause is None else PauseClock(pause[0], self.version, *pause[1:]),
            reaction=reaction,
            hints_allowed=self.hints_allowed,
            spectators_chat=self.chat.spectators,
        )

    def take_over(self, handover: Handover | None) -> None:
        """Goes on from a former owner's ``handover`` (a table just loaded, before its first
        ``after_change``): each clock only where the game is at the version it ran at."""
        if handover is None:
            return
        self.hints_allowed = handover.hints_allowed and not self.rated
        self.chat.spectators = handover.spectators_chat
        if not self.playing() or self.game is None:
            return
        pause = handover.pause
        if pause is not None and pause.version == self.version:
            seconds = pause.until - self.settings.clock.time()
            if seconds > 0 and self.pause.start(
                pause.round, pause.waiting, seconds, self._pause_over
            ):
                return  # paused: no turn runs, no test is taken
        reaction = handover.reaction
        key, limit = self._reaction_key()
        if reaction is not None and limit is not None and key == (reaction.game, reaction.version):
            self.reaction.resume(key, limit, reaction.started)
        turn = handover.turn
        if (
            turn is not None
            and self.turn_seconds is not None
            and turn.version == self.version
            and turn.seat == self.rules.turn(self.state)
            and self.bot_level(turn.seat) is None
        ):
            self.turn_timer.resume(turn.seat, turn.version, turn.phase, turn.until)

    def handover_changed(self) -> None:
        """What the next owner takes over may have changed: tell ``on_handover``."""
        if self.on_handover is not None:
            self.on_handover(self)

    # --- after each change ------------------------------------------------------------------

    def after_change(self) -> None:
        """Runs the reaction test's clock, wakes the bots and runs the turn timer; wakes the
        agents waiting for a change. A closed table stays still."""
        if self.closed:
            return
        self._run_reaction()
        self.bots.poke()
        self._run_timer()
        self.audience.signal_change()
        self.handover_changed()

    # --- the classic reaction test (dos.server.reaction) ------------------------------------

    def _reaction_key(self) -> tuple[tuple[int, int] | None, float | None]:
        """The reaction test the game is taking now, as the clock knows it: the game's id
        and version, and its time limit (``None``: no test)."""
        limit = reaction_limit(self.entry, self.state) if self.playing() else None
        if limit is None or self.game is None:
            return None, None
        return (self.game.id, self.version), limit

    def _watch_reaction(self) -> bool:
        """Starts the server's clock on a reaction test the game has just entered (if not
        running yet); whether a test is running."""
        return self.reaction.watch(*self._reaction_key())

    def _run_reaction(self) -> None:
        self.reaction.run(*self._reaction_key())

    def _reaction_due(self, key: Any) -> None:
        self._spawn(self.expire_reaction(key))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` in a task of the table's (cancelled when it closes; none once closed)."""
        if self.closed:
            work.close()
            return
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
            self.turn_timer.stop()
            return
        turn = self.rules.turn(self.state)
        if self.bot_level(turn) is not None:
            self.turn_timer.stop()
            return
        self.turn_timer.run(self.turn_seconds, turn, self.version)

    def _send_timer(self) -> None:
        timer = self.timer()
        self.audience.send(
            server_message(
                "timer",
                seat=None if timer is None else timer["seat"],
                seconds=None if timer is None else timer["seconds"],
                phase=None if timer is None else timer["phase"],
            )
        )
        self.handover_changed()

    def close(self) -> None:
        """Stops the bots and timers for good (a server shutdown; a table that left this
        process): nothing starts them again, the connections that end after it included."""
        self.closed = True
        self.bots.stop()
        self.pause.cancel()
        self.turn_timer.cancel()
        self.reaction.cancel()
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
