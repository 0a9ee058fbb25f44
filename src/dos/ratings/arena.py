"""Openskill ratings of a tournament's bots (``dos tournament``): every bot a player, rated
game after game in schedule order, each game ranked by its winner and final scores
(``dos.ratings.ranks.scores_ranks``). A bot holding several seats of a game follows
``dos.ratings.model``'s rule (the mean of its seats' updates).

The ratings depend on the games and their order only, so the same seeds give the same
ratings on every backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dos.ratings.model import Rating, rate_game
from dos.ratings.ranks import scores_ranks

if TYPE_CHECKING:
    from dos.arena.played import PlayedGame


def rating_trail(games: Sequence[PlayedGame]) -> list[dict[str, Rating]]:
    """Every bot's rating after each game (a bot not seen yet is absent)."""
    current: dict[str, Rating] = {}
    trail: list[dict[str, Rating]] = []
    for game in games:
        if len(set(game.seating)) >= 2:
            ranks = scores_ranks(game.winner, game.scores)
            for bot, outcome in rate_game(list(game.seating), ranks, current).items():
                current[bot] = outcome.after
        trail.append(dict(current))
    return trail


def tournament_ratings(games: Sequence[PlayedGame]) -> dict[str, Rating]:
    """Every bot's rating after the whole tournament."""
    trail = rating_trail(games)
    return trail[-1] if trail else {}
