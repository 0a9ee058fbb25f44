"""Failover benchmark of a server of many processes: kill -9 a table's owner, time the return.

Starts a Redis (``redis-server`` on a free loopback port, nothing persisted; or ``--redis
URL``) and ``--processes`` ``dos serve --redis`` processes on one database (``--database
URL``, PostgreSQL; by default one SQLite file in a temporary folder, which processes of one
machine can share), opens ``--tables`` tables of two human clients and two bots each, and
plays: every client is connected to a process chosen at random, so most are relayed to their
table's owner, and reconnects as the browser does (its page id, its pauses, through a
process at random; a final close such as 4000 "replaced" stops it: a *locked-out* player).
Then, ``--kills`` times: after a random moment of play, the owner of a table
chosen at random is killed with SIGKILL. Its **failover time** runs from the kill to the first
``update`` any client of that table receives once another process holds its lease: the table
was adopted (lease expired, adopted at a scan, the game replayed from the database) and a move
was made and relayed, or sent to a client that reconnected to another process. The clients
play as fast as they are told the state and the rounds have no pause (``--pause 0``), so the
time is the server's, not a player's thinking. The killed process
is started again before the next kill, so that ``--processes`` run at every kill.

After each kill the database is checked against what the clients were told, as
``bench/durability.py`` does: every acknowledged action stored at its index, every update a
client was sent stored, no gap, each game replayed by the engine, and the record of every
finished game replayed through the HTTP API.

Only loopback traffic; every wait has a time limit; it stops by itself.

    .venv/bin/python bench/failover.py --kills 100 [--processes 3] [--tables 4] [--lease S] [--json]

Not a test: a kill takes about 7 s (play, failover, the restart); figures in bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from durability import (
    WAIT,
    Client,
    Figures,
    Server,
    check_database,
    check_records,
    open_tables,
    play_arguments,
    read_database,
    start_tables,
)

SECRET = "failover-benchmark-secret-0123456789abcdef"
"""``DOS_SECRET`` of every process (one secret for all: tokens from one open at any)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``redis-server`` on a free loopback port, nothing persisted; its URL once it answers."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("no redis-server on the PATH (Debian: redis-server), or give --redis")
    port = _free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
    command += ["--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with redis.Redis.from_url(url) as client:
                client.ping()
            return process, url
        except redis.ConnectionError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("redis-server did not start") from None
            time.sleep(0.05)


FINAL = {4000, 4003, 4400, 4401, 4404}
"""The close codes after which the browser gives its seat up (``js/net.js``, ``afterClose``)."""


def browser_pause(attempt: int) -> float:
    """Seconds the browser waits before its ``attempt``-th try since its last open
    (``js/net.js``, ``afterClose``).

    >>> [browser_pause(n) for n in (1, 2, 3, 4, 5, 6)]
    [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    """
    return float(min(5.0, 0.5 * 2 ** min(attempt - 1, 4)))


class Timed(Client):
    """A client that notes when each ``update`` arrives (``time.monotonic()``), and plays
    on through any process as the browser does: one page id on every connection
    (``?page=``), and after a close it connects again to a live process at random, after the
    browser's pause, unless the close is final (then it is *locked out*: the browser stops)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.updates: list[float] = []
        self.reconnects = 0
        self.welcomes = 0
        self.query = f"?page=bench{self.rng.getrandbits(64):016x}"
        self.stopped: tuple[int, str, str] | None = None
        """The final close that stopped it, if one did: its code, reason and process."""

    def _on(self, message: dict[str, Any]) -> None:
        if message["type"] == "welcome":
            self.welcomes += 1
        if message["type"] == "update":
            self.updates.append(time.monotonic())
        elif message["type"] == "state":
            # A fresh state (a relay reattached to the new owner, the connection kept): an
            # action or a rematch sent to the dead owner may have died with it unanswered,
            # so the client decides again on what it is shown, as a person would.
            self.pending = None
            self.rematched.clear()
        super()._on(message)
        table = message.get("table") if message["type"] in ("state", "table") else None
        if table is not None and self.seat is not None:
            # The host's role passes on when its player is gone a while (a dead process's
            # clients): whoever hosts now asks for the rematch.
            self.host = table["host"] == self.seat

    async def roam(self, servers: list[Server], rng: random.Random, running: asyncio.Event) -> None:
        """Plays until ``running`` is cleared (or a final close), each connection to a live
        process at random."""
        first = True
        attempt = 0
        while running.is_set():
            live = [s for s in servers if s.process is not None and s.process.poll() is None]
            if not live:
                await asyncio.sleep(0.05)
                continue
            server = rng.choice(live)
            if not first:
                self.reconnects += 1
            first = False
            welcomed = self.welcomes
            await self.play("ws" + server.url.removeprefix("http"))
            if self.closed_with is not None and self.closed_with[0] in FINAL:
                if running.is_set():
                    self.stopped = (*self.closed_with, server.data.name)
                return
            attempt = 1 if self.welcomes > welcomed else attempt + 1
            await asyncio.sleep(browser_pause(attempt))


def owner_of(redis_url: str, code: str) -> int | None:
    """Which process holds the table's lease (its ``--name`` is ``pN``), ``None``: none."""
    with redis.Redis.from_url(redis_url) as client:
        value = client.get(f"dos:table:{{{code}}}:lease")
    if value is None:
        return None
    owner = value.decode().split(" ", 1)[1]
    return int(owner.split(":", 1)[0][1:])


async def back_after(
    redis_url: str, code: str, dead: int, clients: list[Timed], kill: float
) -> float:
    """Seconds from the ``kill`` of the owner ``dead`` to the first update any of ``clients``
    received once another process held the table's lease (an update the dead owner sent
    before it died, still on its way, does not count)."""
    deadline = time.monotonic() + WAIT
    adopted = None
    while True:
        if adopted is None:
            owner = owner_of(redis_url, code)
            if owner is not None and owner != dead:
                adopted = time.monotonic()
        else:
            after = [t for c in clients for t in c.updates if t > adopted]
            if after:
                return min(after) - kill
        if time.monotonic() > deadline:
            told = "; ".join(
                f"seat {c.seat}{' host' if c.host else ''}: version {c.version}, "
                f"result {c.result is not None}, pending {c.pending}, refused at {c.refused_at}, "
                f"turn {(c.view or {}).get('turn')}, phase {(c.view or {}).get('phase')}, "
                f"reconnects {c.reconnects}"
                for c in clients
            )
            raise RuntimeError(
                f"table {code}: no update within {WAIT:.0f} s of the kill of p{dead} "
                f"(adopted: {adopted is not None}); its clients: {told}"
            )
        await asyncio.sleep(0.01)


async def run(args: argparse.Namespace, figures: Figures) -> dict[str, Any]:
    """The kills; returns the failover times and what else the run measured."""
    rng = random.Random(args.seed)
    failovers: list[float] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="dos-failover-") as folder:
        base = Path(folder)
        redis_process = None
        redis_url = args.redis
        if redis_url is None:
            redis_process, redis_url = start_redis(base)
        else:
            with redis.Redis.from_url(redis_url) as client:
                client.flushdb()
        database = args.database or f"sqlite:///{base / 'dos.sqlite3'}"
        lease = () if args.lease is None else ("--lease", str(args.lease))
        servers = [
            Server(
                base / f"p{i}",
                database,
                args.bot_delay,
                # No pause after a round: these clients read no summary (as durability.py).
                ("--redis", redis_url, "--name", f"p{i}", "--pause", "0", *lease),
            )
            for i in range(args.processes)
        ]
        running = asyncio.Event()
        running.set()
        tasks: list[asyncio.Task[None]] = []
        replayed: dict[int, Any] = {}
        recorded: set[int] = set()
        clients: list[Timed] = []
        try:
            os.environ["DOS_SECRET"] = SECRET  # inherited by every process started
            for server in servers:
                server.start()
            made = await open_tables(servers[0].url, args.tables, rng, figures)
            clients = [Timed(c.code, c.token, c.host, c.rng, figures) for c in made]
            await start_tables("ws" + servers[0].url.removeprefix("http"), clients)
            tasks = [
                asyncio.create_task(c.roam(servers, random.Random(rng.random()), running))
                for c in clients
            ]
            codes = sorted({c.code for c in clients})
            for number in range(args.kills):
                await asyncio.sleep(rng.uniform(0.2, args.longest))
                code = rng.choice(codes)
                owner = owner_of(redis_url, code)
                if owner is None:  # between owners (the last kill's table): another moment
                    await asyncio.sleep(0.1)
                    continue
                moment = time.monotonic()
                servers[owner].kill()
                players = [c for c in clients if c.code == code]
                seconds = await back_after(redis_url, code, owner, players, moment)
                failovers.append(seconds)
                servers[owner].start()
                check_database(read_database(database), figures, replayed)
                if not args.json:
                    print(
                        f"kill {number + 1:3d}: p{owner}, owner of {code}; back after "
                        f"{seconds:.2f} s; {len(figures.acknowledged)} acknowledged, "
                        f"{len(figures.lost)} lost",
                        flush=True,
                    )
            running.clear()
            stored = read_database(database)
            check_database(stored, figures, replayed)
            check_records(servers[0].url, stored, figures, recorded)
        finally:
            running.clear()
            for server in servers:
                server.stop()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            errors = [line for server in servers for line in server.error_lines()]
            if args.keep_logs:
                for server in servers:
                    if server.log.exists():
                        target = Path(args.keep_logs) / f"{server.data.name}.log"
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copyfile(server.log, target)
            if redis_process is not None:
                redis_process.kill()
                redis_process.wait(WAIT)
    return {
        "failovers": failovers,
        "reconnects": sum(c.reconnects for c in clients),
        "stopped": [(c.seat, c.code, *c.stopped) for c in clients if c.stopped is not None],
        "errors": errors,
    }


