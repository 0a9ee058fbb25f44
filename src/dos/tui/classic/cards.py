"""A classic card on screen: coloured *and* marked with its colour's symbol and its notation
(``■R7``, ``●BS``, ``▲G+2``, ``✦W+4``), so that cards can be told apart without colour.

>>> from dos.rules.classic.cards import parse_card
>>> face(parse_card("R7")), face(parse_card("b+2")), face(parse_card("W"))
('■R7', '●B+2', '✦W')
"""

from __future__ import annotations

from dos.rules.classic.cards import COLOUR, IS_WILD, NAMES
from dos.tui.widgets.cards import COLOUR_CLASSES, SYMBOLS, CardView
from dos.tui.widgets.row import CardRow

WILD_SYMBOL = "✦"


def face(card: int) -> str:
    """The text on a classic card: its colour symbol (``✦`` for a wild) and its notation."""
    if IS_WILD[card]:
        return WILD_SYMBOL + NAMES[card]
    return SYMBOLS[COLOUR[card]] + NAMES[card]


def colour_class(card: int) -> str:
    """The CSS class that colours a classic card (``wild`` for both wilds)."""
    return "wild" if IS_WILD[card] else COLOUR_CLASSES[COLOUR[card]]


def colour_mark(colour: int) -> str:
    """A colour as its symbol and letter: ``■R``.

    >>> colour_mark(1)
    '▲G'
    """
    return SYMBOLS[colour] + "BGRY"[colour]


class ClassicCardView(CardView):
    """A classic card in the hand or on the discard pile (clicks as ``CardView.Clicked``)."""

    def face_of(self, card: int) -> str:
        return face(card)

    def colour_of(self, card: int) -> str:
        return colour_class(card)


class ClassicHandView(CardRow):
    """The person's classic cards; the border title is the card's position, from 1."""

    place = "hand"
    card_view = ClassicCardView


class DiscardView(CardRow):
    """The top card of the discard pile."""

    DEFAULT_CSS = """
    DiscardView { width: 10; }
    """

    place = "discard"
    card_view = ClassicCardView
