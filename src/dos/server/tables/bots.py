"""Bots playing on the server, with human-like delays: the bot seats of a table, and the
stand-in bots of players who are away.

A bot sees only its seat's view (``dos.bots``), decides after a delay that looks human, and
sends its action through the same path as a client, so it is checked, committed and
broadcast like any other. DOS calls and catches are reflexes (``dos.play.reflex``): when an
obligation opens, every bot at the table schedules its call or catch after its reaction time,
and the first action the server accepts, a bot's or a person's, wins the race.

At a classic table (RULES.md §9) the bots are the classic ones (``make_player(level,
"classic")``), and there is no DOS race; the reaction test is a reflex too: the bot draws its
reaction time (``react 2 1840ms``) and answers after that time has passed, so that it is seen to
react; the table's referee (``dos.server.tables.reaction``) times the test, and applies ``timeout``
itself should the answer come too late.

Delays are multiplied by ``scale`` (``dos serve --bot-delay``): 1 is human-like, 0 instant.

Decisions are jobs of the table's service's runner (``jobs``; ``dos.server.tables.bot_decisions``):
worker processes of this machine, or ``dos bot-worker`` processes through Redis. Each is asked
at the table's version and seeded from the game's seed, the seat and that version, so it is a
function of what the seat sees; an answer that comes after the table moved on is dropped.
Every generator here, a bot's or the delays', is derived from the game's seed one way
(``dos.seeds``): none leads back to the seed, nor so to the deal.
Reflexes (DOS calls and catches, the classic reaction test) stay here, on the event loop, with
their timing. Without a runner (tools, tests) the bots decide in this process, the searching
ones on a thread.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from dos import ruleset, seeds
from dos.bots.registry import make_player
from dos.play.official import Player
from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.hosting.jobs import Jobs
from dos.server.logs import TABLE
from dos.server.metrics import Metrics
from dos.server.tables.bot_decisions import BotDecisions
from dos.server.tables.bot_job import bot_seed, decide

if TYPE_CHECKING:
    from dos.play.classic import ClassicPlayer
    from dos.ruleset import RuleSet

log = logging.getLogger(__name__)

TURN_DELAY = 1.1
"""Median seconds a bot takes for a turn action, at scale 1."""
TURN_SPREAD = 0.35
"""Sigma of the logarithm of the turn delay."""
STAND_IN = "medium"
"""The level of the bot that plays for an away player."""


class BotSupport(Protocol):
    """What the server needs from a rule set to let bots play it."""

    def seat_view(self, state: Any, seat: int) -> Any:
        """The view a bot of ``seat`` decides from."""
        ...

    def obligations(self, state: Any) -> dict[int, Any]:
        """Seats with an open DOS obligation, each with a key that changes with a new one."""
        ...

    def reacting(self, state: Any) -> bool:
        """Whether the seat to act is taking a reaction test (answered in real time)."""
        ...

    def levels(self) -> list[str]:
        """The bot levels of the rule set, easiest first (``dos.bots.registry``)."""
        ...

    def search_levels(self) -> set[str]:
        """The levels whose bot searches (its decisions run off the event loop)."""
        ...


def bot_support(rules: str) -> BotSupport | None:
    """How bots play the rule set ``rules`` (its ``dos.bots.kits`` kit), or ``None`` when
    they cannot.

    >>> bot_support("official") is not None and bot_support("classic") is not None
    True
    """
    kit = ruleset.entry(rules).bots
    return kit() if kit is not None else None


class BotTable(Protocol):
    """What the driver needs from a table: its rule set, whether a game is being played, and
    the path every action takes."""

    rules_name: str
    rules: RuleSet[Any, Any]

    def playing(self) -> bool:
        """Whether a game is being played."""
        ...

    def submit_bot(self, seat: int, text: str, version: int) -> Awaitable[bool]:
        """Sends a bot's action; whether it was accepted."""
        ...


class GameInPlay(Protocol):
    """The game the bots play (``dos.server.tables.current_game.CurrentGame``), read only: the
    driver plays through ``BotTable.submit_bot``."""

    @property
    def state(self) -> Any:
        """The game's state."""
        ...

    @property
    def version(self) -> int:
        """The game's version."""
        ...


