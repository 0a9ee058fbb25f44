"""When a wild's designation matters, and the choices to offer (RULES.md §3).

The engine picks the designations with the best colour result when none is written, so a
person is asked only when the designation changes what the match is: a Wild DOS played with
a card of the target's colour makes a Double Color Match as that colour and a Double Number
Match as another. A Wild #'s number never needs asking: the target decides it.

>>> from dos.rules.official.cards import parse_card as c
>>> [kind for _, kind in choices((c("R5"), c("DOS")), c("R7"))]
['Double Color Match', 'Double Number Match']
>>> choices((c("B5"), c("DOS")), c("R7"))
[]
"""

from __future__ import annotations

from itertools import product

from dos.rules.official.cards import IS_WILD_NUMBER, WILD_DOS
from dos.rules.official.matching import MatchKind, match_kind, number_match

_BEST_FIRST = (
    MatchKind.DOUBLE_COLOR,
    MatchKind.SINGLE_COLOR,
    MatchKind.DOUBLE_NUMBER,
    MatchKind.SINGLE_NUMBER,
)


def choices(cards: tuple[int, ...], target: int) -> list[tuple[tuple[int, ...], str]]:
    """The designations worth offering for ``cards`` played on ``target``, one per kind of
    match they lead to, best first; empty when every choice gives the same kind (no need to
    ask). The best choice comes with no designations: the engine picks them."""
    options: list[list[int]] = []
    for card in cards:
        if card == WILD_DOS:
            options.append([0, 1, 2, 3])
        elif IS_WILD_NUMBER[card]:
            options.append(list(range(1, 11)))
        else:
            options.append([-1])
    found: dict[str, tuple[int, ...]] = {}
    for designations in product(*options):
        if not number_match(cards, designations, target):
            continue
        kind = match_kind(cards, designations, target)
        found.setdefault(kind, designations)
    if len(found) < 2:
        return []
    kinds = sorted(found, key=_BEST_FIRST.index)
    return [(() if i == 0 else found[kind], kind) for i, kind in enumerate(kinds)]
