"""Load benchmark of the game server: many concurrent four-seat tables of WebSocket clients.

Starts ``dos serve`` (SQLite, every action committed before it is broadcast) in a child
process, then, for each table count asked for, opens that many tables with four guest seats,
connects four WebSocket clients to each and lets them play: a client whose turn it is (or
who must call DOS) waits a think time, sends a random legal action and measures the round
trip until its ``update`` (or ``error``) comes back. Reports the round-trip latency p50/p99,
actions per second, and the largest table count whose p99 stays under 100 ms.

    .venv/bin/python bench/load.py --tables 100,200,300,500 --seconds 20 --think 1.0

Its clients (``open_tables``, ``open_table``) also play against the server of many processes
in ``bench/cluster_load.py``, each seat connected to one of its processes.

Not a test: it measures, and its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

P99_LIMIT_MS = 100.0


@dataclass
class Stats:
    """Round trips of one run."""

    latencies: list[float] = field(default_factory=list)
    slow: list[tuple[float, float]] = field(default_factory=list)
    """(time, latency) of round trips over 100 ms: clustered in time means the whole
    server stalled (or was not scheduled), spread out means single slow actions."""
    codes: dict[str, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    """Tables that could not be opened (HTTP or WebSocket errors during set-up)."""
    seats: list[Seat] = field(default_factory=list)
    """The clients of the tables opened (``play_table``)."""
    stale: int = 0
    errors: int = 0
    games: int = 0
    measuring: bool = False
    calls: list[float] = field(default_factory=list)
    """Bots' DOS calls out of turn as a client saw them: seconds from the update before each
    (``cluster_load.py``: a bot's reflex keeps its timing wherever its table is owned)."""
    catches: list[float] = field(default_factory=list)
    """Bots' catches, the same way."""


class Seat:
    """One bot-driven WebSocket client."""

    def __init__(self, ws: ClientConnection, think: float, rng: random.Random) -> None:
        self.ws = ws
        self.think = think
        self.rng = rng
        self.seat: int | None = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.result: Any = None
        self.waiting: tuple[str, float] | None = None
        self.ids = 0
        self.timer: asyncio.TimerHandle | None = None
        self.latencies: list[float] = []
        """This client's round trips measured (also in ``Stats.latencies``)."""
        self.relayed: bool | None = None
        """Whether it reached a process other than its table's owner (``cluster_load.py``)."""
        self.updated_at = 0.0
        """When it received its last state or update (``time.perf_counter``)."""

    def decide(self) -> str | None:
        if self.view is None or self.result is not None or self.waiting is not None:
            return None
        legal = self.view["legal"]
        calls = [a for a in legal if a.endswith("dos")]
        if calls:
            return str(calls[0])
        if self.view["turn"] == self.seat:
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            if turn:
                return str(self.rng.choice(turn))
        return None


async def _seat_loop(seat: Seat, stats: Stats, stop: asyncio.Event, host: bool) -> None:
    loop = asyncio.get_running_loop()

    async def send(action: str, version: int) -> None:
        seat.timer = None
        if seat.waiting is not None or stop.is_set():
            return
        seat.ids += 1
        ident = str(seat.ids)
        seat.waiting = (ident, time.perf_counter())
        message = {"type": "action", "action": action, "version": version, "id": ident}
        with contextlib.suppress(Exception):
            await seat.ws.send(json.dumps(message))

    def schedule() -> None:
        action = seat.decide()
        if action is None or seat.timer is not None:
            return
        delay = seat.think * seat.rng.uniform(0.5, 1.5)
        version = seat.version
        seat.timer = loop.call_later(delay, lambda: loop.create_task(send(action, version)))

    async for text in seat.ws:
        message = json.loads(text)
        kind = message["type"]
        if kind == "welcome":
            seat.seat = message["seat"]
        elif kind in ("state", "update"):
            now = time.perf_counter()
            reflex = _bot_reflex(message) if kind == "update" and stats.measuring else None
            if reflex is not None:
                (stats.calls if reflex == "dos" else stats.catches).append(now - seat.updated_at)
            seat.updated_at = now
            seat.version = message["version"]
            seat.view = message["view"]
            seat.result = message["result"]
            ident = message.get("id")
            if seat.waiting is not None and ident == seat.waiting[0]:
                if stats.measuring:
                    now = time.perf_counter()
                    stats.latencies.append(now - seat.waiting[1])
                    seat.latencies.append(now - seat.waiting[1])
                    if now - seat.waiting[1] > 0.1:
                        stats.slow.append((now, now - seat.waiting[1]))
                seat.waiting = None
            if seat.timer is not None:
                seat.timer.cancel()
                seat.timer = None
            if seat.result is not None and host and kind == "update":
                stats.games += 1
                await seat.ws.send(json.dumps({"type": "rematch"}))
        elif kind == "error":
            if seat.waiting is not None and message.get("id") == seat.waiting[0]:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - seat.waiting[1])
                    seat.latencies.append(time.perf_counter() - seat.waiting[1])
                seat.waiting = None
            if message["code"] == "stale":
                stats.stale += 1
            else:
                stats.errors += 1
                stats.codes[message["code"]] = stats.codes.get(message["code"], 0) + 1
        if stop.is_set():
            break
        schedule()


