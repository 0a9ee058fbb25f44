"""``greedy``: a rule-based player that plans its whole turn and looks no further.

What a good human does at the table, written down:

* **Plan the turn.** The matches of a turn form a set (one per Center Row card, each card of
  the hand used once), and their outcome depends only on the bot's own hand and the Center
  Row, which the view holds. The bot enumerates those sets (depth first over the Center Row
  cards, a capped number of leaves, the most promising match first) and scores the hand each
  leaves, after the colour-bonus placements it earns. So it sheds as many cards and points as
  it can, and prefers colour bonuses, Double Color Matches most (every other player draws).
* **Score a hand**, not a game: each card left costs ``card``, each point ``point`` times an
  urgency that grows as an opponent's hand shrinks (points only count when someone goes out),
  and each wild kept is worth ``keep_wild_number`` / ``keep_wild_dos`` (a Wild # matches any
  card). So a Wild # is not spent on a plain match an ordinary card could make, unless it
  finishes the hand, earns a bonus, or an opponent is about to go out.
* **Draw** only when no match beats the expected value of drawing (worked out over the cards
  not seen, each drawn card then matched or laid as well as it can be).
* **Lay and place** to shed points without feeding the next player: never a wild while any
  other card is left, and each card is charged for the chance that the next player can match
  it (and with a colour bonus), estimated from the unseen cards and that player's hand size. A
  placement is declined only when every card would hurt more than it sheds.

DOS calls and catches are reflexes (``dos.bots.reflex``), not decisions of this bot. The bot
uses no randomness: the same view gives the same action.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, Kind, Phase, SeatView
from dos.rules.official.cards import (
    COLOUR,
    DECK_COUNTS,
    IS_WILD,
    IS_WILD_NUMBER,
    N_TYPES,
    NUMBER,
    POINTS,
)
from dos.rules.official.cards import WILD_DOS as _WILD_DOS
from dos.rules.official.legal import matches as _legal_matches
from dos.rules.official.matching import PAIR_BONUS, SINGLE_BONUS


@dataclass(frozen=True, slots=True)
class GreedyWeights:
    """The weights of greedy's judgement, all in "value of one card left in hand" units."""

    card: float = 10.0
    """Cost of each card left in hand."""
    point: float = 0.15
    """Cost of each point left in hand, before urgency."""
    urgency: float = 1.5
    """Point cost grows by this factor for each card the smallest opposing hand holds below
    ``calm_hand``: the round may end soon, so points in hand start to matter."""
    calm_hand: float = 5.0
    """An opposing hand of this many cards or more does not make points urgent."""
    keep_wild_number: float = 20.0
    """Value of keeping a Wild # in hand (it matches any number later)."""
    keep_wild_dos: float = 3.0
    """Value of keeping a Wild DOS in hand."""
    opponent_draw: float = 8.0
    """Value of each card an opponent must draw after a Double Color Match."""
    go_out: float = 1000.0
    """Value of emptying the hand (the round is won)."""
    feed: float = 2.0
    """Cost of laying or placing a card the next player can surely match."""
    feed_bonus: float = 4.0
    """Extra cost if the next player can surely match it with a colour bonus."""
    deny: float = 2.0
    """Value of taking a Center Row card that the next player could surely match."""
    draw_gate: float = 8.0
    """The expected value of drawing is worked out only when the best match gains less than
    this; a better match is made at once."""


class PlannedMatch(NamedTuple):
    """One match of a plan and what it earns."""

    action: Action
    bonus: int
    """0: no colour bonus, 1: Single Color Match, 2: Double Color Match."""


