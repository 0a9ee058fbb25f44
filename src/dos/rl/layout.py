"""Observation layouts: every slice of an observation tensor declared once, by name and shape.

A ``Layout`` is the one declaration an observer fills and ``docs/rl.md`` documents (a test
checks the page against ``Layout.table()``), as OpenSpiel's observers name their tensors.

Each rule set has two layouts (``LAYOUTS``): ``"padded"`` (the default) gives every per-seat
slice ``SEATS`` entries, whatever the player count, and adds a one-hot ``players`` slice, so
its size is the same at every table and one policy plays them all; ``"exact"`` gives those
slices one entry per seat (the layout of policies trained before the padded one existed).

>>> layout = Layout([Slice("hand", (41,), "cards in hand, by type"), Slice("turn", (2,), "x")])
>>> layout.size, layout["turn"]
(43, slice(41, 43, None))
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Slice:
    """One named part of an observation: its shape and what it holds."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


LAYOUTS = ("padded", "exact")
"""The observation layouts of every rule set (see the module docstring)."""
SEATS = 10
"""Entries of each per-seat slice in the padded layout: the most players either rule set
seats (``Options.players`` is at most 10), so every table fits."""
MIN_PLAYERS = 2


def check_layout(layout: str) -> str:
    """``layout`` if it is one of ``LAYOUTS``, else ``ValueError`` naming them."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r} (known: {', '.join(LAYOUTS)})")
    return layout


def seat_width(players: int, layout: str) -> int:
    """Entries of each per-seat slice: ``SEATS`` when padded, else ``players``."""
    return SEATS if check_layout(layout) == "padded" else players


def players_slice() -> Slice:
    """The padded layouts' one-hot player count (entry 0: two players)."""
    return Slice(
        "players",
        (SEATS - MIN_PLAYERS + 1,),
        f"one-hot: the number of players, {MIN_PLAYERS}-{SEATS}",
    )


class Layout:
    """Slices laid end to end in a flat ``float32`` vector."""

    def __init__(self, slices: Sequence[Slice]) -> None:
        self.slices = tuple(slices)
        self._ranges: dict[str, slice] = {}
        start = 0
        for part in self.slices:
            if part.name in self._ranges:
                raise ValueError(f"slice {part.name!r} declared twice")
            self._ranges[part.name] = slice(start, start + part.size)
            start += part.size
        self.size = start

    def __getitem__(self, name: str) -> slice:
        """Where slice ``name`` lies in the flat vector."""
        return self._ranges[name]

    def __iter__(self) -> Iterator[Slice]:
        return iter(self.slices)

    def table(self) -> str:
        """The layout as a Markdown table (offset, name, shape, meaning), for docs/rl.md."""
        rows = ["| offset | slice | shape | meaning |", "|---:|---|---|---|"]
        for part in self.slices:
            where = self._ranges[part.name]
            shape = "x".join(str(n) for n in part.shape)
            rows.append(f"| {where.start} | `{part.name}` | {shape} | {part.meaning} |")
        return "\n".join(rows)
