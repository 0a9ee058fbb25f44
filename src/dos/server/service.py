"""The server's tables in memory, created, found, loaded from the database and saved.

At start every unfinished table is loaded and its game rebuilt from its seed and actions, so
a server that was killed resumes every game where it stood; finished tables are loaded when
someone asks for them (a rematch, a late visitor). A table is held here only while this
process owns it (``dos.server.hosting.ownership``: one process owns every table; among many, each is
taken before it is loaded, and the unfinished ones are adopted one by one), and goes on from
its former owner's handover (``dos.server.tables.handover_store``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

from dos import ruleset
from dos.errors import DosError
from dos.server.clock import Clock
from dos.server.hosting.bus import Bus, LocalBus
from dos.server.hosting.jobs import Jobs, JobSettings, LocalJobs
from dos.server.hosting.ownership import Claim, Ownership, SoleOwnership
from dos.server.net.limits import Counters, Limits
from dos.server.people.admins import refuse_banned
from dos.server.people.auth import Signer, TokenError, load_secret, new_player_id
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.database import Database
from dos.server.storage.table_store import (
    StoredSeat,
    StoredTable,
    code_exists,
    insert_table,
    load_active,
    load_table,
    new_code,
    public_page,
)
from dos.server.tables import seating
from dos.server.tables.bots import bot_support
from dos.server.tables.chat import expire_with_chat
from dos.server.tables.handover_store import HandoverStore, NoHandovers
from dos.server.tables.hints import Hints
from dos.server.tables.info import stored_info, table_info
from dos.server.tables.owner import Owner
from dos.server.tables.settings import Settings
from dos.server.tables.table import Status, Table

log = logging.getLogger(__name__)

MIN_SEATS = 2
MAX_SEATS = 4


DEFAULT_TURN_SECONDS = 60.0
"""The turn timer of a table for people together, when its creator says nothing of one."""


def turn_seconds(request: CreateTable) -> float | None:
    """The table's turn timer: the one asked for (null: none); unsaid, the default for a
    table with seats for more than one person, none for one person against bots (nobody
    waits on them)."""
    if "turn_seconds" in request.model_fields_set:
        return request.turn_seconds
    people = sum(1 for seat in request.seats if seat is None)
    return DEFAULT_TURN_SECONDS if people > 1 else None


class Service:
    """Every table this process holds, the database and the token signer.

    What a server of many processes changes comes in as the server's interfaces, each of
    one process by default: ``ownership`` (which tables this process owns), ``handovers``
    (the tables' handovers for their next owner), ``runner`` (the CPU jobs: worker processes
    of this machine, from ``jobs``' settings), ``counters`` (the per-client rate counters),
    ``tables``, the tables held, by code, shared with an ownership that takes a lost
    table away, and ``bus``, what its processes say to each other."""

    def __init__(
        self,
        db: Database,
        data: Path,
        settings: Settings,
        limits: Limits | None = None,
        jobs: JobSettings | None = None,
        *,
        ownership: Ownership | None = None,
        handovers: HandoverStore | None = None,
        runner: Jobs | None = None,
        counters: Counters | None = None,
        tables: dict[str, Table] | None = None,
        secret: bytes | None = None,
        bus: Bus | None = None,
        clock: Clock | None = None,
    ) -> None:
        if clock is not None:
            settings = replace(settings, clock=clock)
        self.clock: Clock = settings.clock
        """The server's time (``dos.server.clock``), ``clock`` when given, else the
        settings': every table, timer, lease and loop of this server reads this one."""
        self.limits = limits or Limits()
        self.counters = counters if counters is not None else Counters(self.limits)
        """The per-client rate counters of every path (HTTP, WebSocket, agents, MCP)."""
        self.ownership: Ownership = ownership if ownership is not None else SoleOwnership()
        """Which tables this process owns (``dos.server.hosting.ownership``)."""
        self.handovers: HandoverStore = handovers if handovers is not None else NoHandovers()
        """Where the tables' handovers wait for their next owner."""
        self.bus: Bus = bus if bus is not None else LocalBus()
        """The bus between this server's processes (``dos.server.hosting.bus``)."""
        self.db = db
        self.data = data
        self.settings = settings
        # Many processes must sign alike: their secret comes from their configuration.
        self.signer = Signer(secret if secret is not None else load_secret(data), clock=self.clock)
        self.tables: dict[str, Table] = {} if tables is None else tables
        self.metrics = settings.metrics
        """This server's figures (``dos.server.metrics``), shared with its tables."""
        self.metrics.watch_tables(lambda: list(self.tables.values()))
        self._loading = asyncio.Lock()
        self.job_settings = jobs or JobSettings()
        self.jobs: Jobs = runner if runner is not None else LocalJobs.of(self.job_settings)
        """CPU work off the event loop: bots' decisions, hints and reviews
        (``dos.server.hosting.jobs``)."""
        self.settings = settings = replace(settings, jobs=self.jobs)  # the tables' bots use it
        self.hints = Hints(self)

    async def start(self) -> None:
        """Opens the database (migrating it) and loads every unfinished table this process
        owns: all of them, or (among many) none yet, each adopted by the ownership."""
        await asyncio.to_thread(self.db.start)
        self.jobs.start()
        await self.ownership.start()
        if not self.ownership.owns_all:
            return
        stored = await self.db.call(load_active)
        for item in stored:
            table = await Table.load(item, self.db, self.settings, self._owner(Claim(None)))
            self.tables[table.code] = table
            await table.current.finish()
        for table in self.tables.values():
            table.after_change()
        log.info("loaded %d unfinished tables", len(stored))

    async def stop(self) -> None:
        """Closes every connection and the database."""
        await self.say_goodbye()
        for table in self.tables.values():
            table.close()
        self.hints.stop()
        await self.ownership.stop()
        await asyncio.to_thread(self.jobs.stop)  # waits for the running jobs: off the loop
        self.counters.close()
        await asyncio.to_thread(self.db.close)

    async def say_goodbye(self) -> None:
        """Closes every connection with 1001 "server shutting down" (docs/protocol.md)."""
        clients = []
        for table in self.tables.values():
            for client in table.audience.clients():
                client.close(1001, "server shutting down")
                clients.append(client)
        await asyncio.gather(*(client.drain(1.0) for client in clients))

    async def table(self, code: str) -> Table | None:
        """The table with this code, loading it if it is only in the database."""
        code = code.upper()
        if code in self.tables:
            return self.tables[code]
        async with self._loading:
            if code in self.tables:
                return self.tables[code]
            try:
                # Owned first, then read: whatever the former owner committed is in.
                claim = await self.ownership.claim(code)
            except LookupError:
                return None
            stored = await self.db.read(load_table, code)
            if stored is None:
                return None
            table = await Table.load(stored, self.db, self.settings, self._owner(claim))
            if code in self.tables:  # loaded meanwhile by another request
                return self.tables[code]
            # The clocks go on where its former owner, if any, left them.
            table.take_over(await self.handovers.read(code))
            self.tables[code] = table
            await table.current.finish()
            table.after_change()
            return table

    def player(self, token: str | None) -> tuple[str, str]:
        """The player id of a player token (a fresh one without); and a fresh player token
        (of the same session, for a device signed in: ``dos.server.people.accounts``)."""
        session = None
        if token is None:
            player_id = new_player_id()
        else:
            try:
                player_id, session = self.signer.read_player_session(token)
            except TokenError as error:
                raise RefusedError(error.code, error.message, field="player_token") from None
        return player_id, self.signer.player_token(player_id, session=session)

    def admit(self, kind: str, client: str) -> None:
        """Counts one ``kind`` operation (``create``, ``join``) of ``client``, whatever path
        it came by; raises ``RefusedError("rate_limited")`` past the client's limit."""
        if not self.counters.allow(kind, client):
            wait = self.counters.retry_after(kind, client)
            raise RefusedError(
                "rate_limited", f"too many requests ({kind}): try again in {wait} s", retry=wait
            )

    async def create(self, request: CreateTable, client: str) -> dict[str, Any]:
        """A new table with its host at seat 0; returns the host's ``SeatGrant``. Counts
        against ``client``'s ``create`` limit."""
        self.admit("create", client)
        if ruleset.find(request.rules) is None:
            known = ", ".join(ruleset.names())
            raise RefusedError(
                "bad_request",
                f"rules: unknown rule set {request.rules!r} (known: {known})",
                field="rules",
            )
        count = len(request.seats)
        if not MIN_SEATS <= count <= MAX_SEATS:
            raise RefusedError(
                "bad_request", f"seats: a table has {MIN_SEATS}-{MAX_SEATS} seats", field="seats"
            )
        if request.seats[0] is not None:
            raise RefusedError(
                "bad_request", "seats: seat 0 is the host's: it must be null", field="seats.0"
            )
        support = bot_support(request.rules)
        if support is None and any(s is not None for s in request.seats):
            raise RefusedError(
                "bad_request", f"seats: bots cannot play {request.rules}", field="seats"
            )
        levels = support.levels() if support is not None else []
        for index, level in enumerate(request.seats):
            if level is not None and level not in levels:
                raise RefusedError(
                    "bad_request",
                    f"seats.{index}: unknown bot level {level!r} (known: {', '.join(levels)})",
                    field=f"seats.{index}",
                )
        try:
            deal_seed = self.settings.deals.table_seed(request.seed)
        except ValueError as error:
            raise RefusedError("bad_request", f"seed: {error}", field="seed") from None
        rules = ruleset.get(request.rules)
        options = {k: v for k, v in request.options.items() if k != "players"}
        try:
            rules.new_game({**options, "players": count}, 0)
        except (DosError, TypeError, ValueError, ArithmeticError, RecursionError) as error:
            # Whatever the rule set cannot make a game of is refused, never a crash.
            raise RefusedError("bad_request", f"options: {error}", field="options") from None
        player_id, player_token = self.player(request.player_token)
        await refuse_banned(self.db, player_id, self.clock.time())
        code = new_code(set(self.tables))
        while await self.db.read(code_exists, code):
            code = new_code(set(self.tables))
        seats = [StoredSeat(0, request.name, None, player_id)]
        seats += [StoredSeat(i, None, level, None) for i, level in enumerate(request.seats) if i]
        stored = StoredTable(
            code=code,
            rules=request.rules,
            options=options,
            public=request.public,
            status=Status.LOBBY.value,
            host=0,
            turn_seconds=turn_seconds(request),
            games=0,
            created_at=self.clock.time(),
            seats=seats,
            rated=request.rated and deal_seed is None,
            deal_seed=deal_seed,
        )
        table = await self.open_table(stored)
        return self._grant(table, 0, player_id, player_token)

    async def open_table(self, stored: StoredTable) -> Table:
        """Stores ``stored`` as a new table (under a fresh code if its own is taken) and
        holds it here, owned by this process."""
        while True:
            # Owned from the moment it exists: no other process adopts it meanwhile.
            claim = await self.ownership.claim_new(stored.code, lambda: self._insert(stored))
            if claim is not None:
                break
            stored.code = new_code(set(self.tables))
        table = Table(stored, self.db, self.settings, owner=self._owner(claim))
        self.tables[table.code] = table
        return table

    async def _insert(self, stored: StoredTable) -> bool:
        """Stores a new table; ``False`` if its code is taken (another process stored the
        same code between the look and the insert: the primary key refuses it twice)."""
        try:
            await self.db.call(insert_table, stored)
        except IntegrityError:
            if not await self.db.read(code_exists, stored.code):
                raise
            return False
        return True

    def _owner(self, claim: Claim) -> Owner:
        """This process, as a table it holds under ``claim`` meets it: its commits under the
        claim's epoch, its handovers kept for its next owner."""
        return Owner(claim.epoch, fenced=self._fenced, handover=self.handovers.note)

    def _fenced(self, table: Table) -> None:
        """A commit of ``table`` was refused for its epoch: another process owns it. The
        table object stops for good, and, if it is the one held here, leaves."""
        if self.tables.get(table.code) is table:
            self.ownership.fenced(table.code)
        table.close()

    async def join(self, code: str, request: JoinTable, client: str) -> dict[str, Any]:
        """Seats a guest at a table; returns their ``SeatGrant``. Counts against ``client``'s
        ``join`` limit."""
        self.admit("join", client)
        table = await self.table(code)
        if table is None:
            raise RefusedError("no_table", f"there is no table {code!r}", field="code")
        player_id, player_token = self.player(request.player_token)
        seat = await seating.join(table, request.name, player_id, request.seat)
        return self._grant(table, seat, player_id, player_token)

    def _grant(self, table: Table, seat: int, player_id: str, player_token: str) -> dict[str, Any]:
        return {
            "code": table.code,
            "seat": seat,
            "token": self.signer.seat_token(table.code, seat, player_id),
            "player_id": player_id,
            "player_token": player_token,
            "table": table_info(table),
        }

    async def public_tables(self, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many public tables are not finished, and ``limit`` of them from ``offset``,
        newest first. One process: the tables it holds. A server of many: the database's
        list (``public_page``), each table as its owner sees it (held here, or its owner's
        lobby entry: ``Ownership.lobby``), else as stored."""
        ownership = self.ownership
        if ownership.owns_all:
            tables = [t for t in self.tables.values() if t.public and t.status != Status.FINISHED]
            tables.sort(key=lambda t: t.created_at, reverse=True)
            return len(tables), [table_info(t) for t in tables[offset : offset + limit]]
        total, page = await self.db.read(public_page, offset, limit)
        here = {code: table_info(t) for code, t in self.tables.items() if ownership.owns(code)}
        there = await ownership.lobby(
            [stored.code for stored, _ in page if stored.code not in here]
        )
        return total, [
            here.get(stored.code) or there.get(stored.code) or stored_info(stored, game_id)
            for stored, game_id in page
        ]

    async def expire_idle(self, now: float | None = None) -> list[str]:
        """Expires the tables nobody has been connected to for too long (``Limits``): a
        lobby after ``lobby_idle`` seconds, a game after ``abandoned_idle`` (its game is
        stored as abandoned); finished tables leave memory after ``lobby_idle`` (they stay
        stored). Idle counts from the table's last activity as stored (``Table.load``), so a
        restart or a failover does not start it again, but a table just loaded waits a grace
        (``Settings.grace_seconds``) for its people to come back. Returns the codes of the
        expired tables."""
        now = self.clock.monotonic() if now is None else now
        limits = self.limits
        expired = []
        for table in list(self.tables.values()):
            if table.loaded_at is not None and now - table.loaded_at < self.settings.grace_seconds:
                continue  # just loaded (a restart, a failover): its people are coming back
            idle = table.audience.idle_for(now)
            if table.status == Status.LOBBY:
                limit = limits.lobby_idle
            elif table.status == Status.PLAYING:
                limit = limits.abandoned_idle
            else:
                if limits.lobby_idle is not None and idle > limits.lobby_idle:
                    table.close()
                    del self.tables[table.code]
                    await self.ownership.released(table.code)
                continue
            if limit is None or idle <= limit:
                continue
            game_id = (
                table.current.stored.id
                if table.playing() and table.current.stored is not None
                else None
            )
            await self.db.call(expire_with_chat, table.code, game_id, self.clock.time())
            table.close()
            del self.tables[table.code]
            await self.ownership.released(table.code)
            expired.append(table.code)
        if expired:
            log.info("expired %d idle tables", len(expired))
        return expired

    async def sweep(self, every: float = 60.0) -> None:
        """Runs ``expire_idle`` every ``every`` seconds, for ever."""
        while True:
            await self.clock.sleep(every)
            try:
                await self.expire_idle()
            except Exception:
                log.exception("expiring idle tables failed")