class Plan(NamedTuple):
    """The matches greedy would make from a view (any order gives the same outcome)."""

    matches: tuple[PlannedMatch, ...]
    value: float
    """The score of the hand the plan leaves (after the placements it earns)."""

    @property
    def actions(self) -> tuple[Action, ...]:
        """The match actions, in the order greedy plays them."""
        return tuple(m.action for m in self.matches)

    @property
    def single_bonuses(self) -> int:
        """Single Color Matches in the plan."""
        return sum(1 for m in self.matches if m.bonus == 1)

    @property
    def double_bonuses(self) -> int:
        """Double Color Matches in the plan."""
        return sum(1 for m in self.matches if m.bonus == 2)


# --- card tables ---------------------------------------------------------------------------

_CLASSES: Final = 11
"""Number classes of the unseen-card statistics: index ``n - 1`` for number ``n`` (a Wild DOS
is class 1, number 2), and class 10 for a Wild #."""
_CLASS: Final = tuple(10 if IS_WILD_NUMBER[t] else NUMBER[t] - 1 for t in range(N_TYPES))
_CLASS_NUMBERS: Final = tuple(
    frozenset(range(1, 11)) if k == 10 else frozenset((k + 1,)) for k in range(_CLASSES)
)


def _target_numbers(card: int) -> frozenset[int]:
    return frozenset(range(1, 11)) if IS_WILD_NUMBER[card] else frozenset((NUMBER[card],))


_SINGLE_CLASSES: Final = tuple(
    tuple(k for k in range(_CLASSES) if _CLASS_NUMBERS[k] & _target_numbers(t))
    for t in range(N_TYPES)
)
"""``_SINGLE_CLASSES[t]``: the classes whose cards make a Single Number Match on ``t``."""
_PAIR_CLASSES: Final = tuple(
    tuple(
        (i, j)
        for i in range(_CLASSES)
        for j in range(i, _CLASSES)
        if any(a + b in _target_numbers(t) for a in _CLASS_NUMBERS[i] for b in _CLASS_NUMBERS[j])
    )
    for t in range(N_TYPES)
)
"""``_PAIR_CLASSES[t]``: the class pairs that make a Double Number Match on ``t``."""
_PLACE_ORDER: Final = tuple(
    sorted((t for t in range(N_TYPES) if not IS_WILD[t]), key=lambda t: (-POINTS[t], t))
)
"""Non-wild types, most points first: the cards a planned placement sheds."""
_KEEP_NONE: Final = 0
_PAIR_BONUS_MASK: Final = tuple(
    tuple(sum(1 << b for b in PAIR_BONUS[t][a]) for a in range(N_TYPES)) for t in range(N_TYPES)
)


class _Option(NamedTuple):
    action: Action
    first: int
    second: int
    """The second card, or -1 for a single."""
    cards: int
    points: int
    wild_numbers: int
    wild_dos: int
    bonus: int
    quick: float


class _Tally:
    """Running totals of a hand while a plan is built: its cards, points and wilds, and the
    colour bonuses the plan has earned so far."""

    __slots__ = ("cards", "doubles", "gained", "points", "singles", "wild_dos", "wild_numbers")

    def __init__(self, hand: Sequence[int]) -> None:
        self.cards = len(hand)
        self.points = self.wild_numbers = self.wild_dos = 0
        for card in hand:
            self.points += POINTS[card]
            if IS_WILD_NUMBER[card]:
                self.wild_numbers += 1
            elif card == _WILD_DOS:
                self.wild_dos += 1
        self.singles = self.doubles = 0
        self.gained = 0.0

    def add(self, option: _Option, sign: int, deny: float) -> None:
        """Plays ``option`` (``sign`` 1) or takes it back (``sign`` -1)."""
        self.cards -= sign * option.cards
        self.points -= sign * option.points
        self.wild_numbers -= sign * option.wild_numbers
        self.wild_dos -= sign * option.wild_dos
        if option.bonus == 1:
            self.singles += sign
        elif option.bonus == 2:
            self.doubles += sign
        self.gained += sign * deny


