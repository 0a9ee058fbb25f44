"""Resync amplification: does a crowd of spectators asking full resyncs slow a quiet table?

Starts ``dos serve`` on loopback (its per-connection limits as shipped, the per-client ones
lifted since every client here shares one address), a game with a long history at one table,
and times a quiet client's pings at another table: first alone, then while ``--spectators``
spectators of the busy table each send ``sync`` at the rate a connection may send messages
(20 a second). Prints the quiet client's round trip p50 and p99 in both phases.

    .venv/bin/python bench/resync.py --spectators 40 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

LIFTED = ["client_messages", "connects", "create", "join", "lookup", "client_connections"]


def start(data: Path, extra: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``dos serve`` on a free port; its process and base URL."""
    command = [sys.executable, "-m", "dos", "serve", "--port", "0", "--data", str(data)]
    command += ["--bot-delay", "0", "--pause", "0"]
    for name in [*LIFTED, *extra]:
        command += ["--limit", f"{name}=off"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "DOS server: open " in line:
            return process, line.split("open ", 1)[1].strip().rstrip("/")
    raise RuntimeError("the server did not start")


async def seat(ws_base: str, code: str, token: str | None) -> ClientConnection:
    """A connection that has said hello and read its welcome and state."""
    ws = await connect(f"{ws_base}/ws/{code}", max_size=2**24)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
    kinds: set[str] = set()
    while not {"welcome", "state"} <= kinds:
        kinds.add(json.loads(await ws.recv())["type"])
    return ws


async def play(ws: ClientConnection, actions: int) -> int:
    """The host plays its first legal action whenever it has one, until the game has
    ``actions`` actions (a long history makes a full resync costly); the version reached."""
    version = 0
    while version < actions:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] not in ("state", "update") or message["view"] is None:
            continue
        version = message["version"]
        if message.get("result") is not None:
            break
        legal = [a for a in message["view"].get("legal") or [] if ":" not in a]
        if legal and message["view"]["turn"] == 0:
            await asyncio.sleep(0.05)  # within the 20 messages a second a connection may send
            action = {"type": "action", "action": legal[0], "version": version}
            await ws.send(json.dumps(action))
    return version


async def pings(ws: ClientConnection, seconds: float) -> list[float]:
    """Round trips of pings sent one after the other for ``seconds``, in milliseconds."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    number = 0
    while time.perf_counter() < end:
        number += 1
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "ping", "id": str(number)}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "pong" and message["id"] == str(number):
                break
        times.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.05)
    return times


async def crowd(ws: ClientConnection, stop: asyncio.Event) -> int:
    """Sends ``sync`` 20 times a second until ``stop``; drains answers; how many it sent."""

    async def drain() -> None:
        while True:
            await ws.recv()

    reader = asyncio.create_task(drain())
    sent = 0
    while not stop.is_set():
        await ws.send('{"type":"sync"}')
        sent += 1
        await asyncio.sleep(0.05)
    reader.cancel()
    return sent


def figures(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=100)
    return f"p50 {statistics.median(times):6.1f} ms   p99 {cuts[98]:6.1f} ms   ({len(times)} pings)"


async def run(base: str, spectators: int, seconds: float) -> None:
    ws_base = "ws" + base.removeprefix("http")
    with httpx.Client(base_url=base) as http:
        busy = http.post("/api/tables", json={"name": "Busy", "seats": [None, "easy"]}).json()
        quiet = http.post("/api/tables", json={"name": "Quiet", "seats": [None, "easy"]}).json()
    host = await seat(ws_base, busy["code"], busy["token"])
    await host.send('{"type":"start"}')
    history = await play(host, 400)
    quiet_ws = await seat(ws_base, quiet["code"], quiet["token"])
    print(f"busy table: {history} actions of history")
    print(f"quiet table alone:             {figures(await pings(quiet_ws, seconds))}")
    watchers = [await seat(ws_base, busy["code"], None) for _ in range(spectators)]
    stop = asyncio.Event()
    senders = [asyncio.create_task(crowd(w, stop)) for w in watchers]
    during = await pings(quiet_ws, seconds)
    stop.set()
    sent = sum(await asyncio.gather(*senders))
    print(f"with {spectators} spectators syncing: {figures(during)}  ({sent} syncs sent)")
    for ws in [host, quiet_ws, *watchers]:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--unlimited-syncs",
        action="store_true",
        help="lift the per-connection sync limit too: the cost of the resyncs alone",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start(Path(folder), ["syncs"] if args.unlimited_syncs else [])
        try:
            asyncio.run(run(base, args.spectators, args.seconds))
        finally:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
