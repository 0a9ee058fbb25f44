"""The bodies of the moderation and admin endpoints (``dos.server.http.moderation``,
``dos.server.http.admin``; docs/moderation.md), checked by pydantic: unknown fields are
refused and every text has a bound. Who asks is always the player token's player, never a
body's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dos.server.people.admins import MAX_HOURS, REASON_MAX
from dos.server.people.moderation import TEXT_MAX


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


PlayerId = Annotated[str, Field(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player id."""
TableCode = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
"""A table's code."""


class About(_Body):
    """Whom a block, mute or report is about: a player by id (their page), or the player of
    ``seat`` of table ``code`` (the table's seat menu, a chat line): the latest who sat there
    under ``name``, the name the seat showed the player (a chat line's author), even if they
    have left it since; without ``name``, the latest who sat there."""

    player_id: PlayerId | None = None
    code: TableCode | None = None
    seat: Annotated[int, Field(ge=0, le=15)] | None = None
    name: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class NewReport(About):
    """``POST /api/moderation/reports``: a reason, and the reporter's own words if any."""

    reason: Literal["abuse", "cheating", "spam", "name", "other"]
    text: Annotated[str, Field(max_length=TEXT_MAX)] | None = None


class Person(_Body):
    """A player as the lists show them: their id and their latest name, if any."""

    player_id: str
    name: str | None = None


class Standing(_Body):
    """What an admin's sanctions hold against the player now (``None``: nothing; a time:
    until then; ``"forever"``)."""

    banned_until: float | Literal["forever"] | None = None
    muted_until: float | Literal["forever"] | None = None


class Relation(_Body):
    """``POST /api/moderation/relation``: the player a seat or id names, and whether you block
    or mute them (what their menu offers: block or unblock, mute or unmute)."""

    player_id: str
    name: str | None = None
    blocked: bool
    muted: bool


class ModerationOverview(_Body):
    """``GET /api/moderation``: whom you block and mute, and your standing."""

    player_id: str
    blocks: list[Person]
    mutes: list[Person]
    standing: Standing
    admin: bool


class Warning(_Body):
    """An admin's warning, in the admin's words."""

    reason: str
    at: float


class Warnings(_Body):
    """``POST /api/moderation/warnings``: the warnings not yet shown (now marked seen)."""

    warnings: list[Warning]


class Done(_Body):
    """Whether the request changed anything (``False``: it was so already)."""

    done: bool
    person: Person | None = None


class ReportFiled(_Body):
    """A report filed: its id."""

    id: int


class AdminAction(_Body):
    """``POST /api/admin/actions``: warn, mute on the server or ban a player (``hours``: for
    how long; none: for good), or dismiss a report; always with a reason."""

    action: Literal["warn", "mute", "ban", "dismiss"]
    player_id: PlayerId | None = None
    report_id: Annotated[int, Field(ge=1)] | None = None
    reason: Annotated[str, Field(min_length=1, max_length=REASON_MAX)]
    hours: Annotated[float, Field(gt=0, le=MAX_HOURS)] | None = None


class CloseTable(_Body):
    """``POST /api/admin/tables/{code}/close``: why."""

    reason: Annotated[str, Field(min_length=1, max_length=REASON_MAX)]


class Logged(_Body):
    """An admin action done: its entry in the log."""

    log_id: int


class AdminOverview(_Body):
    """``GET /api/admin``: the queue of open reports (oldest first) with their chat excerpts,
    and the latest entries of the admins' log (newest first)."""

    player_id: str
    reports: list[dict[str, Any]]
    log: list[dict[str, Any]]
