"""The queue's service: a player joins, says they are still there, leaves; each of these
runs a round of matching (``store.match_round``), and the tables a round decides are made
here, with their people seated and their bots, before anyone hears of them.

Nothing is kept in memory: the queue is the database's (``dos_queue``), so every process of
a server of many serves it alike, a restart loses no one, and a table decided by a process
that died before making it goes back to the queue (``store.SETTLE_SECONDS``). Time comes
from the server's clock; there is no timer of its own: the waiting players' heartbeats run
the rounds (a bot wait ends at the first heartbeat after it).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from dos import ruleset
from dos.matchmaking.queue import Entry, band
from dos.server.matchmaking import store
from dos.server.matchmaking.bodies import JoinQueue
from dos.server.people.blocks import blocked_set
from dos.server.protocol.http_bodies import CreateTable
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.queue_rows import QueueRow
from dos.server.tables import seating
from dos.server.tables.bots import bot_support

log = logging.getLogger(__name__)

HEARTBEAT_EVERY = 5.0
"""How often a waiting client is asked to send its heartbeat (``store.HEARTBEAT_SECONDS``
is the most it may miss)."""

Blocks = Callable[[Database, str], Awaitable[frozenset[str]]]
"""Whom a player must never be seated with (``dos.server.people.blocks.blocked_set``)."""


def bot_level(rules: str) -> str | None:
    """The level of the bots that fill a matched table: the rule set's middle level;
    ``None`` when bots cannot play it.

    >>> bot_level("official")
    'medium'
    """
    support = bot_support(rules)
    if support is None:
        return None
    levels = support.levels()
    return levels[(len(levels) - 1) // 2] if levels else None


class Queue:
    """The queue of one server (of one process or many), over its ``service``."""

    def __init__(self, service: Service, blocks: Blocks = blocked_set) -> None:
        self.service = service
        self.blocks = blocks
        self._round = asyncio.Lock()

    @property
    def db(self) -> Database:
        return self.service.db

    def _now(self) -> float:
        return self.service.clock.time()

    async def join(self, request: JoinQueue) -> dict[str, Any]:
        """Puts the player in the queue and runs a round; their status."""
        found = ruleset.find(request.rules)
        if found is None:
            known = ", ".join(ruleset.names())
            raise RefusedError(
                "bad_request",
                f"rules: unknown rule set {request.rules!r} (known: {known})",
                field="rules",
            )
        if request.bots_after is not None and bot_level(request.rules) is None:
            raise RefusedError(
                "bad_request", f"bots_after: bots cannot play {request.rules}", field="bots_after"
            )
        player_id, player_token = self.service.player(request.player_token)
        session = None
        if request.player_token is not None:
            session = self.service.signer.read_player_session(request.player_token)[1]
        now = self._now()
        entry = Entry(
            player=player_id,
            name=request.name,
            rules=request.rules,
            seats=request.seats,
            since=now,
            skill=await self.db.read(store.skill_of, player_id, request.rules, request.seats),
            rated=session is not None and found.rated,
            bots_after=request.bots_after,
            blocked=await self.blocks(self.db, player_id),
        )
        await self.db.call(store.join, entry, now)
        await self.run_round()
        return await self._status(player_id, player_token)

    async def status(self, player_token: str) -> dict[str, Any]:
        """The heartbeat: the player is still there (their blocks read again); a round runs;
        their status."""
        player_id, fresh_token = self.service.player(player_token)
        blocked = await self.blocks(self.db, player_id)
        await self.db.call(store.heartbeat, player_id, self._now(), blocked)
        await self.run_round()
        return await self._status(player_id, fresh_token)

    async def leave(self, player_token: str) -> dict[str, Any]:
        """Takes the player out of the queue (a seat already given stays theirs)."""
        player_id, fresh_token = self.service.player(player_token)
        await self.db.call(store.leave, player_id)
        return {
            "state": "gone",
            "player_id": player_id,
            "player_token": fresh_token,
            "heartbeat": HEARTBEAT_EVERY,
        }

    async def _status(self, player_id: str, player_token: str) -> dict[str, Any]:
        now = self._now()
        row: QueueRow | None = await self.db.read(store.row_of, player_id)
        said: dict[str, Any] = {
            "player_id": player_id,
            "player_token": player_token,
            "heartbeat": HEARTBEAT_EVERY,
        }
        if row is None or (row.match is None and now - row.seen > store.HEARTBEAT_SECONDS):
            return {**said, "state": "gone"}
        said |= {
            "rules": row.rules,
            "seats": row.seats,
            "rated": row.rated,
            "bots_after": row.bots_after,
            "waited": max(0.0, now - row.since),
        }
        if row.code is not None and row.seat is not None:
            token = self.service.signer.seat_token(row.code, row.seat, player_id)
            seat = {
                "code": row.code,
                "seat": row.seat,
                "token": token,
                "player_id": player_id,
                "player_token": player_token,
            }
            return {**said, "state": "matched", "seat": seat}
        entry = Entry(player_id, row.name, row.rules, row.seats, since=row.since)
        return {**said, "state": "waiting", "band": band(entry, now)}

    async def run_round(self) -> list[str]:
        """One round of matching, and the tables it decided made: their codes."""
        async with self._round:
            ids = [secrets.token_hex(8) for _ in range(8)]
            planned = await self.db.call(store.match_round, self._now(), ids)
            codes = []
            for plan in planned:
                try:
                    code = await self._make(plan)
                except RefusedError as error:
                    log.warning("a matched table could not be made: %s", error.message)
                    await self.db.call(store.unmatch, plan.match, self._now())
                    continue
                await self.db.call(store.settle, plan.match, code)
                codes.append(code)
            return codes

    async def _make(self, plan: store.Planned) -> str:
        """Makes the table of ``plan``: the host (the longest waiting) at seat 0, the other
        people in their order, bots in the rest. It counts against the host's own ``create``
        limit and each other's ``join`` limit, by player id."""
        table = plan.table
        host = table.people[0]
        level = bot_level(table.rules)
        people: list[str | None] = [None] * len(table.people)
        seats = people + [level] * table.bots
        request = CreateTable(
            name=host.name,
            rules=table.rules,
            seats=seats,
            public=False,
            rated=table.rated,
            player_token=self.service.signer.player_token(host.player),
        )
        grant = await self.service.create(request, f"queue:{host.player}")
        made = await self.service.table(grant["code"])
        if made is None:
            raise RefusedError("no_table", "the matched table is gone", field="code")
        for seat, person in enumerate(table.people[1:], start=1):
            self.service.admit("join", f"queue:{person.player}")
            await seating.join(made, person.name, person.player, seat)
        return made.code
