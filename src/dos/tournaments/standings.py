"""The standings: every entrant's points, with the tie-breaks that order equal points.

Order: points, then the opponents' points (Buchholz: the final points of everyone a player
sat with, once per game together), then first places, then rating, then name and id. Games
count in the order given (the order they ended), which is the order a streak runs in.

>>> from dos.tournaments.field import Entrant, Game
>>> from dos.tournaments.scoring import SWISS
>>> people = [Entrant("a", "Ada", 10.0), Entrant("b", "Bea", 20.0), Entrant("c", "Cy", 5.0)]
>>> games = [Game(1, ("a", "b"), (0, 1)), Game(1, ("c",), bye=True)]
>>> [(row.name, row.points, row.place) for row in standings(people, games, SWISS, 2)]
[('Ada', 1.0, 1), ('Cy', 1.0, 2), ('Bea', 0.0, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dos.tournaments.field import Entrant, Game
from dos.tournaments.scoring import STREAK, Scoring


@dataclass(slots=True)
class Standing:
    """One entrant's line of the standings."""

    player_id: str
    name: str
    rating: float
    active: bool
    points: float = 0.0
    games: int = 0
    """Finished games played (byes not counted)."""
    firsts: int = 0
    byes: int = 0
    opponents_points: float = 0.0
    """Buchholz: the tie-break after points."""
    streak: int = 0
    """Wins in a row up to now (the arena's streak bonus doubles from ``STREAK``)."""
    playing: bool = False
    """At a table whose game has not ended."""
    place: int = 0
    """1 for the leader; tied entrants never share one (the tie-breaks order them)."""
    met: list[str] = field(default_factory=list)


def standings(
    entrants: Sequence[Entrant], games: Sequence[Game], scoring: Scoring, seats: int
) -> list[Standing]:
    """The standings of ``entrants`` after ``games`` (tables of ``seats`` for a bye's
    points), best first. Games of players not among ``entrants`` are refused."""
    rows = {e.player_id: Standing(e.player_id, e.name, e.rating, e.active) for e in entrants}
    for game in games:
        unknown = [p for p in game.seats if p not in rows]
        if unknown:
            raise ValueError(f"a game of players not entered: {', '.join(unknown)}")
        if game.bye:
            row = rows[game.seats[0]]
            row.points += scoring.bye_points(seats)
            row.byes += 1
            continue
        if game.ranks is None:
            for player in game.seats:
                rows[player].playing = True
            continue
        for player, rank in zip(game.seats, game.ranks, strict=True):
            row = rows[player]
            points = scoring.points(rank, len(game.seats))
            won = rank == 0 and game.ranks.count(0) == 1
            if scoring.streaks and won and row.streak >= STREAK:
                points *= 2
            row.streak = row.streak + 1 if won else 0
            row.points += points
            row.games += 1
            row.firsts += int(won)
            row.met.extend(game.opponents(player))
    for row in rows.values():
        row.opponents_points = sum(rows[other].points for other in row.met)
    ordered = sorted(rows.values(), key=_order)
    for place, row in enumerate(ordered, 1):
        row.place = place
    return ordered


def _order(row: Standing) -> tuple[float, float, int, float, str, str]:
    return (-row.points, -row.opponents_points, -row.firsts, -row.rating, row.name, row.player_id)
