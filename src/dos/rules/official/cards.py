"""The official DOS cards (RULES.md §1) and their notation.

A card *type* is a small integer, which is all the engine ever handles:

* ``colour * 10 + rank`` for the 40 coloured types, colours in the order ``B G R Y`` and ranks
  ``1 3 4 5 6 7 8 9 10 #`` (there is no printed 2), so ``B1 = 0``, ``R7 = 25``, ``Y# = 39``;
* ``WILD_DOS = 40``.

Notation: colour letter then number (``R7``, ``B10``), ``R#`` for a red Wild #, ``DOS`` for a
Wild DOS. A designation follows ``=``: ``R#=4`` (a number), ``DOS=R`` (a colour).

>>> parse_card("R7"), card_name(25), card_name(WILD_DOS)
(25, 'R7', 'DOS')
"""

from __future__ import annotations

from typing import Final

from dos.errors import NotationError

COLOURS: Final = "BGRY"
"""Colour letters, indexed by colour number: blue, green, red, yellow."""
COLOUR_NAMES: Final = ("blue", "green", "red", "yellow")
RANKS: Final = (1, 3, 4, 5, 6, 7, 8, 9, 10, 0)
"""Printed number of each rank; rank 9 is the Wild # (printed ``#``, number chosen 1-10)."""
WILD_RANK: Final = 9
WILD_DOS: Final = 40
N_TYPES: Final = 41
NO_COLOUR: Final = -1
"""Colour of the Wild DOS, which takes whatever colour the matcher chooses."""

WILD_NUMBER_POINTS: Final = 40
WILD_DOS_POINTS: Final = 20
DECK_SIZE: Final = 108


def _colour(t: int) -> int:
    return NO_COLOUR if t == WILD_DOS else t // 10


def _number(t: int) -> int:
    if t == WILD_DOS:
        return 2
    return RANKS[t % 10]


COLOUR: Final = tuple(_colour(t) for t in range(N_TYPES))
"""Colour number of each type, ``NO_COLOUR`` for the Wild DOS."""
NUMBER: Final = tuple(_number(t) for t in range(N_TYPES))
"""Fixed number of each type: 2 for the Wild DOS, 0 for a Wild # (it has none until chosen)."""
IS_WILD_NUMBER: Final = tuple(t != WILD_DOS and t % 10 == WILD_RANK for t in range(N_TYPES))
IS_WILD: Final = tuple(IS_WILD_NUMBER[t] or t == WILD_DOS for t in range(N_TYPES))
POINTS: Final = tuple(
    WILD_DOS_POINTS if t == WILD_DOS else WILD_NUMBER_POINTS if IS_WILD_NUMBER[t] else NUMBER[t]
    for t in range(N_TYPES)
)
"""Points a card left in hand scores for the round's winner (RULES.md §7)."""
DEALER_DRAW_VALUE: Final = tuple(0 if IS_WILD[t] else NUMBER[t] for t in range(N_TYPES))
"""Value in the draw for dealer: wilds count as zero (RULES.md §2)."""


def _copies(t: int) -> int:
    if t == WILD_DOS:
        return 12
    return 3 if RANKS[t % 10] in (1, 3, 4, 5) else 2


DECK_COUNTS: Final = tuple(_copies(t) for t in range(N_TYPES))
"""How many copies of each type the 108-card deck holds."""

NAMES: Final = tuple(
    "DOS" if t == WILD_DOS else COLOURS[t // 10] + ("#" if t % 10 == WILD_RANK else str(NUMBER[t]))
    for t in range(N_TYPES)
)
_BY_NAME: Final = {name: t for t, name in enumerate(NAMES)}


_DECK: Final = tuple(t for t in range(N_TYPES) for _ in range(DECK_COUNTS[t]))


def full_deck() -> list[int]:
    """All 108 cards in a fixed order (type by type), ready to be shuffled."""
    return list(_DECK)


def card_name(t: int) -> str:
    """The notation of a card type: ``card_name(25) == "R7"``."""
    return NAMES[t]


def parse_card(text: str) -> int:
    """The card type written ``text`` (case and surrounding spaces ignored).

    >>> parse_card(" r# ")
    29
    >>> parse_card("R2")
    Traceback (most recent call last):
    ...
    dos.errors.NotationError: unknown card 'R2': a card is B, G, R or Y with 1, 3-10 or #, or DOS
    """
    t = _BY_NAME.get(text.strip().upper())
    if t is None:
        raise NotationError(
            f"unknown card {text.strip()!r}: a card is B, G, R or Y with 1, 3-10 or #, or DOS"
        )
    return t


def parse_colour(text: str) -> int:
    """A colour letter ``B G R Y`` (case ignored) as its colour number."""
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in COLOURS:
        raise NotationError(f"unknown colour {text.strip()!r}: a colour is B, G, R or Y")
    return COLOURS.index(letter)


def sort_key(t: int) -> tuple[int, int]:
    """Order for showing a hand: by colour, then number, wilds last."""
    return (4 if t == WILD_DOS else t // 10, t % 10)
