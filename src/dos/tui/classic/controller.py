"""One classic game (RULES.md §9) against classic bots in real time, free of any screen.

The controller owns the game's ``State`` and changes it only through the engine's ``apply``.
It reads the time from an injectable ``Clock`` and never sleeps: ``tick`` makes whatever is
due, so tests drive a whole game by moving a ``ManualClock``.

* A bot's move is made ``Timing.bot_move`` seconds after its turn began, once its decision is
  ready (with a ``thinker``, an executor, the bot thinks there, on immutable views and a copy
  of its generator; without one, at once on the caller's thread).
* A bot's reaction test is its reflex (``dos.bots.classic.base.ReactionReflex``): its answer
  ``react H Tms`` is applied after ``T`` milliseconds, or at the time limit when it fails, so
  that the bots are seen to react.
* The person's reaction test is a ``dos.rules.classic.ReactionTest`` made from the view's
  targets on the controller's clock when the targets are shown; the person's hits (``hit``,
  ``click``) go to it, and its action (``react H Tms`` or ``timeout``) is applied as soon as
  every target is hit or the time has run out.

Everything random comes from the seed: the deal and the targets (the engine) and each bot's
generator (``seeds.generator(seed, "seat", n)``, derived one way: ``dos.seeds``), as in
``dos.play.classic``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from functools import partial

from dos import records
from dos.bots.registry import make_player
from dos.errors import DosError
from dos.i18n import text
from dos.i18n.explain import explain_classic
from dos.play.classic import ClassicPlayer
from dos.rules.classic import (
    Action,
    Kind,
    Options,
    Phase,
    ReactionTest,
    State,
    apply,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from dos.rules.classic.actions import play
from dos.rules.classic.cards import IS_WILD
from dos.tui.classic.replay import ClassicReplay
from dos.tui.classic.words import Before, log_lines, log_start
from dos.tui.clock import Clock
from dos.tui.controller import (
    HUMAN,
    LiveGame,
    Outcome,
    Timing,
    decide,
    resumable,
    resumed_at,
)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's action under way, planned at ``started``: ``seat`` acts at ``due`` (clock time)
    on the state at ``version`` with ``decision``; ``rng`` becomes the seat's generator once
    it is applied; ``reaction``: it answers a reaction test shown at ``started``."""

    seat: int
    version: int
    started: float
    due: float
    rng: random.Random
    decision: Future[Action]
    reaction: bool


