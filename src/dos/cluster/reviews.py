"""The game reviews of a server of many processes: ``ReviewStore``
(``dos.server.hosting.review_store``) with the standings and claims in Redis and the reviews
done in the database.

Three keys per review ``NAME`` (prefix ``dos``; the braces are a Redis Cluster hash tag, so
one script touches them all):

``dos:review:{NAME}``
    its standing while not done: a hash of ``status`` (``running`` or ``failed``), ``done``,
    ``total`` and ``error``; it outlives its last change by ``STANDING_SECONDS``.
``dos:review:{NAME}:parts``
    the parts of it done so far (a hash: ``head``, and the first decision of each part
    judged, to its JSON), for whoever computes it next; as long-lived as the standing.
``dos:review:{NAME}:claim``
    the owner id of the process computing it, with an expiry at a time on the server's clock
    (``PXAT``) that its holder pushes ``CLAIM_SECONDS`` ahead every third of that; a claim
    past its expiry counts as none (Redis removes it by its own clock too, at the same
    moment when the clock is the real one).

One script takes or holds a claim and writes the progress and the part just done (``_HOLD``):
it refuses only where another process's claim is live. So two processes asked at once for
one review: one claims it, the other reads its progress; a holder killed stops renewing, its
claim lapses, and the next process asked claims it and goes on from the parts done (the
review stands ``running`` and not held meanwhile). Redis restarted without its data while a
review is computed: the holder's next report takes the claim again.

**Where the done review lives: the database**, not Redis. Redis is the server's shared memory,
not its durable store (docs/deployment.md): a restart without persistence, or an eviction,
loses what it holds. A review is re-computable (a pure function of its name), but it is
seconds of CPU a game and seat, and a host expects a review done to stay done; the database
already holds the game it reviews, is shared by every process, survives restarts, and a
review is read once per poll that finds it done (the browser stops polling then), so the
database's load is one primary-key read a request. So ``keep`` writes the database first,
then drops the standing: a reader that finds no standing finds the review kept, or it was
never asked. The database away: the review fails with that reason and is asked again.

>>> review_key("abc"), claim_key("abc")
('dos:review:{abc}', 'dos:review:{abc}:claim')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy.exc import IntegrityError

from dos.cluster.process_lease import clock_ms
from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.hosting.review_store import Part, ReviewStoreError, Standing
from dos.server.net.errors import DATABASE_AWAY
from dos.server.storage.database import Database
from dos.server.storage.kept_reviews import KeptReview, keep_review, load_review

log = logging.getLogger(__name__)

CLAIM_SECONDS: Final = 10.0
"""How long a claim lives without renewal: how long a review whose process died waits to be
taken over (its holder renews it every third of that)."""
STANDING_SECONDS: Final = 86_400.0
"""How long a review's standing outlives its last change (a failed one is forgotten then)."""

# The claim's holder if live at ARGV now (ms on the server's clock), else false.
_LIVE = """
local function live(key, now)
    local holder = redis.call('GET', key)
    if holder then
        local expiry = redis.call('PEXPIRETIME', key)
        if expiry >= 0 and expiry <= now then
            return false
        end
    end
    return holder
end
"""

# KEYS: standing, claim, parts. ARGV: holder, now ms, claim ttl ms, standing ttl ms, done,
# total ('': none), a part's key and JSON ('': none). Takes (or keeps) the claim unless
# another's is live, and writes the progress and the part.
_HOLD = (
    _LIVE
    + """
local now = tonumber(ARGV[2])
local holder = live(KEYS[2], now)
if holder and holder ~= ARGV[1] then
    return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', now + tonumber(ARGV[3]))
redis.call('HSET', KEYS[1], 'status', 'running', 'done', ARGV[5], 'total', ARGV[6])
redis.call('HDEL', KEYS[1], 'error')
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[7] ~= '' then
    redis.call('HSET', KEYS[3], ARGV[7], ARGV[8])
end
if redis.call('EXISTS', KEYS[3]) == 1 then
    redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return 1
"""
)

# KEYS: standing, claim. ARGV: now ms. The standing's fields and 'held' (1 or 0), or false.
_STANDING = (
    _LIVE
    + """
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
    return false
end
table.insert(fields, 'held')
table.insert(fields, live(KEYS[2], tonumber(ARGV[1])) and '1' or '0')
return fields
"""
)

