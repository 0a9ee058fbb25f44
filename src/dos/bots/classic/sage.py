"""``sage`` for the classic rule set: determinized flat search with inference, rolled out by
greedy players on the compiled core; the strongest classic bot (the ``expert`` level).

The method
----------
**Inference from the public history** (``hand_constraints``). In classic, "if you can play,
you must" (RULES.md §9): a player who draws without a pending penalty held *no* card that fit
the top card then, so none of that colour, none of that number or symbol, no Wild Draw Four,
and no Wild unless the top card was a Wild. The bot replays the public history (plays, draws,
reaction tests, as every seat sees them) and keeps, for each other player, one *exclusion
mask* per card in the hand: the card types that card provably is not. A draw adds the types
that fitted to every card the player held then, and gives the drawn card an empty mask; a
play takes out the card with the largest mask that allows the card played (masks are nested,
older cards exclude more, so this keeps only what is certain). Penalty draws and failed
reaction tests add cards with empty masks. Where the history cannot be replayed (a game
loaded from a position), nothing is inferred.

Two more inferences assume the opponents play like ``greedy`` (settings ``stackers`` and
``tries``): a player who draws a pending penalty held nothing that would have stacked
(``greedy`` always stacks), and its plays since a card last came into its hand (its hand
before each is its hand now plus the cards it played since) are the plays ``greedy`` would
have made from that hand (``greedy_consistent``).

**Determinization** (``deal_hidden``): every iteration deals the cards the seat has not seen
(the deck less its hand and the face-up discard pile) to the other hands, each card allowed
by its mask (the most constrained first, each a uniform pick among the allowed cards left),
then the draw pile. A deal that the greedy opponent model contradicts is dealt again, up to
``tries`` deals in all (the last one is kept if none agrees).

**Flat search with common random numbers**: on each sample *every* legal action (each wish of
a wild its own action) is played and the game is played on to the seat's place by simulated
players who all play like ``greedy`` (the opponent model: ``greedy`` is also what the search
improves on) and pass every reaction test. So two actions are compared on the same hidden
cards, the same future draws and the same opponent, and the search is a one-step policy
improvement of ``greedy``. The reward is the seat's place scaled to ``[0, 1]`` (two players:
1 for a win, 0 for a loss).

**The greedy prior**: ``greedy``'s own choice is kept unless the best action by mean reward
beats it by more than ``confidence`` standard errors of the *paired* differences (the same
samples). The default confidence is 0 (measured best: ``docs/classic.md``): the prior then
only decides ties and an advantage that is not positive.

Simulations run on the compiled fast core (``dos.fast.classic_rollout``, numba) when it is
installed; without it, on the Python engine with ``ClassicGreedyBot`` itself: the same samples
and the same actions, so the same answers, only much slower (setting ``fast``).

One *iteration* is one determinization, on which every candidate action is simulated once.
The search stops after ``budget.iterations`` iterations or ``budget.seconds`` of wall time
(``budget.clock``, looked at every ``CLOCK_EVERY`` iterations), whichever comes first; with
neither, its ``iterations`` setting. The clock starts once the compiled simulations are ready
(``warm_up``: compiling them, or loading them from the disk cache, takes seconds once per
process, and is not the search's time). Limited by iterations only, the same view and generator
give the same action. A single legal action is returned at once; the reaction test is a
reflex (``ReactionReflex``), never searched.

Its measured strength, its speed and how each of its parts was chosen (the ablations):
``docs/classic.md``, Bots.

>>> from dos.rules.classic import new_game, view
>>> state = new_game(seed=5)
>>> v = view(state, state.turn)
>>> ClassicSageBot().choose(v, random.Random(1), Budget(iterations=20)) in v.legal
True
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from dos.bots.base import Budget
from dos.bots.classic.base import ReactionReflex, reaction_answer
from dos.bots.classic.greedy import ClassicGreedyBot, GreedyWeights
from dos.bots.classic.mcts import dealt_state, unseen_cards
from dos.bots.paired import paired_advantage
from dos.rules.classic import Action, Kind, Phase, SeatView, State, apply, new_game, view
from dos.rules.classic.actions import react
from dos.rules.classic.cards import (
    COLOUR,
    IS_DRAW_TWO,
    IS_WILD,
    N_TYPES,
    RANK,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR,
)
from dos.rules.classic.legal import _PLAYS, playable
from dos.rules.classic.setup import HAND_SIZE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DEFAULT_ITERATIONS: Final = 200
CLOCK_EVERY: Final = 8
"""Iterations between two looks at the clock."""
MAX_ROLLOUT_ACTIONS: Final = 2000
"""A safety net: a simulation is cut after this many actions (reward ``CUT_REWARD``)."""
CUT_REWARD: Final = 0.5

_FITS: Final = {
    (top, colour): sum(1 << card for card in range(N_TYPES) if playable(card, top, colour, 0))
    for top in range(N_TYPES)
    for colour in range(4)
}
"""The card types that may be played on ``top`` with ``colour`` to follow and no pending
draw, as a bit mask."""
_STACKS: Final = {
    (top, colour): sum(1 << card for card in range(N_TYPES) if playable(card, top, colour, 2))
    for top in range(N_TYPES)
    for colour in range(4)
}
"""The card types that stack on ``top`` with ``colour`` to follow and a pending draw."""


# --- inference ---------------------------------------------------------------------------


def _take_out(masks: list[int], card: int) -> None:
    """Removes the card played from a hand of exclusion masks: the one with the largest mask
    that allows ``card`` (masks are nested, so this keeps only certain exclusions)."""
    best = -1
    for index, mask in enumerate(masks):
        if not mask >> card & 1 and (best < 0 or mask.bit_count() > masks[best].bit_count()):
            best = index
    if best < 0:  # the history contradicts the masks: keep nothing certain of this hand
        masks[:] = [0] * len(masks)
        best = 0
    del masks[best]


@dataclass(frozen=True, slots=True)
class Play:
    """A card another player played, with what its ``greedy`` judgement saw: the top card,
    the colour to follow, the pending draw, the hand sizes, the direction and the ranking."""

    seat: int
    action: Action
    top: int
    colour: int
    pending: int
    hand_sizes: tuple[int, ...]
    direction: int
    ranking: tuple[int, ...]


@dataclass(slots=True)
class Inference:
    """What the public history tells about the other hands (``infer``).

    ``masks[seat]``: one exclusion mask per card in the seat's hand, bit ``t`` set when that
    card provably is not of type ``t``. ``plays[seat]``: the seat's plays since a card last
    came into its hand, oldest first (its hand before each is its hand now plus the cards
    it played since)."""

    masks: list[list[int]]
    plays: list[list[Play]]


def hand_constraints(view: SeatView, stackers: bool = False) -> list[list[int]]:
    """For every seat, one exclusion mask per card in its hand: bit ``t`` set when that card
    provably is not of type ``t`` (see the module docstring). The seat's own entry, and any
    hand whose history cannot be replayed, has only empty masks. ``stackers``: a player who
    draws a pending penalty is taken to hold nothing that would have stacked (true of
    ``greedy``, not a rule).

    >>> from dos.rules.classic import from_position, view, apply, parse_action
    >>> state = from_position({"players": 2, "turn": 0, "hands": [["B7", "G5"],
    ...     ["R1", "R2", "R3"]], "draw_pile": ["G9", "Y1"], "discard": ["B5"]})
    >>> [len(masks) for masks in hand_constraints(view(state, 1))]
    [2, 3]
    """
    return infer(view, stackers).masks


def infer(view: SeatView, stackers: bool = False) -> Inference:
    """Replays the public history (see ``Inference`` and ``hand_constraints``)."""
    empty = Inference([[0] * size for size in view.hand_sizes], [[] for _ in view.hand_sizes])
    if view.phase == Phase.OVER:
        return empty
    options = view.options
    players = options.players
    history = view.history
    hands = [[0] * HAND_SIZE for _ in range(players)]
    plays: list[list[Play]] = [[] for _ in range(players)]
    count = sum(1 for action in history if action.kind == Kind.PLAY)
    top = view.discard[0] if count == len(view.discard) - 1 else -1
    colour = COLOUR[top] if top >= 0 else -1
    turn = view.starter
    direction = 1
    pending = 0
    ranking: list[int] = []
    testing = 0
    after = -1

    def following(seat: int, steps: int) -> int:
        while steps:
            seat = (seat + direction) % players
            if seat not in ranking:
                steps -= 1
        return seat

    for action in history:
        kind = action.kind
        hand = hands[turn]
        if testing:
            if kind not in (Kind.REACT, Kind.TIMEOUT):
                return empty
            passed = (
                kind == Kind.REACT
                and action.hits == testing
                and action.ms <= options.reaction_time_ms
            )
            if not passed:
                hand.extend([0] * options.penalty_cards)
                plays[turn].clear()
            testing = 0
            turn = after
        elif kind == Kind.PLAY:
            card = action.card
            if not hand:
                return empty
            if top >= 0:
                sizes = tuple(len(h) for h in hands)
                plays[turn].append(
                    Play(turn, action, top, colour, pending, sizes, direction, tuple(ranking))
                )
            _take_out(hand, card)
            top = card
            colour = action.wish if IS_WILD[card] else COLOUR[card]
            playing = players - len(ranking)
            skip = False
            if IS_DRAW_TWO[card]:
                pending += 2
            elif card == WILD_DRAW_FOUR:
                pending += 4
            elif RANK[card] == SKIP and not IS_WILD[card]:
                skip = True
            elif RANK[card] == REVERSE and not IS_WILD[card]:
                direction = -direction
                skip = playing == 2
            if not hand:
                ranking.append(turn)
                if playing == 2:
                    return empty  # the game is over
            nxt = following(turn, 2 if skip else 1)
            if len(hand) in (1, 2):
                testing = len(hand)
                after = nxt
            else:
                turn = nxt
        elif kind == Kind.DRAW:
            if pending:
                if stackers and top >= 0 and options.stacking:
                    stacks = _STACKS[top, colour]
                    hand[:] = [mask | stacks for mask in hand]
                hand.extend([0] * pending)
                pending = 0
            else:
                if top >= 0:
                    fits = _FITS[top, colour]
                    hand[:] = [mask | fits for mask in hand]
                hand.append(0)
            plays[turn].clear()
            turn = following(turn, 1)
        else:
            return empty
    consistent = (
        turn == view.turn
        and direction == view.direction
        and pending == view.pending
        and ranking == list(view.ranking)
        and bool(testing) == (view.phase == Phase.REACTION)
    )
    if not consistent:
        return empty
    for seat, size in enumerate(view.hand_sizes):
        # A draw from empty piles gives less than the replay counts: then nothing is certain.
        if seat == view.seat or len(hands[seat]) != size:
            hands[seat] = [0] * size
            plays[seat] = []
    return Inference(hands, plays)


def greedy_agrees(greedy: ClassicGreedyBot, view: SeatView, held: list[int], play: Play) -> bool:
    """Whether ``greedy`` holding ``held`` before ``play`` would have made it."""
    hand = tuple(sorted(held))
    legal = tuple(
        action
        for card in dict.fromkeys(hand)
        if playable(card, play.top, play.colour, play.pending, view.options.stacking)
        for action in _PLAYS[card]
    )
    seen = SeatView(
        seat=play.seat,
        options=view.options,
        turn=play.seat,
        phase=Phase.PLAY,
        hand=hand,
        hand_sizes=play.hand_sizes,
        discard=(play.top,),
        colour=play.colour,
        direction=play.direction,
        pending=play.pending,
        draw_pile_size=0,
        targets=(),
        ranking=play.ranking,
        starter=view.starter,
        history=(),
        legal=legal,
    )
    return bool(legal) and greedy.choose(seen, random.Random(0), Budget()) == play.action


def greedy_consistent(
    greedy: ClassicGreedyBot, view: SeatView, plays: list[list[Play]], cards: list[int]
) -> bool:
    """Whether every other player, holding the hand the determinization ``cards`` gives it,
    would have made its recent plays as ``greedy`` (the opponent model)."""
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            continue
        mine = plays[seat]
        if mine:
            held = cards[at : at + size]
            for play in reversed(mine):
                held = [*held, play.action.card]
                if not greedy_agrees(greedy, view, held, play):
                    return False
        at += size
    return True


def deal_hidden(
    view: SeatView, masks: list[list[int]], pool: list[int], rng: random.Random
) -> list[int]:
    """A determinization of the hidden cards ``pool``: the other seats' hands in seat order
    (each keeping its size, each card allowed by its mask), then the draw pile, top last.

    >>> from dos.rules.classic import new_game, view
    >>> v = view(new_game(seed=2), 0)
    >>> cards = deal_hidden(v, hand_constraints(v), unseen_cards(v), random.Random(0))
    >>> len(cards) == sum(v.hand_sizes) - len(v.hand) + v.draw_pile_size
    True
    """
    cards = pool[:]
    rng.shuffle(cards)
    seat = view.seat
    constrained = sorted(
        ((-mask.bit_count(), other, mask) for other, hand in enumerate(masks) for mask in hand),
    )
    chosen: list[list[int]] = [[] for _ in masks]
    for negative, other, mask in constrained:
        if not negative or other == seat:
            continue
        # the first allowed card of the shuffled rest; none left allowed: any card
        index = next((i for i, card in enumerate(cards) if not mask >> card & 1), len(cards) - 1)
        chosen[other].append(cards.pop(index))
    dealt: list[int] = []
    at = 0
    for other, size in enumerate(view.hand_sizes):
        if other == seat:
            continue
        free = size - len(chosen[other])
        dealt.extend(chosen[other])
        dealt.extend(cards[at : at + free])
        at += free
    dealt.extend(cards[at:])
    return dealt


# --- the bot -----------------------------------------------------------------------------


class ClassicSageBot:
    """Determinized flat search with inference and greedy opponents (see the module
    docstring).

    Settings: ``iterations`` (determinizations per decision when the budget sets no limit),
    ``confidence`` (how many standard errors of the paired differences an action must beat
    greedy's choice by), ``inference`` (deal the hidden cards consistently with the public
    history), ``stackers`` (a player who drew a pending penalty held nothing that stacked),
    ``tries`` (deals per iteration at most, to find one the greedy opponent model agrees
    with; 1: no opponent model), ``weights`` (the greedy weights of the prior, of the
    opponent model and of every simulated player),
    ``fast`` (simulate on the compiled core; default: when it is installed) and
    ``reaction`` (the reaction-test reflex).
    """

    name = "sage"

    def __init__(
        self,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        confidence: float = 0.0,
        inference: bool = True,
        stackers: bool = True,
        tries: int = 24,
        weights: GreedyWeights | None = None,
        fast: bool | None = None,
        reaction: ReactionReflex | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations: positive")
        self.iterations = iterations
        self.confidence = confidence
        self.inference = inference
        self.stackers = stackers
        self.tries = max(1, tries)
        self.weights = weights or GreedyWeights()
        self.reaction = reaction or ReactionReflex()
        self.fast = fast_installed() if fast is None else fast
        if self.fast and not fast_installed():
            raise ValueError("fast: the fast core is not installed (the `fast` extra)")
        self._greedy = ClassicGreedyBot(weights=self.weights, reaction=self.reaction)
        self._model = ClassicGreedyBot(weights=self.weights)
        self.iterations_done = 0
        """How many determinizations the last ``choose`` simulated (0: no search)."""
        self.means: list[float] = []
        """The last search's mean reward of each legal action (empty: no search)."""

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        self.iterations_done = 0
        self.means = []
        answer = reaction_answer(view, rng, self.reaction)
        if answer is not None:
            return answer
        choices = list(view.legal)
        if len(choices) == 1:
            return choices[0]
        default = choices.index(self._greedy.choose(view, random.Random(0), Budget()))
        limit = budget.iterations
        if limit is None and budget.seconds is None:
            limit = self.iterations
        if self.fast:
            warm_up()
        clock = budget.clock
        deadline = None if budget.seconds is None else clock() + budget.seconds
        known = infer(view, self.stackers) if self.inference else None
        masks = known.masks if known else [[]] * len(view.hand_sizes)
        plays = known.plays if known and self.tries > 1 and any(known.plays) else None
        pool = unseen_cards(view)
        simulator: _Simulator = (
            _FastSimulator(self, view, choices) if self.fast else _PythonSimulator(self, view)
        )
        results: list[list[float]] = [[] for _ in choices]
        done = 0
        while limit is None or done < limit:
            looking = done and done % CLOCK_EVERY == 0
            if deadline is not None and looking and clock() >= deadline:
                break
            cards = deal_hidden(view, masks, pool, rng)
            for _ in range(self.tries - 1 if plays else 0):
                if plays is None or greedy_consistent(self._model, view, plays, cards):
                    break
                cards = deal_hidden(view, masks, pool, rng)
            rewards = simulator.simulate(cards, rng.getrandbits(64), choices)
            for index, reward in enumerate(rewards):
                results[index].append(reward)
            done += 1
        self.iterations_done = done
        self.means = [sum(r) / len(r) for r in results]
        return choices[self._pick(default, results)]

    def _pick(self, default: int, results: list[list[float]]) -> int:
        """The best mean, if its paired advantage over the default is ``confidence``
        standard errors above zero; else the default."""
        means = self.means
        best = max(range(len(means)), key=lambda i: (means[i], -i))
        if best == default:
            return default
        return (
            best if paired_advantage(results[best], results[default], self.confidence) else default
        )


