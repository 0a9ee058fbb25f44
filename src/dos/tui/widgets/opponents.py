"""The opponents: name, hand size, score, and marks for the turn, the dealer and DOS."""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static


class OpponentView(Static):
    """One opponent's line; clicking it catches them (if they have not called "DOS!")."""

    DEFAULT_CSS = """
    OpponentView { height: 1; }
    OpponentView.turn { text-style: bold; }
    OpponentView.dos-open { color: $warning; text-style: bold; }
    """

    class Clicked(Message):
        """An opponent's line was clicked."""

        def __init__(self, seat: int) -> None:
            self.seat = seat
            super().__init__()

    def __init__(self, seat: int) -> None:
        super().__init__("")
        self.seat = seat

    def on_click(self) -> None:
        """Tells the screen which opponent was clicked."""
        self.post_message(self.Clicked(self.seat))


class OpponentsView(Vertical):
    """Every opponent, one line each."""

    DEFAULT_CSS = """
    OpponentsView { height: auto; }
    """

    def show(self, lines: Sequence[tuple[int, str, bool, bool]]) -> None:
        """Shows ``(seat, text, to_play, dos_open)`` for each opponent."""
        views = list(self.query_children(OpponentView))
        if len(views) != len(lines):
            for view in views:
                view.remove()
            views = [OpponentView(seat) for seat, _, _, _ in lines]
            self.mount(*views)
        for view, (_, line, to_play, dos_open) in zip(views, lines, strict=True):
            view.update(line)
            view.set_class(to_play, "turn")
            view.set_class(dos_open, "dos-open")
