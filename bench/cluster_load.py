"""Load benchmark of the server of many processes: tables held, Redis cost, sizing on paper.

Starts its own Redis (``redis-server`` on a free loopback port, nothing persisted) and, for
each step, a fresh PostgreSQL database with the server's schema, ``P`` processes ``dos serve
--redis`` (``--name pN``, one ``DOS_SECRET``, every per-client limit off, no pause after a
round) and ``W`` processes ``dos bot-worker``; all are stopped after the step, the database
dropped, Redis emptied. The databases are made on the PostgreSQL server of ``--database URL``
(``postgresql://USER@HOST:PORT``; its user must be allowed to create databases), else on a
throwaway local cluster started for the run: the test suite's ``PostgresCluster``
(``tests/server/support.py``, imported from this checkout: Debian's ``postgresql`` binaries,
``fsync`` off), whose CPU is then measured too. The clients (this process, one event
loop) connect each seat to a process chosen at random, with no sticky sessions: with ``P``
processes about ``(P-1)/P`` of them are relayed to their table's owner. Three scenarios:

- ``people``: tables of four guests (``bench/load.py``'s clients: random legal actions after a
  think time), each action's round trip timed until its own ``update`` comes back;
- ``bots``: tables of one person (timed the same way) and three bots of ``--bot-level``;
- ``quiet``: ``K`` tables of bots alone (three of ``--bot-level`` and the host's seat, whose
  person started the game and left: the stand-in, ``medium``, plays it) and
  ``--quiet-people`` quiet tables of one person and one ``--quiet-bot``: the quiet people's
  round trip while the bots play.

For every step (scenario, processes, workers, table count), after a warm-up it measures for
``--seconds``: round-trip p50/p99 and actions a second; the actions committed (the servers'
``dos_actions_total``); the CPU seconds of each role (web processes, bot workers with their
job processes, Redis, PostgreSQL when it is the throwaway cluster, the clients), read from
``/proc``; Redis's ``INFO commandstats`` and ``INFO stats`` (operations, bytes in and out) and
PostgreSQL's transactions that wrote (its transaction id counter), all its commits
(``pg_stat_database``) and the stored actions. Then, per scenario and
(processes, workers), the largest table count with p99 < 100 ms, the Redis cost per action by
command, and the arithmetic of a site of ``--site-tables`` concurrent tables on paper.

    .venv/bin/python bench/cluster_load.py --processes 1,2,3 --workers 0,1,2 \\
        --tables 50,100,200 --bot-tables 25,50,100 --quiet-tables 100 --seconds 30 [--json]

Only loopback traffic; every child process (servers, workers, Redis, PostgreSQL) is stopped
at the end, on an error and on Ctrl-C or SIGTERM. Not a test: figures in bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import platform
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed

from durability import WAIT, Server
from failover import owner_of, start_redis
from load import (
    PEOPLE,
    Stats,
    event_loop_factory,
    held,
    held_text,
    latency_figures,
    open_table,
    open_tables,
    passed,
    percentile,
)

READY = 120.0
"""Seconds a bot worker may take to be ready (its fork server loads the bots' modules)."""
SCENARIOS = ("people", "bots", "quiet")
FALLBACK = "no dos bot-worker is running"
"""The log line of a bot's decision made by the easy level, no worker being seen."""
TICK = os.sysconf("SC_CLK_TCK")
COUNTS = ("processes", "workers", "tables", "bot_tables", "quiet_tables")
"""The options that are lists of numbers."""

# --- PostgreSQL ------------------------------------------------------------------------------


class Postgres:
    """Where each step's database is made: the server of ``--database``, else a throwaway
    cluster (the test suite's ``tests/server/support.py`` ``PostgresCluster``: Debian's
    binaries, a temporary folder, ``fsync`` off), removed at the end."""

    def __init__(self, url: str | None) -> None:
        from sqlalchemy.engine import make_url

        self.cluster: Any = None
        if url is None:
            sys.path.append(str(Path(__file__).resolve().parents[1] / "tests"))
            from server.support import PostgresCluster

            self.cluster = PostgresCluster()
            try:
                url = self.cluster.start()
            except BaseException:
                self.cluster.stop()
                raise
        self.server = make_url(url).set(drivername="postgresql+psycopg")

    def _connect(self, database: str) -> Any:
        import psycopg

        plain = self.server.set(drivername="postgresql", database=database)
        return psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True)

    def create(self) -> str:
        """A fresh database with the server's schema; returns its URL (for ``dos serve
        --database``). The schema is made here: processes started at once on an empty
        database would each run the migrations, and all but one fail."""
        from sqlalchemy import create_engine

        from dos.server.storage.schema import migrate

        name = f"dos_bench_{secrets.token_hex(5)}"
        with self._connect("postgres") as connection:
            connection.execute(f"CREATE DATABASE {name}")
        url = str(self.server.set(database=name).render_as_string(hide_password=False))
        engine = create_engine(url)
        try:
            migrate(engine)
        finally:
            engine.dispose()
        return url

    def drop(self, url: str) -> None:
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        with self._connect("postgres") as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def counts(self, url: str) -> tuple[int, int, int]:
        """The database's committed transactions, reads included (``pg_stat_database``:
        each backend reports its own a second or up to 10 s late), the server's transactions
        that wrote (the transaction id counter, exact, of every database of the server; this
        read takes one) and the database's stored actions (exact)."""
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        assert name is not None
        with self._connect(name) as connection:
            row = connection.execute(
                "SELECT xact_commit, pg_current_xact_id()::text::bigint FROM pg_stat_database"
                " WHERE datname = %s",
                (name,),
            ).fetchone()
            actions = connection.execute("SELECT count(*) FROM dos_actions").fetchone()
        assert row is not None and actions is not None
        return int(row[0]), int(row[1]), int(actions[0])

    def pid(self) -> int | None:
        """The postmaster of the throwaway cluster (its CPU is measured), else ``None``."""
        if self.cluster is None:
            return None
        with contextlib.suppress(OSError, ValueError):
            return int((self.cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        return None

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()


# --- the processes ---------------------------------------------------------------------------


class Worker:
    """``dos bot-worker`` in a session of its own (its job processes with it), its output in
    ``log``."""

    def __init__(
        self, log: Path, redis_url: str, name: str, concurrency: int, nice: int = 0
    ) -> None:
        self.log = log
        command = ["nice", "-n", str(nice)] if nice else []
        command += [sys.executable, "-m", "dos", "bot-worker", "--redis", redis_url]
        command += ["--name", name, "--concurrency", str(concurrency)]
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY
        while "ready:" not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("a bot worker did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM (its running jobs finish), then SIGKILL to whatever is left of its session."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(WAIT)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def error_lines(self) -> list[str]:
        lines = self.log.read_text(errors="replace").splitlines()
        return [line for line in lines if "ERROR" in line or "Traceback" in line]


@dataclass
class Cluster:
    """The processes of one step."""

    folder: Path
    redis_url: str
    database: str
    processes: int
    workers: int
    concurrency: int
    bot_delay: float
    nice: int = 0
    servers: list[Server] = field(default_factory=list)
    bots: list[Worker] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """The error lines of their logs, once stopped."""

    def start(self) -> None:
        for i in range(self.processes):
            flags = ("--redis", self.redis_url, "--name", f"p{i}")  # and durability's flags
            self.servers.append(Server(self.folder / f"p{i}", self.database, self.bot_delay, flags))
        for i in range(self.workers):
            log = self.folder / f"w{i}" / "worker.log"
            self.bots.append(Worker(log, self.redis_url, f"w{i}", self.concurrency, self.nice))
        with ThreadPoolExecutor(len(self.servers)) as pool:
            list(pool.map(Server.start, self.servers))
        for worker in self.bots:
            worker.wait_ready()

    def stop(self) -> list[str]:
        """Stops every process (SIGTERM to all at once, SIGKILL after ``WAIT``); returns
        their error lines."""
        for server in self.servers:
            if server.process is not None and server.process.poll() is None:
                server.process.terminate()
        for worker in self.bots:
            if worker.process.poll() is None:
                worker.process.terminate()
        for server in self.servers:
            server.stop()
        for worker in self.bots:
            worker.stop()
        lines = [f"{s.data.name}: {line}" for s in self.servers for line in s.error_lines()]
        return lines + [
            f"{w.log.parent.name}: {line}" for w in self.bots for line in w.error_lines()
        ]

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self.servers]


# --- what is measured ------------------------------------------------------------------------


def _cpu_by_tree(roots: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds (user and system, the reaped children's included) of each role's
    processes and all their descendants, from ``/proc``."""
    parent: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            text = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        ticks[pid] = sum(int(f) for f in fields[11:15])
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    found = {}
    for role, pids in roots.items():
        total, todo = 0, list(pids)
        while todo:
            pid = todo.pop()
            total += ticks.get(pid, 0)
            todo += children.get(pid, [])
        found[role] = total / TICK
    return found


def _metrics(urls: Sequence[str]) -> dict[str, float]:
    """The servers' counters that matter here, summed over the processes."""
    sums: dict[str, float] = {}
    with httpx.Client(timeout=WAIT) as client:
        for url in urls:
            text = client.get(f"{url}/metrics").text
            for family in text_string_to_metric_families(text):
                for sample in family.samples:
                    name = sample.name
                    if name == "dos_actions_total":
                        name = f"actions_{sample.labels['by']}"
                    elif name == "dos_tables":
                        name = f"tables_{sample.labels['status']}"
                    elif name not in (
                        "dos_bot_fallbacks_total",
                        "dos_bot_stale_answers_total",
                        "dos_bot_decisions_pending",
                        "dos_connections",
                    ):
                        continue
                    sums[name] = sums.get(name, 0.0) + sample.value
    return sums


@dataclass
class Snapshot:
    """Every counter of a step, at one moment."""

    at: float
    cpu: dict[str, float]
    metrics: dict[str, float]
    redis_stats: dict[str, Any]
    redis_commands: dict[str, int]
    pg_commits: int
    pg_writes: int
    pg_actions: int


def snapshot(cluster: Cluster, postgres: Postgres, redis_pid: int) -> Snapshot:
    """Reads every counter (blocking: run it in a thread)."""
    at = time.perf_counter()
    roots = {
        "web": [s.process.pid for s in cluster.servers if s.process is not None],
        "workers": [w.process.pid for w in cluster.bots],
        "redis": [redis_pid],
    }
    pg = postgres.pid()
    if pg is not None:
        roots["postgres"] = [pg]
    cpu = _cpu_by_tree(roots)
    mine = os.times()
    cpu["clients"] = mine.user + mine.system  # this process alone: the others are its children
    metrics = _metrics(cluster.urls)
    with redis.Redis.from_url(cluster.redis_url) as client:
        stats = client.info("stats")
        commands = client.info("commandstats")
    commits, writes, actions = postgres.counts(cluster.database)
    calls = {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in commands.items()}
    return Snapshot(at, cpu, metrics, stats, calls, commits, writes, actions)


def costs(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What the window between two snapshots cost, in all and per action committed."""
    seconds = after.at - before.at
    metric = {k: after.metrics.get(k, 0.0) - before.metrics.get(k, 0.0) for k in after.metrics}
    actions = metric.get("actions_person", 0.0) + metric.get("actions_bot", 0.0)
    per = max(actions, 1.0)
    ops = (
        after.redis_stats["total_commands_processed"]
        - before.redis_stats["total_commands_processed"]
    )
    by_command = {
        name: calls - before.redis_commands.get(name, 0)
        for name, calls in after.redis_commands.items()
        if calls - before.redis_commands.get(name, 0) > 0
    }
    bytes_in = (
        after.redis_stats["total_net_input_bytes"] - before.redis_stats["total_net_input_bytes"]
    )
    bytes_out = (
        after.redis_stats["total_net_output_bytes"] - before.redis_stats["total_net_output_bytes"]
    )
    cpu = {role: after.cpu[role] - before.cpu.get(role, 0.0) for role in after.cpu}
    return {
        "window_s": seconds,
        "actions_committed": int(actions),
        "actions_by_people": int(metric.get("actions_person", 0.0)),
        "actions_by_bots": int(metric.get("actions_bot", 0.0)),
        "committed_per_s": actions / seconds,
        "bot_fallbacks": int(metric.get("dos_bot_fallbacks_total", 0.0)),
        "bot_stale_answers": int(metric.get("dos_bot_stale_answers_total", 0.0)),
        "bot_decisions_pending": int(after.metrics.get("dos_bot_decisions_pending", 0.0)),
        "connections": int(after.metrics.get("dos_connections", 0.0)),
        "tables_playing": int(after.metrics.get("tables_playing", 0.0)),
        "cpu_s": cpu,
        "cpu_cores": {role: value / seconds for role, value in cpu.items()},
        "cpu_ms_per_action": {role: 1000 * value / per for role, value in cpu.items()},
        "redis_ops": ops,
        "redis_ops_per_s": ops / seconds,
        "redis_ops_per_action": ops / per,
        "redis_commands_per_action": {
            name: calls / per
            for name, calls in sorted(by_command.items(), key=lambda item: -item[1])
        },
        "redis_bytes_in_per_action": bytes_in / per,
        "redis_bytes_out_per_action": bytes_out / per,
        "redis_bytes_in_per_s": bytes_in / seconds,
        "redis_bytes_out_per_s": bytes_out / seconds,
        "pg_commits_per_s": (after.pg_commits - before.pg_commits) / seconds,
        "pg_writes_per_s": (after.pg_writes - before.pg_writes - 1) / seconds,
        "pg_writes_per_action": (after.pg_writes - before.pg_writes - 1) / per,
        "pg_actions_stored": after.pg_actions - before.pg_actions,
    }


def relayed_share(cluster: Cluster, stats: Stats) -> float | None:
    """The share of the measured clients connected to a process other than their table's
    owner (relayed), from the tables' leases in Redis."""
    ports = {int(s.url.rsplit(":", 1)[1]): i for i, s in enumerate(cluster.servers)}
    owners: dict[str, int | None] = {}
    relayed = known = 0
    for seat in stats.seats:
        code = seat.ws.request.path.rsplit("/", 1)[1] if seat.ws.request else None
        if code is None:
            continue
        if code not in owners:
            owners[code] = owner_of(cluster.redis_url, code)
        where = ports.get(seat.ws.remote_address[1])
        if owners[code] is None or where is None:
            continue
        known += 1
        seat.relayed = where != owners[code]
        relayed += seat.relayed
    return relayed / known if known else None


def relay_split(stats: Stats) -> dict[str, float]:
    """The round trips of the clients connected to their table's owner (``direct``) and of
    those relayed to it from another process, p50 and p99 in ms: what relaying adds to an
    action, and so to a person's DOS call or catch racing a bot's reflex at the owner."""
    split: dict[str, float] = {}
    for name, relayed in (("direct", False), ("relayed", True)):
        times = [t for seat in stats.seats if seat.relayed is relayed for t in seat.latencies]
        split[f"{name}_p50_ms"] = percentile(times, 0.50) if times else float("nan")
        split[f"{name}_p99_ms"] = percentile(times, 0.99) if times else float("nan")
    return split


def reflex_timing(stats: Stats) -> dict[str, Any]:
    """The bots' DOS calls (out of turn) and catches as their tables' people saw them: how
    many, and the seconds from the update before each, p50 and p90: the reflex's reaction
    time, drawn at the table's owner, which relaying and the workers' load must not lengthen
    (an expert catches after a median 0.6 s, and calls with its own move: 0 s)."""
    figures: dict[str, Any] = {}
    for name, times in (("calls", stats.calls), ("catches", stats.catches)):
        figures[name] = len(times)
        for q in (50, 90):
            ms = percentile(times, q / 100) if times else float("nan")
            figures[f"{name}_p{q}_s"] = ms / 1000
    return figures


# --- a step ----------------------------------------------------------------------------------


async def bot_table(
    client: httpx.AsyncClient, bases: Sequence[str], level: str, rng: random.Random
) -> None:
    """A table of bots alone: three of ``level`` and the host's seat, whose person starts
    the game and leaves (the stand-in plays that seat to the game's end)."""
    (host,) = await open_table(client, bases, 1.0, rng, (None, level, level, level))
    try:
        await host.ws.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads(await asyncio.wait_for(host.ws.recv(), WAIT))
            if message["type"] == "state" and message["view"] is not None:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("no game started")
        await host.ws.send(json.dumps({"type": "leave"}))
        # Until the server closes the connection (4000 "left the table").
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(WAIT):
                async for _ in host.ws:
                    pass
    finally:
        await host.ws.close()


async def run_step(
    cluster: Cluster,
    postgres: Postgres,
    *,
    redis_pid: int,
    scenario: str,
    count: int,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Opens ``count`` tables of ``scenario``, warms up, measures for ``args.seconds``."""
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(f"{args.seed} {scenario} {count}")
    bases = cluster.urls
    tasks: list[asyncio.Task[None]] = []
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=WAIT * 2) as client:
        setup = time.perf_counter()
        try:
            if scenario == "quiet":
                for start in range(0, count, 25):  # 25 at a time
                    opened = await asyncio.gather(
                        *(
                            bot_table(client, bases, args.bot_level, rng)
                            for _ in range(start, min(count, start + 25))
                        ),
                        return_exceptions=True,
                    )
                    stats.failed += [repr(e) for e in opened if isinstance(e, BaseException)]
                seats: tuple[str | None, ...] = (None, args.quiet_bot)
                measured = args.quiet_people
            else:
                level = args.bot_level
                seats = PEOPLE if scenario == "people" else (None, level, level, level)
                measured = count
            kind = {"think": args.think, "rng": rng, "stats": stats, "stop": stop}
            tasks = await open_tables(client, bases, measured, seats=seats, **kind)
            setup = time.perf_counter() - setup
            relayed = await asyncio.to_thread(relayed_share, cluster, stats)
            gc.collect()
            gc.freeze()
            await asyncio.sleep(args.warmup)
            before = await asyncio.to_thread(snapshot, cluster, postgres, redis_pid)
            stats.measuring = True
            began = time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - began
            after = await asyncio.to_thread(snapshot, cluster, postgres, redis_pid)
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            gc.unfreeze()
    row: dict[str, Any] = {
        "kind": "step",
        "scenario": scenario,
        "processes": cluster.processes,
        "workers": cluster.workers,
        "tables": count + (args.quiet_people if scenario == "quiet" else 0),
        "count": count,
        "people": sum(1 for s in seats if s is None) * measured,
        "relayed_share": relayed,
        "setup_s": setup,
        **latency_figures(stats, elapsed, began),
        **relay_split(stats),
        **reflex_timing(stats),
        **costs(before, after),
    }
    return row


@contextlib.contextmanager
def step_cluster(
    folder: Path, redis_url: str, postgres: Postgres, *, processes: int, workers: int, args: Any
) -> Iterator[Cluster]:
    """A fresh database, Redis emptied, and the step's processes; all gone afterwards."""
    with redis.Redis.from_url(redis_url) as client:
        client.flushall()
    database = postgres.create()
    cluster = Cluster(
        folder,
        redis_url,
        database,
        processes,
        workers,
        args.concurrency,
        args.bot_delay,
        args.worker_nice,
    )
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.errors = cluster.stop()
        if args.keep_logs:
            target = Path(args.keep_logs) / f"{folder.name}-{processes}p{workers}w"
            shutil.copytree(folder, target, dirs_exist_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        postgres.drop(database)


# --- output ----------------------------------------------------------------------------------


def _size(value: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(value) < 1000 or unit == "GB":
            return f"{value:.1f} {unit}" if unit != "B" else f"{value:.0f} B"
        value /= 1000
    return f"{value:.1f} GB"


def show_step(row: dict[str, Any]) -> None:
    cores = row["cpu_cores"]
    relayed = row["relayed_share"]
    print(
        f"{row['scenario']:6s} {row['processes']}p {row['workers']}w {row['tables']:5d} tables "
        f"{row['people']:5d} people | p50 {row['p50_ms']:6.1f} ms  p99 {row['p99_ms']:7.1f} ms "
        f"({row['actions']} round trips, {row['actions_per_s']:.1f}/s) | committed "
        f"{row['committed_per_s']:.1f}/s ({row['actions_by_bots']} by bots) | relayed "
        f"{'-' if relayed is None else f'{100 * relayed:.0f}%'} | stale {row['stale']} "
        f"errors {row['errors']} failed {row['tables_failed']} log errors {row['log_errors']} "
        f"| setup {row['setup_s']:.0f} s",
        flush=True,
    )
    print(
        f"       direct p50 {row['direct_p50_ms']:.1f} p99 {row['direct_p99_ms']:.1f} ms"
        f" | relayed p50 {row['relayed_p50_ms']:.1f} p99 {row['relayed_p99_ms']:.1f} ms"
        f" | bots' calls {row['calls']}: p50 {row['calls_p50_s']:.2f} p90 "
        f"{row['calls_p90_s']:.2f} s, catches {row['catches']}: p50 {row['catches_p50_s']:.2f} "
        f"p90 {row['catches_p90_s']:.2f} s"
    )
    for line in row["log_error"]:
        print(f"       log: {line}")
    top = list(row["redis_commands_per_action"].items())[:4]
    ms = row["cpu_ms_per_action"]
    pg = f"{cores['postgres']:.2f}" if "postgres" in cores else "-"  # measured if it is ours
    print(
        f"       cores busy: web {cores['web']:.2f} ({ms['web']:.1f} ms an action), workers "
        f"{cores['workers']:.2f} ({ms['workers']:.1f} ms), redis "
        f"{cores['redis']:.2f}, postgres {pg}, clients "
        f"{cores['clients']:.2f} | per action: redis {row['redis_ops_per_action']:.1f} ops "
        f"({', '.join(f'{n} {v:.1f}' for n, v in top)}), in "
        f"{_size(row['redis_bytes_in_per_action'])}, out "
        f"{_size(row['redis_bytes_out_per_action'])}; postgres "
        f"{row['pg_writes_per_action']:.2f} writing commits | bots: fallbacks "
        f"{row['bot_fallbacks']}, pending {row['bot_decisions_pending']}",
        flush=True,
    )


def pick(rows: list[dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """The step a scenario's sizing rests on: among those that held (``passed``), the most
    processes (the most relaying), then workers, then tables; else the lowest p99."""
    fine = [r for r in rows if passed(r)]
    if fine:
        return max(fine, key=lambda r: (r["processes"], r["workers"], r["tables"])), True
    return min(rows, key=lambda r: (math.isnan(r["p99_ms"]), r["p99_ms"])), False


def per_table_second(row: dict[str, Any]) -> dict[str, float]:
    """What one table costs a second, at the step's pace."""
    table_s = row["tables"] * row["window_s"]
    cpu = row["cpu_s"]
    return {
        "actions": row["actions_committed"] / table_s,
        "web_cores": cpu["web"] / table_s,
        "worker_cores": cpu["workers"] / table_s,
        "redis_cores": cpu["redis"] / table_s,
        "postgres_cores": cpu.get("postgres", float("nan")) / table_s,
        "redis_ops": row["redis_ops"] / table_s,
        "redis_bytes_in": row["redis_bytes_in_per_s"] / row["tables"],
        "redis_bytes_out": row["redis_bytes_out_per_s"] / row["tables"],
        "pg_commits": row["pg_commits_per_s"] / row["tables"],
        "pg_writes": row["pg_writes_per_s"] / row["tables"],
        "pg_actions": row["pg_actions_stored"] / table_s,
    }


def sizing(
    rows: list[dict[str, Any]], args: argparse.Namespace, cores: int
) -> list[dict[str, Any]]:
    """The site of ``args.site_tables`` tables, per scenario measured and for the mix."""
    found = []
    unit: dict[str, dict[str, float]] = {}
    for scenario in ("people", "bots"):
        mine = [r for r in rows if r["scenario"] == scenario]
        if not mine:
            continue
        row, fine = pick(mine)
        unit[scenario] = per_table_second(row)
        best = max((r["tables"] for r in mine if passed(r)), default=None)
        found.append(
            {
                "kind": "sizing",
                "site": f"{args.site_tables} {scenario} tables",
                "from_step": {k: row[k] for k in ("scenario", "processes", "workers", "tables")},
                "from_step_held": fine,
                "held_tables_on_this_machine": best,
                "machine_cores": cores,
                # The other way round: as many of this machine's cores as it took to hold its
                # best count (clients, Redis and PostgreSQL on them too: an upper bound).
                "cores_by_tables_held": args.site_tables / best * cores if best else None,
                **_site(unit[scenario], args.site_tables, args),
            }
        )
    if len(unit) == 2:
        share = args.site_bot_share
        mix = {k: (1 - share) * unit["people"][k] + share * unit["bots"][k] for k in unit["bots"]}
        found.append(
            {
                "kind": "sizing",
                "site": f"{args.site_tables} tables, {100 * share:.0f}% bot-heavy",
                **_site(mix, args.site_tables, args),
            }
        )
    return found


def _site(unit: dict[str, float], tables: int, args: argparse.Namespace) -> dict[str, Any]:
    use = args.utilization
    web = tables * unit["web_cores"] / use
    workers = tables * unit["worker_cores"] / use
    redis_cores = tables * unit["redis_cores"] / use
    machines = math.ceil((math.ceil(web) + math.ceil(workers)) / args.cores_per_machine)
    return {
        "per_table_second": unit,
        "actions_per_s": tables * unit["actions"],
        "web_cores": web,
        "web_processes": math.ceil(web),
        "worker_cores": workers,
        "app_machines": machines,
        "redis_ops_per_s": tables * unit["redis_ops"],
        "redis_bytes_in_per_s": tables * unit["redis_bytes_in"],
        "redis_bytes_out_per_s": tables * unit["redis_bytes_out"],
        "redis_cores": redis_cores,
        "redis_shards": max(1, math.ceil(redis_cores)),
        "pg_commits_per_s": tables * unit["pg_commits"],
        "pg_writes_per_s": tables * unit["pg_writes"],
        "pg_actions_per_s": tables * unit["pg_actions"],
        "pg_cores": tables * unit["postgres_cores"] / use,
    }


def show_sizing(found: dict[str, Any], args: argparse.Namespace) -> None:
    unit = found["per_table_second"]
    print(f"\nA site of {found['site']}, on paper:")
    if "from_step" in found:
        step = found["from_step"]
        print(
            f"  from the step {step['scenario']} {step['processes']}p {step['workers']}w "
            f"{step['tables']} tables ({'p99 held' if found['from_step_held'] else 'p99 NOT held'}"
            f"); this {found['machine_cores']}-core machine held "
            f"{found['held_tables_on_this_machine'] or 'no'} such tables at p99 < 100 ms at best"
            " (clients, Redis and PostgreSQL on the same cores)"
        )
        if found["cores_by_tables_held"] is not None:
            print(
                f"  by the tables held: {found['cores_by_tables_held']:,.0f} cores like these "
                "for everything (an upper bound: the clients' share included)"
            )
    print(
        f"  a table a second: {unit['actions']:.3f} actions, {1000 * unit['web_cores']:.2f} ms "
        f"of web CPU, {1000 * unit['worker_cores']:.2f} ms of workers, "
        f"{1000 * unit['redis_cores']:.3f} ms of Redis, {unit['redis_ops']:.2f} Redis ops, "
        f"{_size(unit['redis_bytes_in'] + unit['redis_bytes_out'])} Redis traffic, "
        f"{unit['pg_writes']:.3f} PostgreSQL commits that write ({unit['pg_commits']:.3f} with"
        " reads)"
    )
    use = 100 * args.utilization
    print(
        f"  actions: {found['actions_per_s']:,.0f}/s\n"
        f"  web: {found['web_cores']:,.1f} cores at {use:.0f}% busy -> {found['web_processes']:,} "
        f"processes (one event loop each, one per core)\n"
        f"  bot workers: {found['worker_cores']:,.1f} cores at {use:.0f}% busy\n"
        f"  application machines of {args.cores_per_machine} cores: {found['app_machines']:,}\n"
        f"  Redis: {found['redis_ops_per_s']:,.0f} ops/s, in "
        f"{_size(found['redis_bytes_in_per_s'])}/s, out {_size(found['redis_bytes_out_per_s'])}/s;"
        f" {found['redis_cores']:.1f} cores at {use:.0f}% busy -> {found['redis_shards']} "
        f"shard(s) (Redis runs commands on one core)\n"
        f"  PostgreSQL: {found['pg_writes_per_s']:,.0f} commits that write a second "
        f"({found['pg_commits_per_s']:,.0f} with the reads), "
        f"{found['pg_actions_per_s']:,.0f} actions stored/s, "
        + (
            "its CPU not measured (--database)"
            if math.isnan(found["pg_cores"])
            else f"{found['pg_cores']:.1f} cores at {use:.0f}% busy (measured with fsync off: "
            "disks not counted)"
        )
    )


# --- the run ---------------------------------------------------------------------------------


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _stop(_signal: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default="people,bots,quiet", help="of people,bots,quiet")
    parser.add_argument("--processes", default="1,2,3", help="web process counts (default 1,2,3)")
    parser.add_argument("--workers", default="0,1,2", help="bot worker counts (default 0,1,2)")
    parser.add_argument("--concurrency", type=int, default=1, help="jobs at once per worker")
    parser.add_argument("--worker-nice", type=int, default=0, help="the workers' niceness (0)")
    parser.add_argument("--tables", default="50,100,200", help="people tables to try")
    parser.add_argument("--bot-tables", default="25,50,100", help="one-person bot tables to try")
    parser.add_argument("--quiet-tables", default="100", help="bot-only tables, quiet scenario")
    parser.add_argument("--quiet-people", type=int, default=10, help="quiet tables (one person)")
    parser.add_argument("--quiet-bot", default="easy", help="the quiet tables' bot (default easy)")
    parser.add_argument("--bot-level", default="expert", help="the bots' level (default expert)")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="bots' delay scale (1)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds a step")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=2.0, help="people's mean think time, s")
    parser.add_argument("--keep-going", action="store_true", help="larger counts after a fail")
    parser.add_argument("--database", default=None, help="a PostgreSQL server URL (see README)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients")
    parser.add_argument("--site-tables", type=int, default=100_000, help="the site, on paper")
    parser.add_argument("--site-bot-share", type=float, default=0.5, help="its bot-heavy share")
    parser.add_argument("--utilization", type=float, default=0.5, help="planned core busyness")
    parser.add_argument("--cores-per-machine", type=int, default=16, help="application machines")
    parser.add_argument("--keep-logs", default=None, help="a folder to copy the logs to")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    scenarios = [s for s in args.scenarios.split(",") if s]
    if not set(scenarios) <= set(SCENARIOS):
        parser.error(f"--scenarios: of {', '.join(SCENARIOS)}")
    try:
        lists = {name: _numbers(getattr(args, name)) for name in COUNTS}
    except ValueError:
        parser.error(f"--{', --'.join(n.replace('_', '-') for n in COUNTS)}: numbers, by commas")
    if min(lists["processes"], default=0) < 1 or min(lists["workers"], default=-1) < 0:
        parser.error("--processes: at least 1 each; --workers: at least 0 each")
    if any(n < 1 for name in COUNTS[2:] for n in lists[name]) or args.quiet_people < 1:
        parser.error("table counts: at least 1 each")
    if not (0 <= args.site_bot_share <= 1 and 0 < args.utilization <= 1):
        parser.error("--site-bot-share: 0 to 1; --utilization: more than 0, at most 1")
    signal.signal(signal.SIGTERM, _stop)  # the finally clauses stop every process
    gc.set_threshold(50_000, 50, 1000)
    os.environ["DOS_SECRET"] = secrets.token_hex(32)  # one secret, inherited by every process
    cores = os.cpu_count() or 1
    machine = {
        "kind": "machine",
        "cores": cores,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "parameters": vars(args),
    }
    emit = (lambda row: print(json.dumps(row), flush=True)) if args.json else None
    if emit:
        emit(machine)
    else:
        print(f"{cores} cores, load average {machine['load_average']}, Python {machine['python']}")
        print("parameters: " + ", ".join(f"{k}={v}" for k, v in vars(args).items()), flush=True)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="dos-cluster-load-") as folder:
        redis_process, redis_url = start_redis(Path(folder))
        postgres = None
        try:
            postgres = Postgres(args.database)
            with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
                for scenario in scenarios:
                    for processes in _numbers(args.processes):
                        for workers in _numbers(args.workers):
                            done = ladder(
                                runner,
                                Where(
                                    Path(folder), redis_process.pid, redis_url, postgres, args, emit
                                ),
                                scenario=scenario,
                                processes=processes,
                                workers=workers,
                            )
                            rows += done
                            show_held(done, scenario, processes, workers, emit)
        finally:
            if postgres is not None:
                postgres.close()
            redis_process.kill()
            redis_process.wait(WAIT)
    report(rows, args, cores, emit)


@dataclass
class Where:
    """What every step shares: the run's folder, Redis and PostgreSQL."""

    folder: Path
    redis_pid: int
    redis_url: str
    postgres: Postgres
    args: argparse.Namespace
    emit: Any
    """``print`` of a JSON line (``--json``), else ``None``."""


def ladder(
    runner: asyncio.Runner, where: Where, *, scenario: str, processes: int, workers: int
) -> list[dict[str, Any]]:
    """The steps of one scenario and (processes, workers), table counts rising; stops after
    the first whose p99 is over the limit unless ``--keep-going``."""
    args, emit = where.args, where.emit
    counts = {"people": args.tables, "bots": args.bot_tables, "quiet": args.quiet_tables}
    done = []
    for count in _numbers(counts[scenario]):
        folder = where.folder / f"{scenario}-{count}"
        with step_cluster(
            folder,
            where.redis_url,
            where.postgres,
            processes=processes,
            workers=workers,
            args=args,
        ) as cluster:
            step = run_step(
                cluster,
                where.postgres,
                redis_pid=where.redis_pid,
                scenario=scenario,
                count=count,
                args=args,
            )
            row = runner.run(step)
        # Without a worker every searching bot's decision is logged as an error (the easy
        # level decides instead): expected here, counted apart.
        fallbacks = [line for line in cluster.errors if FALLBACK in line]
        others = [line for line in cluster.errors if FALLBACK not in line]
        row.update(log_fallback_lines=len(fallbacks), log_errors=len(others), log_error=others[:3])
        done.append(row)
        if emit:
            emit(row)
        else:
            show_step(row)
        if not passed(row) and not args.keep_going:
            break
    return done


def show_held(
    done: list[dict[str, Any]], scenario: str, processes: int, workers: int, emit: Any
) -> None:
    if emit:
        largest, best = held(done, "count")
        emit(
            {
                "kind": "held",
                "scenario": scenario,
                "processes": processes,
                "workers": workers,
                "largest": largest,
                "passed_after_a_fail": best,
            }
        )
    else:
        print(f"  {scenario}, {processes}p {workers}w: " + held_text(done, "count"), flush=True)


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step of several processes against the step of one process with the same
    scenario, workers and tables, in the same run: Redis commands and web CPU per action."""
    found = []
    for row in rows:
        if row["processes"] == 1 or not row["actions_committed"]:
            continue
        for one in rows:
            same = all(one[key] == row[key] for key in ("scenario", "workers", "tables"))
            if same and one["processes"] == 1 and one["actions_committed"]:
                found.append(
                    {
                        "kind": "ratio",
                        "scenario": row["scenario"],
                        "workers": row["workers"],
                        "tables": row["tables"],
                        "processes": row["processes"],
                        "redis_ops_per_action": [
                            one["redis_ops_per_action"],
                            row["redis_ops_per_action"],
                        ],
                        "web_ms_per_action": [
                            one["cpu_ms_per_action"]["web"],
                            row["cpu_ms_per_action"]["web"],
                        ],
                    }
                )
    return found


def show_ratio(item: dict[str, Any]) -> None:
    """One ``ratios`` line."""
    redis_one, redis_many = item["redis_ops_per_action"]
    web_one, web_many = item["web_ms_per_action"]
    print(
        f"\n{item['scenario']} ({item['workers']}w {item['tables']} tables), "
        f"{item['processes']} processes against 1, per action: Redis commands "
        f"{redis_many:.1f} / {redis_one:.1f} ({redis_many / redis_one:.2f}x), web CPU "
        f"{web_many:.1f} / {web_one:.1f} ms ({web_many / max(web_one, 1e-9):.2f}x)"
    )


def report(rows: list[dict[str, Any]], args: argparse.Namespace, cores: int, emit: Any) -> None:
    """Redis's cost per action (top commands), several processes against one, and the
    sizing on paper."""
    found = sizing(rows, args, cores)
    compared = ratios(rows)
    if emit:
        for item in [*compared, *found]:
            emit(item)
        return
    for item in compared:
        show_ratio(item)
    for scenario in SCENARIOS:
        mine = [r for r in rows if r["scenario"] == scenario]
        if not mine:
            continue
        row, _ = pick(mine)
        top = list(row["redis_commands_per_action"].items())[:10]
        print(
            f"\nRedis per action committed, {scenario} ({row['processes']}p {row['workers']}w "
            f"{row['tables']} tables, {row['actions_committed']} actions): "
            f"{row['redis_ops_per_action']:.1f} commands (those run by Lua scripts included), in "
            f"{_size(row['redis_bytes_in_per_action'])}, out "
            f"{_size(row['redis_bytes_out_per_action'])}; by command: "
            + ", ".join(f"{name} {value:.2f}" for name, value in top)
        )
    for item in found:
        show_sizing(item, args)
    if found:
        print(
            f"\nAssumptions: cores planned {100 * args.utilization:.0f}% busy (headroom for p99);"
            " one web process per core; every cost scales with the tables at the measured pace"
            f" (people think {args.think} s, bots' delay scale {args.bot_delay}); the measured "
            "machine ran the clients, Redis and PostgreSQL on the same cores; the mix is "
            f"{100 * (1 - args.site_bot_share):.0f}% people tables."
        )


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted: every process it started is stopped", file=sys.stderr)
        sys.exit(130)
