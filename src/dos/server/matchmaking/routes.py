"""The queue as a resource (``/api/queue``, docs/matchmaking.md): join it, say you are still
there and hear where you stand (a heartbeat, polled), leave it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from dos.server.matchmaking.bodies import JoinQueue, QueueStatus, QueueToken
from dos.server.matchmaking.service import Queue
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters, client_address
from dos.server.net.limits import limited as limits_dependency
from dos.server.protocol.refusals import RefusedError

_STATUS = {"bad_token": 401, "expired_token": 401, "busy": 503}
"""The HTTP status of each refusal (400 for the others)."""


def _refused(error: RefusedError) -> Exception:
    if error.code == "rate_limited":
        return HTTPException(429, error.message, headers={"Retry-After": str(error.retry or 1)})
    return ApiError(_STATUS.get(error.code, 400), error.code, error.message, error.field)


def queue_router(queue: Queue, counters: Counters) -> APIRouter:
    """The queue's endpoints: joining counts against the client's ``join`` limit, a
    heartbeat or a leave against its ``lookup`` limit."""
    router = APIRouter()
    lookup = [limits_dependency(counters, "lookup")]

    @router.post("/api/queue", response_model=QueueStatus)
    async def join_queue(request: JoinQueue, http: Request) -> dict[str, Any]:
        """Waits for people to play with: the rule set, the table size and when bots may
        fill it; in place of the player's earlier entry."""
        try:
            queue.service.admit("join", client_address(http.client))
            return await queue.join(request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/api/queue/status", response_model=QueueStatus, dependencies=lookup)
    async def queue_status(request: QueueToken) -> dict[str, Any]:
        """The heartbeat: still there; where the player stands (their seat once matched)."""
        try:
            return await queue.status(request.player_token)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/api/queue/leave", response_model=QueueStatus, dependencies=lookup)
    async def leave_queue(request: QueueToken) -> dict[str, Any]:
        """Leaves the queue (a seat already given stays the player's)."""
        try:
            return await queue.leave(request.player_token)
        except RefusedError as error:
            raise _refused(error) from None

    return router
