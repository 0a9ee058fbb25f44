"""Rating updates: openskill's Plackett-Luce model, one player per team.

A game's seats are rated against each other by their finishing ranks. One player may hold
several seats of a game (a table with two ``hard`` bots): each of its seats is rated as a
player of its own, all starting from the player's rating, and the player's new rating is the
mean of its seats' new ratings (mu and sigma each). The game counts once for it, and as a win
if one of its seats won.

``rate_game`` rates every seat against every other (a tournament's bots); the server rates
each player only against its opponents with standing (``rate_against``,
``dos.ratings.policy``): on the sub-game of its seats and theirs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""

MIN_PLAYERS = 2
MAX_PLAYERS = 10
"""The numbers of seats a rated game may have."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating shown on the leaderboard: mu - 3 sigma.

        >>> Rating().ordinal
        0.0
        """
        return self.mu - 3 * self.sigma


def rate_seats(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The new rating of every seat of a game, each seat a one-player team."""
    if not MIN_PLAYERS <= len(ratings) <= MAX_PLAYERS:
        raise ValueError(f"a rated game has {MIN_PLAYERS}-{MAX_PLAYERS} seats, not {len(ratings)}")
    if len(ranks) != len(ratings):
        raise ValueError("one rank per seat expected")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one game did to one player's rating."""

    before: Rating
    after: Rating
    rank: int
    """The player's best rank in the game (0: first)."""
    won: bool


def rate_game(
    players: Sequence[str], ranks: Sequence[int], current: dict[str, Rating]
) -> dict[str, Outcome]:
    """The outcome of a game for each player: ``players[seat]`` is who held the seat, and
    ``current`` their ratings before it (a player missing from it starts at the default).
    """
    before = [current.get(player, Rating()) for player in players]
    after = rate_seats(before, ranks)
    outcomes: dict[str, Outcome] = {}
    for player in dict.fromkeys(players):
        seats = [seat for seat, who in enumerate(players) if who == player]
        new = [after[seat] for seat in seats]
        best = min(ranks[seat] for seat in seats)
        outcomes[player] = Outcome(
            before=before[seats[0]],
            after=Rating(sum(r.mu for r in new) / len(new), sum(r.sigma for r in new) / len(new)),
            rank=best,
            won=best == 0,
        )
    return outcomes


def _dense(ranks: Sequence[int]) -> list[int]:
    """Ranks renumbered 0, 1, 2... in the same order, ties kept (a sub-game's places).

    >>> _dense([3, 0, 3, 1])
    [2, 0, 2, 1]
    """
    order = {rank: place for place, rank in enumerate(sorted(set(ranks)))}
    return [order[rank] for rank in ranks]


def rate_against(
    players: Sequence[str],
    ranks: Sequence[int],
    current: dict[str, Rating],
    opponents: Mapping[str, Collection[str]],
) -> dict[str, Outcome]:
    """The outcome of a game for each player that has opponents in ``opponents[player]``.

    A player is rated on the sub-game of its own seats and its opponents' seats: their
    finishing order among themselves, every seat from its player's rating before the game,
    and only the player's own outcome is kept (the mean of its seats, as in ``rate_game``).
    Its ``rank`` and ``won`` are its place in the whole game. A player without opponents is
    left out: the game does not count for it.
    """
    if len(ranks) != len(players):
        raise ValueError("one rank per seat expected")
    outcomes: dict[str, Outcome] = {}
    for player in dict.fromkeys(players):
        against = set(opponents.get(player, ())) - {player}
        if not against:
            continue
        seats = [seat for seat, who in enumerate(players) if who == player or who in against]
        before = [current.get(players[seat], Rating()) for seat in seats]
        after = rate_seats(before, _dense([ranks[seat] for seat in seats]))
        mine = [after[i] for i, seat in enumerate(seats) if players[seat] == player]
        best = min(ranks[seat] for seat, who in enumerate(players) if who == player)
        outcomes[player] = Outcome(
            before=current.get(player, Rating()),
            after=Rating(
                sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine)
            ),
            rank=best,
            won=best == 0,
        )
    return outcomes
