"""How a simulated player plays: the search bots' heuristic rollout policy (``mcts``, ``sage``).

A rollout plays the rest of a round from a determinization; its policy must above all be
fast, and play like the players it stands for. The policy (RULES.md §3-§4): with a match open, a match; with none, ``end`` after
matches, else ``draw``; after a fruitless draw lay, and for a bonus place, the card of highest
rank. ``Playout`` holds its weights; ``dos.fast.rollout`` compiles the very same policy.

Each match is valued by the cards it sheds (10 each), a quarter of their points, a colour
bonus (a Single Color Match 10, a Double ``double_bonus``) and less the cost of each wild
spent. The plain policy takes the match of highest value, then the next; with ``plan`` it
takes the first of the *plan* of highest total value instead — one match at most per Center
Row card, each card of the hand used once, as a player who looks at the whole turn does.

>>> from dos.rules.official import all_legal_actions, new_game
>>> state = new_game(seed=5)
>>> policy(state, Playout(plan=True)) in all_legal_actions(state)
True
"""

from __future__ import annotations

from typing import Final, NamedTuple

from dos.cards import IS_WILD, IS_WILD_NUMBER, N_TYPES, POINTS
from dos.rules.official import Action, Kind, Phase, State
from dos.rules.official.legal import matches
from dos.rules.official.matching import PAIR_BONUS, SINGLE_BONUS

PLAN_OPTIONS: Final = 4
"""Matches a plan considers per Center Row card: those of highest value."""
PLAN_LEAVES: Final = 256
"""Plans looked at, at most (depth first, each Center Row card's options best first)."""


class Playout(NamedTuple):
    """The weights of the rollout policy, in the units of its match values (a card shed is
    worth 10)."""

    wild_number: int = 12
    """What spending a Wild # on a match costs."""
    wild_dos: int = 12
    """What spending a Wild DOS on a match costs."""
    double_bonus: int = 16
    """What a Double Color Match earns beyond its two cards."""
    plan: bool = False
    """Match by the plan of highest total value, not one match at a time."""


PLAIN: Final = Playout()
"""The ``mcts`` bot's rollout policy."""

_DRAW: Final = Action(Kind.DRAW)
_END: Final = Action(Kind.END)
_LAYS: Final = tuple(Action(Kind.LAY, (card,)) for card in range(N_TYPES))
_PLACES: Final = tuple(Action(Kind.PLACE, (card,)) for card in range(N_TYPES))
_PLACING: Final = Phase.PLACING
LAY_RANK: Final = tuple((0 if IS_WILD[card] else 100) + POINTS[card] for card in range(N_TYPES))
"""Which card to lay or place: number cards before wilds, high points first."""


def policy(state: State, playout: Playout = PLAIN) -> Action:
    """The action the rollout policy with the weights ``playout`` takes in ``state``."""
    hand = state.hands[state.turn]
    if state.phase == _PLACING:
        return _PLACES[max(hand, key=LAY_RANK.__getitem__)]
    found = state.match_cache
    if found is None:
        found = matches(hand, state.center, state.matched)
    if found:
        center = state.center
        values = [match_value(center[a.target], a.cards, playout) for a in found]
        if playout.plan:
            first = plan_first(hand, found, values)
            if first is not None:
                return found[first]
        best = 0
        for i in range(1, len(found)):
            if values[i] > values[best]:
                best = i
        return found[best]
    if state.matched:
        return _END
    if not state.drew:
        return _DRAW
    return _LAYS[max(hand, key=LAY_RANK.__getitem__)]


def match_value(target: int, cards: tuple[int, ...], playout: Playout) -> int:
    """What the policy makes of matching ``cards`` on the Center Row card ``target``."""
    if len(cards) == 1:
        card = cards[0]
        value = 10 + POINTS[card] // 4
        if SINGLE_BONUS[target][card]:
            value += 10
    else:
        first, second = cards
        value = 20 + (POINTS[first] + POINTS[second]) // 4
        if second in PAIR_BONUS[target][first]:
            value += playout.double_bonus
    for card in cards:
        if IS_WILD[card]:
            value -= playout.wild_number if IS_WILD_NUMBER[card] else playout.wild_dos
    return value


def plan_first(hand: list[int], found: list[Action], values: list[int]) -> int | None:
    """The index in ``found`` (matches in the engine's order, by Center Row card) of the
    first match of the plan of highest total value, or ``None`` if no plan gains: for each
    Center Row card none or one of its ``PLAN_OPTIONS`` best matches, each card of ``hand``
    used once, at most ``PLAN_LEAVES`` plans looked at, depth first (``dos.fast.rollout``
    walks them in the same order)."""
    options: list[list[int]] = []
    target = -1
    for i, action in enumerate(found):
        if action.target != target:
            target = action.target
            options.append([])
        options[-1].append(i)
    options = [sorted(row, key=lambda i: -values[i])[:PLAN_OPTIONS] for row in options]
    counts = [0] * N_TYPES
    for card in hand:
        counts[card] += 1
    rows = len(options)
    picks = [-1] * rows
    best = [0, -1]  # total, first index
    leaves = 0

    def walk(row: int, total: int) -> None:
        nonlocal leaves
        if leaves >= PLAN_LEAVES:
            return
        if row == rows:
            leaves += 1
            if total > best[0]:
                best[0] = total
                best[1] = next((p for p in picks if p >= 0), -1)
            return
        walk(row + 1, total)
        for i in options[row]:
            if leaves >= PLAN_LEAVES:
                return
            cards = found[i].cards
            for card in cards:
                counts[card] -= 1
            if all(counts[card] >= 0 for card in cards):
                picks[row] = i
                walk(row + 1, total + values[i])
                picks[row] = -1
            for card in cards:
                counts[card] += 1

    walk(0, 0)
    return best[1] if best[1] >= 0 else None
