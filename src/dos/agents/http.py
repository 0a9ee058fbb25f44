"""The HTTP agent API: a seat's view, actions and long-polling for agents that do not speak
MCP (``docs/agents.md``), in the server's OpenAPI document.

Tables are created, joined and listed with the server's own endpoints (``POST /api/tables``,
``POST /api/tables/{code}/join``, ``GET /api/tables``); the endpoints here act for the seat of
the token in ``Authorization: Bearer <seat token>``. Each is a thin call into
``dos.agents.service.Agents``; a refusal is the server's JSON error body, with the catalog's
``key`` and ``params`` for ``illegal`` as the WebSocket's ``error`` has them (and for
``stale`` the actions that moved the game since, ``moved``). Every request
counts as a ``lookup`` of the client, and an action also as one of its WebSocket messages
(``client_messages``), so an agent gets no more than a browser.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from dos.agents.service import (
    UNTIL,
    Agents,
    AgentView,
    LegalAction,
    PastAction,
    Seen,
    StaleError,
    rules_text,
)
from dos.server.net.errors import ErrorBody, SafeJSONResponse
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.protocol.refusals import RefusedError
from dos.server.seat_service import MAX_WAIT_SECONDS, Until

__all__ = ["AgentAction", "AgentView", "LegalAction", "PastAction", "Refusal", "agent_router"]

STATUS = {
    "bad_request": 400,
    "bad_seat": 400,
    "notation": 400,
    "bad_token": 401,
    "expired_token": 401,
    "not_your_seat": 403,
    "not_host": 403,
    "not_seated": 403,
    "banned": 403,
    "no_table": 404,
    "stale": 409,
    "not_playing": 409,
    "bad_state": 409,
    "no_seat": 409,
    "started": 409,
    "blocked": 409,
    "illegal": 422,
    "storage": 503,
}
"""The HTTP status of each refusal code (docs/agents.md)."""


class Refusal(ErrorBody):
    """A refused agent request: the server's error body; for ``illegal``, also why in the
    message catalog's words (``key``, ``params``), as the WebSocket's ``error`` says it; for
    ``stale``, the actions that moved the game since the version the action was made on
    (``moved``, the latest 20 at most: a lost DOS race says who caught the seat)."""

    key: str | None = None
    params: dict[str, Any] | None = None
    moved: list[PastAction] | None = None


class AgentAction(BaseModel):
    """An action in notation, made on ``version``."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=200)
    version: int = Field(ge=0)
    dos: bool = False
    """Official rules: call "DOS!" with the move that leaves the seat two cards, in the same
    step (the call can then not be caught); ignored for any other move."""


SEAT_TOKEN = HTTPBearer(
    scheme_name="seat token",
    description="The seat token of a seat grant: 'Authorization: Bearer <token>'.",
    auto_error=False,
)
Authorization = Annotated[HTTPAuthorizationCredentials | None, Depends(SEAT_TOKEN)]
"""The seat token of the seat to act for (``None``: missing, or not a bearer token)."""
RuleName = Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z]+$")]
History = Annotated[
    bool,
    Query(
        description="true: the view holds the game's history too (every action, as the "
        "WebSocket's state has it), to rebuild a bot's seat view from (dos.agents.seat_view)"
    ),
]
"""Whether the view holds the game's history."""


def refusal_response(error: RefusedError) -> SafeJSONResponse:
    """The JSON answer of a refusal."""
    body: dict[str, Any] = {"code": error.code, "message": error.message, "field": error.field}
    if error.reason is not None:
        body.update(error.reason.json())
    if isinstance(error, StaleError):
        body["moved"] = error.moved
    return SafeJSONResponse(body, status_code=STATUS.get(error.code, 400))


RECORD_HEADERS = {
    "Dos-Table": {"description": "the table's code", "schema": {"type": "string"}},
    "Dos-Game": {
        "description": "the game's number at the table (the view's `game`)",
        "schema": {"type": "integer"},
    },
    "Dos-Game-Id": {
        "description": "the game's id (the table's `game_id`: `/api/games/{game_id}`)",
        "schema": {"type": "integer"},
    },
}
"""The headers of a record's answer: which game it is, as the view names it."""


def record_headers(record: dict[str, Any]) -> dict[str, str]:
    """The headers that name a ``GameRecord``'s game (``RECORD_HEADERS``), and its file name."""
    name = f"{record['code']}-game-{record['game']}.jsonl"
    return {
        "Dos-Table": record["code"],
        "Dos-Game": str(record["game"]),
        "Dos-Game-Id": str(record["game_id"]),
        "Content-Disposition": f'inline; filename="{name}"',
    }


def _answer(seen: Seen) -> Response:
    """A seat's view, as the JSON text made once for every agent that asks at this change."""
    return Response(seen.json, media_type="application/json")


