"""What the browser client loads: its pages (``/``, join links, replays, the leaderboard, the
tutorial), its files under ``/static/``, and the message catalog of a language
(``/api/i18n/{lang}``).

Only the files the client ships are served: a request's path is looked up in the list made
when the server starts, and never reaches the file system.

A page's address that names nothing (``/nowhere``, ``/replay/abc``) is answered ``404`` with
the client's page, which says so in the player's language (``not_found_page``); the API's,
the files' and the WebSocket's paths keep the JSON error body.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from dos.server.net.delivery import file_response, json_response
from dos.server.net.errors import ApiError, error_response

NOT_PAGES = ("/api/", "/static/", "/ws/")
"""The paths that are not the client's pages: a miss there is the JSON error body."""

MEDIA = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".woff2": "font/woff2",
}
"""The media type of each kind of file the client ships; no other kind is served."""


def static_files(root: Path) -> dict[str, Path]:
    """The client's files by their path under ``/static/``."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in MEDIA
    }


def client_router(static: Path) -> APIRouter:
    """The client's pages and files from the folder ``static``, and the catalog."""
    router = APIRouter()

    def page(request: Request) -> Response:
        return file_response(request, static / "index.html", "text/html")

    @router.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        return page(request)

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> Response:
        return file_response(request, static / "leaderboard.html", "text/html")

    @router.get("/tournaments", include_in_schema=False)
    async def tournaments_page(request: Request) -> Response:
        """The tournaments (``docs/tournaments.md``): the list and the form that creates one."""
        return file_response(request, static / "tournaments.html", "text/html")

    @router.get("/tournaments/{tournament_id}", include_in_schema=False)
    async def tournament_page(tournament_id: str, request: Request) -> Response:
        """One tournament's live standings (the page reads its id from the address)."""
        return file_response(request, static / "tournaments.html", "text/html")

    @router.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> Response:
        """The tutorial (``docs/learn.md``), shown by the client's learn view."""
        return page(request)

    @router.get("/rules", include_in_schema=False)
    async def rules_page(request: Request) -> Response:
        """The rules page, shown by the client's rules view (the leaderboard links to it)."""
        return page(request)

    @router.get("/t/{code}", include_in_schema=False)
    async def join_link(code: str, request: Request) -> Response:
        return page(request)

    @router.get("/replay/{game_id}", include_in_schema=False)
    async def replay_link(game_id: str, request: Request) -> Response:
        """A game's replay (``?step=N``: at that moment), shown by the client's replay view;
        an id that is not a game's number is no replay (``404``, the page says so)."""
        if not game_id.isascii() or not game_id.isdigit():
            return not_found(request)
        return page(request)

    def not_found(request: Request) -> Response:
        return HTMLResponse((static / "index.html").read_bytes(), status_code=404)

    files = static_files(static)

    @router.get("/static/{path:path}", include_in_schema=False)
    async def static_file(path: str, request: Request) -> Response:
        # Only the files the client ships: the request's path never reaches the file system.
        target = files.get(path)
        if target is None:
            raise ApiError(404, "not_found", "no such file", "path")
        return file_response(request, target, MEDIA.get(target.suffix))

    @router.get("/api/i18n/{lang}", response_model=dict[str, str])
    async def i18n(
        lang: Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z]+$")],
        request: Request,
    ) -> Response:
        """The browser's texts in ``lang``, a flat object (with an ETag): every namespace but
        the terminal's and those loaded on demand (``/api/i18n/{lang}/{namespace}``)."""
        from dos.i18n import CatalogError, page_catalog

        try:
            return json_response(request, page_catalog(lang))
        except CatalogError as error:
            raise ApiError(404, "no_language", str(error), "lang") from None

    @router.get("/api/i18n/{lang}/{namespace}", response_model=dict[str, str])
    async def i18n_namespace(
        lang: Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z]+$")],
        namespace: Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[a-z]+$")],
        request: Request,
    ) -> Response:
        """The texts of one namespace in ``lang`` (the tutorial's: ``learn``), with an ETag."""
        from dos.i18n import LANGS, CatalogError, namespace_catalog

        if lang not in LANGS:
            raise ApiError(404, "no_language", f"unknown language {lang!r}", "lang")
        try:
            return json_response(request, namespace_catalog(lang, namespace))
        except CatalogError as error:
            raise ApiError(404, "no_namespace", str(error), "namespace") from None

    return router


def not_found_page(static: Path) -> Callable[[Request, Exception], Response]:
    """The answer to a path that names nothing: for a page's address (a ``GET``), the
    client's page with ``404``, which says so in the player's language; elsewhere (the API,
    the files, the WebSocket, another method) the JSON error body (``not_found``)."""
    index = static / "index.html"

    def answer(request: Request, error: Exception) -> Response:
        path = request.url.path
        page = request.method in ("GET", "HEAD") and not path.startswith(NOT_PAGES)
        if page and path not in ("/api", "/static", "/ws"):
            return HTMLResponse(index.read_bytes(), status_code=404)
        detail = error.detail if isinstance(error, StarletteHTTPException) else "Not Found"
        return error_response(404, "not_found", str(detail))

    return answer
