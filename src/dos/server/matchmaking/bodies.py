"""The queue's bodies and answers (``/api/queue``, docs/matchmaking.md), as typed models.

>>> JoinQueue(name="Ada").seats, JoinQueue(name="Ada").bots_after is None
(2, True)
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dos import ruleset
from dos.matchmaking.queue import MAX_SEATS, MIN_SEATS
from dos.server.protocol.base import DisplayName, ProtocolModel, Token

MAX_BOTS_AFTER = 600.0
"""The longest wait a player may choose before bots fill their table, in seconds."""


class JoinQueue(ProtocolModel):
    """``POST /api/queue``: wait for people to play with."""

    name: DisplayName
    rules: str = ruleset.DEFAULT
    seats: int = Field(default=MIN_SEATS, ge=MIN_SEATS, le=MAX_SEATS)
    """The table size: 2-4 seats."""
    bots_after: float | None = Field(default=None, ge=0, le=MAX_BOTS_AFTER)
    """Seconds waited after which bots may fill the empty seats; null: never."""
    player_token: Token | None = None
    """A ``player_token`` from an earlier grant (an account's keeps it rated); none: a new
    guest."""


class QueueToken(ProtocolModel):
    """``POST /api/queue/status`` and ``/api/queue/leave``: whose entry."""

    player_token: Token


class QueueSeat(ProtocolModel):
    """The seat a match gave: what a ``SeatGrant`` says, less the table's info (read it
    from ``GET /api/tables/{code}``)."""

    code: str
    seat: int
    token: str
    player_id: str
    player_token: str


class QueueStatus(ProtocolModel):
    """Where a player stands in the queue: ``waiting`` (with what they asked for, how long
    they waited and their band now), ``matched`` (with their seat), or ``gone`` (not in
    it: they left, or their entry expired without a heartbeat)."""

    state: Literal["waiting", "matched", "gone"]
    player_id: str
    player_token: str
    """The token to keep (and send with each heartbeat)."""
    rules: str | None = None
    seats: int | None = None
    rated: bool = False
    """Whether the table will be rated: every person at it is an account, in a rule set
    that rates."""
    bots_after: float | None = None
    waited: float = 0.0
    """Seconds since joining."""
    band: float = 0.0
    """The rating band's half-width now, in skill points."""
    heartbeat: float
    """Send a status request at least this often (seconds) to stay in the queue."""
    seat: QueueSeat | None = None
