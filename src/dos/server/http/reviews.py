"""Game reviews on the server: ``POST /api/games/{id}/review`` and ``GET`` its progress.

A review (``dos.review``, docs/review.md) judges each turn decision of one seat of a finished
game (of a rule set whose registry entry says ``reviews``: the official rules) from that seat's
view, with the ``expert`` bot's machinery: seconds of CPU. So the server never runs it on its
event loop: it is cut into jobs of ``CHUNK`` decisions each, run one after another by the
server's job runner (``dos.server.hosting.jobs``, worker processes), and the progress (decisions
done of the total) can be read meanwhile. Each part is a pure function of the game's record, the
seat and the settings; each decision's samples are seeded by the decision itself
(``dos.review.decision_rng``), so the parts together give exactly the review ``dos review
GAME.jsonl --seat N --json`` gives with the same settings.

A review done is kept in the data folder (``reviews/``, named as ``dos review --cache``
names them: the record's hash, the seat, the settings), so it survives a restart and is
never made twice. Requests: ``POST`` starts a review (or finds it under way, or done) and
counts against the client's ``reviews`` limit; ``GET`` reads its state (a ``lookup``). At most
``RUNNING`` reviews are under way at once; past that, ``429 busy``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from dos import records, ruleset
from dos.review.cli import cache_path
from dos.review.review import Entry, Obligation, Review, decisions, game_key, review_decisions
from dos.server.hosting.jobs import BusyError, JobError
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.service import Service
from dos.server.storage.table_store import StoredGame, load_game

log = logging.getLogger(__name__)

CHUNK: Final = 8
"""Decisions judged by one job: the progress moves by this much."""
RUNNING: Final = 4
"""Reviews under way at once, on the whole server."""
RETRY_SECONDS: Final = 0.25
"""How long a review waits for room in a busy job runner before it asks again."""

GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]
SeatNumber = Annotated[int, Field(ge=0, le=63)]


class ReviewRequest(BaseModel):
    """``POST /api/games/{game_id}/review``: the seat to review."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: SeatNumber


class ReviewState(BaseModel):
    """Where a review stands: ``running`` (``done`` of ``total`` decisions judged; ``total``
    null while the game is read), ``done`` (``review``: the JSON of ``dos review --json``) or
    ``failed`` (``error`` says why; a new ``POST`` tries again)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game_id: int
    seat: int
    status: Literal["running", "done", "failed"]
    done: int
    total: int | None
    review: dict[str, Any] | None = None
    error: str | None = None


# --- the jobs (pure: run in worker processes) --------------------------------------------------


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


def assemble(
    head: dict[str, Any], parts: list[dict[str, Any]], seat: int, samples: int, seed: int
) -> dict[str, Any]:
    """The review's JSON from its head and its parts, in order (as ``Review.to_json``)."""
    review = Review(
        seat=seat,
        players=head["players"],
        target=head["target"],
        samples=samples,
        seed=seed,
        entries=tuple(Entry(**e) for part in parts for e in part["entries"]),
        forced=sum(part["forced"] for part in parts),
        calls_made=head["calls_made"],
        catches_made=head["catches_made"],
        missed=tuple(Obligation(**o) for o in head["missed"]),
    )
    return review.to_json()


# --- the server's side --------------------------------------------------------------------------


@dataclass(slots=True)
class Progress:
    """A review under way, or one that failed."""

    done: int = 0
    total: int | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = None


