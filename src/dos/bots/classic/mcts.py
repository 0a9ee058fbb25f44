"""``mcts`` for the classic rule set: determinized flat Monte Carlo search.

The seat cannot see the other hands or the draw pile, so every iteration **determinizes**:
it deals the cards the seat has not seen (the deck less its own hand and the face-up discard
pile) at random into the other hands (each keeping its size) and the draw pile
(``sample_state``). On that sample every legal play is tried (common random numbers: the
same sample for each candidate, so luck cancels out between them) and the game is played on
by a fast heuristic policy until somebody empties their hand or ``horizon`` actions have
passed. A simulation scores 1 if the seat went out first, 0 if another did, and, cut at the
horizon, the seat's share of ``exp(-cards in hand)`` over the seats still playing. The
answer is the candidate with the best mean (ties: the earlier in the legal order).

Why flat rather than a tree: a classic turn is one card, the branching is small (at most the
hand, four wishes per wild), and the hidden hands make deep lines unreliable anyway; a flat
search over many fresh samples is the robust choice at a small budget.

The search respects ``Budget``: it stops after ``budget.iterations`` simulations or
``budget.seconds`` of wall time (``budget.clock``), whichever comes first; with neither, its
``iterations`` setting. Limited by iterations only, the same view and generator give the same
action. The reaction test is a reflex, not searched: inside the search every simulated player
passes it.

>>> from dos.rules.classic import new_game, view
>>> state = new_game(seed=5)
>>> bot = ClassicMctsBot()
>>> v = view(state, state.turn)
>>> bot.choose(v, random.Random(1), Budget(iterations=30)) in v.legal
True
"""

from __future__ import annotations

import math
import random
from collections import Counter

from dos.bots.base import Budget
from dos.bots.classic.base import ReactionReflex, reaction_answer
from dos.bots.classic.greedy import ClassicGreedyBot
from dos.bots.paired import paired_advantage
from dos.rules.classic import Action, Phase, SeatView, State, apply
from dos.rules.classic.actions import DRAW, play, react
from dos.rules.classic.cards import COLOUR, IS_DRAW_TWO, IS_WILD, full_deck
from dos.rules.classic.legal import playable_cards

DEFAULT_ITERATIONS = 200


def unseen_cards(view: SeatView) -> list[int]:
    """The cards the seat has not seen, sorted: the deck less its hand and the discard pile.

    >>> from dos.rules.classic import new_game, view
    >>> len(unseen_cards(view(new_game(seed=1), 0)))
    100
    """
    remaining = Counter(full_deck())
    remaining.subtract(view.hand)
    remaining.subtract(view.discard)
    return sorted(remaining.elements())


def sample_state(view: SeatView, rng: random.Random, pool: list[int] | None = None) -> State:
    """A state that agrees with everything in ``view``, the hidden cards dealt at random.

    >>> from dos.rules.classic import new_game, view
    >>> state = new_game(seed=2)
    >>> sample = sample_state(view(state, 0), random.Random(0))
    >>> sample.hands[0] == state.hands[0], sorted(sample.all_cards()) == sorted(full_deck())
    (True, True)
    """
    cards = (pool if pool is not None else unseen_cards(view))[:]
    rng.shuffle(cards)
    # A loaded position may leave cards out of play: the sample keeps the view's pile size.
    needed = sum(view.hand_sizes) - len(view.hand) + view.draw_pile_size
    return dealt_state(view, cards[:needed], rng.getrandbits(64))


def dealt_state(view: SeatView, cards: list[int], rng_state: int) -> State:
    """The state that agrees with ``view`` whose hidden cards are ``cards`` in order: the
    other hands in seat order (each keeping its size), then the rest as the draw pile, bottom
    first (as ``dos.fast.classic_rollout.deal`` deals them); the game's generator state is
    ``rng_state``."""
    hands: list[list[int]] = []
    start = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(sorted(cards[start : start + size]))
            start += size
    return State(
        options=view.options,
        rng=rng_state,
        hands=hands,
        draw_pile=cards[start:],
        discard=list(view.discard),
        turn=view.turn,
        colour=view.colour,
        direction=view.direction,
        pending=view.pending,
        phase=view.phase,
        targets=view.targets,
        ranking=list(view.ranking),
        starter=view.starter,
    )


