"""One game against bots in real time: the terminal client's model, free of any screen.

The controller owns the game's ``State`` and changes it only through the engine's ``apply``.
It schedules the bots' moves and their DOS reflexes (``dos.play.reflex``) as timed events and
runs those that are due whenever it is ticked; it never sleeps, and it reads the time from an
injectable ``Clock``, so tests drive a whole round by moving a ``ManualClock``.

The DOS race (RULES.md §6) is real: when a hand becomes exactly two cards, a bot owner's call
is scheduled after its reaction delay (or never, if it forgets), and every bot opponent's catch
after theirs; the person calls or catches with a key, and whichever comes first is applied.
A scheduled call or catch is dropped if the obligation closed meanwhile.

Bots think in the background when the controller is given a ``thinker`` (an executor: the
app's single worker thread). A bot's decision starts as soon as it is to act, on a ``SeatView``
(immutable copies) and a copy of its generator, so the bot never touches the state; the
controller stays its only owner. The decision is applied by ``tick`` on the caller's thread
once it is ready and its move is due, and it is dropped, and thought again, if the state moved
on meanwhile (a DOS call or catch applied: ``version`` changed). Without a thinker each
decision is computed at once on the caller's thread, which is what tests use with a
``ManualClock``; either way, a dropped decision leaves the bot's generator untouched, so the
same seed and the same actions give the same game.

Everything random comes from the seed: the deal (the engine), each bot's generator
(``seeds.generator(seed, "seat", n)``) and the race generator (``seeds.generator(seed,
"race")``), as in ``dos.play.official``. Both are derived one way (``dos.seeds``): their state
does not lead back to the seed, nor so to the deal.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import TypeVar

from dos import records, seeds
from dos.bots.registry import make_player
from dos.errors import DosError
from dos.i18n import text
from dos.i18n.describe import Before, describe
from dos.i18n.explain import explain_official
from dos.play.bot import OUT_OF_TURN
from dos.play.official import Player
from dos.rules.official import (
    Action,
    Kind,
    Options,
    Phase,
    RoundResult,
    State,
    apply,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from dos.tui.clock import Clock, MonotonicClock
from dos.tui.replay import Replay

HUMAN = 0
"""The person's seat."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Pauses that let a person follow the bots: seconds before each bot action."""

    bot_move: float = 0.9


class EventKind(Enum):
    """What a scheduled event does."""

    MOVE = "move"
    CALL = "call"
    CATCH = "catch"


@dataclass(order=True, frozen=True, slots=True)
class Event:
    """A timed bot action: ``seat`` acts; a catch names ``target``; ``epoch`` ties a call or
    catch to one DOS obligation (it is dropped if that obligation is gone)."""

    due: float
    order: int
    kind: EventKind = field(compare=False)
    seat: int = field(compare=False)
    target: int = field(compare=False, default=-1)
    epoch: int = field(compare=False, default=0)


