"""The bodies of ``/api/tournaments`` (docs/tournaments.md).

>>> CreateTournament(name="Ada", title="Friday", format="swiss", rounds=3).seats
2
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from dos import ruleset
from dos.server.protocol.base import DisplayName, ProtocolModel, Token

PlayerId = Annotated[str, Field(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player's id, as grants and standings show it."""

MAX_ROUNDS = 20
"""The most rounds of a Swiss."""
MAX_MINUTES = 24 * 60
"""The longest arena, in minutes."""


class CreateTournament(ProtocolModel):
    """``POST /api/tournaments``: a new tournament, organised by the player of
    ``player_token`` (a new guest without one)."""

    name: DisplayName
    """The organiser's display name (as a player, if they play)."""
    title: DisplayName
    """The tournament's name."""
    format: Literal["swiss", "arena"]
    rules: str = ruleset.DEFAULT
    options: dict[str, Any] = Field(default_factory=dict)
    """The rule set's options; ``players`` is set from ``seats``."""
    seats: int = Field(default=2, ge=2, le=4)
    """Players at each table."""
    rated: bool = False
    """Whether its games update ratings (on a server that deals at random)."""
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    """A Swiss's rounds (required for a Swiss)."""
    minutes: float | None = Field(default=None, gt=0, le=MAX_MINUTES)
    """An arena's length (required for an arena)."""
    starts_in: float = Field(default=0.0, ge=0, le=7 * 24 * 3600)
    """Seconds from now to an arena's start."""
    streaks: bool = False
    """An arena's streak bonus (docs/tournaments.md)."""
    play: bool = True
    """Whether the organiser plays too."""
    player_token: Token | None = None


class Entry(ProtocolModel):
    """``POST /api/tournaments/{id}/join``: enter (or come back) under ``name``."""

    name: DisplayName
    player_token: Token | None = None


class Signed(ProtocolModel):
    """A request that only says who asks: leave, start a round, my seat."""

    player_token: Token


class Organised(ProtocolModel):
    """``drop`` and ``add``: the organiser (``player_token``) names a player; ``add`` also
    the name they play under."""

    player_token: Token
    player_id: PlayerId
    name: DisplayName | None = None
