"""The log: every action of the game in words, newest at the bottom."""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import RichLog


class GameLog(RichLog):
    """A scrolling log that is given the whole list of sentences and adds the new ones."""

    DEFAULT_CSS = """
    GameLog { border: round $foreground 40%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, min_width=16, id=id)
        self.shown = 0
        self.lines_text: list[str] = []

    def sync(self, lines: Sequence[str]) -> None:
        """Writes the sentences not shown yet (starts over if the list got shorter)."""
        if len(lines) < self.shown:
            self.clear()
            self.shown = 0
            self.lines_text = []
        for line in lines[self.shown :]:
            self.write(line)
            self.lines_text.append(line)
        self.shown = len(lines)