@dataclass(frozen=True, slots=True)
class Thought:
    """A bot's decision under way: ``seat`` thinks about the state at ``version`` with
    ``rng``, a copy of its generator that becomes the seat's generator if the decision is
    applied."""

    seat: int
    version: int
    rng: random.Random
    decision: Future[Action]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a person's action: ``error`` is ``None`` when it was applied."""

    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the action was applied."""
        return self.error is None


def player_names(lang: str, players: int) -> list[str]:
    """The names at the table: the person ("You") and "Bot 1", "Bot 2", …

    >>> player_names("it", 3)
    ['Tu', 'Bot 1', 'Bot 2']
    """
    return [text(lang, "game.you")] + [
        text(lang, "game.bot_name", number=seat) for seat in range(1, players)
    ]


def resumable(record: records.Record, rules: str, refusal: str, lang: str) -> tuple[int, list[str]]:
    """The seed and the seats' names (in ``lang``) of a saved game of ``rules`` that can go
    on: started from a seed, every action checked and the result too; ``DosError``
    (``refusal``) for a record of other rules or without a seed."""
    if record.rules != rules or record.seed is None:
        raise DosError(refusal)
    records.replay(record)  # checks every action and the result
    return record.seed, player_names(lang, records.start(record).players)


def resumed_at(actions: int) -> tuple[str | int, ...]:
    """The labels that set the generators of a game resumed after ``actions`` actions apart
    from those of the game as first played (``dos.seeds``)."""
    return ("resume", actions)


A = TypeVar("A")


def decide(choose: Callable[[], A], thinker: Executor | None) -> Future[A]:
    """A bot's decision: thought on ``thinker`` in the background, or, without one, at once
    on the caller's thread, where an error is kept in the future (raised by ``tick``, where
    the move is made)."""
    if thinker is not None:
        return thinker.submit(choose)
    decision: Future[A] = Future()
    try:
        decision.set_result(choose())
    except Exception as error:  # raised by ``tick``, where the move is made
        decision.set_exception(error)
    return decision


class LiveGame:
    """What a game against bots in real time keeps, whatever its rules: the settings, the
    seats' names and generators, the log, the last refusal, the count of actions applied, and
    the clock that the help can stop."""

    def __init__(
        self,
        *,
        seed: int,
        level: str,
        lang: str,
        clock: Clock | None,
        timing: Timing | None,
        thinker: Executor | None,
    ) -> None:
        self.seed = seed
        self.level = level
        self.lang = lang
        self.clock: Clock = clock or MonotonicClock()
        self.timing = timing or Timing()
        self.thinker = thinker
        self.rngs: list[random.Random] = []
        self.names: list[str] = []
        self.log: list[str] = []
        self.message: str | None = None
        """The last refusal of a person's action, in words (cleared by the next success)."""
        self._version = 0
        self._held_since: float | None = None

    def _seat(self, count: int, since: tuple[str | int, ...]) -> None:
        """Names the ``count`` seats and seeds their generators (``seeds.generator(seed,
        "seat", n, *since)``, where a resumed game's ``since`` is ``resumed_at(state)``)."""
        self.rngs = [seeds.generator(self.seed, "seat", seat, *since) for seat in range(count)]
        self.names = player_names(self.lang, count)

    def _rng_copy(self, seat: int) -> random.Random:
        """A copy of ``seat``'s generator, for a decision that may be dropped."""
        rng = random.Random()
        rng.setstate(self.rngs[seat].getstate())
        return rng

    @property
    def version(self) -> int:
        """How many actions this controller has applied: a bot's decision made at another
        version is stale."""
        return self._version

    def hold(self) -> None:
        """Stops the game's clock (while the person reads the help, say): nothing runs until
        ``release``, and then everything runs as much later."""
        if self._held_since is None:
            self._held_since = self.clock.now()

    @property
    def held(self) -> bool:
        """Whether the game's clock is stopped."""
        return self._held_since is not None

    def _refuse(self, message: str) -> Outcome:
        self.message = message
        return Outcome(message)


