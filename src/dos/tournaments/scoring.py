"""Points by place, for a bye and for a streak.

A Swiss gives each place at a table of ``n`` seats ``n - 1 - rank`` points (a win at two seats
is 1, last place 0), and a bye the points of a first place. An arena gives 2 for a win at two
seats, and 4, 2, 1 for first, second and third at three or four (last place 0); with
``streaks``, a player who has won their last two games (and goes on winning) scores double,
as long as the streak lasts. Tied ranks share the better place's points.

>>> SWISS.points(rank=0, seats=4), SWISS.points(rank=3, seats=4), SWISS.bye_points(2)
(3.0, 0.0, 1.0)
>>> ARENA.points(rank=0, seats=2), ARENA.points(rank=1, seats=4), ARENA.points(rank=2, seats=3)
(2.0, 2.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

STREAK = 2
"""Wins in a row after which an arena's streak bonus doubles the next wins' points."""


def _swiss_table() -> Mapping[int, tuple[float, ...]]:
    return MappingProxyType({n: tuple(float(n - 1 - r) for r in range(n)) for n in (2, 3, 4)})


def _arena_table() -> Mapping[int, tuple[float, ...]]:
    return MappingProxyType({2: (2.0, 0.0), 3: (4.0, 2.0, 0.0), 4: (4.0, 2.0, 1.0, 0.0)})


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points by place at each table size; a bye's points are the first place's."""

    by_size: Mapping[int, tuple[float, ...]] = field(default_factory=_swiss_table)
    streaks: bool = False
    """Doubled points for a win after ``STREAK`` wins in a row (the arena's option)."""

    def points(self, rank: int, seats: int) -> float:
        """The points of ``rank`` (0 first) at a table of ``seats``."""
        table = self.by_size.get(seats)
        if table is None:
            raise ValueError(f"no points for tables of {seats} seats")
        if not 0 <= rank < seats:
            raise ValueError(f"rank {rank} at a table of {seats} seats")
        return table[rank]

    def bye_points(self, seats: int) -> float:
        """What a bye is worth in a tournament of tables of ``seats``: a first place."""
        return self.points(0, seats)


SWISS = Scoring()
"""The Swiss's points."""
ARENA = Scoring(_arena_table())
"""The arena's points, without the streak bonus."""
ARENA_STREAKS = Scoring(_arena_table(), streaks=True)
"""The arena's points with the streak bonus."""
