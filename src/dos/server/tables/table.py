"""A table: its lock, its life cycle, ``submit``, and the parts it is made of.

The life cycle is an explicit state machine (``Status``, ``TRANSITIONS``): ``lobby`` ->
``playing`` (the host starts) -> ``finished`` (the game ends) -> ``playing`` (rematch). Any other
move raises ``RefusedError("bad_state")``.

A table is the only authority over its game. ``submit`` takes an action in notation from a
seat with the version it saw; a stale (``dos.server.tables.stale``), unreadable or illegal action is
refused with the engine's reason and changes nothing; an accepted one is committed to the
database, then sent to every connection, each with its own seat's view. A lock serializes the
changes of one table, so the first call or catch accepted wins the DOS race and the next one is
stale.

The table composes one part per concept, each given what it needs as it is made, and decides
how they meet (``after_change``):

* ``current`` (``dos.server.tables.current_game``): the game in play: dealt, an action read, applied
  to a copy, committed, then swapped in;
* ``audience`` (``dos.server.tables.audience``): the connections, and what reaches them;
  ``broadcasts`` (``dos.server.tables.broadcasts``): what is sent them as the table changes;
  ``log_pages`` (``dos.server.tables.log_pages``): the pages of the game's log they ask for;
* the seats (``dos.server.tables.seat``): who sits where and who hosts
(``dos.server.tables.seating``), and
  who plays for a person who is away (``stand_ins``, ``dos.server.tables.stand_ins``);
* the clocks: ``turn_timer`` (``dos.server.tables.turn_timer``), ``reaction``
  (``dos.server.tables.reaction``), ``pause`` (``dos.server.tables.pause``); what of them the next
  owner takes over (``dos.server.tables.handover``);
* ``bots`` (``dos.server.tables.bots``) and ``chat`` (``dos.server.tables.chat``).

Callers reach a part for what is its own (``table.current.view(seat)``, ``table.log_pages``,
the seats through ``dos.server.tables.seating``). The process that holds the table is given as it is
made (``owner``, ``dos.server.tables.owner``), never assigned later.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine, Iterable
from enum import StrEnum
from functools import partial
from typing import Any

from dos import ruleset
from dos.ruleset import RuleSet
from dos.server.deals import Deals
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.database import Database
from dos.server.storage.table_store import StoredTable
from dos.server.tables import handover, seating
from dos.server.tables.audience import Audience
from dos.server.tables.bots import BotDriver
from dos.server.tables.broadcasts import Broadcasts
from dos.server.tables.chat import ChatRoom, Line, load_authored_lines
from dos.server.tables.current_game import CurrentGame, replay_game
from dos.server.tables.game_at import GameAt
from dos.server.tables.handover import Handover
from dos.server.tables.info import table_info
from dos.server.tables.log_pages import LogPages
from dos.server.tables.owner import NO_OWNER, Owner
from dos.server.tables.pause import RoundPause
from dos.server.tables.reaction import ReactionClock, reaction_limit
from dos.server.tables.seat import Seat
from dos.server.tables.settings import Settings
from dos.server.tables.stand_ins import StandIns
from dos.server.tables.timers import Deadline
from dos.server.tables.turn_timer import TurnTimer

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


class Table:
    """One table, in memory, backed by the database, held by ``owner``."""

    @classmethod
    async def load(
        cls, stored: StoredTable, db: Database, settings: Settings, owner: Owner = NO_OWNER
    ) -> Table:
        """A stored table, its game rebuilt on a worker thread, with its chat's lines kept."""
        state = None
        if stored.game is not None and stored.status != Status.LOBBY.value:
            state = await asyncio.to_thread(replay_game, ruleset.get(stored.rules), stored.game)
        chat = await db.read(load_authored_lines, stored.code)
        table = cls(stored, db, settings, state, chat=chat, owner=owner)
        # Idle since it was last active as stored, not since this process loaded it (after a
        # restart or a failover); ``loaded_at`` gives its people time to come back first.
        clock = settings.clock
        table.loaded_at = clock.monotonic()
        table.audience.idle_since = table.loaded_at - max(0.0, clock.time() - stored.active_at)
        if table.status in (Status.PLAYING, Status.FINISHED):
            # Back after a restart or a failover, nobody connected yet: everyone is on their
            # way back for the grace. During a game, whoever is not back by then is stood in
            # for; after one, a rematch dealt meanwhile keeps their seats
            # (``seating.stay_for_rematch``).
            for place in table.seats:
                table.stand_ins.await_return(place.index)
        return table

    def __init__(
        self,
        stored: StoredTable,
        db: Database,
        settings: Settings,
        state: Any = None,
        *,
        chat: Iterable[Line] = (),
        owner: Owner = NO_OWNER,
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
        self.db = db
        self.settings = settings
        self.owner = owner
        self.lock = asyncio.Lock()
        self.closed = False
        """Whether it was closed here (``close``): it plays no more."""
        self.loaded_at: float | None = None
        """When this process loaded it from the database (``None``: created here)."""
        self.hints_allowed = False
        """The host allowed hints (``dos.server.tables.hints``; in memory, as the chat's rules)."""
        clock = settings.clock
        self.seats = [
            Seat(s.seat, s.name, s.bot, s.player_id, leave_timer=Deadline(clock))
            for s in stored.seats
        ]
        self.audience = Audience(self.seats, clock)
        fenced = partial(owner.fenced, self)  # the owner is told which table
        self.current = CurrentGame(
            self.entry, self.rules, db, stored.code, clock, epoch=owner.epoch, fenced=fenced
        )
        self.log_pages = LogPages(stored.code, self.current)
        self.stand_ins = StandIns(
            self.seats,
            settings.grace_seconds,
            in_game=lambda: self.status == Status.PLAYING,
            changed=self._seat_changed,
            gone=self._gone,
        )
        self.turn_timer = TurnTimer(
            settings.grace_seconds, self._send_timer, self.stand_ins.stand_in, clock
        )
        self.reaction = ReactionClock(clock, self.entry.reaction, self._reaction_due)
        self.pause = RoundPause(
            clock, settings.pause_seconds, changed=self._send_pause, over=self.after_change
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bots = BotDriver(
            self,
            settings.bot_delay,
            0,
            settings.metrics,
            effort=settings.bot_effort,
            game=self.current,
            levels=self.stand_ins.bot_level,
            jobs=settings.jobs,
            clock=clock,
        )
        self.chat = ChatRoom(stored.code, db, chat, clock=clock)
        self.broadcasts = Broadcasts(
            self.audience, self.current, self.turn_timer, lambda: table_info(self)
        )
        if stored.game is not None and self.status != Status.LOBBY:
            if state is None:
                state = replay_game(self.rules, stored.game)
            self.current.install(stored.game, state)
            self.bots.reset(stored.game.seed)
            self._finish_if_over()

    def _finish_if_over(self) -> None:
        if self.status == Status.PLAYING and self.rules.is_over(self.current.state):
            # The last action was committed but not the game's end: finish it now.
            self.status = Status.FINISHED
            self.current.finish_pending = True

    def playing(self) -> bool:
        """Whether a game is being played (not while it pauses between rounds, nor once the
        table is closed here)."""
        return (
            self.status == Status.PLAYING
            and self.current.state is not None
            and not self.pause.active
            and not self.closed
        )

    # --- the life cycle ---------------------------------------------------------------------

    async def start(self, seat: int | None) -> None:
        """The host starts the game; open seats get bots."""
        await self._deal(seat, Status.LOBBY)

    async def rematch(self, seat: int | None) -> None:
        """The host deals a new game to the players at the table; the seats of those who are
        not, and whose grace is over, open to the stand-in bot (``dos.server.tables.seating``)."""
        await self._deal(seat, Status.FINISHED)

    async def _deal(self, by: int | None, expected: Status) -> None:
        async with self.lock:
            if by is None:
                raise RefusedError("not_seated", "spectators cannot start games")
            if by != self.host:
                raise RefusedError("not_host", "only the host (seat 0) can start the game")
            if self.status != expected or Status.PLAYING not in TRANSITIONS[self.status]:
                what = "a start" if expected == Status.LOBBY else "a rematch"
                raise RefusedError(
                    "bad_state",
                    f"the table is {self.status.value}: {what} needs it {expected.value}",
                )
            if expected == Status.FINISHED:
                await seating.stay_for_rematch(self)
            seats = seating.deal_seats(self)
            number = self.games + 1
            seed = Deals.deal_seed(self.deal_seed, number)
            options = {**self.options, "players": len(self.seats)}
            await self.current.deal(number, options, seed, seats)
            seating.dealt(self, seats)
            self.status = Status.PLAYING
            self.games = number
            self.bots.reset(seed)
            self.pause.cancel()
            self.turn_timer.renew()
            self.broadcasts.state()
        self.after_change()

    def close(self) -> None:
        """Stops the bots and timers for good (a server shutdown; a table that left this
        process): nothing starts them again, the connections that end after it included."""
        self.closed = True
        self.bots.stop()
        self.pause.cancel()
        self.turn_timer.cancel()
        self.reaction.cancel()
        self.stand_ins.close()
        for task in self._tasks:
            task.cancel()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` in a task of the table's (cancelled when it closes; none once closed)."""
        if self.closed:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
                version = self.current.version
                await self._submit(seat, "dos", version, client_id, by_bot, received=received)
        self.after_change()

    def _owes_dos(self, seat: int) -> bool:
        """Whether ``seat`` has an open DOS obligation in the game being played."""
        support = self.bots.support
        if support is None or not self.playing():
            return False
        return seat in support.obligations(self.current.state)

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
        received: float,
    ) -> None:
        if self.pause.active:
            raise RefusedError("paused", "the table waits for everyone to read the round summary")
        current = self.current
        if not self.playing() or current.stored is None:
            raise RefusedError("not_playing", f"the table is {self.status.value}: no game to play")
        action = current.read(seat, text, version)
        if not by_bot and self.reaction.watching(self._at()):
            action = self.reaction.referee.judge(action)  # the server's clock, not the client's
        rounds_before = self.rules.rounds_played(current.state)
        after = current.prepare(action, version)
        canonical = str(action)
        stored = current.stored
        try:
            await current.commit(canonical, seat, by_bot, after)
        except RefusedError:
            # The game is as the database has it: a game taken anew restarts the bots from it
            # and may have ended; everyone is sent it.
            game = current.stored
            if game is not None and game is not stored:
                self.bots.reset(game.seed)
                self._finish_if_over()
            self.broadcasts.state()
            raise
        metrics = self.settings.metrics
        metrics.action_done(by_bot, "committed", time.perf_counter() - received)
        over = self.rules.is_over(current.state)
        if over:  # stored before anyone learns it: whoever sees the result finds the record
            self.status = Status.FINISHED
            current.finish_pending = True
            try:
                await current.finish()
            except Exception:
                log.exception("table %s: could not store the game's end", self.code)
        self.broadcasts.update(seat, canonical, client_id, by_bot)
        metrics.action_done(by_bot, "sent", time.perf_counter() - received)
        rounds = self.rules.rounds_played(after)
        if not over and rounds > rounds_before:
            readers = [s.index for s in self.seats if s.client is not None and s.bot is None]
            self.pause.after_round(rounds, readers)
        if over:
            try:
                await seating.after_game(self)
            except Exception:
                log.exception("table %s: could not open the seats of those who left", self.code)
            self.broadcasts.table()

    # --- how the parts meet, and what the next owner takes over -----------------------------

    def _seat_changed(self) -> None:
        """A seat's stand-in started or stopped: its turn timer starts afresh."""
        self.turn_timer.renew()
        self.broadcasts.table()
        self.after_change()

    def _gone(self, seat: int) -> None:
        if self.seats[seat].kept:  # kept through a rematch, and not back: the seat opens
            self.spawn(seating.grace_over(self, seat))
        elif seat == self.host:  # gone past the grace: the host's role passes on
            self.spawn(seating.pass_host(self))

    def after_change(self) -> None:
        """Runs the reaction test's clock, wakes the bots and runs the turn timer; wakes the
        agents waiting for a change. A closed table stays still."""
        if self.closed:
            return
        at = self._at()
        self.reaction.follow(at)
        self.bots.poke()
        self.turn_timer.follow(at)
        self.audience.signal_change()
        self.handover_changed()

    def _at(self) -> GameAt | None:
        """Where the game being played is, as the clocks are told (``None``: none is)."""
        current = self.current
        if not self.playing() or current.stored is None:
            return None
        turn = self.rules.turn(current.state)
        timed = self.turn_seconds if self.stand_ins.bot_level(turn) is None else None
        limit = reaction_limit(self.entry, current.state)
        return GameAt(current.stored.id, current.version, turn, timed, limit)

    def handover(self) -> Handover:
        """The clocks and the host's choices, as another process takes them over."""
        return handover.hand_over(
            self.current.version,
            self.turn_timer,
            self.pause,
            self.reaction,
            hints_allowed=self.hints_allowed,
            spectators_chat=self.chat.spectators,
        )

    def take_over(self, former: Handover | None) -> None:
        """Goes on from a former owner's handover (a table just loaded, before its first
        ``after_change``): the host's choices, and each clock only where the game is at the
        version it ran at (``dos.server.tables.handover.take_over``)."""
        if former is None:
            return
        self.hints_allowed = former.hints_allowed and not self.rated
        self.chat.spectators = former.spectators_chat
        at = self._at()
        if at is not None:
            handover.take_over(former, at, self.turn_timer, self.pause, self.reaction)

    def handover_changed(self) -> None:
        """What the next owner takes over may have changed: tell the owner."""
        self.owner.handover(self)

    def _send_pause(self) -> None:
        self.broadcasts.pause(self.pause.message())
        self.handover_changed()

    def _send_timer(self) -> None:
        self.broadcasts.timer()
        self.handover_changed()

    def _reaction_due(self, key: Any) -> None:
        self.spawn(self.expire_reaction(key))

    async def expire_reaction(self, key: Any = None) -> bool:
        """Applies ``timeout`` for the seat taking the reaction test if its time has run out
        by the server's clock (and it is still the test ``key``, when given); whether it did."""
        at = self._at()
        if at is None or self.reaction.overdue(key) != (at.game, at.version):
            return False
        try:
            await self.submit(at.turn, "timeout", at.version)
        except RefusedError:
            return False  # answered meanwhile
        return True
