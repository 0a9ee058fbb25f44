"""Which cards match which Center Row card, and with what colour bonus (RULES.md §3).

Everything here is decided once, at import, into tables indexed by card type, so that the
legal-action generator only looks things up. The general functions below the tables say what
a match *is*; the tables are those functions evaluated for every combination.

A card's *numbers* are the values it may take: a number card its own, a Wild DOS 2, a Wild #
any of 1-10 (or the one designated). Its *colours* are its own colour, or any of the four for a
Wild DOS (or the one designated). A match is legal when numbers can be chosen that work; it
earns a colour bonus when one colour can be chosen that every card involved, target included,
agrees with: "R5 + Wild DOS on a red 7" is a Double Color Match, "B1 + G1 on a Wild DOS" is not.
"""

from __future__ import annotations

from typing import Final

from dos.rules.official.cards import COLOUR, IS_WILD_NUMBER, N_TYPES, NUMBER, WILD_DOS

ALL_NUMBERS: Final = frozenset(range(1, 11))
ALL_COLOURS: Final = frozenset(range(4))
NO_DESIGNATION: Final = -1


def numbers(card: int, designation: int = NO_DESIGNATION) -> frozenset[int]:
    """The numbers a card may count as; a designated Wild # counts only as its designation."""
    if IS_WILD_NUMBER[card]:
        return ALL_NUMBERS if designation == NO_DESIGNATION else frozenset((designation,))
    return frozenset((NUMBER[card],))


def colours(card: int, designation: int = NO_DESIGNATION) -> frozenset[int]:
    """The colours a card may take; a designated Wild DOS takes only its designation."""
    if card == WILD_DOS:
        return ALL_COLOURS if designation == NO_DESIGNATION else frozenset((designation,))
    return frozenset((COLOUR[card],))


def sums(first: frozenset[int], second: frozenset[int]) -> frozenset[int]:
    """Every total two cards with these number sets can make."""
    return frozenset(a + b for a in first for b in second)


# SINGLE[target][card]: a Single Number Match is possible. SINGLE_BONUS: and it can be a
# Single Color Match. PAIRS[target][c1]: the types c2 >= c1 with which c1 makes a Double Number
# Match; PAIR_BONUS[target][c1]: those of them that can make a Double Color Match.
_numbers = [numbers(t) for t in range(N_TYPES)]
_colours = [colours(t) for t in range(N_TYPES)]
SINGLE: Final = tuple(
    tuple(bool(_numbers[c] & _numbers[t]) for c in range(N_TYPES)) for t in range(N_TYPES)
)
SINGLE_BONUS: Final = tuple(
    tuple(SINGLE[t][c] and bool(_colours[c] & _colours[t]) for c in range(N_TYPES))
    for t in range(N_TYPES)
)
_pair_sums = {
    (a, b): sums(_numbers[a], _numbers[b]) for a in range(N_TYPES) for b in range(a, N_TYPES)
}
PAIRS: Final = tuple(
    tuple(
        frozenset(b for b in range(a, N_TYPES) if _pair_sums[a, b] & _numbers[t])
        for a in range(N_TYPES)
    )
    for t in range(N_TYPES)
)
PAIR_BONUS: Final = tuple(
    tuple(
        frozenset(b for b in PAIRS[t][a] if _colours[a] & _colours[b] & _colours[t])
        for a in range(N_TYPES)
    )
    for t in range(N_TYPES)
)
del _numbers, _colours, _pair_sums

# The same tables as bit masks over card types, for the legal-action generator:
# SINGLE_MASK[target] has bit c set when card c makes a Single Number Match on it;
# PAIR_MASK[target][c1] has bit c2 (c2 >= c1) set when c1 + c2 make a Double Number Match.
SINGLE_MASK: Final = tuple(
    sum(1 << c for c in range(N_TYPES) if SINGLE[t][c]) for t in range(N_TYPES)
)
PAIR_MASK: Final = tuple(
    tuple(sum(1 << b for b in PAIRS[t][a]) for a in range(N_TYPES)) for t in range(N_TYPES)
)
FIRST_MASK: Final = tuple(
    sum(1 << a for a in range(N_TYPES) if PAIRS[t][a]) for t in range(N_TYPES)
)
"""FIRST_MASK[target]: the types that are the lower card of some Double Number Match on it."""


