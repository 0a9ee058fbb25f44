"""An arena: a time window in which whoever waits is seated again as soon as a table's worth
of players is free, by score then rating.

The window comes from the caller's clock (``Window.phase(now)``): tables are paired only
while it is open; a game paired before its end is played out and counts. Waiting players are
ordered by the standings (points, then rating); each table takes the best-placed player
still waiting and the next ones in that order, passing over anyone who sat at that player's
last table (while others are waiting) and never seating two players who block each other.
Fewer than a table's worth wait for the next table to free.

>>> from dos.tournaments.field import Entrant
>>> people = [Entrant(p, p.upper(), r) for p, r in [("a", 1), ("b", 2), ("c", 3), ("d", 4)]]
>>> [g.seats for g in pair_waiting(people, [], {"a", "b", "c", "d"}, seats=2, number=1)]
[('d', 'c'), ('b', 'a')]
>>> Window(100.0, 200.0).phase(150.0), Window(100.0, 200.0).phase(200.0)
('open', 'over')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from dos.tournaments.field import Entrant, Game, Pair
from dos.tournaments.scoring import ARENA, Scoring
from dos.tournaments.standings import standings


@dataclass(frozen=True, slots=True)
class Window:
    """When an arena pairs: from ``starts_at`` up to (not including) ``ends_at``, seconds
    since the epoch on the server's clock."""

    starts_at: float
    ends_at: float

    def __post_init__(self) -> None:
        if self.ends_at <= self.starts_at:
            raise ValueError("an arena ends after it starts")

    def phase(self, now: float) -> str:
        """``before``, ``open`` or ``over`` at ``now``."""
        if now < self.starts_at:
            return "before"
        return "open" if now < self.ends_at else "over"


def pair_waiting(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    waiting: Collection[str],
    *,
    seats: int,
    number: int,
    blocked: Collection[Pair] = (),
    scoring: Scoring = ARENA,
) -> list[Game]:
    """Tables of ``seats`` for the ``waiting`` players (active entrants) after ``games``,
    numbered from ``number``; whoever is not seated goes on waiting."""
    if seats < 2:
        raise ValueError("a table has at least 2 seats")
    rows = standings(entrants, games, scoring, seats)
    free = [row.player_id for row in rows if row.active and row.player_id in waiting]
    last: dict[str, set[str]] = {}
    for game in games:
        if not game.bye:
            for player in game.seats:
                last[player] = set(game.opponents(player))
    no = {frozenset(pair) for pair in blocked}
    tables: list[Game] = []
    while len(free) >= seats:
        head, *others = free
        table = [head]
        for fresh_only in (True, False):
            for player in others:
                if len(table) == seats:
                    break
                if player in table or any(frozenset((player, p)) in no for p in table):
                    continue
                if fresh_only and any(player in last.get(p, ()) for p in table):
                    continue
                table.append(player)
        if len(table) < seats:
            free.remove(head)  # nobody to sit with now: waits for the next table
            continue
        tables.append(Game(number + len(tables), tuple(table)))
        free = [p for p in free if p not in table]
    return tables