# KEYS: standing, claim, parts. ARGV: holder, now ms, standing ttl ms, error. Notes the
# failure, its parts forgotten, unless another process's claim is live.
_FAIL = (
    _LIVE
    + """
local holder = live(KEYS[2], tonumber(ARGV[2]))
if holder and holder ~= ARGV[1] then
    return 0
end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'status', 'failed', 'error', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
)

# KEYS: standing, claim, parts. ARGV: holder, now ms. The review is kept: its standing and
# parts go, unless another process's claim is live (it finds it kept and drops them itself).
_DROP = (
    _LIVE
    + """
local holder = live(KEYS[2], tonumber(ARGV[2]))
if holder and holder ~= ARGV[1] then
    return 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""
)

# KEYS: claim. ARGV: holder. Lets the claim go if it is the holder's.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    redis.call('DEL', KEYS[1])
end
return 1
"""


def review_key(name: str, prefix: str = "dos") -> str:
    """The key of review ``name``'s standing."""
    return f"{prefix}:review:{{{name}}}"


def parts_key(name: str, prefix: str = "dos") -> str:
    """The key of the parts of review ``name`` done so far."""
    return f"{prefix}:review:{{{name}}}:parts"


def claim_key(name: str, prefix: str = "dos") -> str:
    """The key of review ``name``'s claim."""
    return f"{prefix}:review:{{{name}}}:claim"