def _bearer(authorization: HTTPAuthorizationCredentials | None) -> str:
    token = authorization.credentials.strip() if authorization is not None else ""
    if not token or len(token) > 1024:
        raise RefusedError(
            "bad_token", "send the seat token as 'Authorization: Bearer <token>'", field="token"
        )
    return token


def agent_router(agents: Agents, counters: Counters) -> APIRouter:
    """The agent API's endpoints, to include in the server's application."""

    def limited(*kinds: str) -> Any:
        return limits_dependency(counters, *kinds)

    router = APIRouter(
        prefix="/api/agent",
        tags=["agents"],
        responses={status: {"model": Refusal} for status in (400, 401, 403, 404, 409, 422)},
    )

    @router.get("/seat", response_model=AgentView, dependencies=[limited("lookup")])
    async def look(history: History = False, authorization: Authorization = None) -> Any:
        """The seat's view now, as JSON and as canonical text (with ``history=true``, the
        view holds the game's history)."""
        try:
            seen = await agents.look(_bearer(authorization), history)
        except RefusedError as error:
            return refusal_response(error)
        return _answer(seen)

    @router.post(
        "/seat/actions",
        response_model=AgentView,
        dependencies=[limited("lookup", "client_messages")],
    )
    async def act(body: AgentAction, authorization: Authorization = None) -> Any:
        """Plays an action for the seat (notation, and the version it was made on); answers
        the seat's view after it. Refused as the WebSocket refuses it: ``stale``,
        ``notation``, ``illegal``, ``not_your_seat``, ``not_playing``."""
        try:
            seen = await agents.act(_bearer(authorization), body.action, body.version, body.dos)
        except RefusedError as error:
            return refusal_response(error)
        return _answer(seen)

    @router.post("/seat/start", response_model=AgentView, dependencies=[limited("lookup")])
    async def start(authorization: Authorization = None) -> Any:
        """The host starts the game (lobby), or deals a rematch (finished)."""
        try:
            seen = await agents.start(_bearer(authorization))
        except RefusedError as error:
            return refusal_response(error)
        return _answer(seen)

    @router.post("/seat/leave", response_model=AgentView, dependencies=[limited("lookup")])
    async def leave(authorization: Authorization = None) -> Any:
        """The seat leaves its table: in the lobby it opens again (a host's role passes on);
        during a game the stand-in plays it until the agent acts again, and it opens when the
        game ends."""
        try:
            seen = await agents.leave(_bearer(authorization))
        except RefusedError as error:
            return refusal_response(error)
        return _answer(seen)

    @router.get("/seat/wait", response_model=AgentView, dependencies=[limited("lookup")])
    async def wait(
        *,
        version: Annotated[int, Query(ge=0, le=2**31)],
        change: Annotated[int | None, Query(ge=0, le=2**62)] = None,
        timeout: Annotated[float, Query(ge=0, le=MAX_WAIT_SECONDS)] = MAX_WAIT_SECONDS,
        until: Until = UNTIL,
        history: History = False,
        authorization: Authorization = None,
    ) -> Any:
        """A long poll: answers the seat's view as soon as the game's version is not
        ``version`` (or the table's change counter not ``change``) and then the seat has a
        legal action or no game is going on (``until=turn``, the default, as over MCP) — with
        ``until=change``, as soon as anything changed — or after ``timeout`` seconds (at
        most 30); with ``history=true`` the view holds the game's history."""
        try:
            token = _bearer(authorization)
            seen = await agents.wait(token, version, change, timeout, until, history=history)
        except RefusedError as error:
            return refusal_response(error)
        return _answer(seen)

    @router.get(
        "/seat/record",
        response_class=Response,
        responses={200: {"content": {"application/x-ndjson": {}}, "headers": RECORD_HEADERS}},
        dependencies=[limited("lookup")],
    )
    async def record(authorization: Authorization = None) -> Response:
        """The record of the table's last game (JSON Lines), once it is finished; its headers
        name the game as the view does (``Dos-Game``: its number at the table)."""
        try:
            answer = await agents.record(_bearer(authorization))
        except RefusedError as error:
            return refusal_response(error)
        return Response(
            answer["record"], media_type="application/x-ndjson", headers=record_headers(answer)
        )

    @router.get(
        "/rules/{name}",
        response_class=Response,
        responses={200: {"content": {"text/plain": {}}}},
        dependencies=[limited("lookup")],
    )
    async def rules(name: RuleName) -> Response:
        """The rules of a rule set (``official``, ``classic``) in short (Markdown text)."""
        try:
            return PlainTextResponse(rules_text(name))
        except RefusedError as error:
            return refusal_response(error)

    return router