class _Search:
    """One plan search: a depth-first walk over the Center Row cards with a leaf cap."""

    __slots__ = ("best", "best_path", "cap", "counts", "ctx", "leaves", "levels", "path", "tally")

    def __init__(
        self,
        ctx: _Context,
        levels: list[tuple[float, list[_Option]]],
        hand: Sequence[int],
        cap: int,
    ) -> None:
        self.ctx = ctx
        self.levels = levels
        self.counts = _counts(hand)
        self.tally = _Tally(hand)
        self.cap = cap
        self.leaves = 0
        self.best = -math.inf
        self.best_path: list[_Option] = []
        self.path: list[_Option] = []

    def walk(self, depth: int) -> None:
        """Tries every option (and none) on the Center Row card of ``depth``, then the next."""
        if depth == len(self.levels):
            self.leaves += 1
            if self.path:
                value = self.tally.gained + self.ctx.leaf(self.counts, self.tally)
                if value > self.best:
                    self.best = value
                    self.best_path = self.path[:]
            return
        deny, options = self.levels[depth]
        path = self.path
        counts = self.counts
        tally = self.tally
        for option in options:
            if self.leaves >= self.cap and self.best_path:
                return
            first = option.first
            second = option.second
            counts[first] -= 1
            if second >= 0:
                counts[second] -= 1
            if counts[first] >= 0 and (second < 0 or counts[second] >= 0):
                path.append(option)
                tally.add(option, 1, deny)
                self.walk(depth + 1)
                tally.add(option, -1, deny)
                path.pop()
            counts[first] += 1
            if second >= 0:
                counts[second] += 1
        if self.leaves >= self.cap and self.best_path:
            return
        self.walk(depth + 1)