class RedisReviewStore:
    """``ReviewStore`` of one process of a server of many (see the module's text): ``redis``
    the process's client, ``db`` the server's database, ``owner`` this process's owner id
    (``Node.owner``), ``clock`` the server's (the claims' expiry and renewals)."""

    def __init__(
        self,
        redis: Redis,
        db: Database,
        owner: str,
        *,
        clock: Clock = SYSTEM_CLOCK,
        prefix: str = "dos",
        claim_seconds: float = CLAIM_SECONDS,
    ) -> None:
        self.redis = redis
        self.db = db
        self.owner = owner
        self.clock = clock
        self.prefix = prefix
        self.claim_seconds = claim_seconds
        self._hold = redis.register_script(_HOLD)
        self._standing = redis.register_script(_STANDING)
        self._fail = redis.register_script(_FAIL)
        self._drop = redis.register_script(_DROP)
        self._release = redis.register_script(_RELEASE)
        self._held: dict[str, tuple[int, int | None]] = {}
        """The reviews whose claims this process holds, with their progress."""
        self._renewal: asyncio.Task[None] | None = None

    def _keys(self, name: str) -> list[str]:
        return [
            review_key(name, self.prefix),
            claim_key(name, self.prefix),
            parts_key(name, self.prefix),
        ]

    async def standing(self, name: str) -> Standing | None:
        """See ``ReviewStore.standing``."""
        try:
            found = await self._standing(keys=self._keys(name)[:2], args=[clock_ms(self.clock)])
        except RedisError as error:
            raise ReviewStoreError(f"the reviews' store did not answer ({error})") from None
        if not found:
            return None
        fields = {_text(k): _text(v) for k, v in zip(found[::2], found[1::2], strict=True)}
        total = fields.get("total", "")
        return Standing(
            "failed" if fields.get("status") == "failed" else "running",
            int(fields.get("done") or 0),
            int(total) if total else None,
            fields.get("error"),
            fields.get("held") == "1",
        )

    async def kept(self, name: str) -> dict[str, Any] | None:
        """See ``ReviewStore.kept`` (the database away: its error, which the server
        answers with 503 ``storage``)."""
        return await self.db.read(load_review, name)

    async def claim(self, name: str) -> bool:
        """See ``ReviewStore.claim``."""
        try:
            if not await self._write_hold(name, 0, None):
                return False
        except RedisError as error:
            raise ReviewStoreError(f"the reviews' store did not answer ({error})") from None
        self._held[name] = (0, None)
        if await self.kept(name) is not None:  # kept meanwhile by its former holder
            del self._held[name]
            with contextlib.suppress(RedisError):
                await self._drop(keys=self._keys(name), args=[self.owner, clock_ms(self.clock)])
            return False
        if self._renewal is None or self._renewal.done():
            self._renewal = asyncio.get_running_loop().create_task(
                self._renew(), name="review-claims"
            )
        return True

    async def _write_hold(
        self, name: str, done: int, total: int | None, part: Part | None = None
    ) -> bool:
        args: list[str | int] = [
            self.owner,
            clock_ms(self.clock),
            round(self.claim_seconds * 1000),
            round(STANDING_SECONDS * 1000),
            done,
            "" if total is None else total,
            "" if part is None else part[0],
            "" if part is None else json.dumps(part[1], separators=(",", ":")),
        ]
        return bool(await self._hold(keys=self._keys(name), args=args))

    async def report(
        self, name: str, done: int, total: int | None, part: Part | None = None
    ) -> bool:
        """See ``ReviewStore.report``. Redis away: still held as far as this process knows
        (the renewals try again; the part is not kept, and is made again should another
        process take the review over)."""
        if name not in self._held:
            return False
        self._held[name] = (done, total)
        try:
            held = await self._write_hold(name, done, total, part)
        except RedisError as error:
            log.warning("review %s: its progress was not noted (%s)", name, error)
            return True
        if not held:
            self._held.pop(name, None)
        return held

    async def parts(self, name: str) -> dict[str, dict[str, Any]]:
        """See ``ReviewStore.parts`` (one that does not read as JSON is left out: made
        again)."""
        try:
            found = await self.redis.hgetall(parts_key(name, self.prefix))
        except RedisError as error:
            raise ReviewStoreError(f"the reviews' store did not answer ({error})") from None
        parts = {}
        for key, value in found.items():
            with contextlib.suppress(ValueError):
                part = json.loads(value)
                if isinstance(part, dict):
                    parts[_text(key)] = part
        return parts

    async def _renew(self) -> None:
        """Pushes the claims held here ahead, every third of their life, while any is held."""
        while self._held:
            await self.clock.sleep(self.claim_seconds / 3)
            for name, (done, total) in list(self._held.items()):
                try:
                    held = await self._write_hold(name, done, total)
                except RedisError as error:
                    log.warning("review %s: its claim was not renewed (%s)", name, error)
                    continue
                if not held and name in self._held:
                    log.warning("review %s: taken over by another process", name)
                    del self._held[name]

    async def keep(self, name: str, game_id: int, seat: int, review: dict[str, Any]) -> None:
        """See ``ReviewStore.keep``: in the database, then the standing dropped (Redis away:
        the standing stays; the next process asked finds the review kept)."""
        self._held.pop(name, None)
        try:
            kept = KeptReview(name, game_id, seat, review, self.clock.time())
            await self.db.call(keep_review, kept)
        except IntegrityError:
            pass  # kept by another process at the same moment: the same review
        except DATABASE_AWAY as error:
            why = f"the review could not be kept: the database did not answer ({error})"
            raise ReviewStoreError(why) from None
        try:
            await self._drop(keys=self._keys(name), args=[self.owner, clock_ms(self.clock)])
        except RedisError as error:
            log.warning("review %s: kept, its standing not dropped (%s)", name, error)

    async def fail(self, name: str, error: str) -> None:
        """See ``ReviewStore.fail``."""
        self._held.pop(name, None)
        args: list[str | int] = [
            self.owner,
            clock_ms(self.clock),
            round(STANDING_SECONDS * 1000),
            error,
        ]
        try:
            await self._fail(keys=self._keys(name), args=args)
        except RedisError as away:
            raise ReviewStoreError(f"the reviews' store did not answer ({away})") from None

    async def release(self, name: str) -> None:
        """See ``ReviewStore.release``."""
        self._held.pop(name, None)
        try:
            await self._release(keys=[claim_key(name, self.prefix)], args=[self.owner])
        except RedisError as error:
            raise ReviewStoreError(f"the reviews' store did not answer ({error})") from None

    async def close(self) -> None:
        """Stops the renewals and lets every claim held here go (Redis away: they lapse).
        The Redis client is the process's: it is not closed here."""
        if self._renewal is not None:
            self._renewal.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewal
            self._renewal = None
        for name in list(self._held):
            with contextlib.suppress(ReviewStoreError):
                await self.release(name)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
