"""The admins' endpoints (``/api/admin``, docs/moderation.md): the queue of open reports with
their chat excerpts, the log, and the actions: warn, mute on the server, ban, dismiss a
report, close a table. Only a player with the admin role (``dos admin grant``) gets past
``admin``: anyone else is refused (``not_admin``, 403), whatever they send; who acts is the
player token's player, never a body's. Each action and its log entry are written in one
transaction (``dos.server.people.admins``).

A ban, once committed, is announced to every process (``dos.server.people.moderation_news``):
each closes the banned player's connections to the tables it holds at once (4403), before the
answer when this process holds them; from then on every process refuses them (each ``hello``,
join, chat line and agent request reads it from the database). Closing a table ends it as an
expired table ends (its game kept as abandoned, its chat deleted: a report's excerpt is a
copy) and closes its connections (4404, no such table); a table another process holds is
refused (``elsewhere``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from sqlalchemy.orm import Session

from dos.server.net.delivery import file_response
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.people.accounts import Accounts
from dos.server.people.admins import (
    Order,
    action_log,
    check_reason,
    dismiss,
    is_admin,
    log_action,
    sanction,
    until_of,
)
from dos.server.people.blocks import ModerationRefusedError
from dos.server.people.moderation import open_reports
from dos.server.people.moderation_bodies import AdminAction, AdminOverview, CloseTable, Logged
from dos.server.people.moderation_news import Banned, ModerationNews
from dos.server.service import Service
from dos.server.tables.chat import expire_with_chat

Authorization = Annotated[str | None, Header(max_length=2048)]
"""``Bearer PLAYER_TOKEN``."""
TableCode = Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
"""A table's code in a path."""

GONE_CLOSE = 4404
"""The WebSocket close code of a closed table's connections (no such table)."""


def close_logged(session: Session, order: Order, game_id: int | None, at: float) -> int:
    """Ends table ``order.table_code`` as stored (``expire_with_chat``) and logs it, in one
    transaction; returns the log entry's id."""
    assert order.table_code is not None
    expire_with_chat(session, order.table_code, game_id, at)
    return log_action(session, order, at)


def admin_router(
    service: Service, accounts: Accounts, counters: Counters, static: Path, news: ModerationNews
) -> APIRouter:
    """The admins' endpoints, each counted against the ``accounts`` limit, and the admin
    page (``/admin``, from ``static``: it asks the endpoints, which refuse anyone else); a
    ban is told to ``news``."""
    router = APIRouter(tags=["admin"])
    counted = [limits_dependency(counters, "accounts")]
    db = service.db

    @router.get("/admin", include_in_schema=False)
    async def admin_page(request: Request) -> Response:
        return file_response(request, static / "admin.html", "text/html")

    async def admin(authorization: str | None) -> str:
        """The admin who asks; 401 without a player token, 403 for anyone else."""
        me = accounts.me(authorization).player_id
        if not await db.read(is_admin, me):
            raise ApiError(403, "not_admin", "only an admin may do this", "authorization")
        return me

    @router.get("/api/admin", response_model=AdminOverview, dependencies=counted)
    async def overview(authorization: Authorization = None) -> dict[str, Any]:
        """The open reports, oldest first, with their chat excerpts; the latest log."""
        me = await admin(authorization)
        return {
            "player_id": me,
            "reports": await db.read(open_reports),
            "log": await db.read(action_log),
        }

    @router.post("/api/admin/actions", response_model=Logged, dependencies=counted)
    async def act(body: AdminAction, authorization: Authorization = None) -> dict[str, Any]:
        """Warns, mutes or bans a player (closing the report it answers), or dismisses a
        report."""
        me = await admin(authorization)
        now = service.clock.time()
        try:
            order = Order(
                me,
                body.action,
                body.reason,
                player_id=body.player_id,
                report_id=body.report_id,
                until=until_of(body.hours, now),
            )
            done = dismiss if body.action == "dismiss" else sanction
            log_id = await db.call(done, order, now)
        except ModerationRefusedError as error:
            raise ApiError(400, error.code, error.message, error.field) from None
        if body.action == "ban":
            assert body.player_id is not None
            await news.tell(Banned(player_id=body.player_id))
        return {"log_id": log_id}

    @router.post("/api/admin/tables/{code}/close", response_model=Logged, dependencies=counted)
    async def close_table(
        code: TableCode, body: CloseTable, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Ends a table: its people are sent away, its game kept as abandoned."""
        me = await admin(authorization)
        try:
            reason = check_reason(body.reason)
        except ModerationRefusedError as error:
            raise ApiError(400, error.code, error.message, error.field) from None
        table = await service.table(code)
        if table is None:
            raise ApiError(404, "no_table", f"there is no table {code!r}", "code")
        if not service.ownership.owns(table.code):
            raise ApiError(503, "elsewhere", "another process holds this table", "code")
        game_id = (
            table.current.stored.id
            if table.playing() and table.current.stored is not None
            else None
        )
        order = Order(me, "close_table", reason, table_code=table.code)
        log_id = await db.call(close_logged, order, game_id, service.clock.time())
        for client in table.audience.clients():
            client.close(GONE_CLOSE, "closed by an admin")
        table.close()
        service.tables.pop(table.code, None)
        await service.ownership.released(table.code)
        return {"log_id": log_id}

    return router