class _Context:
    """What one decision needs, worked out once (unseen-card statistics lazily)."""

    def __init__(self, view: SeatView, weights: GreedyWeights) -> None:
        self.view = view
        self.w = weights
        players = view.options.players
        seat = view.seat
        self.opponents = players - 1
        others = [size for s, size in enumerate(view.hand_sizes) if s != seat]
        smallest = min(others) if others else weights.calm_hand
        self.point_cost = weights.point * (
            1.0 + weights.urgency * max(0, weights.calm_hand - smallest)
        )
        self.next_hand = view.hand_sizes[(seat + 1) % players]
        self.can_go_out = not view.penalties[seat]
        self.base_singles = view.single_bonuses
        self.base_doubles = view.double_bonuses
        self._pools: tuple[list[int], list[list[int]], int] | None = None
        self._match_chance: dict[int, tuple[float, float]] = {}
        # The next player's threat grows when a laid card could let them go out.
        self.feed_scale = 4.0 if self.next_hand <= 1 else 2.0 if self.next_hand == 2 else 1.0

    # -- hand values ----------------------------------------------------------------------

    def hand_value(self, cards: int, points: int, wild_numbers: int, wild_dos: int) -> float:
        """The score of a hand by its totals (higher is better for the bot)."""
        w = self.w
        return (
            -w.card * cards
            - self.point_cost * points
            + w.keep_wild_number * wild_numbers
            + w.keep_wild_dos * wild_dos
        )

    def leaf(self, counts: list[int], tally: _Tally) -> float:
        """The score of the hand a plan leaves (``counts`` by type, ``tally`` its totals and
        the plan's bonuses), after the placements its bonuses earn (the highest non-wild
        cards) and the cards its Double Color Matches make others draw."""
        w = self.w
        cards = tally.cards
        points = tally.points
        total_doubles = self.base_doubles + tally.doubles
        extra = w.opponent_draw * total_doubles * self.opponents
        placements = self.base_singles + total_doubles + tally.singles
        if self.can_go_out and (cards == 0 or placements >= cards):
            return w.go_out + extra
        if placements:
            placed = 0
            for t in _PLACE_ORDER:
                held = counts[t]
                while held and placed < placements:
                    held -= 1
                    placed += 1
                    points -= POINTS[t]
                if placed == placements:
                    break
            cards -= placed
            extra -= 0.5 * w.feed * placed
        return extra + self.hand_value(cards, points, tally.wild_numbers, tally.wild_dos)

    # -- what the next player can do with a card in the Center Row --------------------------

    def _unseen(self) -> tuple[list[int], list[list[int]], int]:
        if self._pools is None:
            counts = list(DECK_COUNTS)
            view = self.view
            for card in view.hand:
                counts[card] -= 1
            for card in view.center:
                counts[card] -= 1
            for card in view.discard:
                counts[card] -= 1
            for _, played in view.matched:
                for card in played:
                    counts[card] -= 1
            pool = [0] * _CLASSES
            by_colour = [[0] * _CLASSES for _ in range(4)]
            total = 0
            for t in range(N_TYPES):
                n = counts[t]
                if n <= 0:
                    continue
                total += n
                k = _CLASS[t]
                pool[k] += n
                if t == _WILD_DOS:
                    for colour_pool in by_colour:
                        colour_pool[k] += n
                else:
                    by_colour[COLOUR[t]][k] += n
            self._pools = (pool, by_colour, total)
        return self._pools

    def match_chance(self, card: int) -> tuple[float, float]:
        """Estimated chances that the next player can match ``card`` in the Center Row at
        all, and with a colour bonus, given the unseen cards and their hand size."""
        found = self._match_chance.get(card)
        if found is not None:
            return found
        pool, by_colour, total = self._unseen()
        n = self.next_hand
        if n <= 0 or total <= 0:
            found = (0.0, 0.0)
        else:
            pair_draws = n * (n - 1) / (total * max(1, total - 1))
            colour_pool = pool if card == _WILD_DOS else by_colour[COLOUR[card]]
            any_match = _chance(pool, card, n, total, pair_draws)
            bonus = _chance(colour_pool, card, n, total, pair_draws)
            if card == _WILD_DOS:
                bonus *= 0.5  # a pair must also agree on one colour
            found = (any_match, min(bonus, any_match))
        self._match_chance[card] = found
        return found

    def feed_cost(self, card: int) -> float:
        """Cost of putting ``card`` in the Center Row for the next player."""
        chance, bonus = self.match_chance(card)
        return self.feed_scale * (self.w.feed * chance + self.w.feed_bonus * bonus)

    def shed_gain(self, card: int) -> float:
        """What laying or placing ``card`` gains: a card and its points shed, less what the
        card was worth in hand and what it gives the next player."""
        w = self.w
        keep = (
            w.keep_wild_number
            if IS_WILD_NUMBER[card]
            else w.keep_wild_dos
            if card == _WILD_DOS
            else _KEEP_NONE
        )
        return w.card + self.point_cost * POINTS[card] - keep - self.feed_cost(card)


def _chance(pool: list[int], card: int, n: int, total: int, pair_draws: float) -> float:
    """Chance that ``n`` cards drawn from ``pool`` (``total`` cards in all, of which these
    counts are the relevant ones) hold a single or a pair that matches ``card``."""
    singles = 0
    for k in _SINGLE_CLASSES[card]:
        singles += pool[k]
    pairs = 0
    for i, j in _PAIR_CLASSES[card]:
        if i == j:
            pairs += pool[i] * (pool[i] - 1) // 2
        else:
            pairs += pool[i] * pool[j]
    miss = max(0.0, 1.0 - singles / total) ** n * math.exp(-pairs * pair_draws)
    return 1.0 - miss


def _counts(hand: Sequence[int]) -> list[int]:
    counts = [0] * N_TYPES
    for card in hand:
        counts[card] += 1
    return counts


def _totals(hand: Sequence[int]) -> tuple[int, int, int, int]:
    points = wild_numbers = wild_dos = 0
    for card in hand:
        points += POINTS[card]
        if IS_WILD_NUMBER[card]:
            wild_numbers += 1
        elif card == _WILD_DOS:
            wild_dos += 1
    return len(hand), points, wild_numbers, wild_dos


