"""``mcts``: a Monte Carlo search bot for official DOS, a game of hidden information.

What it searches
----------------
A seat sees its own hand and the public facts; the other hands and the order of the draw pile
are hidden. Every simulation therefore starts from a *determinization*: a full state that
agrees with everything the seat has seen, the hidden cards dealt at random from the cards it
has not seen (``dos.bots.determinize.Sampler``). The search only branches on **turn
actions**: DOS calls and catches are reflexes outside the bot, and inside a simulation every
open obligation is called at once, so nobody is ever caught there.

Two searches (setting ``search``):

``"flat"`` (the default, and the ``hard`` level): determinized Monte Carlo search at the root.
    Each determinization is shared by *every* candidate action (common random numbers: the
    same hidden cards, the same future draws, a deterministic rollout policy, so two actions
    are compared on identical luck). Candidates are pruned by **sequential halving** (Karnin,
    Koren & Somekh 2013): each round keeps the better half, so most simulations go to the few
    actions worth telling apart. With ``prior="greedy"`` (the default) the rule-based
    ``greedy`` bot's choice is the default action: it always survives the halving, and the
    search gives it up only for an action whose *paired* advantage over it is more than
    ``confidence`` standard errors above zero. The search is then a policy improvement of
    ``greedy``: a round of DOS swings on the cards drawn, the values of the best actions
    differ by far less than one simulation's noise, and acting on that noise loses to a good
    rule; the prior keeps the search from doing so. Its measured strength: the README's
    strength table and ``docs/results/mcts-vs-greedy-2p.txt``.

``"ismcts"``: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012). Each
    iteration samples a determinization and walks one tree keyed by actions, using only the
    actions legal in that sample, with UCB over *availability* counts; each node keeps its
    statistics from the point of view of the player who chose the action leading to it (max-n,
    2-10 seats). ``determinizations=k`` turns it into determinized UCT (``k`` fixed samples,
    a tree each, visits summed). At these budgets it played no better than ``greedy``.

Simulations play a fast heuristic policy (``rollout="heuristic"``): the best match by cards
shed, colour bonus and points, more matches while there are any, else draw; after a fruitless
draw lay, and for a bonus place, the highest-point number card. They stop when the round ends,
or after ``horizon`` turns, and score the round from each seat's point of view:

* the round's winner ``w`` scored ``P`` points with ``D = target - score_w`` still to go; its
  progress is ``min(1, P / D)``; its reward is
  ``0.5 + 0.5 * (round_weight + (1 - round_weight) * progress)`` and every other seat gets
  ``1 -`` that. A round that decides the game gives exactly 1 to its winner and 0 to the rest;
* cut at the horizon, each seat's chance to go out first is estimated from the hand sizes
  (``exp(-hand_size)``, normalised) and the rewards are the expectation of the above.

Rollouts run on the compiled fast core (``dos.fast.official_rollout``) when it is installed and the
rollout is the deterministic heuristic one to the end of the round (setting ``fast``): it
plays the very same actions, so the search gives the same answers, only sooner.

The search respects ``Budget``: it stops after ``budget.iterations`` iterations or
``budget.seconds`` of wall time (``budget.clock``, checked every few iterations), whichever
comes first; with neither, ``iterations`` (the bot's setting). The clock starts once the
compiled rollouts are ready (``warm_up``: compiling them, or loading them from the disk cache,
takes seconds once per process, and is not the search's time). Limited by iterations only, the
same view and generator give the same action. With a single legal turn action the bot answers
at once. The answer is the root action visited most (ties: the better mean reward).

>>> from dos.rules.official import new_game, view
>>> state = new_game(seed=5)
>>> bot = MctsBot(search="ismcts")
>>> v = view(state, state.turn)
>>> bot.choose(v, random.Random(1), Budget(iterations=20)) in v.legal
True
>>> bot.iterations_done
20
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Final

from dos.bots.base import Budget, turn_choices
from dos.bots.determinize import Sampler
from dos.bots.paired import paired_advantage
from dos.rules.official import (
    Action,
    Kind,
    Options,
    Phase,
    SeatView,
    State,
    apply,
    new_game,
    view,
)
from dos.rules.official.cards import IS_WILD, N_TYPES, POINTS
from dos.rules.official.legal import matches, turn_actions
from dos.rules.official.matching import PAIR_BONUS, SINGLE_BONUS

DEFAULT_ITERATIONS: Final = 400
CLOCK_EVERY: Final = 4
"""Iterations between two looks at the clock."""
MAX_ROLLOUT_ACTIONS: Final = 2000
"""A safety net: no simulated round is played further than this many actions."""

_DRAW: Final = Action(Kind.DRAW)
_END: Final = Action(Kind.END)
_LAYS: Final = tuple(Action(Kind.LAY, (card,)) for card in range(N_TYPES))
_PLACES: Final = tuple(Action(Kind.PLACE, (card,)) for card in range(N_TYPES))
_CALLS: Final = tuple(Action(Kind.CALL, seat=seat) for seat in range(64))
_SELF_CALL: Final = Action(Kind.CALL)
_OVER: Final = Phase.OVER
_PLACING: Final = Phase.PLACING

# How a simulated player rates a match (heuristic rollout policy, RULES.md §3-§4): every card
# shed, every colour bonus (a placement: one more card shed; a double makes the others draw),
# the points shed, and a small reluctance to spend a wild.
_LAY_RANK: Final = tuple((0 if IS_WILD[card] else 100) + POINTS[card] for card in range(N_TYPES))
"""Which card to lay or place: number cards before wilds, high points first."""


class _Node:
    """A node of the search tree: the action that led here was chosen by ``player``."""

    __slots__ = ("avail", "children", "player", "visits", "wins")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.wins = 0.0
        self.avail = 1
        self.children: dict[Action, _Node] = {}


class MctsBot:
    """Monte Carlo search over determinizations (see the module docstring).

    Settings: ``search`` (``"flat"`` or ``"ismcts"``); ``prior`` (``"greedy"``, ``"policy"`` or
    ``None``: the flat search's default action); ``confidence`` (standard errors by which an
    action must beat the default); ``exploration`` (UCB constant, rewards are in [0, 1]);
    ``iterations`` (used when the budget sets no limit); ``determinizations`` (0: ISMCTS, a
    fresh sample every iteration; ``k`` > 0: determinized UCT with ``k`` fixed samples, one tree
    each, visits summed); ``rollout`` (``"heuristic"`` or ``"random"``); ``epsilon`` (chance
    that a heuristic rollout step is uniformly random instead); ``horizon`` (turns a simulation
    plays before it is cut and estimated; ``None``: to the end of the round); ``round_weight``
    (share of a round's reward for going out at all, the rest is for the points it brings
    towards the target); ``fast`` (rollouts on the compiled core; ``None``: when installed).
    """

    name = "mcts"

    def __init__(
        self,
        *,
        exploration: float = 0.7,
        iterations: int = DEFAULT_ITERATIONS,
        determinizations: int = 0,
        rollout: str = "heuristic",
        epsilon: float = 0.0,
        horizon: int | None = None,
        round_weight: float = 0.5,
        search: str = "flat",
        prior: str | None = "greedy",
        confidence: float = 1.0,
        fast: bool | None = None,
    ) -> None:
        if prior not in (None, "greedy", "policy"):
            raise ValueError(f"prior: 'greedy', 'policy' or None, not {prior!r}")
        if search not in ("ismcts", "flat"):
            raise ValueError(f"search: 'ismcts' or 'flat', not {search!r}")
        if rollout not in ("heuristic", "random", "greedy"):
            raise ValueError(f"rollout: 'heuristic', 'greedy' or 'random', not {rollout!r}")
        if iterations < 1 or determinizations < 0 or exploration < 0:
            raise ValueError("iterations must be positive, determinizations and exploration >= 0")
        if horizon is not None and horizon < 1:
            raise ValueError("horizon: a positive number of turns, or None")
        if not 0.0 <= round_weight <= 1.0 or not 0.0 <= epsilon <= 1.0:
            raise ValueError("round_weight and epsilon: between 0 and 1")
        self.exploration = exploration
        self.iterations = iterations
        self.determinizations = determinizations
        self.rollout = rollout
        self.epsilon = epsilon
        self.horizon = horizon
        self.round_weight = round_weight
        self.search = search
        self.prior = prior
        self.confidence = confidence
        self.fast = fast_installed() if fast is None else fast
        """Rollouts on the compiled fast core where they would play the same actions."""
        if self.fast and not fast_installed():
            raise ValueError("fast: the fast core is not installed (the `fast` extra)")
        self._target = 200
        self.iterations_done = 0
        """How many iterations the last ``choose`` ran (0 when it had a single choice)."""

    # --- the search ---------------------------------------------------------------------

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        choices = turn_choices(view)
        self.iterations_done = 0
        if len(choices) == 1:
            return choices[0]
        self._target = view.options.target_score
        limit = budget.iterations
        seconds = budget.seconds
        if limit is None and seconds is None:
            limit = self.iterations
        if self.fast:
            warm_up()
        clock = budget.clock
        deadline = None if seconds is None else clock() + seconds
        if self.search == "flat":
            return self._flat(view, choices, rng, limit, seconds, clock=clock)
        trees = max(1, self.determinizations)
        roots = [_Node(view.seat) for _ in range(trees)]
        sampler = self._sampler(view)
        fixed = [sampler.sample(rng) for _ in range(self.determinizations)]
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done % CLOCK_EVERY == 0 and clock() >= deadline:
                break
            if fixed:
                tree = done % trees
                self._iterate(roots[tree], fixed[tree].copy(), view, rng)
            else:
                self._iterate(roots[0], sampler.sample(rng), view, rng)
            done += 1
        self.iterations_done = done
        best = choices[0]
        best_key = (-1, -1.0)
        for action in choices:
            visits = 0
            wins = 0.0
            for root in roots:
                child = root.children.get(action)
                if child is not None:
                    visits += child.visits
                    wins += child.wins
            key = (visits, wins / visits if visits else 0.0)
            if key > best_key:
                best, best_key = action, key
        return best

    def _flat(
        self,
        view: SeatView,
        choices: list[Action],
        rng: random.Random,
        limit: int | None,
        seconds: float | None,
        *,
        clock: Callable[[], float],
    ) -> Action:
        """Sequential halving over the root actions with common random numbers: every
        surviving action is simulated on the same samples; each round keeps the better half.
        The default action (the prior's) always survives, and is given up only for an action
        whose paired advantage over it is ``confidence`` standard errors above zero."""
        began = clock()
        deadline = None if seconds is None else began + seconds
        sampler = self._sampler(view)
        seat = view.seat
        count = len(choices)
        default = self._default(view, choices, sampler)
        results: list[list[float]] = [[] for _ in range(count)]
        alive = list(range(count))
        budget = limit if limit is not None else self.iterations
        rounds = max(1, math.ceil(math.log2(count)))
        done = 0
        timed = limit is None
        scores = view.scores
        start_round = view.round
        fast = None
        if self.fast and self.rollout == "heuristic" and not self.epsilon and not self.horizon:
            fast = _FastFlat(self, choices, view)
        while True:
            per = max(1, budget // (len(alive) * rounds))
            for _ in range(per):
                if limit is not None and done + len(alive) > limit:
                    break
                if deadline is not None and done and clock() >= deadline:
                    break
                base = sampler.sample(rng)
                if base.dos_open:
                    _call_all(base)
                if fast is not None:
                    fast.simulate(base, alive, results)
                    done += len(alive)
                    continue
                for i in alive:
                    state = base.copy()
                    apply(state, choices[i])
                    if state.dos_open:
                        _call_all(state)
                    if state.phase == _OVER:
                        rewards = self._ended(state, scores)
                    else:
                        rewards = self._simulate(state, scores, start_round, rng)
                    results[i].append(rewards[seat])
                done += len(alive)
                if timed and done == len(alive) and seconds is not None:
                    # The first pass tells how many iterations the seconds allow.
                    spent = max(1e-6, clock() - began)
                    budget = max(budget, int(done * seconds / spent * 0.9))
            else:
                if len(alive) > 1 + (default is not None):
                    alive.sort(key=lambda i: -_mean(results[i]))
                    kept = alive[: (len(alive) + 1) // 2]
                    if default is not None and default not in kept:
                        kept.append(default)
                    alive = kept
                    continue
            break
        self.iterations_done = done
        best = max(alive, key=lambda i: (len(results[i]) > 0, _mean(results[i]), -i))
        if default is None or best == default:
            return choices[best]
        if paired_advantage(results[best], results[default], self.confidence):
            return choices[best]
        return choices[default]

    def _sampler(self, view: SeatView) -> Sampler:
        """Where the search's determinizations come from (uniform over the unseen cards)."""
        return Sampler(view, round_only=True)

    def _default(self, view: SeatView, choices: list[Action], sampler: Sampler) -> int | None:
        """Index of the prior's action, or ``None`` without a prior."""
        if self.prior is None:
            return None
        action: Action | None = None
        if self.prior == "greedy":
            action = _greedy_action(view)
        if action is None:
            # The rollout policy reads only the seat's own hand and the public Center Row,
            # so any sample gives the same action.
            action = _policy(sampler.sample(random.Random(0)))
        return choices.index(action) if action in choices else None

    def _iterate(self, root: _Node, state: State, view: SeatView, rng: random.Random) -> None:
        """One iteration: select and expand in the tree, simulate, back the rewards up."""
        if state.dos_open:
            _call_all(state)
        scores = view.scores
        start_round = state.round
        node = root
        path = [root]
        explore = self.exploration
        ended = False
        while True:
            actions = turn_actions(state)
            children = node.children
            untried = [a for a in actions if a not in children]
            if untried:
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(state.turn)
                children[action] = child
            else:
                chosen: _Node | None = None
                best = -1.0
                for a in actions:
                    c = children[a]
                    c.avail += 1
                for a in actions:
                    c = children[a]
                    value = c.wins / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
                    if value > best:
                        best, action, chosen = value, a, c
                assert chosen is not None
                child = chosen
            apply(state, action)
            if state.dos_open:
                _call_all(state)
            path.append(child)
            node = child
            if state.round != start_round or state.phase == _OVER:
                ended = True
                break
            if untried:
                break
        if ended:
            rewards = self._ended(state, scores)
        else:
            rewards = self._simulate(state, scores, start_round, rng)
        for n in path:
            n.visits += 1
            n.wins += rewards[n.player]

    def _simulate(
        self, state: State, scores: tuple[int, ...], start_round: int, rng: random.Random
    ) -> list[float]:
        """Plays the rollout policy to the end of the round or the horizon; the rewards."""
        heuristic = self.rollout == "heuristic"
        epsilon = self.epsilon
        if self.fast and heuristic and not epsilon and self.horizon is None:
            return self._simulate_fast(state, scores, start_round)
        if self.rollout == "greedy":
            from dos.bots.greedy import GreedyBot

            greedy = GreedyBot()
            budget = Budget()
        else:
            greedy = None
        turns_left = self.horizon
        turn = state.turn
        for _ in range(MAX_ROLLOUT_ACTIONS):
            if greedy is not None:
                action = greedy.choose(view(state, state.turn), rng, budget)
            elif heuristic and (not epsilon or rng.random() >= epsilon):
                action = _policy(state)
            else:
                actions = turn_actions(state)
                action = actions[rng.randrange(len(actions))]
            apply(state, action)
            if state.dos_open:
                _call_all(state)
            if state.round != start_round or state.phase == _OVER:
                return self._ended(state, scores)
            if state.turn != turn:
                turn = state.turn
                if turns_left is not None:
                    turns_left -= 1
                    if turns_left <= 0:
                        break
        return self._estimate(state, scores)

    def _simulate_fast(
        self, state: State, scores: tuple[int, ...], start_round: int
    ) -> list[float]:
        """``_simulate`` with the heuristic policy on the compiled core: the same actions."""
        from dos.fast import official_layout as layout
        from dos.fast.official_convert import from_python_state, to_python_state
        from dos.fast.official_rollout import rollout

        flat = from_python_state(state)
        if rollout(flat, start_round, MAX_ROLLOUT_ACTIONS):
            winner = int(flat[layout.LAST_WINNER])
            return self._round_rewards(scores, self._target, winner, int(flat[layout.LAST_POINTS]))
        return self._estimate(to_python_state(flat), scores)

    # --- rewards ------------------------------------------------------------------------

    def _ended(self, state: State, scores: tuple[int, ...]) -> list[float]:
        """Rewards per seat for the round that just ended in ``state``."""
        result = state.round_results[-1]
        return self._round_rewards(scores, self._target, result.winner, result.points)

    def _round_rewards(
        self, scores: tuple[int, ...], target: int, winner: int, points: int
    ) -> list[float]:
        """Rewards per seat when ``winner`` goes out with ``points`` (see the module doc)."""
        togo = target - scores[winner]
        progress = 1.0 if points >= togo else points / togo
        weight = self.round_weight
        good = 0.5 + 0.5 * (weight + (1.0 - weight) * progress)
        rewards = [1.0 - good] * len(scores)
        rewards[winner] = good
        return rewards

    def _estimate(self, state: State, scores: tuple[int, ...]) -> list[float]:
        """Expected rewards of a round cut short: each seat goes out first with a chance
        that falls with its hand size, and scores the points the others hold now."""
        hands = state.hands
        count = len(hands)
        points = [sum(POINTS[c] for c in hand) for hand in hands]
        total_points = sum(points)
        chances = [math.exp(-len(hand)) for hand in hands]
        total = sum(chances)
        rewards = [0.0] * count
        for winner in range(count):
            share = chances[winner] / total
            if share < 1e-4:
                continue
            round_rewards = self._round_rewards(
                scores, self._target, winner, total_points - points[winner]
            )
            for seat in range(count):
                rewards[seat] += share * round_rewards[seat]
        return rewards


class _FastFlat:
    """The flat search's simulations on the compiled core: each sample is converted once,
    then every surviving action is applied and rolled out there (``dos.fast.official_rollout``),
    with the same actions, hence the same rewards, as the Python path."""

    def __init__(self, bot: MctsBot, choices: list[Action], view: SeatView) -> None:
        import numpy as np

        from dos.fast.official_convert import code_of

        self.bot = bot
        self.seat = view.seat
        self.scores = view.scores
        self.start_round = view.round
        self.codes = np.array([code_of(a, view.turn) for a in choices], dtype=np.int64)
        self.results = np.zeros((len(choices), 2), dtype=np.int64)

    def simulate(self, base: State, alive: list[int], results: list[list[float]]) -> None:
        """Appends to ``results[i]`` the reward of the searching seat after action ``i`` on
        ``base``, for every ``i`` in ``alive``."""
        from dos.fast.official_convert import from_python_state, to_python_state
        from dos.fast.official_rollout import simulate_action, simulate_actions

        bot = self.bot
        scores = self.scores
        start_round = self.start_round
        flat = from_python_state(base)
        codes = self.codes[alive]
        out = self.results[: len(alive)]
        simulate_actions(flat, codes, start_round, MAX_ROLLOUT_ACTIONS, out)
        for k, i in enumerate(alive):
            winner = int(out[k, 0])
            if winner >= 0:
                rewards = bot._round_rewards(scores, bot._target, winner, int(out[k, 1]))
            else:  # cut after MAX_ROLLOUT_ACTIONS: estimated from the hands, as in Python
                cut = flat.copy()
                simulate_action(cut, int(codes[k]), start_round, MAX_ROLLOUT_ACTIONS)
                rewards = bot._estimate(to_python_state(cut), scores)
            results[i].append(rewards[self.seat])


@functools.cache
def warm_up() -> None:
    """Compiles the fast core's rollouts, or loads them from the disk cache, once per process:
    one simulation of every kind the search runs (``_FastFlat``'s for each candidate of a new
    game, a rollout cut short, ``_simulate_fast``'s), so that no search pays for it within its
    time budget."""
    from dos.fast.official_convert import from_python_state, to_python_state
    from dos.fast.official_rollout import rollout, simulate_action

    state = new_game(Options(players=2), seed=0)
    seen = view(state, state.turn)
    choices = turn_choices(seen)
    fast = _FastFlat(MctsBot(fast=True), choices, seen)
    fast.simulate(state, list(range(len(choices))), [[] for _ in choices])
    cut = from_python_state(state)
    simulate_action(cut, int(fast.codes[0]), state.round, 1)
    rollout(cut, state.round, 1)
    to_python_state(cut)


def fast_installed() -> bool:
    """Whether the compiled fast core (numba) can be imported."""
    try:
        import dos.fast.official_rollout  # noqa: F401
    except ImportError:
        return False
    return True


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -1.0


def _greedy_action(view: SeatView) -> Action | None:
    """What the rule-based ``greedy`` bot would do, if that bot is installed."""
    try:
        from dos.bots.greedy import GreedyBot
    except ImportError:  # pragma: no cover - greedy ships with the package
        return None
    return GreedyBot().choose(view, random.Random(0), Budget())


def _call_all(state: State) -> None:
    """Every open DOS obligation is called at once (the search never catches anyone)."""
    bits = state.dos_open
    turn = state.turn
    while bits:
        low = bits & -bits
        bits ^= low
        seat = low.bit_length() - 1
        apply(state, _SELF_CALL if seat == turn else _CALLS[seat])


def _policy(state: State) -> Action:
    """The heuristic rollout policy: the best match, else draw; lay or place the card of
    highest rank (number cards first, high points first)."""
    hand = state.hands[state.turn]
    if state.phase == _PLACING:
        best_card = max(hand, key=_LAY_RANK.__getitem__)
        return _PLACES[best_card]
    found = state.match_cache
    if found is None:
        found = matches(hand, state.center, state.matched)
    if found:
        center = state.center
        best = found[0]
        best_value = -1000
        for action in found:
            cards = action.cards
            target = center[action.target]
            if len(cards) == 1:
                card = cards[0]
                value = 10 + POINTS[card] // 4
                if SINGLE_BONUS[target][card]:
                    value += 10
                if IS_WILD[card]:
                    value -= 12
            else:
                first, second = cards
                value = 20 + (POINTS[first] + POINTS[second]) // 4
                if second in PAIR_BONUS[target][first]:
                    value += 16
                if IS_WILD[first]:
                    value -= 12
                if IS_WILD[second]:
                    value -= 12
            if value > best_value:
                best, best_value = action, value
        return best
    if state.matched:
        return _END
    if not state.drew:
        return _DRAW
    return _LAYS[max(hand, key=_LAY_RANK.__getitem__)]
