"""The reaction test's play area (RULES.md §9): targets drawn where the engine placed them.

The engine gives each target's centre as fractions of the play area (``x`` of its width, ``y``
of its height) and half its side (``radius``); here they become screen cells: the centre
``(x * width, y * height)``, a box at least 5 cells wide and 3 high, kept inside the area.
Each target shows the key that hits it; a click on its box hits it too, and a click beside
every box is a miss (in fractions of the area, for the ``ReactionTest``).

>>> area = place_boxes([(0.25, 0.5)], 0.06, 80, 20)
>>> area[0]
Box(left=15, top=9, width=11, height=3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

TARGET_KEYS = ("f", "j", "k", "d")
"""The key that hits each target, in the order of the engine's targets."""


class Box(NamedTuple):
    """A target's cells: its top left corner and its size."""

    left: int
    top: int
    width: int
    height: int

    def contains(self, x: int, y: int) -> bool:
        """Whether cell ``(x, y)`` lies in the box."""
        return self.left <= x < self.left + self.width and self.top <= y < self.top + self.height

    @property
    def centre(self) -> tuple[int, int]:
        return self.left + self.width // 2, self.top + self.height // 2


def _odd(value: int, least: int) -> int:
    value = max(least, value)
    return value if value % 2 else value + 1


def place_boxes(
    targets: Sequence[tuple[float, float]], radius: float, width: int, height: int
) -> list[Box]:
    """The box of each target in an area of ``width`` by ``height`` cells, centred on the
    cell at the target's fractions (moved inside the area if the area is very small)."""
    boxes = []
    for x, y in targets:
        w = min(_odd(round(2 * radius * width), 5), max(width, 1))
        h = min(_odd(round(2 * radius * height), 3), max(height, 1))
        cx, cy = int(x * width), int(y * height)
        left = min(max(cx - w // 2, 0), max(width - w, 0))
        top = min(max(cy - h // 2, 0), max(height - h, 0))
        boxes.append(Box(left, top, w, h))
    return boxes


class ReactionArea(Widget):
    """The play area: the targets not hit yet, each a box showing its key; hit ones fade.
    Posts ``TargetHit`` for a click on a target and ``Missed`` (fractions) beside them."""

    DEFAULT_CSS = """
    ReactionArea { height: 1fr; width: 1fr; background: $boost; }
    """

    class TargetHit(Message):
        """A target's box was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    class Missed(Message):
        """A click beside every target, at ``(x, y)`` in fractions of the area."""

        def __init__(self, x: float, y: float) -> None:
            self.x = x
            self.y = y
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.targets: list[tuple[float, float]] = []
        self.hit: list[bool] = []
        self.radius = 0.06

    def show(
        self, targets: Sequence[tuple[float, float]], hit: Sequence[bool], radius: float
    ) -> None:
        """Shows these targets (fractions of the area), marking those already hit."""
        self.targets = list(targets)
        self.hit = list(hit)
        self.radius = radius
        self.refresh()

    def boxes(self) -> list[Box]:
        """Each target's box at the area's present size."""
        size = self.content_size
        return place_boxes(self.targets, self.radius, size.width, size.height)

    def render(self) -> Text:
        """Blank cells with the targets' boxes drawn in."""
        size = self.content_size
        width, height = size.width, size.height
        rows: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]
        target_style = Style(color="black", bgcolor="#ffd54f", bold=True)
        hit_style = Style(color="#7CFC00", dim=True)
        for index, box in enumerate(self.boxes()):
            done = self.hit[index] if index < len(self.hit) else False
            style = hit_style if done else target_style
            label = "✔" if done else TARGET_KEYS[index % len(TARGET_KEYS)].upper()
            for dy in range(box.height):
                y = box.top + dy
                if not 0 <= y < height:
                    continue
                for dx in range(box.width):
                    x = box.left + dx
                    if not 0 <= x < width:
                        continue
                    edge_y = dy in (0, box.height - 1)
                    edge_x = dx in (0, box.width - 1)
                    char = (
                        "·"
                        if done
                        else ("█" if edge_x else ("▀" if dy == 0 else "▄") if edge_y else " ")
                    )
                    rows[y][x] = (char, style)
            cx, cy = box.centre
            if 0 <= cy < height and 0 <= cx < width:
                rows[cy][cx] = (label, style)
        result = Text()
        for number, row in enumerate(rows):
            for char, cell_style in row:
                result.append(char, cell_style or "")
            if number < height - 1:
                result.append("\n")
        return result

    def on_click(self, event: events.Click) -> None:
        """A click on a target hits it; anywhere else it is a miss, in fractions."""
        event.stop()
        x, y = event.x, event.y
        for index, box in enumerate(self.boxes()):
            if box.contains(x, y) and not (index < len(self.hit) and self.hit[index]):
                self.post_message(self.TargetHit(index))
                return
        size = self.content_size
        if size.width and size.height:
            self.post_message(self.Missed((x + 0.5) / size.width, (y + 0.5) / size.height))