def number_match(cards: tuple[int, ...], designations: tuple[int, ...], target: int) -> bool:
    """Whether ``cards`` (one or two, each with a designation or ``NO_DESIGNATION``) make a
    Single or Double Number Match on ``target``."""
    designations = designations or (NO_DESIGNATION,) * len(cards)
    wanted = numbers(target)
    if len(cards) == 1:
        return bool(numbers(cards[0], designations[0]) & wanted)
    made = sums(numbers(cards[0], designations[0]), numbers(cards[1], designations[1]))
    return bool(made & wanted)


def colour_match(cards: tuple[int, ...], designations: tuple[int, ...], target: int) -> bool:
    """Whether one colour can be chosen that the target and every played card agree with."""
    designations = designations or (NO_DESIGNATION,) * len(cards)
    common = colours(target)
    for card, designation in zip(cards, designations, strict=True):
        common = common & colours(card, designation)
    return bool(common)


def resolve(
    cards: tuple[int, ...], designations: tuple[int, ...], target: int
) -> tuple[tuple[int, ...], int] | None:
    """Concrete designations for a legal match, for showing it: the designation of each played
    card (a number for a Wild #; for a Wild DOS its colour if one was designated or earns the
    bonus; ``NO_DESIGNATION`` otherwise) and the colour a Wild DOS target takes for the bonus
    (else ``NO_DESIGNATION``).

    The best colour result is chosen, as the engine does (RULES.md §3). ``None`` if no choice
    makes the match legal.
    """
    designations = designations or (NO_DESIGNATION,) * len(cards)
    bonus = colour_match(cards, designations, target)
    common = colours(target)
    for card, designation in zip(cards, designations, strict=True):
        common = common & colours(card, designation)
    colour = min(common) if bonus else NO_DESIGNATION
    wanted = numbers(target)
    choices: list[list[int]] = [
        sorted(numbers(c, d)) for c, d in zip(cards, designations, strict=True)
    ]
    picked: tuple[int, ...] | None = None
    if len(cards) == 1:
        options = [n for n in choices[0] if n in wanted]
        picked = (options[0],) if options else None
    else:
        for a in choices[0]:
            fits = [b for b in choices[1] if a + b in wanted]
            if fits:
                picked = (a, fits[0])
                break
    if picked is None:
        return None
    shown = []
    for card, designation, number in zip(cards, designations, picked, strict=True):
        if IS_WILD_NUMBER[card]:
            shown.append(number)
        elif card == WILD_DOS and designation != NO_DESIGNATION:
            shown.append(designation)
        elif card == WILD_DOS:
            shown.append(colour)  # the bonus colour; no colour matters without a bonus
        else:
            shown.append(NO_DESIGNATION)
    target_colour = colour if target == WILD_DOS else NO_DESIGNATION
    return tuple(shown), target_colour


class MatchKind:
    """The four kinds of match of RULES.md §3, by their rulebook names."""

    SINGLE_NUMBER = "Single Number Match"
    SINGLE_COLOR = "Single Color Match"
    DOUBLE_NUMBER = "Double Number Match"
    DOUBLE_COLOR = "Double Color Match"


def match_kind(cards: tuple[int, ...], designations: tuple[int, ...], target: int) -> str:
    """Which kind of match a legal match is (the best colour result unless designated).

    >>> from dos.rules.official.cards import parse_card as c
    >>> match_kind((c("R5"), c("DOS")), (), c("R7"))
    'Double Color Match'
    """
    bonus = colour_match(cards, designations, target)
    if len(cards) == 1:
        return MatchKind.SINGLE_COLOR if bonus else MatchKind.SINGLE_NUMBER
    return MatchKind.DOUBLE_COLOR if bonus else MatchKind.DOUBLE_NUMBER
