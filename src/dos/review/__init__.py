"""The review of a finished game, seat by seat (docs/review.md).

``review_game(record, seat, samples=..., seed=...)`` judges each turn decision of ``seat`` from
that seat's view alone with the ``expert`` bot's machinery, and counts the DOS calls and
catches it missed; ``dos.review.cli.main`` is the ``dos review`` command.
"""

from __future__ import annotations

from dos.review.estimate import ReviewUnavailableError, Values, estimate
from dos.review.review import (
    CONFIDENCE,
    SAMPLES,
    THRESHOLDS,
    Decision,
    Entry,
    Obligation,
    Review,
    decisions,
    judge,
    review_decisions,
    review_game,
    review_record,
    reviewed,
)

__all__ = [
    "CONFIDENCE",
    "SAMPLES",
    "THRESHOLDS",
    "Decision",
    "Entry",
    "Obligation",
    "Review",
    "ReviewUnavailableError",
    "Values",
    "decisions",
    "estimate",
    "judge",
    "review_decisions",
    "review_game",
    "review_record",
    "reviewed",
]
