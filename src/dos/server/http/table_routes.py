"""The tables as a resource: the lobby's list, creating and joining a table, one table's info
and its games (HTTP), and the WebSocket of each player and spectator (``/ws/{code}``).

``docs/protocol.md`` documents them; the conversation on a WebSocket is
``dos.server.http.conversation``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, WebSocket
from fastapi import Path as PathParam

from dos.server.http.conversation import hold
from dos.server.net.connections import Client, lineage_of
from dos.server.net.errors import ApiError
from dos.server.net.guard import Open
from dos.server.net.limits import Counters, client_address
from dos.server.net.limits import limited as limits_dependency
from dos.server.net.sockets import StarletteSocket
from dos.server.protocol.http_bodies import CreateTable, GameList, JoinTable, SeatGrant, TableList
from dos.server.protocol.refusals import RefusedError
from dos.server.protocol.server_messages import TableInfo
from dos.server.service import Service
from dos.server.storage.table_store import list_games
from dos.server.tables.info import table_info as info_of
from dos.server.tables.table import Table

Code = Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
"""A table code in a path."""
Offset = Annotated[int, Query(ge=0, le=2**31)]
"""Where a page of a list starts."""
PageLimit = Annotated[int | None, Query(ge=1, le=10000)]
"""How many items a page of a list has (the server caps it)."""

GAMES_PAGE = 50
"""The most games one page of a table's games lists."""

_CODE = re.compile(r"[A-Za-z0-9]{1,16}")

_STATUS = {
    "bad_request": 400,
    "bad_seat": 400,
    "bad_token": 401,
    "expired_token": 401,
    "banned": 403,
    "no_table": 404,
    "no_seat": 409,
    "started": 409,
    "blocked": 409,
    "bad_state": 409,
    "busy": 503,
    "elsewhere": 503,
}
"""The HTTP status of each refusal of a table request (400 for the others)."""


def _refused(error: RefusedError) -> Exception:
    if error.code == "rate_limited":
        retry = {"Retry-After": str(error.retry or 1)}
        return HTTPException(429, error.message, headers=retry)
    return ApiError(_STATUS.get(error.code, 400), error.code, error.message, error.field)


def tables_router(
    service: Service, counters: Counters, connections: Open, page_size: int
) -> APIRouter:
    """The tables' endpoints: ``page_size`` tables at most in one page of the lobby's list;
    ``connections`` counts each client's open WebSockets."""
    router = APIRouter()
    lookup = [limits_dependency(counters, "lookup")]

    async def table_or_404(code: str) -> Table:
        table = await service.table(code)
        if table is None:
            raise ApiError(404, "no_table", f"there is no table {code!r}", "code")
        return table

    @router.get("/api/tables", response_model=TableList, dependencies=lookup)
    async def public_tables(offset: Offset = 0, limit: PageLimit = None) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first: ``limit`` of them (at most
        the server's page size, 50 by default) from ``offset``."""
        limit = page_size if limit is None else min(limit, page_size)
        total, tables = await service.public_tables(offset, limit)
        return {"tables": tables, "total": total, "offset": offset, "limit": limit}

    @router.post("/api/tables", response_model=SeatGrant, status_code=201)
    async def create_table(request: CreateTable, http: Request) -> dict[str, Any]:
        """Creates a table; the creator is the host, at seat 0 (the ``create`` limit)."""
        try:
            return await service.create(request, client_address(http.client))
        except RefusedError as error:
            raise _refused(error) from None

    @router.get("/api/tables/{code}", response_model=TableInfo, dependencies=lookup)
    async def table_info(code: Code) -> dict[str, Any]:
        """One table."""
        return info_of(await table_or_404(code))

    @router.post("/api/tables/{code}/join", response_model=SeatGrant)
    async def join_table(code: Code, request: JoinTable, http: Request) -> dict[str, Any]:
        """Takes an open seat (or gives back the seat this player already has; the ``join``
        limit)."""
        try:
            return await service.join(code, request, client_address(http.client))
        except RefusedError as error:
            raise _refused(error) from None

    @router.get("/api/tables/{code}/games", response_model=GameList, dependencies=lookup)
    async def table_games(
        code: Code, offset: Offset = 0, limit: PageLimit = None
    ) -> dict[str, Any]:
        """The games played at a table, oldest first: ``limit`` of them (at most 50) from
        ``offset``, and their ``total``."""
        table = await table_or_404(code)
        limit = GAMES_PAGE if limit is None else min(limit, GAMES_PAGE)
        total, games = await service.db.read(list_games, table.code, offset, limit)
        return {
            "total": total,
            "offset": offset,
            "limit": limit,
            "games": [
                {
                    "game_id": g.id,
                    "number": g.number,
                    "status": g.status,
                    "players": g.players,
                    "result": g.result,
                }
                for g in games
            ],
        }

    @router.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        """One player's (or spectator's) connection: ``docs/protocol.md``."""
        who = client_address(websocket.client)
        if not connections.take(who):
            await websocket.close(1013, "too many connections from this client")
            return
        try:
            await websocket.accept()
            if not counters.allow("connects", who):
                await websocket.close(4429, "too many new connections: try again later")
                return
            table = await service.table(code) if _CODE.fullmatch(code) else None
            if table is None:
                await websocket.close(4404, f"there is no table {code[:16]!r}")
                return
            page = lineage_of(websocket.query_params.get("page"))
            client = Client(StarletteSocket(websocket), who, counters, page)
            client.start()
            await hold(service, table, client)
        finally:
            connections.give_back(who)

    return router
