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

Reviews are shared by the server's processes through its ``ReviewStore``
(``dos.server.hosting.review_store``): a review done is kept there (one process: the data
folder, so it survives a restart; many: the database), its progress is read there by any
process, and one process at a time holds its claim and computes it, so a review asked of
several processes at once runs its jobs once, and one whose process died is taken over by the
next process asked. Requests: ``POST`` starts a review (or finds it under way, or done) and
counts against the client's ``reviews`` limit; ``GET`` reads its state (a ``lookup``). At most
``RUNNING`` reviews are computed at once by one process; past that, ``429 busy``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from dos import ruleset
from dos.review.review import Entry, Obligation, Review
from dos.server.hosting.jobs import BusyError, JobError
from dos.server.hosting.review_store import (
    Part,
    ReviewStore,
    ReviewStoreError,
    Standing,
    review_name,
)
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.service import Service
from dos.server.storage.table_store import StoredGame, load_game

log = logging.getLogger(__name__)

CHUNK: Final = 8
"""Decisions judged by one job: the progress moves by this much."""
RUNNING: Final = 4
"""Reviews computed at once by one process of the server."""
RETRY_SECONDS: Final = 0.25
"""How long a review waits for room in a busy job runner before it asks again."""
CLAIMS: Final = 3
"""Times a request tries to claim a review that another process claims or finishes at the
same moment, before it answers ``busy``."""

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


# --- the jobs' results (the jobs themselves: ``dos.server.http.review_job``) ---------------------


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


class Reviews:
    """The reviews as one process of the server serves them, over the server's
    ``ReviewStore`` (shared by its processes): read from the store, begun when asked,
    computed here while this process holds the review's claim (at most ``RUNNING`` here)."""

    def __init__(self, service: Service, store: ReviewStore) -> None:
        self.service = service
        self.store = store
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def state(self, game: StoredGame, seat: int, start: bool) -> dict[str, Any]:
        """The review of ``seat`` in ``game``: done, under way, or failed; ``start``: begins
        it when it is none of these (or failed). A review under way whose process is gone is
        taken over here whether ``start`` or not: it was asked for. ``ApiError`` 503
        ``busy`` when the store does not answer."""
        settings = self.service.job_settings
        text = await asyncio.to_thread(game.record().dumps)
        name = review_name(text, seat, settings.review_samples, settings.review_seed)
        try:
            return await self._state(game.id, seat, name, text, start)
        except ReviewStoreError as error:
            raise ApiError(503, "busy", f"{error}: try again") from None

    async def _state(
        self, game_id: int, seat: int, name: str, text: str, start: bool
    ) -> dict[str, Any]:
        for _ in range(CLAIMS):
            # The standing first: a review is kept before it stops standing, so none here
            # and none kept means it was never asked.
            standing = await self.store.standing(name)
            running = standing is not None and standing.status == "running"
            if standing is not None and running and (standing.held or name in self._tasks):
                return _answer(game_id, seat, standing)
            found = await self.store.kept(name)
            if found is not None:
                count = found["summary"]["decisions"] + found["summary"]["forced"]
                done = Standing("running", count, count)
                return {**_answer(game_id, seat, done), "status": "done", "review": found}
            orphan = running  # running, and nobody computes it: its process is gone
            if not start and not orphan:
                if standing is None:
                    raise ApiError(
                        404, "no_review", f"seat {seat} of game {game_id} is not reviewed", "seat"
                    )
                return _answer(game_id, seat, standing)
            if len(self._tasks) >= RUNNING:
                if standing is not None and orphan:
                    return _answer(game_id, seat, standing)  # the next process asked takes it
                # 429, not 503: the server is fine, the client is to come back later.
                raise ApiError(429, "busy", f"{RUNNING} reviews are under way: try again soon")
            if await self.store.claim(name):
                if orphan:
                    log.info("review %s: taken over (its process is gone)", name)
                task = asyncio.get_running_loop().create_task(
                    self._review(name, text, game_id, seat), name=f"review-{name}"
                )
                self._tasks[name] = task
                task.add_done_callback(lambda _: self._tasks.pop(name, None))
                return _answer(game_id, seat, Standing("running"))
            # Claimed by another process meanwhile, or kept: read again.
        raise ApiError(503, "busy", f"the review of seat {seat} is changing hands: try again")

    async def _review(self, name: str, text: str, game_id: int, seat: int) -> None:
        settings = self.service.job_settings
        base = {
            "record": text,
            "seat": seat,
            "samples": settings.review_samples,
            "seed": settings.review_seed,
        }
        store = self.store
        try:
            done = await store.parts(name)  # by a process gone: this one takes over
            head = done.get("head")
            if head is None:
                head = await self._job({**base, "first": None, "last": None})
            total = int(head["total"])
            if not await store.report(name, 0, total, _new("head", head, done)):
                return  # another process took it over
            parts = []
            for first in range(0, total, CHUNK):
                last = min(total, first + CHUNK)
                part = done.get(str(first))
                if part is None:
                    part = await self._job({**base, "first": first, "last": last})
                parts.append(part)
                if not await store.report(name, last, total, _new(str(first), part, done)):
                    return
            review = assemble(head, parts, seat, settings.review_samples, settings.review_seed)
            await store.keep(name, game_id, seat, review)
        except JobError as error:
            await self._fail(name, str(error))
        except ReviewStoreError as error:
            log.warning("review %s: %s", name, error)
            await self._fail(name, str(error))
        except asyncio.CancelledError:
            raise  # the server stops: the store's close lets the claim go
        except Exception:  # a bug must not leave the review "running" for ever
            log.exception("review %s failed", name)
            await self._fail(name, "the review failed")

    async def _fail(self, name: str, error: str) -> None:
        try:
            await self.store.fail(name, error)
        except ReviewStoreError as away:
            # Its claim lapses: the next process asked computes it again.
            log.warning("review %s: its failure could not be noted (%s)", name, away)

    async def _job(self, payload: dict[str, Any]) -> dict[str, Any]:
        while True:
            try:
                result: dict[str, Any] = await self.service.jobs.run("review", payload)
                return result
            except BusyError:
                # Hints and other reviews hold the runner: this one waits its turn.
                await self.service.clock.sleep(RETRY_SECONDS)

    async def close(self) -> None:
        """Stops the reviews computed here and closes the store, which lets their claims go
        (the server's stop: another process, or this one started again, takes them over
        when asked)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.store.close()


def _new(key: str, part: dict[str, Any], done: dict[str, dict[str, Any]]) -> Part | None:
    """``part`` to keep in the store, unless it was there already (in ``done``)."""
    return None if key in done else (key, part)


def _answer(game_id: int, seat: int, standing: Standing) -> dict[str, Any]:
    """A ``ReviewState`` of a review not done."""
    return {
        "game_id": game_id,
        "seat": seat,
        "status": standing.status,
        "done": standing.done,
        "total": standing.total,
        "error": standing.error,
    }


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
    stops them: ``Reviews.close``)."""
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
