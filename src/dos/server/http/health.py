"""What a load balancer and Prometheus ask of one server process (docs/deployment.md).

``GET /api/live``
    200 ``{"live": true}`` while the process answers at all (its event loop turns): restart
    it when this fails.
``GET /api/ready``
    200 ``{"ready": true}`` when the process can serve players: its database answers, and
    its Redis when it has one takes a new connection and a write
    (``Counters.redis_problem``: a Redis at its client limit or out of memory refuses this
    process's work while its open connections still answer); else 503 ``{"ready": false,
    "reason": ...}`` naming what does not serve. Send it no players while it is not
    ready; it becomes ready again by itself once they answer (nothing to restart). As
    ``dos serve`` starts, it is also not ready
    while its job workers warm up (``LocalJobs.warm``: seconds, at most ``WARM_SECONDS``),
    so that the first players' hints and bots do not wait for them.
``GET /metrics``
    the process's figures in Prometheus's text format (``dos.server.metrics``).

None of them is in the OpenAPI document: they are for the machines around the server, and
a 503 is their answer, not a failure.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text
from sqlalchemy.orm import Session

from dos.server.hosting.jobs import Jobs, LocalJobs
from dos.server.metrics import CONTENT_TYPE, Metrics
from dos.server.net.limits import Counters
from dos.server.storage.database import Database

READY_SECONDS = 2.0
"""How long ``/api/ready`` waits for the database (or Redis) before it calls it down."""


def _select_one(session: Session) -> Any:
    return session.execute(text("SELECT 1")).scalar()


class DatabaseProbe:
    """Asks the database whether it answers, one question at a time: a question that hangs
    (an unreachable host) holds one of the database's reader threads until the driver gives
    up, so the next probes report it still waiting rather than take the other threads too."""

    def __init__(self, db: Database, timeout: float = READY_SECONDS) -> None:
        self.db = db
        self.timeout = timeout
        self._asking: asyncio.Task[Any] | None = None

    async def problem(self) -> str | None:
        """Why the database cannot serve now (``None``: it answers)."""
        if self._asking is None or self._asking.done():
            self._asking = asyncio.ensure_future(self.db.read(_select_one))
            # Its failure is read here even when no probe waits for it any more.
            self._asking.add_done_callback(lambda task: task.cancelled() or task.exception())
        try:
            await asyncio.wait_for(asyncio.shield(self._asking), self.timeout)
        except TimeoutError:
            return f"the database did not answer within {self.timeout:g} s"
        except Exception as error:
            return f"the database did not answer: {type(error).__name__}"
        return None


def health_router(
    metrics: Metrics, db: Database, counters: Counters, jobs: Jobs | None = None
) -> APIRouter:
    """The routes of liveness, readiness and metrics for one server (``jobs``: its job
    runner, not ready while it warms up)."""
    router = APIRouter(include_in_schema=False)
    database = DatabaseProbe(db)

    @router.get("/api/live")
    async def live() -> dict[str, bool]:
        return {"live": True}

    @router.get("/api/ready")
    async def ready() -> Response:
        problem = await database.problem()
        if problem is None:
            problem = await asyncio.to_thread(counters.redis_problem)
        if problem is None and isinstance(jobs, LocalJobs) and jobs.warming:
            problem = "the job workers are warming up"
        if problem is not None:
            return JSONResponse({"ready": False, "reason": problem}, status_code=503)
        return JSONResponse({"ready": True})

    @router.get("/metrics")
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    return router
