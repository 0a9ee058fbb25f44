"""The players' moderation endpoints (``/api/moderation``, docs/moderation.md): block, mute
and report another player, and read one's own warnings. Each reads who asks from the player
token of its ``Authorization`` header (a guest's token does: anyone who can play can block);
the player acted on is named by id, or by a seat of a table (the seat menu, a chat line) and
then read from the table, never taken from the client.

A block or mute takes effect at once in the chat of every table where the player is
connected, whichever process holds it: once committed it is announced on the server's bus
(``dos.server.people.moderation_news``), and each process, this one included, reads the
player's filter again at its tables (``ChatRoom.learn``). An admin's ban reaches every
process the same way, and each closes the banned player's connections (``news_for``).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header
from fastapi import Path as PathParam

from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.people import moderation
from dos.server.people.account_store import last_name
from dos.server.people.accounts import Accounts
from dos.server.people.admins import is_admin, standing, take_warnings
from dos.server.people.blocks import ModerationRefusedError, add_block, blocks_of, remove_block
from dos.server.people.moderation_bodies import (
    About,
    Done,
    ModerationOverview,
    NewReport,
    Relation,
    ReportFiled,
    Warnings,
)
from dos.server.people.moderation_news import Banned, Filters, ModerationNews
from dos.server.service import Service
from dos.server.storage.seat_history import seat_person

Authorization = Annotated[str | None, Header(max_length=2048)]
"""``Bearer PLAYER_TOKEN``."""
PlayerId = Annotated[str, PathParam(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player id in a path."""

BANNED_CLOSE = 4403
"""The WebSocket close code of a banned player's connection."""

_STATUS = {"too_many_reports": 429, "already_reported": 409, "too_many_blocks": 409}
"""The HTTP status of a refusal (400 for the others)."""


def _refused(error: ModerationRefusedError) -> ApiError:
    field = error.field or "player_id"
    return ApiError(_STATUS.get(error.code, 400), error.code, error.message, field)


def until_json(until: float | None) -> float | str | None:
    """A sanction's end as the API says it: a time, ``"forever"``, or ``None``.

    >>> until_json(math.inf), until_json(None), until_json(5.0)
    ('forever', None, 5.0)
    """
    if until is None:
        return None
    return "forever" if math.isinf(until) else until


async def target(service: Service, about: About) -> tuple[str, str | None]:
    """The player a request is about, and their name: by id, or the person of a table's seat
    as the table's records have it, whichever process holds the table: the latest who sat
    there under the name the seat showed (``about.name``), even if they have left it since
    (``bad_seat``: nobody)."""
    if about.player_id is not None:
        return about.player_id, await service.db.read(last_name, about.player_id)
    if about.code is None or about.seat is None:
        raise ApiError(400, "bad_request", "name a player_id, or a table's code and seat", "code")
    found = await service.db.read(seat_person, about.code.upper(), about.seat, about.name)
    if found is None:
        raise ApiError(400, "bad_seat", f"no such player sat in seat {about.seat}", "seat")
    return found.player_id, found.name


async def relearn(service: Service, player_id: str) -> None:
    """The chat of the tables held here where ``player_id`` is connected hides, from now on,
    whom they block or mute."""
    for table in list(service.tables.values()):
        if any(client.player_id == player_id for client in table.audience.clients()):
            await table.chat.learn(player_id)


def close_banned(service: Service, player_id: str) -> None:
    """Closes ``player_id``'s connections to the tables held here (``BANNED_CLOSE``); those
    relayed from another process close there with it."""
    for table in list(service.tables.values()):
        for client in table.audience.clients():
            if client.player_id == player_id:
                client.close(BANNED_CLOSE, "banned")


def news_for(service: Service) -> ModerationNews:
    """This process's moderation news, on ``service``'s bus: a ban closes the player's
    connections here, a change of filters reads their filter again at the tables here."""

    async def apply(news: Banned | Filters) -> None:
        if isinstance(news, Banned):
            close_banned(service, news.player_id)
        else:
            await relearn(service, news.player_id)

    return ModerationNews(service.bus, apply)


