"""The answers of the rating endpoints (``GET /api/leaderboard``, ``GET /api/players/{id}``)
as models, for the server's OpenAPI schema; ``docs/ratings.md`` describes them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

LEADERBOARD_PAGE = 50
"""The most players one page of the leaderboard lists."""
RECENT_GAMES = 20
"""How many of a player's latest rated games their page lists."""
HISTORY_PAGE = 200
"""The most points of a player's rating history one page of their page has."""


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
    """The games that counted for the player (``docs/ratings.md``: whose games move whom)."""
    wins: int
    bot: bool
    """A server bot level (``bot:<level>``)."""
    ai: bool
    """A player who plays through the agent API or MCP (its own bot, a learned policy, a
    language model): listed on the bots' board, never on the people's."""
    provisional: bool
    """A person with fewer counted games than it takes to be established: not on the board,
    and their games move neither bots nor other persons. Never for a bot level."""


class LeaderboardEntry(PlayerRating):
    """A player's place on the leaderboard (1: best)."""

    place: int


class Leaderboard(_Answer):
    """``GET /api/leaderboard``: one page of the players on a board of a rule set and table
    size: the people's (``board=people``, the established persons) or the bots' (``board=bots``:
    the bot levels and the established AI players); provisional players are not listed."""

    rules: str
    players: int
    board: str
    """``people`` or ``bots``."""
    total: int
    """How many players the board lists (all pages)."""
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
    """``GET /api/players/{player_id}``: a player's ratings, latest games and one page of
    their rating history."""

    player_id: str
    name: str
    bot: bool
    ai: bool
    """The player plays through the agent API or MCP: an AI, on the bots' board."""
    established_games: int
    """The counted games that make a person established in a rule set and table size."""
    ratings: list[PlayerRating]
    recent: list[RatedGame]
    """The latest rated games (at most 20), newest first."""
    history: list[HistoryPoint]
    """One page of the rating changes (at most 200), oldest first: the newest page unless
    ``offset`` asks for another (for the rating-over-time plot)."""
    history_total: int
    """How many rating changes the player has in all."""
    history_offset: int
    """The index of the page's first point among all of them, the oldest being 0."""
    history_limit: int
    """The most points a page has."""