class _Simulator:
    """Plays every candidate on one determinization; the rewards of the searching seat."""

    def simulate(self, cards: list[int], rng_state: int, choices: list[Action]) -> list[float]:
        raise NotImplementedError


class _PythonSimulator(_Simulator):
    """Simulations on the Python engine, simulated players being ``ClassicGreedyBot`` itself."""

    def __init__(self, bot: ClassicSageBot, view: SeatView) -> None:
        self.view = view
        self.greedy = ClassicGreedyBot(weights=bot.weights)

    def simulate(self, cards: list[int], rng_state: int, choices: list[Action]) -> list[float]:
        base = dealt_state(self.view, cards, rng_state)
        seat = self.view.seat
        placed = len(base.ranking)
        active = base.players - placed
        rewards = []
        for action in choices:
            state = base.copy()
            apply(state, action)
            rewards.append(self._rollout(state, seat, placed, active))
        return rewards

    def _rollout(self, state: State, seat: int, placed: int, active: int) -> float:
        """``dos.fast.classic_rollout.rollout`` on the Python engine."""
        rng = random.Random(0)
        budget = Budget()
        for _ in range(MAX_ROLLOUT_ACTIONS + 1):
            if seat in state.ranking:
                place = state.ranking.index(seat)
                return (active - 1 - (place - placed)) / (active - 1)
            if state.phase == Phase.OVER:
                break
            if state.phase == Phase.REACTION:
                action = react(len(state.targets), 0)
            else:
                action = self.greedy.choose(view(state, state.turn), rng, budget)
            apply(state, action)
        return CUT_REWARD