class BotDriver:
    """Plays the bot seats of one table: ``game`` its game in play, ``levels(seat)`` the level
    of the bot playing ``seat`` now (a bot seat or a stand-in; ``None``: a person plays it)."""

    def __init__(
        self,
        table: BotTable,
        scale: float,
        seed: int,
        metrics: Metrics | None = None,
        effort: float = 1.0,
        *,
        game: GameInPlay,
        levels: Callable[[int], str | None],
        jobs: Jobs | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.table = table
        self.game = game
        self.levels = levels
        self.clock = clock
        """The server's clock: the bots' human-like delays are slept on it."""
        self.decisions = (
            None if jobs is None else BotDecisions(jobs, table.rules_name, metrics, clock)
        )
        """Where the decisions are made: the service's job runner (``None``: in this process,
        the searching bots on a thread)."""
        self.effort = effort
        """The share of their levels' budgets the searching bots think with
        (``dos serve --bot-effort``): 1 as the levels say."""
        self.metrics = metrics
        """Where decisions are timed and counted (``dos.server.metrics``), if anywhere."""
        self.scale = scale
        self.support = bot_support(table.rules_name)
        self._seed = seed
        self._rng = seeds.generator(seed, "delays")
        self._players: dict[str, Player | ClassicPlayer] = {}
        self._bot_rngs: dict[int, random.Random] = {}
        self._turn_task: asyncio.Task[None] | None = None
        self._reflexes: set[asyncio.Task[None]] = set()
        self._raced: dict[int, Any] = {}
        self._acting: int | None = None
        """The seat whose own action is being submitted (its DOS call is a planned one)."""
        self.errors: list[str] = []

    def reset(self, seed: int) -> None:
        """Forgets everything (a new game): cancels pending decisions."""
        self.stop()
        self._seed = seed
        self._rng = seeds.generator(seed, "delays")
        self._bot_rngs = {}
        self._raced = {}
        if self.decisions is not None and self.support is not None:
            table = self.table
            seats = range(table.rules.players(self.game.state))
            if {self.levels(seat) for seat in seats} & self.support.search_levels():
                self.decisions.prepare()

    def stop(self) -> None:
        """Cancels every pending decision and reflex."""
        if self._turn_task is not None:
            self._turn_task.cancel()
            self._turn_task = None
        for task in self._reflexes:
            task.cancel()
        self._reflexes.clear()

    def _player(self, level: str) -> Player | ClassicPlayer:
        if level not in self._players:
            self._players[level] = make_player(level, self.table.rules_name)
        return self._players[level]

    def _delay(self, median: float) -> float:
        if self.scale <= 0:
            return 0.0
        return self.scale * median * self._rng.lognormvariate(0.0, TURN_SPREAD)

    def poke(self) -> None:
        """Looks at the table after a change: starts the bot to act, races new obligations."""
        table = self.table
        if self.support is None or not table.playing():
            self.stop()
            return
        turn = table.rules.turn(self.game.state)
        if self.levels(turn) is not None:
            if self._turn_task is None or self._turn_task.done():
                self._turn_task = asyncio.get_running_loop().create_task(self._play_turns())
        elif self._turn_task is not None:
            self._turn_task.cancel()
            self._turn_task = None
        self._race(self.support.obligations(self.game.state))

    def _race(self, open_now: dict[int, Any]) -> None:
        for seat in list(self._raced):
            if seat not in open_now:
                del self._raced[seat]
        for owner, key in open_now.items():
            if self._raced.get(owner) == key:
                continue
            self._raced[owner] = key
            players = self.table.rules.players(self.game.state)
            for seat in range(players):
                level = self.levels(seat)
                if level is None:
                    continue
                player = self._player(level)
                if not isinstance(player, Player):
                    continue  # only official bots race for DOS
                reflex = player.reflex
                if seat != owner:
                    delay = reflex.catch_delay(self._rng)
                elif self._acting == owner:  # its own action made the hand two: it saw it coming
                    delay = reflex.own_call_delay(self._rng)
                else:
                    delay = reflex.call_delay(self._rng)
                if delay is None:
                    continue
                text = "dos" if seat == owner else f"catch {owner}"
                task = asyncio.get_running_loop().create_task(
                    self._reflex(seat, owner, key, text, delay * self.scale)
                )
                self._reflexes.add(task)
                task.add_done_callback(self._reflexes.discard)

    async def _reflex(self, seat: int, owner: int, key: Any, text: str, delay: float) -> None:
        TABLE.set(getattr(self.table, "code", None))  # this task's log records name the table
        await self.clock.sleep(delay)  # 0: at the next turn of the event loop, before any reply
        table = self.table
        assert self.support is not None
        if not table.playing() or self.levels(seat) is None:
            return
        if self.support.obligations(self.game.state).get(owner) != key:
            return  # closed already, or a different obligation
        await table.submit_bot(seat, text, self.game.version)

    async def _play_turns(self) -> None:
        table = self.table
        assert self.support is not None
        TABLE.set(getattr(table, "code", None))  # this task's log records name the table
        try:
            while table.playing():
                seat = table.rules.turn(self.game.state)
                level = self.levels(seat)
                if level is None:
                    return
                if self.support.reacting(self.game.state):
                    await self._react(seat, level)
                    continue
                await self.clock.sleep(self._delay(TURN_DELAY))
                if not table.playing() or table.rules.turn(self.game.state) != seat:
                    continue
                level = self.levels(seat)
                if level is None:
                    return
                version = self.game.version
                action = await self._choose(seat, level)
                if self.game.version != version or action is None:
                    if self.metrics is not None:
                        self.metrics.bot_stale_answers.inc()
                    continue  # something happened while thinking: look again
                self._acting = seat
                try:
                    accepted = await table.submit_bot(seat, str(action), version)
                finally:
                    self._acting = None
                if not accepted:
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bot must never take the server down
            log.exception("bot at seat failed")
            self.errors.append(repr(error))

    async def _react(self, seat: int, level: str) -> None:
        """The bot of ``seat`` takes the reaction test: it answers (``react 2 1840ms``) once
        its reaction time has passed (scaled), unless the test is over by then."""
        table = self.table
        version = self.game.version
        if self.decisions is not None:
            action = self._reflex_answer(seat, level)  # a reflex: on the event loop
        else:
            action = await self._choose(seat, level)
        ms = getattr(action, "ms", 0)
        if self.scale > 0 and ms > 0:
            await self.clock.sleep(self.scale * ms / 1000)
        if self.game.version != version or not table.playing():
            return  # timed out by the server, or the seat was taken back
        if self.levels(seat) is None:
            return
        if not await table.submit_bot(seat, str(action), version):
            await asyncio.sleep(0)

    def _decision_seed(self, seat: int) -> str:
        return bot_seed(self._seed, seat, self.game.version)

    def _reflex_answer(self, seat: int, level: str) -> Any:
        """The bot's answer to the reaction test (drawn, no search), as its job would."""
        assert self.support is not None
        view = self.support.seat_view(self.game.state, seat)
        player = self._player(level)
        seed = self._decision_seed(seat)
        return decide(self.table.rules_name, level, view, effort=1.0, seed=seed, player=player)

    async def _choose(self, seat: int, level: str) -> Any:
        """The bot's action for its seat's view now (``None``: the table moved on)."""
        assert self.support is not None
        searching = level in self.support.search_levels()
        metrics = self.metrics
        if metrics is not None:
            metrics.bot_decisions_pending.inc()
        started = time.perf_counter()
        try:
            if self.decisions is None:
                action = await self._in_process(seat, level, searching)
            else:
                action = await self._by_job(seat, level, searching)
        finally:
            if metrics is not None:
                metrics.bot_decisions_pending.dec()
        if metrics is not None:
            elapsed = time.perf_counter() - started
            metrics.bot_decision_seconds.labels(level=level).observe(elapsed)
        return action

    async def _by_job(self, seat: int, level: str, searching: bool) -> Any:
        assert self.support is not None and self.decisions is not None
        table = self.table
        version = self.game.version
        lowest = self.support.levels()[0]
        return await self.decisions.decide(
            level,
            self.support.seat_view(self.game.state, seat),
            self.effort,
            self._decision_seed(seat),
            searching=searching,
            lowest=(lowest, self._player(lowest)),
            parse=table.rules.parse_action,
            current=lambda: self.game.version == version and table.playing(),
        )

    async def _in_process(self, seat: int, level: str, searching: bool) -> Any:
        assert self.support is not None
        player = self._player(level)
        view = self.support.seat_view(self.game.state, seat)
        rng = self._bot_rngs.get(seat)
        if rng is None:
            rng = self._bot_rngs[seat] = seeds.generator(self._seed, "seat", seat)
        bot: Any = player.bot
        budget = player.budget.scaled(self.effort)
        if searching:
            return await asyncio.to_thread(bot.choose, view, rng, budget)
        return bot.choose(view, rng, budget)
