"""A row of cards that wraps onto more lines: the base of the Center Row and the hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual.containers import Container

from dos.tui.widgets.cards import CardView


@dataclass(frozen=True, slots=True)
class Shown:
    """How one card of a row is shown."""

    card: int
    label: str
    selected: bool = False
    hint: bool = False
    cursor: bool = False
    matched: bool = False


class CardRow(Container):
    """Cards side by side, wrapping onto more lines as the width asks; reuses its card
    widgets."""

    DEFAULT_CSS = """
    CardRow {
        layout: grid;
        grid-size: 12;
        grid-columns: 9;
        grid-rows: 3;
        height: auto;
        min-height: 3;
    }
    """

    place = "row"
    card_view: ClassVar[type[CardView]] = CardView
    """The widget of one card (another rule set's cards: a subclass of ``CardView``)."""
    CELL = 9
    """Columns one card takes, margin included."""

    def on_resize(self) -> None:
        """As many cards a line as the width allows."""
        self.styles.grid_size_columns = max(1, self.size.width // self.CELL)

    def cards(self) -> list[CardView]:
        """The card widgets, in order."""
        return list(self.query_children(CardView))

    def show(self, shown: Sequence[Shown]) -> None:
        """Shows these cards, adding or removing card widgets as the row grows or shrinks."""
        views = self.cards()
        for view in views[len(shown) :]:
            view.remove()
        new: list[CardView] = []
        for index, item in enumerate(shown):
            if index < len(views):
                view = views[index]
            else:
                view = self.card_view(self.place, index, item.card)
                new.append(view)
            view.show(
                item.card,
                item.label,
                selected=item.selected,
                hint=item.hint,
                cursor=item.cursor,
                matched=item.matched,
            )
        if new:
            self.mount(*new)
