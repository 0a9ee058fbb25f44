"""A process's lease in Redis: the one key that says the process is up, and on which every
table it holds rests (``dos.cluster.lease``).

``dos:owner:{OWNER}:alive`` holds ``"INCARNATION UNTIL"`` while the process ``OWNER`` holds
its lease: a random incarnation drawn at each acquisition, and the time (ms, on the server's
clock) it is held until, also set as the key's expiry (``PXAT``). One compare-and-set script
renews it (``RENEW_FRACTION`` of the TTL apart: ``dos.cluster.renewal``), whatever the number
of tables the process holds. A table is held by its owner only while this key holds the
incarnation the table was taken under: when the key lapses (the process paused past the
TTL, Redis restarted without its data, Redis unreachable until the TTL ran out), the process
loses every table at once, and takes a new incarnation before it may take any again.

Time comes from the server's clock (``dos.server.clock``): a test moves a ``ManualClock`` past
the expiry instead of waiting for it; the scripts, given the clock's time, take a key whose
time has passed for gone (Redis removes it by its own clock too, at the same moment when
the clock is the real one).

>>> alive_key("web-1:42:beef")
'dos:owner:{web-1:42:beef}:alive'
"""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from dos.cluster.lease_errors import LeaseLostError, ask
from dos.server.clock import SYSTEM_CLOCK, Clock

DEFAULT_TTL = 10.0
"""Seconds a process's lease lives without renewal: how long its tables wait for a new owner
after it died."""

OWNER_MAX = 64
"""The longest owner id (``dos_tables.epoch_owner`` holds it)."""

# KEYS: the alive key. ARGV: now in ms, the incarnation, ttl in ms. Returns 1 when renewed,
# 0 when the key no longer holds the incarnation (or its time has passed).
_RENEW = """
local value = redis.call('GET', KEYS[1])
if value then
    local incarnation, until_ms = string.match(value, '^(%S+) (%d+)$')
    if incarnation == ARGV[2] and tonumber(until_ms) > tonumber(ARGV[1]) then
        local renewed = string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[3]))
        redis.call('SET', KEYS[1], incarnation .. ' ' .. renewed, 'PXAT', renewed)
        return 1
    end
end
return 0
"""

# KEYS: the alive key. ARGV: the incarnation. Returns 1 when deleted.
_RELEASE = """
local value = redis.call('GET', KEYS[1])
if value and string.match(value, '^(%S+)') == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


def alive_key(owner: str, prefix: str = "dos") -> str:
    """The key of process ``owner``'s lease (see the module's text)."""
    return f"{prefix}:owner:{{{owner}}}:alive"


def clock_ms(clock: Clock) -> int:
    """The clock's wall time in whole milliseconds, as the leases' scripts take it.

    >>> from dos.server.clock import ManualClock
    >>> clock_ms(ManualClock(start=1.5))
    1500
    """
    return int(clock.time() * 1000)


def alive_until(value: bytes | str | None, incarnation: str, now_ms: int) -> int | None:
    """The time (ms) an alive key's stored ``value`` holds ``incarnation`` until, if it does
    at ``now_ms`` (else ``None``).

    >>> alive_until(b"beef 2000", "beef", 1999), alive_until("beef 2000", "beef", 2000)
    (2000, None)
    >>> alive_until("cafe 2000", "beef", 1000), alive_until(None, "beef", 1000)
    (None, None)
    """
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else value
    held, _, until = text.partition(" ")
    if held != incarnation or not until.isdigit() or int(until) <= now_ms:
        return None
    return int(until)


class ProcessLease:
    """Process ``owner``'s lease (see the module's text).

    ``acquire`` takes it under a new incarnation; ``renew`` keeps it
    (``dos.cluster.renewal.LeaseRenewal`` does so in the background); ``release`` hands it
    back, freeing every table taken under it. Every Redis failure raises
    ``RedisUnavailableError``. Used from one event loop; one per process.
    """

    def __init__(
        self,
        redis: Redis,
        owner: str,
        ttl: float = DEFAULT_TTL,
        *,
        prefix: str = "dos",
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        if not 0 < len(owner) <= OWNER_MAX or " " in owner:
            raise ValueError(f"an owner id has 1-{OWNER_MAX} characters and no space: {owner!r}")
        if ttl <= 0:
            raise ValueError(f"a lease's TTL is positive: {ttl}")
        self.redis = redis
        self.owner = owner
        self.ttl = ttl
        self.prefix = prefix
        self.clock = clock
        """The server's clock: the lease's expiry and its renewals' times."""
        self.key = alive_key(owner, prefix)
        self.code = owner
        """What the lease's errors name (the owner id)."""
        self.epoch: int | None = None
        """Always ``None``: a process's lease has no epoch (its tables have)."""
        self.incarnation: str | None = None
        """The incarnation the lease is held under; ``None`` when not held."""
        self.valid_until = 0.0
        """``clock.monotonic()`` before which the lease is surely still held: the start of the
        latest successful acquisition or renewal plus the TTL; 0 when not held."""
        self._ttl_ms = max(1, round(ttl * 1000))
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @property
    def held(self) -> bool:
        """Whether this process holds its lease, as far as it can tell without asking Redis:
        acquired, not released, not lost, and the TTL since the latest renewal not over."""
        return self.incarnation is not None and self.clock.monotonic() < self.valid_until

    async def acquire(self) -> str:
        """Takes the lease under a new incarnation (any former one, and every table taken
        under it, is no longer held) and returns it."""
        self.forget()
        incarnation = secrets.token_hex(4)
        started = self.clock.monotonic()
        until = clock_ms(self.clock) + self._ttl_ms

        async def run() -> object:
            return await self.redis.set(self.key, f"{incarnation} {until}", pxat=until)

        await ask(self.owner, "acquire", run, "process")
        self.incarnation = incarnation
        self.valid_until = started + self.ttl
        return incarnation

    async def renew(self) -> None:
        """Extends the lease by its TTL if it still holds this incarnation.

        Raises ``LeaseLostError`` when it does not (it expired: every table taken under it
        is lost), after which it is no longer held, and ``RedisUnavailableError`` (it may
        still be held until ``valid_until``)."""
        incarnation = self.incarnation
        if incarnation is None:
            raise LeaseLostError(self.owner, None, "it is not held", subject="process")
        started = self.clock.monotonic()
        args: list[str | int] = [clock_ms(self.clock), incarnation, self._ttl_ms]

        async def run() -> object:
            return await self._renew(keys=[self.key], args=args)

        if await ask(self.owner, "renew", run, "process"):
            self.valid_until = started + self.ttl
            return
        self.forget()
        raise LeaseLostError(self.owner, None, "it expired", subject="process")

    async def release(self) -> bool:
        """Hands the lease back if it still holds this incarnation: every table taken under it
        is free at once. Returns whether it was held. Locally it is no longer held, even
        when Redis does not answer (``RedisUnavailableError``; it then expires by itself)."""
        incarnation = self.incarnation
        self.forget()
        if incarnation is None:
            return False

        async def run() -> object:
            return await self._release(keys=[self.key], args=[incarnation])

        return bool(await ask(self.owner, "release", run, "process"))

    def forget(self) -> None:
        """Marks the lease as no longer held here, without asking Redis (it was lost)."""
        self.incarnation = None
        self.valid_until = 0.0
