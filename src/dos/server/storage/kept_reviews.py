"""The game reviews a server of many processes keeps in its database (``dos_reviews``), as
functions of a session: ``await db.call(keep_review, KeptReview(...))``,
``await db.read(load_review, name)``.

Each review is stored once, under its name (``dos.server.hosting.review_store.review_name``:
the record's hash, the seat, the settings), as the JSON ``dos review --json`` gives. A review
is a pure function of its name, so a second writing of the same name changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from dos.server.storage.models import ReviewRow


@dataclass(frozen=True, slots=True)
class KeptReview:
    """A review done, as stored: its name, the game and seat it reviews, its JSON, and when
    it was done (seconds since the epoch)."""

    name: str
    game_id: int
    seat: int
    review: dict[str, Any]
    at: float


def keep_review(session: Session, kept: KeptReview) -> None:
    """Stores ``kept`` unless a review of its name is stored already. Two processes storing
    it at once: one of them gets the database's ``IntegrityError`` (it is stored)."""
    if session.get(ReviewRow, kept.name) is None:
        session.add(
            ReviewRow(
                name=kept.name,
                game_id=kept.game_id,
                seat=kept.seat,
                review=kept.review,
                at=kept.at,
            )
        )


def load_review(session: Session, name: str) -> dict[str, Any] | None:
    """Review ``name``'s JSON, or ``None``."""
    row = session.get(ReviewRow, name)
    return None if row is None else dict(row.review)