REFLEX = re.compile(r"^\d+: (dos|catch) ?\d*$")
"""A DOS call or a catch out of turn (docs/notation.md)."""


def _bot_reflex(update: dict[str, Any]) -> str | None:
    """``dos`` or ``catch`` when an update is a bot's call or catch (no client's id, an
    out-of-turn action), else ``None``."""
    found = REFLEX.match(str(update.get("action", "")))
    return found.group(1) if found and update.get("id") is None else None


PEOPLE: tuple[str | None, ...] = (None, None, None, None)
"""The seats of a load table: four guests (a bot level in a seat: that seat is a bot's)."""


async def play_table(
    *,
    client: httpx.AsyncClient,
    bases: Sequence[str],
    think: float,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    ready: asyncio.Queue[int],
    seats: Sequence[str | None] = PEOPLE,
) -> None:
    """Opens a table of ``seats`` (its people as WebSocket clients: ``open_table``), starts
    it and plays until ``stop``; puts 1 (0: it could not be opened) in ``ready`` once started."""
    try:
        players = await open_table(client, bases, think, rng, seats)
    except Exception as error:
        stats.failed.append(repr(error))
        await ready.put(0)
        return
    stats.seats.extend(players)
    tasks = [
        asyncio.create_task(_seat_loop(seat, stats, stop, index == 0))
        for index, seat in enumerate(players)
    ]
    await players[0].ws.send(json.dumps({"type": "start"}))
    await ready.put(1)
    await stop.wait()
    for seat in players:
        with contextlib.suppress(Exception):
            await seat.ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _pick(bases: Sequence[str], rng: random.Random) -> str:
    """One of the server's processes, at random (no sticky sessions): the only one, if one."""
    return bases[0] if len(bases) == 1 else rng.choice(bases)


async def open_table(
    client: httpx.AsyncClient,
    bases: Sequence[str],
    think: float,
    rng: random.Random,
    seats: Sequence[str | None] = PEOPLE,
) -> list[Seat]:
    """Creates a table of ``seats`` at one of ``bases`` (the processes of the server), seats
    a guest in each other person's seat through any of them, and connects a client per
    person, each to any of them: returns the clients, the host's first."""
    host = _granted(
        await client.post(
            f"{_pick(bases, rng)}/api/tables", json={"name": "h", "seats": list(seats)}
        )
    )
    grants = [host]
    for name in ("a", "b", "c")[: sum(1 for s in seats[1:] if s is None)]:
        url = f"{_pick(bases, rng)}/api/tables/{host['code']}/join"
        grants.append(_granted(await client.post(url, json={"name": name})))
    players = []
    for grant in grants:
        ws_base = "ws" + _pick(bases, rng).removeprefix("http")
        ws = await connect(f"{ws_base}/ws/{host['code']}", max_size=2**24, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": grant["token"]}))
        players.append(Seat(ws, think, random.Random(rng.random())))
    return players


class RefusedSeatError(Exception):
    """The server refused to create a table or seat a guest (its status and error code)."""


def _granted(response: httpx.Response) -> dict[str, Any]:
    """A seat grant, or ``RefusedSeatError`` naming the server's refusal."""
    if response.status_code >= 400:
        try:
            code = response.json().get("code", "?")
        except ValueError:
            code = "?"
        raise RefusedSeatError(f"{response.request.url.path}: {response.status_code} {code}")
    grant: dict[str, Any] = response.json()
    return grant


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds), in ms."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def open_tables(
    client: httpx.AsyncClient,
    bases: Sequence[str],
    tables: int,
    *,
    think: float,
    rng: random.Random,
    stats: Stats,
    stop: asyncio.Event,
    seats: Sequence[str | None] = PEOPLE,
) -> list[asyncio.Task[None]]:
    """Opens and starts ``tables`` tables of ``seats`` (``play_table``), a little apart; returns
    their tasks once every one plays (or failed to open: ``stats.failed``)."""
    ready: asyncio.Queue[int] = asyncio.Queue()
    tasks = []
    for _ in range(tables):
        tasks.append(
            asyncio.create_task(
                play_table(
                    client=client,
                    bases=bases,
                    think=think,
                    rng=rng,
                    stats=stats,
                    stop=stop,
                    ready=ready,
                    seats=seats,
                )
            )
        )
        await asyncio.sleep(0.002)
    for _ in range(tables):
        await ready.get()
    return tasks


