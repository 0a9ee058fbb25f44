"""The answers of the rating endpoints (``GET /api/leaderboard``, ``GET /api/players/{id}``)
as models, for the server's OpenAPI schema; ``docs/ratings.md`` describes them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

LEADERBOARD_PAGE = 50
"""The most players one page of the leaderboard lists."""
RECENT_GAMES = 20
"""How many of a player's latest rated games their page lists."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlayerRating(_Answer):
    """One player's rating in one rule set at tables of one size."""

    player_id: str
    """A guest's player id, or ``bot:<level>`` for a bot level."""
    name: str
    """The display name last played under."""
    rules: str
    players: int
    rating: float
    """The conservative rating: mu - 3 sigma (the leaderboard's order)."""
    mu: float
    sigma: float
    games: int
    wins: int
    bot: bool


class LeaderboardEntry(PlayerRating):
    """A player's place on the leaderboard (1: best)."""

    place: int


class Leaderboard(_Answer):
    """``GET /api/leaderboard``: one page of the players rated in a rule set and table size."""

    rules: str
    players: int
    total: int
    offset: int
    limit: int
    entries: list[LeaderboardEntry]


class RatedGame(_Answer):
    """One rated game of a player."""

    game_id: int
    code: str
    rules: str
    players: list[str]
    rank: int
    """The player's place, 0 first (tied seats share a place)."""
    won: bool
    rating_change: float
    """How much the game moved the player's conservative rating."""
    at: float


class HistoryPoint(_Answer):
    """A player's rating after one rated game."""

    game_id: int
    rules: str
    players: int
    rank: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    rating: float
    change: float
    """How much the game moved the conservative rating."""
    at: float


class PlayerPage(_Answer):
    """``GET /api/players/{player_id}``: a player's ratings, latest games and history."""

    player_id: str
    name: str
    bot: bool
    ratings: list[PlayerRating]
    recent: list[RatedGame]
    """The latest rated games, newest first."""
    history: list[HistoryPoint]
    """Every rating change, oldest first (for the rating-over-time plot)."""
