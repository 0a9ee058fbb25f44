"""The bodies of the friends' endpoints (``dos.server.http.friends``, docs/friends.md), checked
by pydantic: unknown fields are refused and every text has a bound. Who asks is always the
player token's player, never a body's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dos import ruleset
from dos.server.protocol.base import DisplayName


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


PlayerId = Annotated[str, Field(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player id."""
TableCode = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
"""A table's code."""
Level = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_\-]+$")]
"""A bot level."""


class Pulse(_Body):
    """``POST /api/friends/pulse``: where the page is (on the site, seated at a table,
    watching one) and the table's code."""

    where: Literal["site", "table", "watching"] = "site"
    code: TableCode | None = None


class PresenceSetting(_Body):
    """``PUT /api/friends/presence``: hide one's presence from everyone (or show it)."""

    hidden: bool


class NewChallenge(_Body):
    """``POST /api/friends/challenges``: challenge a friend to a new table: its rule set, a
    bot level for each seat after the two players' (2-4 seats in all), rated or not, and the
    challenger's display name there."""

    to: PlayerId
    name: DisplayName
    rules: str = Field(default=ruleset.DEFAULT, min_length=1, max_length=32)
    bots: list[Level] = Field(default_factory=list, max_length=2)
    rated: bool = False


class AcceptChallenge(_Body):
    """``POST /api/friends/challenges/{id}/accept``: the display name to sit under."""

    name: DisplayName


class Presence(_Body):
    """Another player's presence: ``online`` (on the site), ``playing`` or ``watching`` at
    table ``code``, or ``offline`` (also when they hide it)."""

    state: Literal["online", "playing", "watching", "offline"]
    code: str | None = None


class Person(_Body):
    """Another player: their id, the name of their latest game, and (friends and those one
    follows) their presence."""

    player_id: str
    name: str | None
    presence: Presence | None = None


class FriendsOverview(_Body):
    """``GET /api/friends``: one's friends, those one follows, the friend requests to one
    and from one, and whether one hides one's presence."""

    friends: list[Person]
    following: list[Person]
    requests_in: list[Person]
    requests_out: list[Person]
    hidden: bool


class ChallengeInfo(_Body):
    """A challenge: who challenged whom, to what table, its status (``open``,
    ``accepted``, ``declined``, ``cancelled``, ``expired``), when it expires, and once
    accepted the table's code."""

    id: str
    challenger: str
    challenged: str
    name: str
    rules: str
    bots: list[str]
    rated: bool
    status: Literal["open", "accepted", "declined", "cancelled", "expired"]
    expires_at: float
    code: str | None = None


class Landing(_Body):
    """The challenger's seat at the table made when their challenge was accepted (seat 0,
    the host's): the table's code and the seat token that opens it."""

    code: str
    seat: int
    token: str


class Outcome(_Body):
    """One of one's own challenges, open or answered lately; accepted, with one's seat."""

    challenge: ChallengeInfo
    landing: Landing | None = None


class Inbox(_Body):
    """``POST /api/friends/pulse``'s answer: the challenges open to one, one's own
    challenges open or answered lately, and when to pulse again."""

    challenges: list[ChallengeInfo]
    outcomes: list[Outcome]
    poll_ms: int


class Done(_Body):
    """A change made (``changed``: false when it had been made already)."""

    changed: bool
    status: str | None = None
