"""Every HTTP error as one JSON body: ``{"code", "message", "field"}``, never a traceback.

``ApiError`` is what the endpoints raise; ``install(app)`` makes FastAPI answer it, its own
validation errors, Starlette's HTTP errors (404, 405, 413) and any failure left (500) with
that body. A body that is not JSON, or that the parser cannot read (nested too deeply, not
UTF-8), is ``bad_json`` (400) on every endpoint. Bodies never echo the input, and are written
in ASCII JSON, so no text a client sent (a lone surrogate, say) can break the answer.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)


class ErrorBody(BaseModel):
    """The body of every HTTP error."""

    code: str
    """For programs: ``bad_request``, ``bad_name``, ``not_found``, ``rate_limited``, ..."""
    message: str
    """For people, in English (clients show their own words for ``code``)."""
    field: str | None = None
    """The request field at fault (``name``, ``seats.2``, ``game_id``), if one is."""


class SafeJSONResponse(JSONResponse):
    """JSON written as ASCII: every character escaped, lone surrogates included."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class ApiError(Exception):
    """An HTTP request refused: its status, code, message and field."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.field = field


ERROR_CODES: dict[int, str] = {
    400: "bad_request",
    401: "bad_token",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_big",
    415: "unsupported_media_type",
    422: "bad_request",
    429: "rate_limited",
}

RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": code} for status, code in ERROR_CODES.items()
}
"""The error answers, for the OpenAPI document of every endpoint."""


def error_response(
    status: int, code: str, message: str, field: str | None = None, **headers: str
) -> SafeJSONResponse:
    """The JSON answer of an error."""
    body = {"code": code, "message": message, "field": field}
    return SafeJSONResponse(body, status_code=status, headers=headers or None)


def _field(loc: tuple[Any, ...]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or None


def _validation(_request: Request, error: Exception) -> SafeJSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = error.errors()
    first = problems[0] if problems else {}
    field = _field(tuple(first.get("loc", ())))
    message = str(first.get("msg", "the request is not valid"))
    if first.get("type") == "json_invalid":
        return error_response(400, "bad_json", "the body is not JSON", None)
    code = "bad_name" if field == "name" else "bad_request"
    return error_response(422, code, f"{field or 'body'}: {message}", field)


def _api(_request: Request, error: Exception) -> SafeJSONResponse:
    assert isinstance(error, ApiError)
    return error_response(error.status, error.code, error.message, error.field)


def _unreadable_body(error: StarletteHTTPException) -> str | None:
    """Why the body of the request could not be read as JSON, when that is what ``error``
    says (``None``: it says something else).

    FastAPI answers a body that fails ``json.loads`` with ``JSONDecodeError`` as a
    validation error (``_validation``), but any other failure of the parser as a bare 400
    caused by it: nesting past the parser's recursion limit (``RecursionError``), bytes that
    are not UTF-8, a number past Python's 4,300 digits (``ValueError``). Those are ``bad_json``
    too, on every endpoint that reads a JSON body.

    >>> try:
    ...     try:
    ...         json.loads("[" * 100_000)
    ...     except RecursionError as cause:
    ...         raise StarletteHTTPException(400, "There was an error parsing the body") from cause
    ... except StarletteHTTPException as error:
    ...     _unreadable_body(error)
    'the body is not JSON this server reads: nested too deeply'
    """
    cause = error.__cause__
    if error.status_code != 400:
        return None
    if isinstance(cause, RecursionError):
        return "the body is not JSON this server reads: nested too deeply"
    if isinstance(cause, UnicodeDecodeError):
        return "the body is not JSON: not UTF-8"
    if isinstance(cause, ValueError):
        return "the body is not JSON this server reads"
    return None


def _http(_request: Request, error: Exception) -> SafeJSONResponse:
    assert isinstance(error, StarletteHTTPException)
    unreadable = _unreadable_body(error)
    if unreadable is not None:
        return error_response(400, "bad_json", unreadable, None)
    code = ERROR_CODES.get(
        error.status_code, "bad_request" if error.status_code < 500 else "internal"
    )
    headers = dict(error.headers) if error.headers else {}
    return error_response(error.status_code, code, str(error.detail), None, **headers)


DATABASE_AWAY: tuple[type[Exception], ...] = (OperationalError, InterfaceError, DisconnectionError)
"""What the database's driver raises when it cannot be reached (not a bug of the request)."""


def _database_away(request: Request, error: Exception) -> SafeJSONResponse:
    """The database did not answer (stopped, restarting, unreachable): 503 ``storage``, to
    be tried again; nothing changed (a failed transaction is rolled back)."""
    log.warning(
        "%s %s: the database did not answer (%s)",
        request.method,
        request.url.path,
        type(error).__name__,
    )
    message = "the database did not answer; nothing changed: try again"
    return error_response(503, "storage", message, None, **{"Retry-After": "1"})


def _internal(request: Request, error: Exception) -> SafeJSONResponse:
    log.exception("%s %s failed", request.method, request.url.path, exc_info=error)
    return error_response(500, "internal", "the server failed on this request; nothing changed")


def install(app: FastAPI) -> None:
    """Answers every error of ``app`` with an ``ErrorBody``."""
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(ApiError, _api)
    app.add_exception_handler(StarletteHTTPException, _http)
    for away in DATABASE_AWAY:
        app.add_exception_handler(away, _database_away)
    app.add_exception_handler(Exception, _internal)