class ClassicMctsBot:
    """Determinized flat Monte Carlo search (see the module docstring).

    Settings: ``iterations`` (simulations per decision when the budget sets no limit),
    ``horizon`` (actions a simulation plays before it is cut and estimated), ``reaction``
    (the reaction-test reflex), ``prior`` (``"greedy"``: keep greedy's play unless the search
    finds a better one with confidence; ``None``: the best mean) and ``confidence`` (how
    many standard errors the paired advantage must reach).
    """

    name = "mcts"

    def __init__(
        self,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        horizon: int = 200,
        reaction: ReactionReflex | None = None,
        prior: str | None = "greedy",
        confidence: float = 1.0,
    ) -> None:
        if iterations < 1 or horizon < 1:
            raise ValueError("iterations and horizon: positive")
        if prior not in (None, "greedy"):
            raise ValueError(f"prior: 'greedy' or None, not {prior!r}")
        self.iterations = iterations
        self.horizon = horizon
        self.confidence = confidence
        self.prior = ClassicGreedyBot(reaction=reaction) if prior == "greedy" else None
        self.reaction = reaction or ReactionReflex()
        self.iterations_done = 0
        """How many simulations the last ``choose`` ran (0 when it had a single choice)."""

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        self.iterations_done = 0
        answer = reaction_answer(view, rng, self.reaction)
        if answer is not None:
            return answer
        choices = list(view.legal)
        if len(choices) == 1:
            return choices[0]
        limit = budget.iterations
        if limit is None and budget.seconds is None:
            limit = self.iterations
        clock = budget.clock
        deadline = None if budget.seconds is None else clock() + budget.seconds
        pool = unseen_cards(view)
        results: list[list[float]] = [[] for _ in choices]
        done = 0
        while True:
            if limit is not None and done + len(choices) > max(limit, len(choices)):
                break
            if deadline is not None and done and clock() >= deadline:
                break
            base = sample_state(view, rng, pool)
            for index, action in enumerate(choices):
                state = base.copy()
                apply(state, action)
                results[index].append(self._simulate(state, view.seat, len(view.ranking)))
            done += len(choices)
        self.iterations_done = done
        return choices[self._pick(view, choices, results)]

    def _pick(self, view: SeatView, choices: list[Action], results: list[list[float]]) -> int:
        """The best mean; but the prior's (greedy's) choice is given up only for a choice
        whose paired advantage over it is ``confidence`` standard errors above zero."""
        means = [sum(r) / len(r) if r else 0.0 for r in results]
        best = max(range(len(choices)), key=lambda i: (means[i], -i))
        if self.prior is None:
            return best
        default_action = self.prior.choose(view, random.Random(0), Budget())
        if default_action not in choices:
            return best
        default = choices.index(default_action)
        if best == default:
            return default
        return (
            best if paired_advantage(results[best], results[default], self.confidence) else default
        )

    def _simulate(self, state: State, seat: int, placed: int) -> float:
        """Plays the policy on until a hand empties (the ranking grows beyond ``placed``) or
        the horizon; the seat's reward."""
        for _ in range(self.horizon):
            if len(state.ranking) > placed:
                return 1.0 if state.ranking[placed] == seat else 0.0
            if state.phase == Phase.OVER:
                break
            apply(state, policy(state))
        if len(state.ranking) > placed:
            return 1.0 if state.ranking[placed] == seat else 0.0
        active = state.active()
        weights = {s: math.exp(-len(state.hands[s])) for s in active}
        return weights.get(seat, 0.0) / sum(weights.values())


def policy(state: State) -> Action:
    """The fast simulation policy: pass the reaction test; under a pending draw stack (a Draw
    Two first) or draw; else play a fitting non-wild card of the colour held most, else a wild
    wishing that colour, else draw.

    >>> from dos.rules.classic import new_game
    >>> policy(new_game(seed=1)).kind.name in ("PLAY", "DRAW")
    True
    """
    if state.phase == Phase.REACTION:
        return react(len(state.targets), 0)
    fitting = playable_cards(state)
    if not fitting:
        return DRAW
    hand = state.hands[state.turn]
    counts = [0, 0, 0, 0]
    for card in hand:
        if not IS_WILD[card]:
            counts[COLOUR[card]] += 1
    wish = counts.index(max(counts))
    if state.pending:
        for card in fitting:
            if IS_DRAW_TWO[card]:
                return play(card)
        return play(fitting[0], wish)
    best = -1
    for card in fitting:
        if not IS_WILD[card] and (best < 0 or counts[COLOUR[card]] > counts[COLOUR[best]]):
            best = card
    if best >= 0:
        return play(best)
    return play(fitting[0], wish)
