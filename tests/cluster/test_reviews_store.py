"""The reviews' store of a server of many processes (``dos.cluster.reviews``): one claim
at a time, renewed while its holder lives and lapsing when it dies, the progress read by every
process, the review kept in the database. Two stores on one Redis and one database stand for
two processes; time is a ``ManualClock`` moved by the test."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from dos.cluster.reviews import CLAIM_SECONDS, RedisReviewStore, review_key
from dos.server.clock import ManualClock
from dos.server.hosting.review_store import Standing
from dos.server.storage.database import Database
from server.support import TIMEOUT

pytestmark = pytest.mark.asyncio

NAME = "0123abcd-seat1-k8-s0-v1"
REVIEW = {"summary": {"decisions": 3, "forced": 1}, "entries": []}
HEAD = {"total": 20, "missed": []}
PART = {"entries": [], "forced": 2}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'dos.sqlite3'}")
    database.start()
    yield database
    database.close()


def _store(redis: Redis, db: Database, owner: str, clock: ManualClock) -> RedisReviewStore:
    return RedisReviewStore(redis, db, owner, clock=clock)


async def _renewed(clock: ManualClock, times: int) -> None:
    """Moves the clock on by a third of a claim's life ``times`` times, each once the
    renewal sleeps on it again (after its round trip to Redis)."""
    for _ in range(times):
        await asyncio.wait_for(clock.waiting(), TIMEOUT)
        await clock.advance(CLAIM_SECONDS / 3)


async def test_one_process_computes_a_review_and_the_others_read_its_progress(
    redis: Redis, db: Database
) -> None:
    clock = ManualClock()
    one, other = _store(redis, db, "p1", clock), _store(redis, db, "p2", clock)
    assert await other.standing(NAME) is None
    assert await one.claim(NAME)
    assert not await other.claim(NAME)
    assert await one.report(NAME, 8, 20)
    assert await other.standing(NAME) == Standing("running", 8, 20, None, held=True)
    await _renewed(clock, 6)  # twice a claim's life: renewed meanwhile
    assert not await other.claim(NAME)
    assert (await other.standing(NAME) or Standing("failed")).held

    assert await one.report(NAME, 8, 20, ("0", PART))
    await one.keep(NAME, 7, 1, REVIEW)
    assert await other.standing(NAME) is None
    assert await other.parts(NAME) == {}
    assert await other.kept(NAME) == REVIEW
    assert not await other.claim(NAME)  # kept: nothing to compute
    await one.close()
    await other.close()


async def test_a_claim_whose_process_died_lapses_and_another_takes_the_review_over(
    redis: Redis, db: Database
) -> None:
    frozen, running = ManualClock(), ManualClock()
    dead, alive = _store(redis, db, "p1", frozen), _store(redis, db, "p2", running)
    assert await dead.claim(NAME)
    assert await dead.report(NAME, 0, 20, ("head", HEAD))
    assert await dead.report(NAME, 8, 20, ("0", PART))
    # The dead process's clock never moves: its renewals never come.
    await running.advance(CLAIM_SECONDS)
    assert await alive.standing(NAME) == Standing("running", 8, 20, None, held=False)
    assert await alive.claim(NAME)
    assert await alive.standing(NAME) == Standing("running", 0, None, None, held=True)
    assert await alive.parts(NAME) == {"head": HEAD, "0": PART}  # it goes on from there
    assert not await dead.report(NAME, 16, 20, ("8", PART))  # woken, it learns it lost
    assert await alive.parts(NAME) == {"head": HEAD, "0": PART}
    assert await alive.report(NAME, 8, 20)
    await dead.close()  # lets go of nothing of the other's
    assert not await dead.claim(NAME)
    await alive.close()


async def test_a_failed_review_stands_failed_until_claimed_again(
    redis: Redis, db: Database
) -> None:
    clock = ManualClock()
    one, other = _store(redis, db, "p1", clock), _store(redis, db, "p2", clock)
    assert await one.claim(NAME)
    assert await one.report(NAME, 0, None, ("head", HEAD))
    await one.fail(NAME, "no dos bot-worker is running")
    assert await other.parts(NAME) == {}  # made again
    failed = Standing("failed", 0, None, "no dos bot-worker is running", held=False)
    assert await other.standing(NAME) == failed
    assert await other.claim(NAME)
    assert await one.standing(NAME) == Standing("running", 0, None, None, held=True)
    await one.close()
    await other.close()


async def test_a_process_stopping_lets_its_claims_go_at_once(redis: Redis, db: Database) -> None:
    clock = ManualClock()
    one, other = _store(redis, db, "p1", clock), _store(redis, db, "p2", clock)
    assert await one.claim(NAME)
    await one.close()
    assert await other.standing(NAME) == Standing("running", 0, None, None, held=False)
    assert await other.claim(NAME)
    await other.close()


async def test_a_holder_takes_its_claim_again_after_redis_lost_it(
    redis: Redis, db: Database
) -> None:
    clock = ManualClock()
    one = _store(redis, db, "p1", clock)
    assert await one.claim(NAME)
    await redis.flushdb()  # Redis restarted without its data
    assert await one.report(NAME, 8, 20)
    assert await redis.hget(review_key(NAME), "done") == b"8"
    await one.close()
