"""One card on screen: coloured *and* marked with a symbol and its notation, so that cards can
be told apart without colour (blue ●, green ▲, red ■, yellow ★, Wild DOS ✦)."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Static

from dos.rules.official.cards import COLOUR, NAMES, WILD_DOS

SYMBOLS = ("●", "▲", "■", "★")
"""The symbol of each colour, in the engine's colour order (blue, green, red, yellow)."""
WILD_DOS_SYMBOL = "✦"
COLOUR_CLASSES = ("blue", "green", "red", "yellow")


def face(card: int) -> str:
    """The text on a card: its colour symbol and its notation.

    >>> from dos.rules.official.cards import parse_card
    >>> face(parse_card("R7")), face(parse_card("Y#")), face(WILD_DOS)
    ('■R7', '★Y#', '✦DOS')
    """
    if card == WILD_DOS:
        return WILD_DOS_SYMBOL + NAMES[card]
    return SYMBOLS[COLOUR[card]] + NAMES[card]


def colour_class(card: int) -> str:
    """The CSS class that colours a card."""
    return "wild" if card == WILD_DOS else COLOUR_CLASSES[COLOUR[card]]


class CardView(Static):
    """A card in the Center Row (``place="center"``) or the hand (``place="hand"``); clicking
    it posts ``CardView.Clicked``."""

    DEFAULT_CSS = """
    CardView {
        width: 8;
        height: 3;
        border: round $foreground 60%;
        content-align: center middle;
        text-style: bold;
        margin: 0 1 0 0;
    }
    CardView.blue { background: #1f4fbf; color: white; }
    CardView.green { background: #1d7a32; color: white; }
    CardView.red { background: #b3261e; color: white; }
    CardView.yellow { background: #d4b106; color: black; }
    CardView.wild { background: #6a1b9a; color: white; }
    CardView.hint { border: round #7CFC00; }
    CardView.cursor { border: heavy white; }
    CardView.selected { border: double #ffd54f; text-style: bold reverse; }
    CardView.matched { opacity: 60%; border: dashed $foreground; }
    """

    class Clicked(Message):
        """A card was clicked."""

        def __init__(self, place: str, index: int) -> None:
            self.place = place
            self.index = index
            super().__init__()

    def __init__(self, place: str, index: int, card: int) -> None:
        super().__init__(self.face_of(card))
        self.place = place
        self.index = index
        self.card = card
        self.add_class(self.colour_of(card))

    def face_of(self, card: int) -> str:
        """The text on ``card`` (a subclass shows another rule set's cards)."""
        return face(card)

    def colour_of(self, card: int) -> str:
        """The CSS class that colours ``card``."""
        return colour_class(card)

    def show(
        self,
        card: int,
        label: str,
        *,
        selected: bool = False,
        hint: bool = False,
        cursor: bool = False,
        matched: bool = False,
    ) -> None:
        """Shows ``card`` with its label (index) and marks; marks are symbols too, not only
        colours: ``✔`` selected, ``*`` a legal choice."""
        if card != self.card:
            self.remove_class(self.colour_of(self.card))
            self.card = card
            self.add_class(self.colour_of(card))
        self.update(self.face_of(card))
        self.border_title = label
        marks = ("✔" if selected else "") + ("*" if hint else "")
        self.border_subtitle = marks or None
        self.set_class(selected, "selected")
        self.set_class(hint, "hint")
        self.set_class(cursor, "cursor")
        self.set_class(matched, "matched")

    def on_click(self) -> None:
        """Tells the screen which card was clicked."""
        self.post_message(self.Clicked(self.place, self.index))
