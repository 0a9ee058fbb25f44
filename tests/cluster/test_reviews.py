"""Game reviews on a server of three ``dos serve --redis`` processes, one bot worker, one
PostgreSQL and one Redis: a review asked of one process is read on the others, a review asked
of every process at once runs its jobs once (counted on the job queue's stream), the review
panel's requests spread by a round-robin proxy are all answered, and a review whose process
is gone is taken over by the next process asked, from the parts done
(``dos.cluster.reviews``)."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis

from cluster.support import READY, RedisServer, Worker
from dos import records
from dos.cluster.jobqueue import queue_key
from dos.cluster.reviews import parts_key, review_key
from dos.review import review_record
from dos.server.hosting.review_store import review_name
from dos.server.http.review_job import review_job
from dos.server.http.reviews import CHUNK
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_game
from server.reviewing import SAMPLES, finished_game, followed
from server.support import HTTP, PostgresCluster, ServerProcess

SECRET = "reviews-secret-0123456789-0123456789-0123"
PROCESSES = 3


class Cluster:
    """The module's processes, its worker, its Redis and its database."""

    def __init__(self, folder: Path, database: str, store: RedisServer) -> None:
        self.database = database
        self.store = store
        env = {"DOS_SECRET": SECRET, "DOS_REVIEW_SAMPLES": str(SAMPLES)}
        self.servers = [
            ServerProcess(
                folder / f"p{i}", database, "--redis", store.url, "--name", f"p{i}", env=env
            )
            for i in range(PROCESSES)
        ]
        self.worker: Worker | None = None

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self.servers]

    def start(self) -> None:
        self.worker = Worker(self.store.url, "w0")
        for server in self.servers:
            server.start()
        self.worker.wait_for("ready", timeout=READY)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        if self.worker is not None:
            self.worker.kill()

    def jobs_queued(self) -> int:
        """Jobs ever queued on the job queue's stream (``XINFO STREAM``'s entries added)."""
        with redis.Redis.from_url(self.store.url) as client:
            return int(client.xinfo_stream(queue_key())["entries-added"])

    def record(self, game_id: int) -> str:
        """Game ``game_id``'s record as the processes review it."""
        db = Database(self.database)
        try:
            game = db.run_sync(load_game, game_id)
        finally:
            db.close()
        assert game is not None
        return game.record().dumps()


@pytest.fixture(scope="module")
def cluster(
    tmp_path_factory: pytest.TempPathFactory, postgres: tuple[PostgresCluster, str]
) -> Iterator[Cluster]:
    try:
        store = RedisServer()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    store.start()
    pg, url = postgres
    found = Cluster(tmp_path_factory.mktemp("reviews"), pg.new_database(url), store)
    try:
        found.start()
        yield found
    finally:
        found.stop()
        store.remove()


@pytest.fixture(scope="module")
def game_id(cluster: Cluster) -> int:
    """A finished game of four seats (one review a test), played through ``p0``."""
    first = cluster.servers[0]
    return asyncio.run(finished_game(first.url, first.ws_url, 4, ("easy", "easy", "easy")))


def _review_url(url: str, game_id: int) -> str:
    return f"{url}/api/games/{game_id}/review"


def test_a_review_asked_of_one_process_is_read_on_the_others(
    cluster: Cluster, game_id: int
) -> None:
    first, *others = cluster.urls
    missing = HTTP.get(_review_url(others[0], game_id), params={"seat": 0})
    assert missing.status_code == 404 and missing.json()["code"] == "no_review"

    started = HTTP.post(_review_url(first, game_id), json={"seat": 0})
    assert started.status_code == 200, started.text
    states = followed(others, game_id, 0)  # read only on the processes not asked
    assert states[-1]["status"] == "done", states[-1]
    dones = [s["done"] for s in states]
    assert dones == sorted(dones)  # progress only goes forward, whichever process says it

    text = HTTP.get(f"{first}/api/games/{game_id}/record").text
    expected = review_record(records.loads(text), 0, samples=SAMPLES, seed=0).to_json()
    assert states[-1]["review"] == expected
    for url in cluster.urls:  # kept: every process has it, done
        kept = HTTP.get(_review_url(url, game_id), params={"seat": 0}).json()
        assert kept["status"] == "done" and kept["review"] == expected


def test_a_review_asked_of_every_process_at_once_runs_its_jobs_once(
    cluster: Cluster, game_id: int
) -> None:
    before = cluster.jobs_queued()
    with ThreadPoolExecutor(PROCESSES) as pool:
        answers = list(
            pool.map(
                lambda url: HTTP.post(_review_url(url, game_id), json={"seat": 1}), cluster.urls
            )
        )
    assert [a.status_code for a in answers] == [200] * PROCESSES, [a.text for a in answers]
    final = followed(cluster.urls, game_id, 1)[-1]
    assert final["status"] == "done" and final["review"]["seat"] == 1, final
    # One job reads the game (the head), one judges each CHUNK decisions.
    assert cluster.jobs_queued() - before == 1 + math.ceil(final["total"] / CHUNK)


def test_the_review_panel_behind_a_round_robin_proxy_is_answered(
    cluster: Cluster, game_id: int
) -> None:
    # js/review.js's requests in its order, each to the next process as a round-robin
    # proxy sends them: the replay's page, the review asked, then its state until done.
    turn = iter(range(1000))

    def next_url() -> str:
        return cluster.urls[next(turn) % PROCESSES]

    replay = HTTP.get(f"{next_url()}/api/games/{game_id}/replay", params={"offset": 0})
    assert replay.status_code == 200, replay.text
    asked = HTTP.post(_review_url(next_url(), game_id), json={"seat": 2})
    assert asked.status_code == 200, asked.text
    state = asked.json()
    for _ in range(2000):
        if state["status"] != "running":
            break
        time.sleep(0.05)  # the panel polls; the review runs in the worker at its own pace
        answer = HTTP.get(_review_url(next_url(), game_id), params={"seat": 2})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["status"] == "done" and state["review"]["seat"] == 2, state


def test_a_review_whose_process_is_gone_is_taken_over_by_the_next_asked(
    cluster: Cluster, game_id: int
) -> None:
    # What a process killed mid-review leaves: the review standing "running", its first
    # parts done (the head, the first CHUNK decisions), its claim lapsed (no claim key).
    text = cluster.record(game_id)
    name = review_name(text, 3, SAMPLES, 0)
    job = {"record": text, "seat": 3, "samples": SAMPLES, "seed": 0}
    head = review_job({**job, "first": None, "last": None})
    first = review_job({**job, "first": 0, "last": CHUNK})
    with redis.Redis.from_url(cluster.store.url) as client:
        client.hset(review_key(name), mapping={"status": "running", "done": CHUNK, "total": ""})
        client.hset(parts_key(name), mapping={"head": json.dumps(head), "0": json.dumps(first)})
    before = cluster.jobs_queued()
    last = cluster.urls[-1]
    taken = HTTP.get(_review_url(last, game_id), params={"seat": 3})  # a GET: no POST again
    assert taken.status_code == 200 and taken.json()["status"] == "running", taken.text
    final = followed(cluster.urls, game_id, 3)[-1]
    assert final["status"] == "done" and final["review"]["seat"] == 3, final
    assert final["total"] == head["total"]
    # The parts done are not made again: no head, no first part.
    assert cluster.jobs_queued() - before == math.ceil(head["total"] / CHUNK) - 1
    assert final["review"]["entries"][: len(first["entries"])] == first["entries"]
