"""The Center Row: each card with its index (the target of a match), and this turn's matches."""

from __future__ import annotations

from dos.tui.widgets.row import CardRow


class CenterRowView(CardRow):
    """The Center Row's cards; a card's border title is its index, as notation writes it."""

    place = "center"