def _stop(_signal: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200, help="owners killed (default 200)")
    parser.add_argument("--processes", type=int, default=3, help="server processes (default 3)")
    parser.add_argument("--redis", default=None, help="a Redis URL (default: one of its own)")
    parser.add_argument("--lease", type=float, default=None, help="the servers' --lease (3 s)")
    parser.add_argument("--keep-logs", default=None, help="a folder to copy the servers' logs to")
    play_arguments(parser)
    args = parser.parse_args()
    if args.processes < 2:
        parser.error("--processes: at least 2 (one must be left to adopt)")
    signal.signal(signal.SIGTERM, _stop)  # the finally clauses stop the processes
    figures = Figures()
    began = time.perf_counter()
    found = asyncio.run(run(args, figures))
    failovers: list[float] = found["failovers"]
    row = {
        "kills": len(failovers),
        "processes": args.processes,
        "lease_s": args.lease or 3.0,
        "tables": args.tables,
        "database": "postgresql" if args.database and "postgres" in args.database else "sqlite",
        "failover_p50_s": round(statistics.median(failovers), 2) if failovers else None,
        "failover_p99_s": round(_percentile(failovers, 0.99), 2) if failovers else None,
        "failover_max_s": round(max(failovers), 2) if failovers else None,
        "acknowledged_actions": len(figures.acknowledged),
        "lost_actions": len(figures.lost),
        "broadcast_not_stored": len(figures.unsent),
        "index_gaps": len(figures.gaps),
        "replay_failures": len(figures.replay_failures),
        "games_finished": figures.games_finished,
        "records_replayed": figures.records_checked,
        "reconnects": found["reconnects"],
        # Locked out: closed as replaced (4000) while its seat was its own; any other final
        # close (a seat the rematch gave a stand-in, as ``docs/protocol.md`` says) is counted
        # apart.
        "locked_out": sum(1 for stop in found["stopped"] if stop[2] == 4000),
        "other_final_closes": sum(1 for stop in found["stopped"] if stop[2] != 4000),
        "server_error_lines": len(found["errors"]),
        "seconds": round(time.perf_counter() - began, 1),
        "examples": (
            figures.lost
            + figures.unsent
            + figures.gaps
            + figures.replay_failures
            + [f"seat {s[0]} of {s[1]}: closed {s[2]} {s[3]!r} at {s[4]}" for s in found["stopped"]]
            + found["errors"]
        )[:10],
    }
    if args.json:
        print(json.dumps(row))
    else:
        print(
            f"{row['kills']} kills of an owner, {row['processes']} processes, lease "
            f"{row['lease_s']} s, {row['tables']} tables ({row['database']}): failover p50 "
            f"{row['failover_p50_s']} s, p99 {row['failover_p99_s']} s, "
            f"max {row['failover_max_s']} s; "
            f"{row['acknowledged_actions']} acknowledged actions, {row['lost_actions']} lost, "
            f"{row['broadcast_not_stored']} broadcast not stored, {row['index_gaps']} gaps, "
            f"{row['replay_failures']} replay failures; {row['games_finished']} games finished, "
            f"{row['records_replayed']} records replayed; {row['reconnects']} reconnects, "
            f"{row['locked_out']} players locked out, {row['other_final_closes']} other "
            "final closes; "
            f"{row['server_error_lines']} server error lines; {row['seconds']} s in all"
        )
        for example in row["examples"]:
            print("  ", example)
    bad = row["lost_actions"] + row["broadcast_not_stored"] + row["index_gaps"] + row["locked_out"]
    sys.exit(1 if bad + row["replay_failures"] else 0)


if __name__ == "__main__":
    main()
