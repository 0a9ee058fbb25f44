"""A part of a game's review as a job (``dos.server.hosting.jobs``): what a worker process
runs for a review the server computes (``dos.server.http.reviews``).

Each part is a pure function of the game's record, the seat and the settings; each decision's
samples are seeded by the decision itself (``dos.review.decision_rng``). This module imports
only what a review needs, not the server: the job workers' fork server loads it
(``dos.server.hosting.job_pool.PRELOAD``).
"""

from __future__ import annotations

from typing import Any

from dos import records
from dos.review.review import decisions, game_key, review_decisions


def review_job(payload: dict[str, Any]) -> dict[str, Any]:
    """The ``review`` job (``dos.server.hosting.jobs``). ``{"record", "seat", "samples", "seed",
    "first", "last"}``: with ``first`` null, the review's head (the decisions' ``total``, the
    DOS calls and catches, the table); else the entries of decisions ``first`` to ``last``
    (and how many of them were ``forced``)."""
    record = records.loads(payload["record"])
    seat = int(payload["seat"])
    found, missed, calls, catches = decisions(record, seat)
    if payload["first"] is None:
        records.replay(record)  # the whole record checked, its result line included
        options = records.start(record).options
        return {
            "total": len(found),
            "missed": [o.to_json() for o in missed],
            "calls_made": calls,
            "catches_made": catches,
            "players": options.players,
            "target": options.target_score,
        }
    part = found[int(payload["first"]) : int(payload["last"])]
    entries, forced = review_decisions(
        part,
        samples=int(payload["samples"]),
        seed=int(payload["seed"]),
        game=game_key(record),
    )
    return {"entries": [e.to_json() for e in entries], "forced": forced}
