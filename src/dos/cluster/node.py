"""One process of a server of many: which tables it owns, taking them, losing them, and
adopting the tables a dead process left.

Every process runs a ``Node`` when the server is given Redis (``dos serve --redis``): the
server's ``Ownership`` (``dos.server.hosting.ownership``) and ``HandoverStore``
(``dos.server.tables.handover_store``) among many processes. A table is owned by exactly one
process at a time, under its lease (``dos.cluster.lease``) and fencing epoch
(``dos.cluster.ownership``): only the owner holds the table in memory, applies its actions,
runs its bots and clocks. The others reach it through the bus (``dos.cluster.relay``:
requests forwarded, WebSocket connections relayed). What a process says of itself for the
others — that it is up, its tables' lobby entries — is ``dos.cluster.presence``.

* **The process lease** (``dos.cluster.process_lease``): the process's ``alive`` key, taken
  at start under a fresh incarnation and renewed every third of its TTL (``_live``,
  ``dos.cluster.renewal``): one command a period, however many tables the process holds.
  Each table it takes rests on it.
* **Taking** a table (``claim``): the table's claim is acquired (``dos.cluster.lease``) with
  the database's epoch as floor, the epoch claimed in the database, and only then the table
  loaded, its game replayed from the committed actions. Every action it commits carries the
  epoch, so a former owner that was paused or cut off commits nothing once the table is
  taken (``fenced``).
* **Keeping** its tables through a lapse (``_lapsed``, ``_retake``): when the process lease
  lapsed (the process was too busy to renew in time, Redis was away or restarted without
  its data), every table is lost at once; the process takes a new incarnation and each
  table again under a new epoch, the table staying in memory and its players seeing
  nothing, if nobody else took it meanwhile and the database says no other owner claimed
  it since.
* **Losing** a table (``lose``): a commit was fenced, or a lapsed table could not be taken
  again. The table leaves memory, its clients here are closed with 1012 (they reconnect,
  to any process) and those relayed from elsewhere are told it moved (``on_lost``: their
  relays find the new owner).
* **Adopting**: every ``scan_every`` seconds each process lists the unfinished tables in
  the database and takes those nobody holds (no claim, or its owner's process lease gone):
  a dead owner's tables come back within the TTL and one scan, replayed from what was
  committed. A table found held until a time (its owner's process lease's) is not read
  again before that time (it cannot be freed sooner, but by a release): each scan reads
  only the tables that may have been freed since. A table handed back sooner (``drain``)
  is taken by its table's next request at once (``dos.cluster.routing``), by a scan once
  the time it was found held until passed.
* **Draining** (``drain``, at SIGTERM): the tables are handed back (their clients told, the
  claims released) so the other processes adopt them at their next scan, then the process
  lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from dos.cluster.bus import RedisBus
from dos.cluster.handovers import Handovers
from dos.cluster.lease import (
    Holder,
    LeaseHeldError,
    TableLease,
    holders,
    leases,
    new_owner_id,
)
from dos.cluster.lease_errors import LeaseError, LeaseLostError, ProcessLeaseGoneError
from dos.cluster.ownership import take_new_table, take_table
from dos.cluster.presence import Presence
from dos.cluster.process_lease import ProcessLease, clock_ms
from dos.cluster.renewal import RENEW_FRACTION, LeaseRenewal
from dos.cluster.tasks import stop as stop_task
from dos.server.clock import Clock
from dos.server.hosting.ownership import Claim
from dos.server.metrics import Metrics
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.database import Database
from dos.server.storage.fencing import StaleEpochError
from dos.server.storage.table_store import active_codes, code_exists

if TYPE_CHECKING:
    from dos.server.tables.handover import Handover
    from dos.server.tables.table import Table

T = TypeVar("T")

log = logging.getLogger(__name__)

LEASE_SECONDS = 3.0
"""A process's lease: how long a dead owner's tables wait before another process adopts them
(plus one scan)."""
SCAN_SECONDS = 1.0
"""How often a process looks for tables nobody owns."""

MOVED = 4013
"""The close code, between processes, of a relayed connection whose table moved to another
process: its relay reattaches it to the new owner (clients never see it)."""
MOVED_WHY = "the table moved to another server process"
"""The reason given to the clients of a table that left this process."""
RESTARTING = 1012
"""The close code of a direct client of a table that left this process (WebSocket "service
restart"): the client reconnects, to any process."""

CONTROL_CONNECTIONS = 64
"""Connections of a process's control client: leases, handovers, lobby entries (short
commands; a command waits for a free connection rather than fail)."""
BUS_CONNECTIONS = 4096
"""Connections of a process's bus client: each relayed connection's subscription holds one
in a blocking read most of the time, and each forward waiting for its reply one."""
POOL_WAIT_SECONDS = 10.0
"""How long a command may wait for a free connection of its pool."""


def clients(redis_url: str) -> tuple[Redis, Redis]:
    """A process's two Redis clients, each with its own pool of connections: the control
    client (leases, handovers, lobby entries) and the bus's (``RedisBus``). Apart, so that
    the bus's blocking reads — hundreds at once on a busy process — never leave a lease
    without a connection to renew it (which would lose every table at once); bounded pools
    that wait for a free connection, rather than fail, past their bound.

    >>> control, bus = clients("redis://127.0.0.1:6379/0")
    >>> control.connection_pool is not bus.connection_pool
    True
    """
    made = []
    for connections in (CONTROL_CONNECTIONS, BUS_CONNECTIONS):
        pool = BlockingConnectionPool.from_url(
            redis_url,
            max_connections=connections,
            timeout=POOL_WAIT_SECONDS,
            socket_timeout=10,
            health_check_interval=5,
        )
        made.append(Redis.from_pool(pool))  # closes its pool with it
    return made[0], made[1]


class Node:
    """This process among the server's processes (see the module's text).

    ``tables`` are the tables this process holds in memory, by code: the service's, from
    which a table lost here is taken away. ``load`` takes and loads a table here
    (``Service.table``: late-bound, the service being built with this node as its
    ownership); ``on_lost`` is told the code of each table that left this process (the
    relay ends the connections relayed to it)."""

    def __init__(
        self,
        redis_url: str,
        name: str | None = None,
        *,
        db: Database,
        metrics: Metrics,
        clock: Clock,
        tables: dict[str, Table],
        load: Callable[[str], Awaitable[object]],
        on_lost: Callable[[str], None],
        ttl: float = LEASE_SECONDS,
        scan_every: float = SCAN_SECONDS,
        prefix: str = "dos",
    ) -> None:
        self.db = db
        self.metrics = metrics
        self.clock = clock
        """The server's clock (``Service.clock``): the leases' expiry and renewals, the
        scans. The process's ``alive`` key and lobby entries stay on real time: Redis
        expires them by its own clock."""
        self.tables = tables
        self.load = load
        self.on_lost = on_lost
        self.redis_url = redis_url
        self.redis, self.bus_redis = clients(redis_url)
        """The leases, handovers and lobby entries' client; the bus's, apart (``clients``)."""
        self.owner = new_owner_id() if name is None else f"{name}:{new_owner_id()}"[:64]
        """This process's owner id in leases and on the bus."""
        self.prefix = prefix
        self.bus = RedisBus(self.bus_redis, prefix=prefix, block_ms=500)
        self.handovers = Handovers(self.redis, prefix)
        """The clocks and host's choices of the tables held here, for their next owner."""
        self.presence = Presence(self.redis, self.owner, prefix, self._owned)
        """Its tables' lobby entries, and whether other processes are up."""
        self.ttl = ttl
        self.scan_every = scan_every
        self.process = ProcessLease(self.redis, self.owner, ttl, prefix=prefix, clock=clock)
        """This process's lease (its ``alive`` key), on which every table it holds rests."""
        self.renewal: LeaseRenewal | None = None
        """The renewal of the process lease's current incarnation."""
        self.leases: dict[str, TableLease] = {}
        """The tables this process has taken, by code (held while ``process`` is)."""
        self.draining = False
        self.stopped = False
        """Whether ``stop`` ran (the process is stopping or stopped)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._claiming: dict[str, asyncio.Lock] = {}
        self._living = asyncio.Lock()
        self._retaking: set[asyncio.Task[None]] = set()
        self._held_until: dict[str, int] = {}
        """The tables of other processes' whose leases a scan found held, with the time
        (ms, on the server's clock) they are held until at least."""

    @property
    def owns_all(self) -> bool:
        """Never: the others own tables too."""
        return False

    # --- life --------------------------------------------------------------------------------

    async def start(self) -> None:
        """Starts the scans for tables nobody owns, and this process's presence (the
        server's start)."""
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._live(), name="node-alive"),
            loop.create_task(self._adopt(), name="node-adopt"),
            loop.create_task(self.presence.keep_publishing(), name="node-publish"),
            loop.create_task(self.handovers.run(), name="node-handovers"),
        ]
        log.info("process %s: one of many, on Redis", self.owner)

    async def stop(self) -> None:
        """Stops the scans, the bus and the process lease's renewals; the leases left as they
        are (a stop without ``drain`` is a crash for the others: they adopt after the TTL)."""
        self.stopped = True
        tasks = [*self._tasks, *self._retaking]
        for task in tasks:
            task.cancel()
        for task in tasks:
            await stop_task(task)
        self._tasks = []
        if self.renewal is not None:
            await self.renewal.stop()
        await self.bus.close()
        await self.redis.aclose()
        await self.bus_redis.aclose()

    async def drain(self) -> None:
        """Hands every table back (SIGTERM): its clients told (they reconnect or are
        reattached elsewhere), its lease released, so another process adopts it at once; then
        the process lease."""
        self.draining = True
        for task in self._tasks:
            task.cancel()
        await self.handovers.flush()  # what the next owners read
        for code in list(self.leases):
            lease = self.leases[code]
            self.lose(code, "this server process is stopping")
            with contextlib.suppress(LeaseError):
                await lease.release()
        if self.renewal is not None:
            await self.renewal.stop()
        with contextlib.suppress(LeaseError):
            await self.process.release()  # the others see this process gone at once

    # --- the handovers (``dos.server.tables.handover_store.HandoverStore``) -------------------

    def note(self, table: Table) -> None:
        """Notes ``table``'s handover for its next owner (``dos.cluster.handovers``), if
        this process holds it."""
        held = self.leases.get(table.code)
        if held is None or not held.held or held.epoch is None:
            return
        self.handovers.note(table.code, held.epoch, table.handover())

    async def read(self, code: str) -> Handover | None:
        """What ``code``'s former owner handed over, for the table taken here."""
        return await self.handovers.read(code)

    # --- ownership ---------------------------------------------------------------------------

    def owns(self, code: str) -> bool:
        """Whether this process holds ``code``'s lease now."""
        held = self.leases.get(code)
        return held is not None and held.held

    def epoch_of(self, code: str) -> int | None:
        """The epoch this process holds ``code`` under (``None``: not held, or not yet)."""
        held = self.leases.get(code)
        return None if held is None else held.epoch

    def _owned(self) -> list[Table]:
        """The tables this process holds and owns now."""
        return [table for code, table in list(self.tables.items()) if self.owns(code)]

    async def holder(self, code: str) -> Holder | None:
        """Who holds ``code``'s lease (``None``: nobody); Redis away: ``RefusedError``."""
        return (await self.holders([code]))[0]

    async def holders(self, codes: list[str]) -> list[Holder | None]:
        """Who holds each of ``codes``' leases, in one round trip (``None``: nobody); Redis
        away: ``RefusedError``."""
        try:
            return await holders(self.redis, codes, self.clock, self.prefix)
        except (RedisError, OSError) as error:
            raise RefusedError("busy", f"the servers' Redis did not answer ({error})") from None

    async def alive(self, owner: str) -> bool:
        """Whether the process ``owner`` is up (``dos.cluster.presence``)."""
        return await self.presence.alive(owner)

    async def lobby(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """The lobby entries the owners of ``codes`` wrote lately (``dos.cluster.presence``;
        at most a second old), by code; Redis away: none."""
        return await self.presence.infos(codes)

    async def claim(self, code: str) -> Claim:
        """Makes this process ``code``'s owner; the epoch to commit under. Raises
        ``LookupError`` when no such table is stored, ``RefusedError("elsewhere")`` when
        another process owns it, ``RefusedError("busy")`` when Redis or the database does
        not answer."""
        if self.draining:
            raise RefusedError("elsewhere", "this server process is stopping")
        if not await self.db.read(code_exists, code):
            raise LookupError(f"table {code}: no such table is stored")
        lock = self._claiming.setdefault(code, asyncio.Lock())
        async with lock:
            held = self.leases.get(code)
            if held is not None and held.held and held.epoch is not None:
                return Claim(held.epoch)
            lease = TableLease(self.process, code)
            try:
                epoch = await self._taking(lambda: take_table(lease, self.db, self.metrics))
            except LeaseHeldError as error:
                raise RefusedError(
                    "elsewhere", f"table {code} is owned by another process"
                ) from error
            except StaleEpochError as error:
                raise RefusedError("elsewhere", str(error)) from None
            except LeaseError as error:
                raise RefusedError("busy", str(error)) from None
            self._hold(lease, epoch)
            return Claim(epoch)

    async def claim_new(self, code: str, store: Callable[[], Awaitable[bool]]) -> Claim | None:
        """Makes this process the owner of a table it creates, before it exists:
        ``store`` stores it (whether it did: ``False``, its code is taken) once its lease is
        held (``dos.cluster.ownership.take_new_table``). Returns the epoch to commit under,
        or ``None`` when the code is taken: try another. Raises ``RefusedError("busy")``
        when Redis does not answer."""
        if self.draining:
            raise RefusedError("elsewhere", "this server process is stopping")
        lease = TableLease(self.process, code)
        try:
            epoch = await self._taking(lambda: take_new_table(lease, self.db, store, self.metrics))
        except LeaseError as error:
            raise RefusedError("busy", str(error)) from None
        if epoch is None:
            return None
        self._hold(lease, epoch)
        return Claim(epoch)

    async def _taking(self, take: Callable[[], Awaitable[T]]) -> T:
        """``take()`` (a table's acquisition) under the process lease, held first. Should Redis
        no longer hold that lease (it lapsed, or Redis restarted without its data, before a
        renewal could tell), every table is lost as at a lapse, and the take is tried once
        more under a new process lease, at once rather than after the next renewal."""
        await self._alive()
        try:
            return await take()
        except ProcessLeaseGoneError as gone:
            self._lapsed(LeaseLostError(self.owner, None, gone.why, subject="process"))
        await self._alive()
        return await take()

    def _hold(self, lease: TableLease, epoch: int) -> None:
        """Keeps ``lease``, just taken under ``epoch`` (held while the process lease is)."""
        self.leases[lease.code] = lease
        log.info("table %s: taken under epoch %d", lease.code, epoch)

    # --- the process lease -------------------------------------------------------------------

    async def _live(self) -> None:
        """Holds the process lease for ever (a task): taken again, under a new incarnation,
        soon after it lapsed, so that the others see this process up and it may take tables.
        Its renewals are ``renewal``'s."""
        while True:
            try:
                await self._alive()
            except LeaseError as error:
                log.warning("%s; trying again", error)
            await self.clock.sleep(self.ttl * RENEW_FRACTION)

    async def _alive(self) -> None:
        """Makes sure the process lease is held: if not, taken under a new incarnation and
        renewed from then on, a former incarnation's tables lost first (``_lapsed``, if its
        renewal has not said so yet). Raises ``RedisUnavailableError``."""
        if self.process.held:
            return
        async with self._living:
            if self.process.held:
                return
            renewal, self.renewal = self.renewal, None
            if renewal is not None:
                await renewal.stop()
            if self.process.incarnation is not None:
                why = "it expired before it could be renewed (the process was too busy)"
                self._lapsed(LeaseLostError(self.owner, None, why, subject="process"))
            await self.process.acquire()
            self.renewal = LeaseRenewal(self.process, on_lost=self._lapsed)
            self.renewal.start()

    def _lapsed(self, why: LeaseLostError) -> None:
        """The process lease lapsed (``why``): every table taken under it is lost at once,
        each as one table's lapse (``_expired``)."""
        self.process.forget()
        if self.leases:
            log.warning("%s: its %d tables with it", why, len(self.leases))
        for code, lease in list(self.leases.items()):
            lease.forget()
            self._expired(code, LeaseLostError(code, lease.epoch, why.why))

    def _expired(self, code: str, why: LeaseLostError) -> None:
        log.warning("table %s: lease lost (%s)", code, why)
        self.leases.pop(code, None)
        if why.holder is not None or why.epoch is None or self.draining:
            self.lose(code, MOVED_WHY)
            return
        # Nobody holds it (this process was too busy to renew its lease in time, or Redis was
        # away or lost its data): taken again in place if no other owner claimed it
        # meanwhile, so its players see nothing.
        task = asyncio.get_running_loop().create_task(self._retake(code, why.epoch))
        self._retaking.add(task)
        task.add_done_callback(self._retaking.discard)

    async def _retake(self, code: str, epoch: int) -> None:
        """Takes ``code`` again under a new epoch, keeping the table held here, if the
        database's epoch is still ``epoch``; else the table leaves this process (``lose``).
        Under the table's lock: no commit of its own is under way while its epoch changes."""
        table = self.tables.get(code)
        if table is None:
            return
        lock = self._claiming.setdefault(code, asyncio.Lock())
        async with lock, table.lock:
            if self.tables.get(code) is not table or self.draining:
                return
            lease = TableLease(self.process, code)
            try:
                await self._alive()
                new = await take_table(lease, self.db, self.metrics, after=epoch)
            except (LeaseError, StaleEpochError, LookupError) as error:
                log.warning("table %s: not taken again (%s)", code, error)
                self.lose(code, MOVED_WHY)
                return
            except Exception:
                log.exception("table %s: not taken again", code)
                self.lose(code, MOVED_WHY)
                return
            table.current.epoch = new
            self.leases[code] = lease
            log.info("table %s: taken again in place under epoch %d", code, new)

    def fenced(self, code: str) -> None:
        """A commit of ``code`` was refused for its epoch: another process owns it."""
        held = self.leases.pop(code, None)
        if held is not None:
            held.forget()
        self.lose(code, MOVED_WHY)

    def lose(self, code: str, why: str) -> None:
        """The table leaves this process: bots and clocks stopped, clients here closed
        (1012: they reconnect anywhere), relayed ones told it moved (``on_lost``)."""
        table = self.tables.pop(code, None)
        self.handovers.drop(code)
        if table is not None:
            table.close()
            for client in table.audience.clients():
                client.close(RESTARTING, why)
        self.on_lost(code)

    async def released(self, code: str) -> None:
        """Gives ``code`` back (the table expired or finished and left memory); its handover
        stays for whoever loads it again, until it expires."""
        self.handovers.drop(code)
        held = self.leases.pop(code, None)
        if held is not None:
            with contextlib.suppress(LeaseError):
                await held.release()

    # --- adopting ----------------------------------------------------------------------------

    async def _adopt(self) -> None:
        """Takes the unfinished tables nobody owns, for ever (each scan after a little
        jitter, so that processes do not all race for the same table). A scan that fails
        (the database away) is said once, with its error, and its recovery once."""
        failing = False
        while True:
            await self.clock.sleep(self.scan_every * random.uniform(0.5, 1.0))
            try:
                await self.adopt_free()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not failing:
                    log.warning("looking for tables without an owner failed (%r)", error)
                failing = True
                continue
            if failing:
                log.info("looking for tables without an owner works again")
            failing = False

    async def adopt_free(self) -> list[str]:
        """One scan: takes and loads every unfinished table whose lease is free; returns
        their codes."""
        if self.draining:
            return []
        active = [c for c in await self.db.read(active_codes) if c not in self.leases]
        now = clock_ms(self.clock)
        self._held_until = {c: self._held_until[c] for c in active if c in self._held_until}
        codes = [c for c in active if self._held_until.get(c, 0) <= now]
        if not codes:
            return []
        try:
            found = await leases(self.redis, codes, self.clock, self.prefix)
        except (RedisError, OSError):
            return []
        taken = []
        for code, (holder, until) in zip(codes, found, strict=True):
            if holder is not None:
                if until is not None and holder.owner != self.owner:
                    self._held_until[code] = until
                continue
            with contextlib.suppress(RefusedError, LookupError):
                if await self.load(code) is not None:
                    taken.append(code)
        if taken:
            self.metrics.failovers.inc(len(taken))
            log.info("adopted %d tables: %s", len(taken), ", ".join(taken))
        return taken