class GameController(LiveGame):
    """A game of official DOS between the person (seat 0) and bots, in real time."""

    def __init__(
        self,
        *,
        players: int = 2,
        level: str = "easy",
        seed: int = 0,
        target_score: int = 200,
        lang: str = "en",
        clock: Clock | None = None,
        timing: Timing | None = None,
        state: State | None = None,
        bots: Sequence[Player] | None = None,
        thinker: Executor | None = None,
    ) -> None:
        """A new game (``players``, bots of ``level``, ``seed``, ``target_score``), or the
        game ``state`` goes on. ``bots`` replaces the level's bots (seats 1, 2, …).
        ``thinker`` runs the bots' decisions in the background (give it one worker, so
        that a bot never thinks twice at once); without it they are computed at once."""
        if not 2 <= players <= 4 and state is None:
            raise ValueError(f"players: 2 to 4, not {players}")
        super().__init__(
            seed=seed, level=level, lang=lang, clock=clock, timing=timing, thinker=thinker
        )
        resumed = state is not None
        self.state: State = state or new_game(
            Options(players=players, target_score=target_score), seed
        )
        count = self.state.options.players
        if bots is not None and len(bots) != count - 1:
            raise ValueError(f"bots: {count - 1} needed, {len(bots)} given")
        seated = list(bots) if bots is not None else [make_player(level) for _ in range(1, count)]
        self.players: list[Player | None] = [None, *seated]
        since = resumed_at(len(self.state.history)) if resumed else ()
        self._seat(count, since)
        self.race = seeds.generator(seed, "race", *since)
        self.summary: RoundResult | None = None
        """The round just ended, while its summary waits to be dismissed (play is paused)."""
        self._events: list[Event] = []
        self._order = 0
        self._epoch = [0] * count
        self._hands = [tuple(h) for h in self.state.hands]
        self._raced = 0
        self._rounds_seen = len(self.state.round_results)
        self._move_planned = False
        """A bot's move is scheduled, or due and waiting for its decision."""
        self._move_waiting = False
        """The move is due: it is made as soon as the decision is ready."""
        self._thought: Thought | None = None
        self._log_round_start()
        self._plan(self.clock.now())

    # --- reading -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.phase == Phase.OVER

    @property
    def human_turn(self) -> bool:
        """Whether the person is to act (and nothing pauses the game)."""
        return self.summary is None and not self.over and self.state.turn == HUMAN

    def legal(self) -> list[Action]:
        """The person's legal actions now (none while a round summary waits)."""
        if self.summary is not None:
            return []
        return legal_actions(self.state, HUMAN)

    def dos_open(self) -> list[int]:
        """Seats with an open DOS obligation."""
        return [s for s in range(self.state.players) if self.state.dos_open >> s & 1]

    @property
    def decision(self) -> Future[Action] | None:
        """The decision of the bot to act, ready or not (``None`` when no bot is to act)."""
        return None if self._thought is None else self._thought.decision

    def pending(self) -> list[Event]:
        """The scheduled events, soonest first (for tests and the curious)."""
        return sorted(self._events)

    def record(self) -> records.Record:
        """The game so far as a game record (``dos.records``), to save or replay."""
        return records.record_of("official", self.state, seed=self.seed, players=self.names)

    @classmethod
    def from_record(
        cls,
        record: records.Record,
        level: str = "easy",
        lang: str = "en",
        clock: Clock | None = None,
        timing: Timing | None = None,
        *,
        thinker: Executor | None = None,
    ) -> GameController:
        """A saved game, replayed (every action checked) and ready to go on."""
        refusal = "only official games started from a seed can be resumed"
        seed, names = resumable(record, "official", refusal, lang)
        earlier = Replay(record, lang, names)
        earlier.go(len(record.actions))
        game = cls(
            seed=seed,
            level=level,
            lang=lang,
            clock=clock,
            timing=timing,
            state=earlier.state.copy(),
            thinker=thinker,
        )
        game.log[:0] = earlier.sentences  # the game so far, in words
        return game

    # --- the person's actions --------------------------------------------------------------

    def submit(self, action: Action, dos: bool = False) -> Outcome:
        """Applies the person's action, or explains in words why it is not allowed.

        ``dos``: call "DOS!" with it. If the action leaves the person with an open DOS
        obligation, the call is applied right after it, before the bots' reflexes are
        scheduled, so no bot can catch in between (as the server does with ``"dos": true``);
        otherwise the flag is ignored."""
        if self.summary is not None or self.over:
            return self._refuse(text(self.lang, "game.err_not_allowed", action=str(action)))
        if action.seat is not None and action.seat != HUMAN:
            return self._refuse(text(self.lang, "game.err_not_allowed", action=str(action)))
        if action.kind not in OUT_OF_TURN and self.state.turn != HUMAN:
            return self._refuse(text(self.lang, "game.err_not_your_turn"))
        written = action._replace(seat=None if self.state.turn == HUMAN else HUMAN)
        try:
            self._apply(written, HUMAN)
        except DosError:  # illegal here (or malformed): the state is unchanged
            return self._refuse(explain_official(self.lang, self.state, HUMAN, action))
        if dos and self.summary is None and self.state.dos_open >> HUMAN & 1:
            seat = None if self.state.turn == HUMAN else HUMAN
            self._apply(Action(Kind.CALL, seat=seat), HUMAN)
        self.message = None
        self._plan(self.clock.now())
        return Outcome()

    def submit_text(self, notation: str) -> Outcome:
        """The person's action written in notation (``R7@0``, ``draw``, ``catch 1``…)."""
        try:
            action = parse_action(notation)
        except DosError:
            return self._refuse(text(self.lang, "game.err_cannot_read", text=notation.strip()))
        return self.submit(action)

    def call_dos(self) -> Outcome:
        """The person calls "DOS!"."""
        return self.submit(Action(Kind.CALL))

    def catch(self, seat: int | None = None) -> Outcome:
        """The person catches ``seat`` (default: the first opponent with an open obligation)."""
        if seat is None:
            others = [s for s in self.dos_open() if s != HUMAN]
            if not others:
                return self._refuse(text(self.lang, "game.err_no_dos"))
            seat = others[0]
        return self.submit(Action(Kind.CATCH, target=seat))

    def resume(self) -> None:
        """Dismisses the round summary and goes on with the next round."""
        if self.summary is None:
            return
        self.summary = None
        if not self.over:
            self._log_round_start()
        self._plan(self.clock.now())

    # --- time ------------------------------------------------------------------------------

    def release(self) -> None:
        """Starts the game's clock again after ``hold``."""
        if self._held_since is None:
            return
        delay = self.clock.now() - self._held_since
        self._held_since = None
        self._events = [
            Event(e.due + delay, e.order, e.kind, e.seat, e.target, e.epoch) for e in self._events
        ]
        heapq.heapify(self._events)

    def tick(self) -> int:
        """Runs every event due by now, in time order, and the bot's move once it is due and
        its decision is ready; returns how many actions were applied. Never waits for a
        decision: one still under way is looked at again on the next tick."""
        if self._held_since is not None:
            return 0
        now = self.clock.now()
        applied = 0
        while self.summary is None:
            if self._events and self._events[0].due <= now:
                event = heapq.heappop(self._events)
                if self._run(event):
                    applied += 1
                self._plan(event.due)
            elif self._move_waiting and self._ready():
                if self._move():
                    applied += 1
                self._plan(now)
            else:
                break
        return applied

    def _run(self, event: Event) -> bool:
        state = self.state
        if state.phase == Phase.OVER:
            return False
        if event.kind == EventKind.MOVE:
            if self.players[state.turn] is None:
                self._move_planned = self._move_waiting = False
                return False
            self._move_waiting = True
            return self._ready() and self._move()
        owner = event.target if event.kind == EventKind.CATCH else event.seat
        if not state.dos_open >> owner & 1 or self._epoch[owner] != event.epoch:
            return False  # that obligation was called, caught or closed meanwhile
        written = None if event.seat == state.turn else event.seat
        if event.kind == EventKind.CALL:
            action = Action(Kind.CALL, seat=written)
        else:
            action = Action(Kind.CATCH, target=owner, seat=written)
        self._apply(action, event.seat)
        return True

    def _ready(self) -> bool:
        return self._thought is not None and self._thought.decision.done()

    def _move(self) -> bool:
        """Makes the due move with its ready decision, if that decision is still current."""
        thought = self._thought
        assert thought is not None
        self._thought = None
        if thought.version != self._version or thought.seat != self.state.turn:
            return False  # stale: ``_plan`` has the bot think again
        self._move_planned = self._move_waiting = False
        choice = thought.decision.result()  # a bot's error is raised here, as it was made
        self._apply(choice, thought.seat)
        self.rngs[thought.seat] = thought.rng
        return True

    def _think(self, seat: int) -> None:
        """Starts ``seat``'s decision on the state as it is now, unless it is under way."""
        thought = self._thought
        if thought is not None and (thought.seat, thought.version) == (seat, self._version):
            return
        self._drop_thought()
        player = self.players[seat]
        assert player is not None
        rng = self._rng_copy(seat)
        choose = partial(player.bot.choose, view(self.state, seat), rng, player.budget)
        decision = decide(choose, self.thinker)
        self._thought = Thought(seat, self._version, rng, decision)

    def _drop_thought(self) -> None:
        """Forgets the decision under way (one already running ends unheard)."""
        if self._thought is not None:
            self._thought.decision.cancel()
            self._thought = None

    def _schedule(self, due: float, kind: EventKind, seat: int, target: int = -1) -> None:
        epoch = self._epoch[target if kind == EventKind.CATCH else seat]
        self._order += 1
        heapq.heappush(self._events, Event(due, self._order, kind, seat, target, epoch))

    def _plan(self, now: float) -> None:
        """Schedules what the bots do next: DOS reflexes for new obligations, and a move when
        a bot is to act."""
        state = self.state
        if self.summary is not None or state.phase == Phase.OVER:
            return
        for seat, hand in enumerate(state.hands):
            if tuple(hand) != self._hands[seat]:
                self._raced &= ~(1 << seat)  # a changed hand may hold a new obligation
        self._raced &= state.dos_open
        fresh = state.dos_open & ~self._raced
        for seat in range(state.players):
            if fresh >> seat & 1:
                self._epoch[seat] += 1
                self._race(now, seat)
        self._raced |= fresh
        self._hands = [tuple(h) for h in state.hands]
        if self.players[state.turn] is None:
            self._drop_thought()
            return
        if not self._move_planned:
            self._move_planned = True
            self._schedule(now + self.timing.bot_move, EventKind.MOVE, state.turn)
        self._think(state.turn)  # during the pause before the move

    def _race(self, now: float, seat: int) -> None:
        """Schedules the bots' side of the race for ``seat``'s new obligation."""
        count = self.state.players
        owner = self.players[seat]
        if owner is not None:
            delay = owner.reflex.call_delay(self.race)
            if delay is not None:
                self._schedule(now + delay, EventKind.CALL, seat)
        for step in range(1, count):
            catcher = (seat + step) % count
            player = self.players[catcher]
            if player is None:
                continue
            delay = player.reflex.catch_delay(self.race)
            if delay is not None:
                self._schedule(now + delay, EventKind.CATCH, catcher, seat)

    # --- applying --------------------------------------------------------------------------

    def _apply(self, action: Action, seat: int) -> None:
        state = self.state
        before = Before(tuple(state.center), state.turn, state.phase)
        turn, doubles = state.turn, state.double_bonuses
        hand_before = Counter(state.hands[seat])
        apply(state, action)  # raises and changes nothing if illegal
        self._version += 1
        drawn = None
        if action.kind == Kind.DRAW and seat == HUMAN:
            new = Counter(state.hands[seat]) - hand_before
            drawn = next(iter(new), None)
        if action.kind == Kind.DRAW and len(state.hands[seat]) == hand_before.total():
            # both piles were empty: the turn goes on as after a draw (RULES.md §3)
            self.log.append(text(self.lang, "game.log_draw_empty", player=self.names[seat]))
        else:
            self.log.append(describe(self.lang, action, before, self.names, drawn))
        if doubles and (state.turn != turn or len(state.round_results) > self._rounds_seen):
            self.log.append(text(self.lang, "game.log_bonus_draw"))
        if len(state.round_results) > self._rounds_seen:
            self._rounds_seen = len(state.round_results)
            result = state.round_results[-1]
            self.summary = result
            self._events.clear()
            self._move_planned = self._move_waiting = False
            self._drop_thought()
            self._raced = 0
            self._hands = [tuple(h) for h in state.hands]
            self.log.append(
                text(
                    self.lang,
                    "game.log_round_won",
                    player=self.names[result.winner],
                    points=result.points,
                )
            )
            if state.phase == Phase.OVER and state.winner is not None:
                self.log.append(
                    text(
                        self.lang,
                        "game.log_game_won",
                        player=self.names[state.winner],
                        points=state.scores[state.winner],
                    )
                )

    def _log_round_start(self) -> None:
        if self.state.phase == Phase.OVER:
            return
        self.log.append(
            text(
                self.lang,
                "game.log_round_start",
                round=self.state.round,
                dealer=self.names[self.state.dealer],
            )
        )