def moderation_router(
    service: Service, accounts: Accounts, counters: Counters, news: ModerationNews
) -> APIRouter:
    """The players' moderation endpoints: reads count against the ``lookup`` limit, changes
    against ``accounts``; ``news`` is read while the application runs (its lifespan) and
    told each change of a player's filters."""

    @contextlib.asynccontextmanager
    async def reading(_app: FastAPI) -> AsyncIterator[None]:
        await news.start()
        try:
            yield
        finally:
            await news.stop()

    router = APIRouter(prefix="/api/moderation", tags=["moderation"], lifespan=reading)
    looked = [limits_dependency(counters, "lookup")]
    counted = [limits_dependency(counters, "accounts")]
    db = service.db

    async def people(ids: list[str]) -> list[dict[str, Any]]:
        return [{"player_id": pid, "name": await db.read(last_name, pid)} for pid in ids]

    @router.get("", response_model=ModerationOverview, dependencies=looked)
    async def overview(authorization: Authorization = None) -> dict[str, Any]:
        """Whom you block and mute, what an admin holds against you now, and whether you are
        an admin."""
        me = accounts.me(authorization).player_id
        held = await db.read(standing, me, service.clock.time())
        return {
            "player_id": me,
            "blocks": await people(await db.read(blocks_of, me)),
            "mutes": await people(await db.read(moderation.mutes_of, me)),
            "standing": {
                "banned_until": until_json(held.banned_until),
                "muted_until": until_json(held.muted_until),
            },
            "admin": await db.read(is_admin, me),
        }

    @router.post("/relation", response_model=Relation, dependencies=looked)
    async def relation(body: About, authorization: Authorization = None) -> dict[str, Any]:
        """The player a seat or id names, and whether you block or mute them."""
        me = accounts.me(authorization).player_id
        player_id, name = await target(service, body)
        return {
            "player_id": player_id,
            "name": name,
            "blocked": player_id in await db.read(blocks_of, me),
            "muted": player_id in await db.read(moderation.mutes_of, me),
        }

    @router.post("/warnings", response_model=Warnings, dependencies=looked)
    async def warnings(authorization: Authorization = None) -> dict[str, Any]:
        """The admins' warnings to you not yet shown; from now on shown."""
        me = accounts.me(authorization).player_id
        return {"warnings": await db.call(take_warnings, me, service.clock.time())}

    @router.post("/blocks", response_model=Done, dependencies=counted)
    async def block(body: About, authorization: Authorization = None) -> dict[str, Any]:
        """Blocks a player: never seated nor paired with you again, neither of you reads the
        other's chat."""
        me = accounts.me(authorization).player_id
        player_id, name = await target(service, body)
        try:
            done = await db.call(add_block, me, player_id, service.clock.time())
        except ModerationRefusedError as error:
            raise _refused(error) from None
        await news.tell(Filters(player_id=me))
        await news.tell(Filters(player_id=player_id))  # neither reads the other's chat
        return {"done": done, "person": {"player_id": player_id, "name": name}}

    @router.delete("/blocks/{player_id}", response_model=Done, dependencies=counted)
    async def unblock(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Lifts your block of a player."""
        me = accounts.me(authorization).player_id
        done = await db.call(remove_block, me, player_id)
        await news.tell(Filters(player_id=me))
        await news.tell(Filters(player_id=player_id))
        return {"done": done}

    @router.post("/mutes", response_model=Done, dependencies=counted)
    async def mute(body: About, authorization: Authorization = None) -> dict[str, Any]:
        """Mutes a player for you: their chat hidden, nothing else."""
        me = accounts.me(authorization).player_id
        player_id, name = await target(service, body)
        try:
            done = await db.call(moderation.add_mute, me, player_id, service.clock.time())
        except ModerationRefusedError as error:
            raise _refused(error) from None
        await news.tell(Filters(player_id=me))
        return {"done": done, "person": {"player_id": player_id, "name": name}}

    @router.delete("/mutes/{player_id}", response_model=Done, dependencies=counted)
    async def unmute(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Hears a player again."""
        me = accounts.me(authorization).player_id
        done = await db.call(moderation.remove_mute, me, player_id)
        await news.tell(Filters(player_id=me))
        return {"done": done}

    @router.post("/reports", response_model=ReportFiled, dependencies=counted)
    async def report(body: NewReport, authorization: Authorization = None) -> dict[str, Any]:
        """Reports a player to the admins, with the table's chat if made from a table."""
        me = accounts.me(authorization).player_id
        player_id, name = await target(service, body)
        code = body.code.upper() if body.code is not None and body.player_id is None else None
        new = moderation.NewReport(me, player_id, body.reason, body.text, name, code)
        try:
            report_id = await db.call(moderation.file_report, new, service.clock.time())
        except ModerationRefusedError as error:
            raise _refused(error) from None
        return {"id": report_id}

    return router