class GreedyBot:
    """The rule-based player (see the module docstring).

    Settings are keyword arguments: ``weights`` (a ``GreedyWeights``) and/or any of its fields
    by name, and ``max_leaves``, the most match sets one plan search scores.

    >>> from dos.rules.official import new_game, view
    >>> state = new_game(seed=1)
    >>> v = view(state, state.turn)
    >>> GreedyBot().choose(v, random.Random(0), Budget()) in v.legal
    True
    """

    name = "greedy"

    def __init__(
        self,
        *,
        weights: GreedyWeights | None = None,
        max_leaves: int = 400,
        **overrides: float,
    ) -> None:
        base = weights or GreedyWeights()
        known = {f.name for f in dataclasses.fields(GreedyWeights)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                f"greedy: unknown setting {', '.join(unknown)} "
                f"(known: weights, max_leaves, {', '.join(sorted(known))})"
            )
        self.weights = dataclasses.replace(base, **overrides) if overrides else base
        if max_leaves < 1:
            raise ValueError(f"greedy: max_leaves must be at least 1, not {max_leaves}")
        self.max_leaves = max_leaves

    # -- the decision ------------------------------------------------------------------------

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        """The action greedy takes in ``view``: one of ``turn_choices(view)``."""
        choices = turn_choices(view)
        if len(choices) == 1:
            return choices[0]
        ctx = _Context(view, self.weights)
        if view.phase == Phase.PLACING:
            return self._placement(ctx, choices)
        options = [a for a in choices if a.kind == Kind.MATCH]
        hand = view.hand
        cards, points, wild_numbers, wild_dos = _totals(hand)
        if view.matched:
            # More matches, or end: the empty plan is "end".
            plan = self._search(ctx, hand, options)
            stop = ctx.leaf(_counts(hand), _Tally(hand))
            if plan is None or plan.value <= stop:
                return next(a for a in choices if a.kind == Kind.END)
            return plan.matches[0].action
        if view.drew:
            # Match, or lay a card.
            plan = self._search(ctx, hand, options) if options else None
            lay, lay_value = self._best_lay(ctx, hand)
            if plan is not None and plan.value >= lay_value:
                return plan.matches[0].action
            return next(a for a in choices if a.kind == Kind.LAY and a.cards[0] == lay)
        # Start of the turn: match, or draw.
        plan = self._search(ctx, hand, options) if options else None
        draw = next(a for a in choices if a.kind == Kind.DRAW)
        if plan is None:
            return draw
        now = ctx.hand_value(cards, points, wild_numbers, wild_dos)
        if plan.value - now >= self.weights.draw_gate:
            return plan.matches[0].action
        if plan.value >= self._draw_value(ctx, hand):
            return plan.matches[0].action
        return draw

    def plan(self, view: SeatView) -> Plan | None:
        """The best set of matches from ``view`` (``None`` if no match is legal), as ``choose``
        weighs them; ``choose`` plays its first match when it matches at all."""
        options = [a for a in turn_choices(view) if a.kind == Kind.MATCH]
        if not options or view.phase != Phase.TURN:
            return None
        return self._search(_Context(view, self.weights), view.hand, options)

    # -- planning the matches ----------------------------------------------------------------

    def _search(self, ctx: _Context, hand: Sequence[int], actions: Sequence[Action]) -> Plan | None:
        """The best non-empty set of ``actions`` (matches) the hand can make together."""
        center = ctx.view.center
        by_target: dict[int, list[_Option]] = {}
        w = ctx.w
        for action in actions:
            target = center[action.target]
            played = action.cards
            first = played[0]
            if len(played) == 1:
                second = -1
                bonus = 1 if SINGLE_BONUS[target][first] else 0
                points = POINTS[first]
            else:
                second = played[1]
                bonus = 2 if _PAIR_BONUS_MASK[target][first] >> second & 1 else 0
                points = POINTS[first] + POINTS[second]
            wild_numbers = sum(1 for c in played if IS_WILD_NUMBER[c])
            wild_dos = sum(1 for c in played if c == _WILD_DOS)
            quick = (
                w.card * (len(played) + (bonus > 0))
                + (w.opponent_draw * ctx.opponents if bonus == 2 else 0.0)
                + ctx.point_cost * points
                - w.keep_wild_number * wild_numbers
                - w.keep_wild_dos * wild_dos
            )
            by_target.setdefault(action.target, []).append(
                _Option(
                    action,
                    first,
                    second,
                    len(played),
                    points,
                    wild_numbers,
                    wild_dos,
                    bonus,
                    quick,
                )
            )
        if not by_target:
            return None
        levels: list[tuple[float, list[_Option]]] = []
        for index in sorted(by_target):
            opts = sorted(by_target[index], key=lambda o: -o.quick)
            deny = w.deny * ctx.match_chance(center[index])[0] if w.deny else 0.0
            levels.append((deny, opts))
        # Targets with the best single option first, so the first leaf is the greedy plan.
        levels.sort(key=lambda level: -level[1][0].quick)
        search = _Search(ctx, levels, hand, self.max_leaves)
        search.walk(0)
        if not search.best_path:
            return None
        # Play bonus matches first, then by Center Row index: any order has the same outcome.
        ordered = sorted(search.best_path, key=lambda o: (-o.bonus, o.action.target))
        return Plan(tuple(PlannedMatch(o.action, o.bonus) for o in ordered), search.best)

    # -- drawing, laying, placing ------------------------------------------------------------

    def _best_lay(self, ctx: _Context, hand: Sequence[int]) -> tuple[int, float]:
        """The card to lay after a fruitless draw and the score of the hand it leaves: never a
        wild while another card is left."""
        candidates = [c for c in dict.fromkeys(hand) if not IS_WILD[c]] or list(dict.fromkeys(hand))
        best = max(candidates, key=lambda c: (ctx.shed_gain(c), POINTS[c], -c))
        cards, points, wild_numbers, wild_dos = _totals(hand)
        if cards == 1 and ctx.can_go_out:
            return best, ctx.w.go_out
        return best, ctx.hand_value(cards, points, wild_numbers, wild_dos) + ctx.shed_gain(best)

    def _draw_value(self, ctx: _Context, hand: Sequence[int]) -> float:
        """The expected score after drawing: each unseen card type, weighted by how many are
        unseen, then the best match set or lay with it."""
        view = ctx.view
        counts = list(DECK_COUNTS)
        for group in (hand, view.center, view.discard):
            for card in group:
                counts[card] -= 1
        total = 0
        value = 0.0
        center = list(view.center)
        for card in range(N_TYPES):
            weight = counts[card]
            if weight <= 0:
                continue
            after = sorted((*hand, card))
            _, best = self._best_lay(ctx, after)
            plan = self._search(ctx, after, _legal_matches(after, center, {}))
            if plan is not None and plan.value > best:
                best = plan.value
            total += weight
            value += weight * best
        if total == 0:
            return -math.inf
        return value / total

    def _placement(self, ctx: _Context, choices: list[Action]) -> Action:
        """A colour-bonus placement, or ``end`` when every placement would hurt."""
        view = ctx.view
        hand = view.hand
        places = [a for a in choices if a.kind == Kind.PLACE]
        end = next((a for a in choices if a.kind == Kind.END), None)
        going_out = ctx.can_go_out and view.placements_left >= len(hand)
        candidates = places if going_out else [a for a in places if not IS_WILD[a.cards[0]]]
        if not candidates:
            if end is not None:
                return end
            candidates = places
        best = max(candidates, key=lambda a: (ctx.shed_gain(a.cards[0]), POINTS[a.cards[0]]))
        if going_out or end is None or ctx.shed_gain(best.cards[0]) > 0:
            return best
        return end
