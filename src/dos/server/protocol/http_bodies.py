"""The HTTP API's bodies and answers (docs/protocol.md, "HTTP endpoints"), as typed models:
a request's body is validated with its model, and an answer is checked against its model
(FastAPI's ``response_model``).

>>> CreateTable(name="Ada").seats
[None, 'medium']
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from dos import ruleset
from dos.server.deals import MAX_SEED
from dos.server.protocol.base import DisplayName, ProtocolModel, Token
from dos.server.protocol.server_messages import TableInfo


class CreateTable(ProtocolModel):
    """``POST /api/tables``: a new table, with its creator (the host) at seat 0."""

    name: DisplayName
    """The host's display name."""
    rules: str = ruleset.DEFAULT
    options: dict[str, Any] = Field(default_factory=dict)
    """The rule set's options; ``players`` is set from ``seats``."""
    seats: list[str | None] = Field(default_factory=lambda: [None, "medium"])
    """One entry per seat (2-4): null for a human seat, or a bot level. Seat 0 is the host's."""
    public: bool = False
    """Listed by ``GET /api/tables``; private tables are joined by code only."""
    rated: bool = True
    """Its games update the players' ratings (docs/ratings.md); false: a casual table."""
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    """The seed of its deals, only on a seeded server (``dos serve --deal-seed``; elsewhere
    refused): game 1 is dealt with this seed (``dos.server.deals``). Null: the server's."""
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)
    """The turn timer in seconds; null is off. Left out: 60 at a table with seats for more
    than one person, off for one person against bots (``dos.server.service.turn_seconds``)."""
    player_token: Token | None = None
    """A ``player_token`` from an earlier grant, to keep one player id across tables."""


class JoinTable(ProtocolModel):
    """``POST /api/tables/{code}/join``: take an open human seat."""

    name: DisplayName
    seat: int | None = None
    """The seat wanted; null: the first open one."""
    player_token: Token | None = None


class SeatGrant(ProtocolModel):
    """A seat and the signed token that opens it (keep it: it resumes the seat)."""

    code: str
    seat: int
    token: str
    player_id: str
    player_token: str
    table: TableInfo


class TableList(ProtocolModel):
    """``GET /api/tables``: the public tables not finished, newest first, one page."""

    tables: list[TableInfo]
    total: int
    """How many public tables there are in all."""
    offset: int
    limit: int


class GameSummary(ProtocolModel):
    """One game of a table."""

    game_id: int
    number: int
    status: Literal["playing", "finished", "abandoned"]
    players: list[str]
    result: dict[str, Any] | None


class GameList(ProtocolModel):
    """``GET /api/tables/{code}/games``: a page of a table's games, oldest first."""

    total: int
    offset: int
    limit: int
    games: list[GameSummary]


class PlayerGame(ProtocolModel):
    """One finished game of a player."""

    game_id: int
    code: str
    seat: int
    name: str
    players: list[str]
    result: dict[str, Any]
    won: bool


class PlayerResults(ProtocolModel):
    """``GET /api/players/{player_id}/results``: one page of a player's finished games, newest
    first (by when they finished), and the totals of all of them."""

    player_id: str
    games: int
    """How many finished games the player has (all pages)."""
    wins: int
    """How many of them the player won."""
    offset: int
    """The index of the page's first game, the newest being 0."""
    limit: int
    """The most games a page has (at most 50)."""
    results: list[PlayerGame]


class ReplayFrame(ProtocolModel):
    """One step of a finished game: the action that led here (null first) and the position."""

    action: str | None
    position: dict[str, Any]


class ShuffleReveal(ProtocolModel):
    """A finished game's commitment to its deals and what opens it (docs/records.md, *How to
    check a shuffle*): ``sha256("dos-deal:" + seed + ":" + salt)`` is ``commitment``."""

    commitment: str
    """The commitment everyone at the table was shown from the deal on (``TableInfo``)."""
    seed: str
    """The game's seed, in decimal: text, since it may be larger than a JavaScript number
    holds exactly."""
    salt: str
    """The secret salt drawn for the game, revealed now that it is over."""
    rounds: list[int]
    """The step (frame index) at which each round was dealt, round 1's first."""


class Replay(ProtocolModel):
    """``GET /api/games/{game_id}/replay``: a page of the positions of a finished game, all
    hands shown."""

    game_id: int
    rules: str
    options: dict[str, Any]
    players: list[str]
    result: dict[str, Any]
    total: int
    """The number of frames: the deal and one after each action."""
    offset: int
    """The index of the page's first frame."""
    limit: int
    """The most frames a page has."""
    frames: list[ReplayFrame]
    shuffle: ShuffleReveal | None = None
    """The commitment to the game's deals, opened; null for a game dealt before commitments."""


class RuleSetInfo(ProtocolModel):
    """A rule set this server plays, and what it offers (its registry entry,
    ``dos.ruleset.Entry``): a client builds its rules menu, level pickers and switches from
    these, never from the rule set's name."""

    name: str
    """The name tables, records and positions use (``TableInfo.rules``)."""
    summary: str
    """One line that says what it is (English)."""
    levels: list[str]
    """Its bot levels, easiest first (empty where bots cannot play it)."""
    hints: bool
    """Whether its casual tables give hints (``hint``, ``allow_hints``)."""
    reviews: bool
    """Whether its finished games can be reviewed (``POST /api/games/{id}/review``)."""
    rated: bool
    """Whether its games can be rated (a rated table's games update the players' ratings)."""
    reaction: bool
    """Whether it has a real-time reaction test (a view's ``reaction``)."""
    target_score: bool
    """Whether its games are rounds played to a target score (``options.target_score``)."""
    dos_race: bool
    """Whether "DOS!" is called and caught out of turn (the DOS race)."""


class ServerInfo(ProtocolModel):
    """``GET /api/info``: what this server offers."""

    protocol: int
    rules: list[str]
    levels: list[str]
    """The official rule set's bot levels, easiest first."""
    levels_by_rules: dict[str, list[str]]
    """Each rule set's bot levels, easiest first (empty where bots cannot play it)."""
    max_message_bytes: int
    seats: list[int]
    seeded: bool = False
    """Whether this server deals from a known seed (``dos serve --deal-seed``): its games are
    reproducible and never rated, and a new table may name its own ``seed``."""
    rulesets: list[RuleSetInfo]
    """Every rule set this server plays, in the order of ``rules``, with what it offers."""