def latency_figures(stats: Stats, elapsed: float, began: float) -> dict[str, Any]:
    """The round trips measured in ``stats`` over ``elapsed`` seconds from ``began``."""
    lat = stats.latencies
    return {
        "actions": len(lat),
        "actions_per_s": len(lat) / elapsed,
        "p50_ms": percentile(lat, 0.50) if lat else float("nan"),
        "p99_ms": percentile(lat, 0.99) if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "stale": stats.stale,
        "errors": stats.errors,
        "games_finished": stats.games,
        "error_codes": stats.codes,
        "tables_failed": len(stats.failed),
        "first_failure": stats.failed[0] if stats.failed else None,
        "slow_seconds": sorted({int(at - began) for at, _ in stats.slow}),
    }


async def run_step(base: str, tables: int, seconds: float, think: float) -> dict[str, Any]:
    """Runs ``tables`` tables for ``seconds`` after they are all playing; returns figures."""
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(tables)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        setup = time.perf_counter()
        tasks = await open_tables(
            client, [base], tables, think=think, rng=rng, stats=stats, stop=stop
        )
        setup = time.perf_counter() - setup
        gc.collect()
        gc.freeze()
        await asyncio.sleep(min(5.0, seconds / 4))  # warm up
        stats.measuring = True
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - began
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    row = {"tables": tables, "clients": 4 * tables, **latency_figures(stats, elapsed, began)}
    row["setup_s"] = setup
    return row


def passed(row: dict[str, Any]) -> bool:
    """Whether a step held: p99 under the limit, and no action refused in error nor table
    failed (a step whose clients were refused is not held, however fast the rest was)."""
    return (
        row["p99_ms"] < P99_LIMIT_MS
        and not row.get("errors", 0)
        and not row.get("tables_failed", 0)
    )


def held(rows: list[dict[str, Any]], key: str = "tables") -> tuple[int | None, int | None]:
    """The largest ``key`` (a table count) such that it and every smaller count measured
    held (``passed``), and the largest that did at all (after a smaller one failed,
    perhaps): one noisy step should neither hide nor flatter the figure."""
    largest = None
    for row in sorted(rows, key=lambda r: r[key]):
        if not passed(row):
            break
        largest = row[key]
    fine = [r[key] for r in rows if passed(r)]
    return largest, (max(fine) if fine else None)


def held_text(rows: list[dict[str, Any]], key: str = "tables") -> str:
    """``held`` in words."""
    largest, best = held(rows, key)
    text = (
        f"largest table count with p99 < {P99_LIMIT_MS:.0f} ms, none refused: {largest or 'none'}"
    )
    if best is not None and best != largest:
        return f"{text} (every smaller count too); {best} passed after a smaller count failed"
    return f"{text} (every smaller count too)"


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loops where it is installed (the clients' share of the cores is
    smaller), else ``None``: asyncio's."""
    with contextlib.suppress(ImportError):
        import uvloop

        return uvloop.new_event_loop
    return None


def start_server(data: Path) -> tuple[subprocess.Popen[str], str]:
    """``dos serve`` on a free port, its output in ``data/server.log``; returns the process
    and its URL."""
    command = [sys.executable, "-m", "dos", "serve", "--port", "0", "--data", str(data)]
    command += ["--limit", "off"]  # thousands of clients from one address
    command += ["--pause", "0"]  # the clients go on at once after a round
    data.mkdir(parents=True, exist_ok=True)
    log = data / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True)
    for _ in range(600):
        for line in log.read_text().splitlines():
            if "DOS server: open " in line:
                return process, line.split("open ", 1)[1].strip().rstrip("/")
        if process.poll() is not None:
            break
        time.sleep(0.1)
    raise RuntimeError("the server did not start:\n" + log.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,200,300,500", help="table counts to try")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds a step")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args()
    gc.set_threshold(50_000, 50, 1000)
    loop_factory = event_loop_factory()
    rows = []
    for count in [int(n) for n in args.tables.split(",")]:
        with tempfile.TemporaryDirectory(prefix="dos-load-") as folder:
            process, base = start_server(Path(folder))
            try:
                with asyncio.Runner(loop_factory=loop_factory) as runner:
                    row = runner.run(run_step(base, count, args.seconds, args.think))
            finally:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                shown = (Path(folder) / "server.log").read_text().splitlines()
                problems = [line for line in shown if "Error" in line or "ERROR" in line]
                if problems:
                    print(f"server log: {len(problems)} error lines, first: {problems[0]}")
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{row['tables']:5d} tables {row['clients']:5d} clients "
                f"{row['actions_per_s']:7.1f} actions/s  p50 {row['p50_ms']:6.1f} ms  "
                f"p99 {row['p99_ms']:6.1f} ms  stale {row['stale']}  errors {row['errors']}  "
                f"(setup {row['setup_s']:.0f} s)",
                flush=True,
            )
    print(held_text(rows))


if __name__ == "__main__":
    main()