class ClassicController(LiveGame):
    """A game of classic DOS between the person (seat 0) and classic bots, in real time."""

    rules = "classic"

    def __init__(
        self,
        *,
        players: int = 2,
        level: str = "medium",
        seed: int = 0,
        lang: str = "en",
        clock: Clock | None = None,
        timing: Timing | None = None,
        options: Options | None = None,
        state: State | None = None,
        bots: Sequence[ClassicPlayer] | None = None,
        thinker: Executor | None = None,
        resumed: bool = False,
    ) -> None:
        """A new game (``players`` or ``options``, bots of ``level``, ``seed``), or the game
        ``state`` goes on. ``bots`` replaces the level's bots (seats 1, 2, …). ``resumed``:
        ``state`` is a saved game's, whose bots' generators are seeded anew from the seed and
        the number of actions (``resumed_at``), as in the official game."""
        if state is None and options is None and not 2 <= players <= 4:
            raise ValueError(f"players: 2 to 4, not {players}")
        super().__init__(
            seed=seed, level=level, lang=lang, clock=clock, timing=timing, thinker=thinker
        )
        self.state: State = state or new_game(options or Options(players=players), seed)
        count = self.state.options.players
        if bots is not None and len(bots) != count - 1:
            raise ValueError(f"bots: {count - 1} needed, {len(bots)} given")
        seated = (
            list(bots)
            if bots is not None
            else [make_player(level, "classic") for _ in range(1, count)]
        )
        self.players: list[ClassicPlayer | None] = [None, *seated]
        self._seat(count, resumed_at(len(self.state.history)) if resumed else ())
        self.reaction: ReactionTest | None = None
        """The person's reaction test while it runs."""
        self._bot: BotTurn | None = None
        self.log.append(log_start(lang, self.names, self.state))
        self._plan(self.clock.now())

    # --- reading -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the ranking is complete."""
        return self.state.phase == Phase.OVER

    @property
    def human_turn(self) -> bool:
        """Whether the person is to play a card or draw."""
        return not self.over and self.state.turn == HUMAN and self.state.phase == Phase.PLAY

    @property
    def reacting(self) -> bool:
        """Whether the person is taking the reaction test."""
        return self.reaction is not None

    @property
    def bot_reacting(self) -> int | None:
        """The bot seat taking the reaction test, if one is."""
        state = self.state
        if state.phase == Phase.REACTION and state.turn != HUMAN:
            return state.turn
        return None

    @property
    def thinking(self) -> int | None:
        """The bot seat whose move is under way (thinking, or waiting for its moment)."""
        bot = self._bot
        return None if bot is None or bot.reaction else bot.seat

    def legal(self) -> list[Action]:
        """The person's legal plays and draws now (none outside their turn)."""
        if not self.human_turn:
            return []
        return legal_actions(self.state, HUMAN)

    def remaining(self) -> float | None:
        """Seconds left in the reaction test under way (the person's or a bot's): the
        countdown; ``None`` when none runs."""
        if self.reaction is not None:
            return self.reaction.remaining()
        if self._bot is not None and self._bot.reaction:
            limit = self.state.options.reaction_time_ms / 1000
            return max(0.0, limit - (self._now() - self._bot.started))
        return None

    def record(self) -> records.Record:
        """The game so far as a game record (``dos.records``), for ``dos replay``."""
        return records.record_of("classic", self.state, seed=self.seed, players=self.names)

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
    ) -> ClassicController:
        """A saved classic game, replayed (every action checked), its log rebuilt, and ready
        to go on. A reaction test under way when the game was saved starts again, with a
        fresh countdown (the targets are the engine's, the same as before); the hits made
        before the save are not kept."""
        refusal = "only classic games started from a seed can be resumed here"
        seed, names = resumable(record, "classic", refusal, lang)
        earlier = ClassicReplay(record, lang, names, seen_by=HUMAN)
        earlier.go(len(record.actions))
        game = cls(
            seed=seed,
            level=level,
            lang=lang,
            clock=clock,
            timing=timing,
            state=earlier.state.copy(),
            thinker=thinker,
            resumed=True,
        )
        game.log[:] = earlier.log  # the game so far, in words
        return game

    # --- the person's actions --------------------------------------------------------------

    def submit(self, action: Action) -> Outcome:
        """Applies the person's play or draw, or explains in words why it is not allowed."""
        if action.seat not in (None, HUMAN) or action.kind in (Kind.REACT, Kind.TIMEOUT):
            # the person's reaction is measured here (``hit``, ``click``), never typed
            return self._refuse(explain_classic(self.lang, self.state, HUMAN, action))
        if self.over or self.state.turn != HUMAN:
            return self._refuse(explain_classic(self.lang, self.state, HUMAN, action))
        try:
            self._apply(action._replace(seat=None), HUMAN)
        except DosError:  # illegal here: the state is unchanged
            return self._refuse(explain_classic(self.lang, self.state, HUMAN, action))
        self.message = None
        self._plan(self.clock.now())
        return Outcome()

    def submit_text(self, notation: str) -> Outcome:
        """The person's action written in notation (``R7``, ``W=G``, ``draw``)."""
        try:
            action = parse_action(notation)
        except DosError:
            return self._refuse(text(self.lang, "classic.err_cannot_read", text=notation.strip()))
        return self.submit(action)

    def play_card(self, card: int, wish: int | None = None) -> Outcome:
        """Plays ``card`` (a wild with the ``wish``ed colour)."""
        if IS_WILD[card] and wish is None:
            raise ValueError("a wild is played with a wished colour")
        return self.submit(play(card, wish if IS_WILD[card] and wish is not None else -1))

    def draw(self) -> Outcome:
        """Draws a card, or the pending cards."""
        return self.submit(Action(Kind.DRAW))

    def hit(self, index: int) -> bool:
        """The person hits target ``index`` (a key, or a click on its square): a click at its
        centre. Returns whether it counted."""
        test = self.reaction
        if test is None or not 0 <= index < len(test.targets):
            return False
        x, y = test.targets[index]
        return self.click(x, y)

    def click(self, x: float, y: float) -> bool:
        """A click in the play area at ``(x, y)`` (fractions of its width and height).
        Returns whether it hit a target; the test is answered once it is done."""
        test = self.reaction
        if test is None or self._held_since is not None:
            return False
        hit = test.click(x, y)
        self.tick()
        return hit

    # --- time ------------------------------------------------------------------------------

    def release(self) -> None:
        """Starts the game's clock again after ``hold``."""
        if self._held_since is None:
            return
        delay = self.clock.now() - self._held_since
        self._held_since = None
        if self.reaction is not None:
            self.reaction.started += delay
            if self.reaction.last_hit is not None:
                self.reaction.last_hit += delay
        if self._bot is not None:
            bot = self._bot
            self._bot = BotTurn(
                bot.seat,
                bot.version,
                bot.started + delay,
                bot.due + delay,
                bot.rng,
                bot.decision,
                bot.reaction,
            )

    def _now(self) -> float:
        return self._held_since if self._held_since is not None else self.clock.now()

    def tick(self) -> int:
        """Makes whatever is due: the person's finished reaction test, a bot's move or
        reaction whose time has come and whose decision is ready. Returns how many actions
        were applied; never waits."""
        if self._held_since is not None:
            return 0
        applied = 0
        while not self.over:
            now = self.clock.now()
            test = self.reaction
            if test is not None:
                if not test.done():
                    break
                self.reaction = None
                self._apply(test.action(), HUMAN)
            elif self._bot is not None and self._bot.due <= now and self._bot.decision.done():
                bot = self._bot
                self._bot = None
                if bot.version != self._version or bot.seat != self.state.turn:
                    self._plan(now)  # stale: think again
                    continue
                self._apply(bot.decision.result(), bot.seat)
                self.rngs[bot.seat] = bot.rng
            else:
                break
            applied += 1
            self._plan(now)
        return applied

    def _plan(self, now: float) -> None:
        """Starts what comes next: the person's reaction test, or a bot's move or reaction."""
        state = self.state
        if state.phase == Phase.OVER:
            self._drop()
            return
        seat = state.turn
        if seat == HUMAN:
            self._drop()
            if state.phase == Phase.REACTION and self.reaction is None:
                shown = view(state, HUMAN).to_json()["reaction"]
                self.reaction = ReactionTest.from_view(shown, clock=self.clock.now)
            return
        bot = self._bot
        if bot is not None and (bot.seat, bot.version) == (seat, self._version):
            return
        self._drop()
        player = self.players[seat]
        assert player is not None
        rng = self._rng_copy(seat)
        choose = partial(player.bot.choose, view(state, seat), rng, player.budget)
        decision: Future[Action] = Future()
        if state.phase == Phase.REACTION:
            # a reflex, not a search: answered at once, applied when the bot has reacted
            decision.set_result(choose())
            answer = decision.result()
            limit = state.options.reaction_time_ms
            passed = (
                answer.kind == Kind.REACT
                and answer.hits == len(state.targets)
                and answer.ms <= limit
            )
            delay = (answer.ms if passed else limit) / 1000
            self._bot = BotTurn(seat, self._version, now, now + delay, rng, decision, True)
            return
        decision = decide(choose, self.thinker)
        due = now + self.timing.bot_move
        self._bot = BotTurn(seat, self._version, now, due, rng, decision, False)

    def _drop(self) -> None:
        if self._bot is not None:
            self._bot.decision.cancel()
            self._bot = None

    # --- applying --------------------------------------------------------------------------

    def _apply(self, action: Action, seat: int) -> None:
        state = self.state
        before = Before.of(state, seat)
        apply(state, action)  # raises and changes nothing if illegal
        self._version += 1
        self.log += log_lines(self.lang, self.names, before, action, state, seen=seat == HUMAN)