class _FastSimulator(_Simulator):
    """Simulations on the compiled core (``dos.fast.classic_rollout``): the determinization
    is dealt into one flat game, then every candidate is applied to a copy and rolled out."""

    def __init__(self, bot: ClassicSageBot, view: SeatView, choices: list[Action]) -> None:
        import numpy as np

        from dos.fast import classic as fast_classic
        from dos.fast.classic_api import from_python_state

        self.np = np
        self.seat = view.seat
        pool_size = sum(view.hand_sizes) - len(view.hand) + view.draw_pile_size
        self.base = from_python_state(dealt_state(view, [0] * pool_size, 0))
        self.codes = np.array(
            [fast_classic.encode(int(a.kind), -1, a.card, a.wish, 0, 0) for a in choices],
            dtype=np.int64,
        )
        self.weights = weights_array(bot.weights)
        self.rewards = np.zeros(len(choices), dtype=np.float64)

    def simulate(self, cards: list[int], rng_state: int, choices: list[Action]) -> list[float]:
        from dos.fast.classic_rollout import deal, simulate

        np = self.np
        deal(self.base, self.seat, np.array(cards, dtype=np.int64), np.uint64(rng_state))
        simulate(self.base, self.codes, self.weights, self.seat, MAX_ROLLOUT_ACTIONS, self.rewards)
        rewards: list[float] = self.rewards.tolist()
        return rewards


