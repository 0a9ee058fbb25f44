"""The 108 cards of the classic rule set (RULES.md §9): the standard UNO deck, and its notation.

A card *type* is a small integer:

* ``colour * 13 + rank`` for the 52 coloured types, colours in the order ``B G R Y`` and
  ranks ``0-9`` (number cards), ``10`` Skip, ``11`` Reverse, ``12`` Draw Two;
* ``WILD = 52`` and ``WILD_DRAW_FOUR = 53``.

Per colour the deck holds one 0, two each of 1-9, two Skips, two Reverses and two Draw Twos
(25 cards); then four Wilds and four Wild Draw Fours: 4 x 25 + 8 = 108.

Notation: the colour letter, then the number or symbol: ``R7``, ``B0``, ``GS`` (Skip), ``YR``
(Reverse), ``R+2`` (Draw Two); ``W`` (Wild) and ``W+4`` (Wild Draw Four).

>>> parse_card("r+2"), card_name(35), card_name(WILD_DRAW_FOUR)
(38, 'R9', 'W+4')
"""

from __future__ import annotations

from typing import Final

from dos.errors import NotationError

COLOURS: Final = "BGRY"
"""Colour letters, indexed by colour number: blue, green, red, yellow."""
COLOUR_NAMES: Final = ("blue", "green", "red", "yellow")
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
RANKS_PER_COLOUR: Final = 13
WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
N_TYPES: Final = 54
NO_COLOUR: Final = -1
DECK_SIZE: Final = 108

_SYMBOL = {SKIP: "S", REVERSE: "R", DRAW_TWO: "+2"}
_SYMBOL_NAMES = {SKIP: "Skip", REVERSE: "Reverse", DRAW_TWO: "Draw Two"}

COLOUR: Final = tuple(NO_COLOUR if t >= WILD else t // RANKS_PER_COLOUR for t in range(N_TYPES))
"""Colour number of each type, ``NO_COLOUR`` for the two wild kinds."""
RANK: Final = tuple(t if t >= WILD else t % RANKS_PER_COLOUR for t in range(N_TYPES))
"""Rank of each type: 0-9, ``SKIP``, ``REVERSE``, ``DRAW_TWO``; wilds are their own rank."""
IS_WILD: Final = tuple(t >= WILD for t in range(N_TYPES))
IS_NUMBER: Final = tuple(t < WILD and RANK[t] <= 9 for t in range(N_TYPES))
IS_DRAW_TWO: Final = tuple(t < WILD and RANK[t] == DRAW_TWO for t in range(N_TYPES))
DECK_COUNTS: Final = tuple(4 if t >= WILD else 1 if RANK[t] == 0 else 2 for t in range(N_TYPES))
"""How many copies of each type the 108-card deck holds."""
POINTS: Final = tuple(
    50 if t >= WILD else 20 if RANK[t] >= SKIP else RANK[t] for t in range(N_TYPES)
)
"""The usual UNO card values (numbers face value, symbols 20, wilds 50): no rule of §9 uses
them; bots use them to judge which cards are strong."""

NAMES: Final = tuple(
    "W"
    if t == WILD
    else "W+4"
    if t == WILD_DRAW_FOUR
    else COLOURS[COLOUR[t]] + _SYMBOL.get(RANK[t], str(RANK[t]))
    for t in range(N_TYPES)
)
_BY_NAME: Final = {name: t for t, name in enumerate(NAMES)}
_DECK: Final = tuple(t for t in range(N_TYPES) for _ in range(DECK_COUNTS[t]))


def full_deck() -> list[int]:
    """All 108 cards in a fixed order (type by type), ready to be shuffled.

    >>> len(full_deck())
    108
    """
    return list(_DECK)


def card_name(t: int) -> str:
    """The notation of a card type: ``card_name(WILD) == "W"``."""
    return NAMES[t]


def describe(t: int) -> str:
    """A card in words, for error messages: ``describe(38) == "red Draw Two"``.

    >>> describe(38), describe(WILD), describe(1)
    ('red Draw Two', 'Wild', 'blue 1')
    """
    if t == WILD:
        return "Wild"
    if t == WILD_DRAW_FOUR:
        return "Wild Draw Four"
    rank = RANK[t]
    return f"{COLOUR_NAMES[COLOUR[t]]} {_SYMBOL_NAMES.get(rank, str(rank))}"


def parse_card(text: str) -> int:
    """The card type written ``text`` (case and surrounding spaces ignored).

    >>> parse_card(" gs "), parse_card("w+4")
    (23, 53)
    >>> parse_card("R10")
    Traceback (most recent call last):
    ...
    dos.errors.NotationError: unknown card 'R10': a card is B, G, R or Y with 0-9, S (Skip), ...
    """
    t = _BY_NAME.get(text.strip().upper())
    if t is None:
        raise NotationError(
            f"unknown card {text.strip()!r}: a card is B, G, R or Y with 0-9, S (Skip), "
            "R (Reverse) or +2 (Draw Two), or W (Wild) or W+4 (Wild Draw Four)"
        )
    return t


def parse_colour(text: str) -> int:
    """A colour letter ``B G R Y`` (case ignored) as its colour number.

    >>> parse_colour("g")
    1
    """
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in COLOURS:
        raise NotationError(f"unknown colour {text.strip()!r}: a colour is B, G, R or Y")
    return COLOURS.index(letter)
