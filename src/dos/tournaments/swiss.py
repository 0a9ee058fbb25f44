"""A Swiss round's pairing: tables of the chosen size by points then rating, as few repeated
meetings as the field allows, never two players who block each other, and byes for the
players left over.

The active players are ranked by the standings (points, tie-breaks, rating). The
``len % seats`` lowest-ranked who have had the fewest byes sit the round out with a bye. The
rest are seated top down: each table takes the best-ranked player still free and fills up
with the next ones in rank order, searching (depth first, within a bounded number of steps)
for the seating with the fewest pairs that already met; a pair that blocks each other is
never seated together, and a player who can be seated with nobody else gets a bye instead.

>>> from dos.tournaments.field import Entrant
>>> people = [Entrant(p, p.upper(), r) for p, r in [("a", 4), ("b", 3), ("c", 2), ("d", 1)]]
>>> first = pair_round(people, [], seats=2, number=1)
>>> [g.seats for g in first]
[('a', 'b'), ('c', 'd')]
>>> played = [Game(1, ("a", "b"), (0, 1)), Game(1, ("c", "d"), (0, 1))]
>>> [g.seats for g in pair_round(people, played, seats=2, number=2)]
[('a', 'c'), ('b', 'd')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dos.tournaments.field import Entrant, Game, Pair, met
from dos.tournaments.scoring import SWISS, Scoring
from dos.tournaments.standings import standings

SEARCH_STEPS = 20_000
"""The most seatings tried in one round's search before the best found so far is taken."""


def pair_round(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    seats: int,
    number: int,
    blocked: Collection[Pair] = (),
    scoring: Scoring = SWISS,
) -> list[Game]:
    """Round ``number``'s tables (best first) and byes (last) for the active ``entrants``
    after ``games``."""
    if seats < 2:
        raise ValueError("a table has at least 2 seats")
    order = [row for row in standings(entrants, games, scoring, seats) if row.active]
    ranked = [row.player_id for row in order]
    byes_had = {row.player_id: row.byes for row in order}
    spare = len(ranked) % seats
    # The lowest ranked with the fewest byes sit out: fewest byes first, then lowest rank.
    by_need = sorted(range(len(ranked)), key=lambda i: (byes_had[ranked[i]], -i))
    resting = {ranked[i] for i in by_need[:spare]}
    playing = [p for p in ranked if p not in resting]
    tables, stranded = seat_tables(playing, seats, met(games), set(blocked))
    byes = [p for p in ranked if p in resting or p in stranded]
    return [Game(number, table) for table in tables] + [Game(number, (p,), bye=True) for p in byes]


def seat_tables(
    ranked: Sequence[str],
    seats: int,
    meetings: dict[Pair, int],
    blocked: set[Pair],
    steps: int = SEARCH_STEPS,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """``ranked`` (best first) at tables of ``seats``: the seating with the fewest repeated
    pairs found within ``steps``, never a blocked pair together; and the players who could
    not be seated (they get a bye)."""
    best: list[tuple[str, ...]] | None = None
    best_cost = -1
    budget = [steps]

    def cost(table: Sequence[str], player: str) -> int:
        return sum(meetings.get(frozenset((player, other)), 0) for other in table)

    def allowed(table: Sequence[str], player: str) -> bool:
        return all(frozenset((player, other)) not in blocked for other in table)

    def search(free: list[str], done: list[tuple[str, ...]], spent: int) -> None:
        nonlocal best, best_cost
        if budget[0] <= 0 or (best is not None and spent >= best_cost):
            return
        budget[0] -= 1
        if not free:
            best, best_cost = list(done), spent
            return
        fill([free[0]], free[1:], done, spent)

    def fill(table: list[str], rest: list[str], done: list[tuple[str, ...]], spent: int) -> None:
        if len(table) == seats:
            search(rest, [*done, tuple(table)], spent)
            return
        options = [p for p in rest if allowed(table, p)]
        # Fewest repeats first, then rank order: the first full seating is the greedy one.
        options.sort(key=lambda p: cost(table, p))
        for player in options:
            if budget[0] <= 0 or (best is not None and best_cost == 0):
                return
            remaining = [p for p in rest if p != player]
            fill([*table, player], remaining, done, spent + cost(table, player))

    free = list(ranked)
    stranded: list[str] = []
    while free:
        search(free, [], 0)
        if best is not None:
            return best, stranded
        # Nobody can be seated with the lowest ranked of those left: they sit out.
        budget[0] = steps
        stranded.append(free.pop())
        if len(free) % seats:
            stranded.extend(free[len(free) - len(free) % seats :])
            free = free[: len(free) - len(free) % seats]
    return [], stranded
