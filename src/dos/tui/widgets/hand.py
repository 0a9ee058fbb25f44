"""The person's hand: cards to select (Space or a click) for a match, a lay or a placement."""

from __future__ import annotations

from dos.tui.widgets.row import CardRow


class HandView(CardRow):
    """The person's cards; the border title is the card's position, counted from 1."""

    place = "hand"
