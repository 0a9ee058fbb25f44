"""What a server tells Prometheus and the load balancer (``dos.server.metrics``,
``dos.server.http.health``) and the names its log records carry (``dos.server.logs``)."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from dos.server import logs
from dos.server.app import ServerConfig, create_app
from dos.server.net.limits import Limits
from dos.server.people.relying_party import RelyingParty
from dos.server.tables.settings import Settings
from server.support import (
    BOT_REFLEXES,
    HTTP,
    TIMEOUT,
    PostgresCluster,
    ServerProcess,
    WsPlayer,
    create_table,
)

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a Prometheus text page, by name and labels."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


def scrape(url: str) -> Samples:
    response = HTTP.get(f"{url}/metrics", timeout=TIMEOUT)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return samples(response.text)


def value(page: Samples, name: str, **labels: str) -> float:
    return page.get((name, tuple(sorted(labels.items()))), 0.0)


def eventually(condition: Callable[[], bool], what: str) -> None:
    """Waits until ``condition()`` holds, polling, for at most ``TIMEOUT`` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of this module's own: the session's shared one may still be playing the
    bot games other tests left behind, which would move the counters measured here."""
    process = ServerProcess(tmp_path_factory.mktemp("metrics"), None, "--grace", "0.2")
    process.start()
    yield process
    process.stop()


def test_the_metrics_move_when_a_game_is_played(server: ServerProcess) -> None:
    before = scrape(server.url)
    grant = create_table(server.url, seats=[None, "easy"], options={"target_score": 30})
    player = WsPlayer(server.ws_url, grant["code"], grant["token"])

    async def play() -> tuple[Samples, list[dict[str, object]]]:
        await player.connect()
        await player.send({"type": "start"})
        await player.play_to_end(random.Random(26))
        during = await asyncio.to_thread(scrape, server.url)
        await player.close()
        return during, [m for m in player.messages if m["type"] == "update"]

    during, updates = asyncio.run(play())
    by_person = sum(1 for u in updates if not u["by_bot"])
    by_bot = len(updates) - by_person
    assert by_person > 0 and by_bot > 0
    for by, count in (("person", by_person), ("bot", by_bot)):
        grown = value(during, "dos_actions_total", by=by) - value(
            before, "dos_actions_total", by=by
        )
        assert grown == count, by
    for stage in ("committed", "sent"):
        observed = value(during, "dos_action_seconds_count", stage=stage)
        assert observed - value(before, "dos_action_seconds_count", stage=stage) == len(updates)
    # Every move of the bot's turns was decided (a decision overtaken by events is dropped);
    # its DOS calls and catches ("1: catch 0") are reflexes, not decisions.
    reflexes = [u for u in updates if str(u["action"]).split(": ")[-1].startswith(BOT_REFLEXES)]
    turns = sum(1 for u in updates if u["by_bot"] and u not in reflexes)
    decisions = value(during, "dos_bot_decision_seconds_count", level="easy")
    assert decisions - value(before, "dos_bot_decision_seconds_count", level="easy") >= turns > 0
    assert value(during, "dos_bot_decisions_pending") == 0
    assert value(during, "dos_connections") == value(before, "dos_connections") + 1
    finished = value(during, "dos_tables", status="finished")
    assert finished == value(before, "dos_tables", status="finished") + 1
    eventually(
        lambda: value(scrape(server.url), "dos_connections") == value(before, "dos_connections"),
        "the closed connection leaves the gauge",
    )


def test_the_server_logs_name_the_process_and_the_table(server: ServerProcess) -> None:
    started = [line for line in server.output if "dos.server.service: loaded" in line]
    assert started, "".join(server.output)
    assert re.fullmatch(
        r"\S+Z INFO \S+:\d+ - dos\.server\.service: loaded \d+ unfinished tables\n", started[0]
    )


@pytest.mark.asyncio
async def test_log_records_name_the_table_of_the_task_that_wrote_them() -> None:
    handler = logging.Handler()
    records: list[logging.LogRecord] = []
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("dos.test.metrics")
    logger.addHandler(handler)
    logger.propagate = False
    logs.install("web-7", logger)

    async def table_work(code: str) -> None:
        with logs.at_table(code):
            await asyncio.sleep(0)  # the two tables' work interleaves
            logger.warning("working")
            # A task started from the table's work carries its code too (asyncio's context).
            await asyncio.create_task(_log_from_task(logger))

    try:
        await asyncio.gather(table_work("AAAAAA"), table_work("BBBBBB"))
        logger.warning("outside")
    finally:
        logger.removeHandler(handler)
    named = sorted((r.getMessage(), r.node, r.table) for r in records)  # type: ignore[attr-defined]
    assert named == [
        ("from a task", "web-7", "AAAAAA"),
        ("from a task", "web-7", "BBBBBB"),
        ("outside", "web-7", "-"),
        ("working", "web-7", "AAAAAA"),
        ("working", "web-7", "BBBBBB"),
    ]
    assert handler.formatter is not None
    assert handler.formatter.format(records[0]).split(" ", 1)[1].startswith("WARNING web-7 ")


async def _log_from_task(logger: logging.Logger) -> None:
    logger.warning("from a task")


# --- liveness and readiness ------------------------------------------------------------------


def _app(data: Path, database: str | None) -> TestClient:
    config = ServerConfig(
        data=data,
        database=database,
        settings=Settings(bot_delay=0, pause_seconds=0),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    return TestClient(create_app(config))


def test_a_server_is_live_and_ready_with_its_database(tmp_path: Path) -> None:
    with _app(tmp_path, None) as client:
        assert client.get("/api/live").json() == {"live": True}
        ready = client.get("/api/ready")
        assert ready.status_code == 200 and ready.json() == {"ready": True}
        page = samples(client.get("/metrics").text)
        assert value(page, "dos_tables", status="lobby") == 0
        client.post("/api/tables", json={"name": "Ada", "seats": [None, "easy"]})
        page = samples(client.get("/metrics").text)
        assert value(page, "dos_tables", status="lobby") == 1
        paths = client.get("/openapi.json").json()["paths"]
        assert not {"/api/live", "/api/ready", "/metrics"} & set(paths)


@pytest.fixture
def own_postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster of the test's own, which it stops and starts again."""
    try:
        cluster = PostgresCluster()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    cluster.start()
    yield cluster
    cluster.stop()


def _pg_ctl(cluster: PostgresCluster, *command: str) -> None:
    data = str(cluster.folder / "data")
    options = f"-k {cluster.folder} -p {cluster.port} -c listen_addresses=127.0.0.1 -F"
    cluster._run(str(cluster.bin / "pg_ctl"), "-D", data, "-o", options, "-w", *command)


def test_ready_says_503_while_the_database_is_down_and_recovers(
    own_postgres: PostgresCluster, tmp_path: Path
) -> None:
    url = own_postgres.new_database(f"postgresql+psycopg://postgres@127.0.0.1:{own_postgres.port}")
    with _app(tmp_path, url) as client:
        assert client.get("/api/ready").status_code == 200
        _pg_ctl(own_postgres, "-m", "fast", "stop")
        down = client.get("/api/ready")
        assert down.status_code == 503
        assert down.json()["ready"] is False
        assert "database" in down.json()["reason"]
        assert client.get("/api/live").status_code == 200  # down is not dead
        _pg_ctl(own_postgres, "-l", str(own_postgres.folder / "log"), "start")
        eventually(
            lambda: client.get("/api/ready").status_code == 200, "ready again, without a restart"
        )