class Reviews:
    """The reviews of one server: under way, failed, and done (in the data folder)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.folder = service.data / "reviews"
        self._progress: dict[tuple[int, int], Progress] = {}

    def _path(self, text: str, seat: int) -> Path:
        settings = self.service.job_settings
        return cache_path(self.folder, text, seat, settings.review_samples, settings.review_seed)

    async def state(self, game: StoredGame, seat: int, start: bool) -> dict[str, Any]:
        """The review of ``seat`` in ``game``: done (from the data folder), under way, or
        failed; ``start``: begins it when it is none of these (or failed)."""
        key = (game.id, seat)
        progress = self._progress.get(key)
        if progress is not None and progress.error is None:
            return self._running(game.id, seat, progress)
        text = await asyncio.to_thread(game.record().dumps)
        path = self._path(text, seat)
        found = await asyncio.to_thread(_read, path)
        if found is not None:
            count = found["summary"]["decisions"] + found["summary"]["forced"]
            return {
                "game_id": game.id,
                "seat": seat,
                "status": "done",
                "done": count,
                "total": count,
                "review": found,
            }
        progress = self._progress.get(key)  # read again: another request may have begun it
        if progress is not None and progress.error is None:
            return self._running(game.id, seat, progress)
        if not start:
            if progress is not None:
                failed = self._running(game.id, seat, progress)
                return {**failed, "status": "failed", "error": progress.error}
            raise ApiError(
                404, "no_review", f"seat {seat} of game {game.id} is not reviewed", "seat"
            )
        under_way = sum(1 for p in self._progress.values() if p.error is None)
        if under_way >= RUNNING:
            # 429, not 503: the server is fine, the client is to come back later.
            raise ApiError(429, "busy", f"{under_way} reviews are under way: try again soon")
        progress = Progress()
        self._progress[key] = progress
        progress.task = asyncio.get_running_loop().create_task(
            self._review(key, text, path, progress)
        )
        return self._running(game.id, seat, progress)

    @staticmethod
    def _running(game_id: int, seat: int, progress: Progress) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "seat": seat,
            "status": "running",
            "done": progress.done,
            "total": progress.total,
        }

    async def _review(
        self, key: tuple[int, int], text: str, path: Path, progress: Progress
    ) -> None:
        settings = self.service.job_settings
        seat = key[1]
        base = {
            "record": text,
            "seat": seat,
            "samples": settings.review_samples,
            "seed": settings.review_seed,
        }
        try:
            head = await self._job({**base, "first": None, "last": None})
            progress.total = total = int(head["total"])
            parts = []
            for first in range(0, total, CHUNK):
                last = min(total, first + CHUNK)
                parts.append(await self._job({**base, "first": first, "last": last}))
                progress.done = last
            review = assemble(head, parts, seat, settings.review_samples, settings.review_seed)
            await asyncio.to_thread(_write, path, review)
        except JobError as error:
            progress.error = str(error)
            return
        except OSError as error:
            log.exception("review %s: could not be kept", key)
            progress.error = f"the review could not be kept: {error.strerror}"
            return
        except Exception:  # a bug must not leave the review "running" for ever
            log.exception("review %s failed", key)
            progress.error = "the review failed"
            return
        del self._progress[key]

    async def _job(self, payload: dict[str, Any]) -> dict[str, Any]:
        while True:
            try:
                result: dict[str, Any] = await self.service.jobs.run("review", payload)
                return result
            except BusyError:
                # Hints and other reviews hold the runner: this one waits its turn.
                await self.service.clock.sleep(RETRY_SECONDS)

    def stop(self) -> None:
        """Cancels the reviews under way (the server's stop; they start again when asked)."""
        for progress in self._progress.values():
            if progress.task is not None:
                progress.task.cancel()


def _read(path: Path) -> dict[str, Any] | None:
    """A kept review, or ``None`` (none, or a damaged one: it is made again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "summary" in data else None


def _write(path: Path, review: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(review), encoding="utf-8")
    temporary.replace(path)


def reviewed(rules: str) -> bool:
    """Whether games of the rule set ``rules`` can be reviewed (its registry entry's
    ``reviews``; an unknown name cannot).

    >>> reviewed("official"), reviewed("classic"), reviewed("poker")
    (True, False, False)
    """
    entry = ruleset.find(rules)
    return entry is not None and entry.reviews


def reviews_router(reviews: Reviews, counters: Counters) -> APIRouter:
    """The endpoints of ``reviews``, to include in the server's application (whose lifespan
    stops them: ``Reviews.stop``)."""
    router = APIRouter(prefix="/api/games")
    service = reviews.service

    async def reviewable(game_id: int, seat: int) -> StoredGame:
        game = await service.db.read(load_game, game_id)
        if game is None:
            raise ApiError(404, "no_game", f"there is no game {game_id}", "game_id")
        if game.status != "finished":
            raise ApiError(409, "bad_state", f"game {game_id} is not finished: no review yet")
        if not reviewed(game.rules):
            read = " and ".join(e.name for e in ruleset.entries() if e.reviews)
            raise ApiError(
                409,
                "review_rules",
                f"game {game_id} is a {game.rules} game: reviews read {read} games",
                "game_id",
            )
        if not 0 <= seat < len(game.players):
            raise ApiError(
                400, "bad_seat", f"seat: game {game_id} has seats 0-{len(game.players) - 1}", "seat"
            )
        return game

    @router.post(
        "/{game_id}/review",
        response_model=ReviewState,
        dependencies=[limits_dependency(counters, "reviews")],
    )
    async def start_review(game_id: GameId, request: ReviewRequest) -> dict[str, Any]:
        """Starts the review of a seat of a finished game (or finds it under way, or done):
        its state. Counts against the client's ``reviews`` limit."""
        game = await reviewable(game_id, request.seat)
        return await reviews.state(game, request.seat, start=True)

    @router.get(
        "/{game_id}/review",
        response_model=ReviewState,
        dependencies=[limits_dependency(counters, "lookup")],
    )
    async def review_state(
        game_id: GameId, seat: Annotated[int, Query(ge=0, le=63)]
    ) -> dict[str, Any]:
        """The state of a seat's review: under way (its progress), done (the review) or
        failed; 404 ``no_review`` when none was asked for."""
        game = await reviewable(game_id, seat)
        return await reviews.state(game, seat, start=False)

    return router