def weights_array(weights: GreedyWeights) -> npt.NDArray[np.float64]:
    """Greedy's weights as the compiled policy reads them (``dos.fast.classic_rollout``)."""
    import numpy as np

    from dos.fast import classic_rollout as cr

    values: dict[int, Any] = {
        cr.KEEP_WILD: weights.keep_wild,
        cr.KEEP_DRAW_FOUR: weights.keep_draw_four,
        cr.COLOUR_FLOW: weights.colour_flow,
        cr.ATTACK: weights.attack,
        cr.CALM_HAND: weights.calm_hand,
        cr.SHED: weights.shed,
        cr.GO_OUT: weights.go_out,
    }
    return np.array([values[i] for i in range(cr.N_WEIGHTS)], dtype=np.float64)


@functools.cache
def warm_up() -> None:
    """Compiles the fast core's simulations, or loads them from the disk cache, once per
    process (``_FastSimulator``'s, on a new game), so that no search pays for it within its
    time budget."""
    state = new_game(seed=0)
    seen = view(state, state.turn)
    choices = list(seen.legal)
    cards = deal_hidden(seen, [[]] * len(seen.hand_sizes), unseen_cards(seen), random.Random(0))
    _FastSimulator(ClassicSageBot(fast=True), seen, choices).simulate(cards, 0, choices)


def fast_installed() -> bool:
    """Whether the compiled fast core (numba) can be imported."""
    try:
        import dos.fast.classic_rollout  # noqa: F401
    except ImportError:
        return False
    return True
