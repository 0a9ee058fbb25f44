"""The plain data a tournament is made of: its entrants and its games.

>>> game = Game(round=1, seats=("ada", "bea"), ranks=(0, 1))
>>> game.finished, game.opponents("ada")
(True, ('bea',))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a tournament: their id, name, rating at entry (for pairing and the last
    tie-break) and whether they still play (``active``: not left, not dropped)."""

    player_id: str
    name: str
    rating: float = 0.0
    active: bool = True


@dataclass(frozen=True, slots=True)
class Game:
    """One table of a tournament, or one bye: the round it belongs to (an arena counts its
    games from 1 in the order paired), its players by seat, and, once finished, each seat's
    rank (0 first; equal ranks tie). A bye has one seat and ``bye`` set."""

    round: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...] | None = None
    bye: bool = False

    @property
    def finished(self) -> bool:
        """Whether it counts: a bye at once, a table once its game ended."""
        return self.bye or self.ranks is not None

    def opponents(self, player_id: str) -> tuple[str, ...]:
        """The others at this table (none for a bye)."""
        return tuple(p for p in self.seats if p != player_id)


Pair = frozenset[str]
"""Two players, either order."""


def pairs_of(seats: Iterable[str]) -> set[Pair]:
    """Every pair of players at one table.

    >>> sorted(sorted(p) for p in pairs_of(["a", "b", "c"]))
    [['a', 'b'], ['a', 'c'], ['b', 'c']]
    """
    return {frozenset(pair) for pair in combinations(seats, 2)}


def met(games: Sequence[Game]) -> dict[Pair, int]:
    """How often each pair of players sat at one table."""
    counts: dict[Pair, int] = {}
    for game in games:
        for pair in pairs_of(game.seats):
            counts[pair] = counts.get(pair, 0) + 1
    return counts
