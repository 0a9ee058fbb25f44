"""Durability benchmark of the game server: ``kill -9`` at random moments, nothing lost.

Starts ``dos serve`` (a child process on 127.0.0.1, SQLite in a temporary data folder, or
``--database URL``), opens ``--tables`` tables of two WebSocket human clients and two server
bots each, and plays. Then, ``--cycles`` times: waits a random moment, kills the server with
SIGKILL, checks the database against what the clients were told, starts the server again on
the same data, and lets the clients reconnect with their seat tokens and play on.

What is checked after each kill:

- every action **acknowledged** to a client (the ``update`` carrying the id of its own action)
  is stored, at its index, with the same text: a missing or different one is **lost**;
- every action any client was sent as an ``update`` is stored too (commit before broadcast);
- each game's actions are numbered 0..n-1 without a gap, and replay with the rules engine
  from the game's seed (a finished game ends where it is marked finished, with its result);
- after the restart: each client's ``state`` is at least as far as what it was told (no
  rollback), and the record of every finished game (``GET /api/games/{id}/record``) holds the
  stored actions and replays with ``dos.records.replay``.

Only loopback traffic; every wait has a time limit; it stops by itself.

    .venv/bin/python bench/durability.py --cycles 100 [--tables 4] [--database URL] [--json]

Not a test: a run takes minutes (a server start is about a second); figures in
bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

WAIT = 30.0
"""Seconds any one wait (a start, a message, a request) may take before the run fails."""


# --- the server -----------------------------------------------------------------------------


def _serve_flags() -> list[str]:
    """Flags that lift the per-client limits (the clients play as fast as they can, from one
    address): ``--limit off`` where the server has it, else a high ``--rate``."""
    shown = subprocess.run(
        [sys.executable, "-m", "dos", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    ).stdout
    flags = ["--limit", "off"] if "--limit" in shown else ["--rate", "1000"]
    return flags + (["--pause", "0"] if "--pause" in shown else [])  # clients never read summaries


class Server:
    """``dos serve`` on a free loopback port, its output appended to ``data/server.log``
    (``extra``: more flags, such as ``--redis URL``: ``bench/failover.py``)."""

    def __init__(
        self, data: Path, database: str | None, bot_delay: float, extra: tuple[str, ...] = ()
    ) -> None:
        self.data = data
        self.database = database
        self.bot_delay = bot_delay
        self.flags = [*_serve_flags(), *extra]
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.log = data / "server.log"
        self.starts = 0
        self.start_seconds: list[float] = []
        """How long each start took, from the command to listening (tables loaded)."""

    def start(self) -> str:
        command = [sys.executable, "-m", "dos", "serve", "--host", "127.0.0.1", "--port", "0"]
        command += ["--data", str(self.data), "--bot-delay", str(self.bot_delay), *self.flags]
        if self.database:
            command += ["--database", self.database]
        self.data.mkdir(parents=True, exist_ok=True)
        mark = f"=== start {self.starts}"
        with self.log.open("a") as out:
            out.write(mark + "\n")
            out.flush()
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        began = time.monotonic()
        deadline = began + WAIT
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace").split(mark, 1)[-1]
            for line in text.splitlines():
                if "DOS server: open " in line:
                    self.url = line.split("open ", 1)[1].strip().rstrip("/")
                    self.start_seconds.append(time.monotonic() - began)
                    return self.url
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.kill()
        raise RuntimeError("the server did not start:\n" + self.log.read_text()[-3000:])

    def kill(self) -> None:
        """SIGKILL: no goodbye, mid-whatever."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(WAIT)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def error_lines(self) -> list[str]:
        lines = self.log.read_text(errors="replace").splitlines()
        return [
            line for line in lines if line.startswith(("ERROR", "CRITICAL")) or "Traceback" in line
        ]


# --- the clients ----------------------------------------------------------------------------


@dataclass
class Figures:
    """What the clients were told, and what the checks found."""

    acknowledged: dict[tuple[int, int], str] = field(default_factory=dict)
    """(game id, index) -> action, for each action acknowledged to the client that sent it."""
    broadcast: dict[tuple[int, int], str] = field(default_factory=dict)
    """(game id, index) -> action, for each ``update`` any client received."""
    lost: list[str] = field(default_factory=list)
    unsent: list[str] = field(default_factory=list)
    """Updates some client received whose action is not stored (broadcast before commit)."""
    gaps: list[str] = field(default_factory=list)
    replay_failures: list[str] = field(default_factory=list)
    rollbacks: list[str] = field(default_factory=list)
    records_checked: int = 0
    games_finished: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    kills_with_action_in_flight: int = 0


class Client:
    """One human seat: plays random legal actions as fast as it is told the state."""

    def __init__(self, code: str, token: str, host: bool, rng: random.Random, figures: Figures):
        self.code = code
        self.token = token
        self.host = host
        self.rng = rng
        self.figures = figures
        self.seat: int | None = None
        self.game_id: int | None = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.result: Any = None
        self.pending: str | None = None
        self.ids = 0
        self.rematched: set[int] = set()
        self.refused_at: int | None = None
        """The version at which an action was refused (not as stale): wait for the next."""
        self.welcomed: asyncio.Event | None = None
        self.query = ""
        """What follows the WebSocket's path (``?page=...``: a browser's page id)."""
        self.closed_with: tuple[int, str] | None = None
        """The close code and reason the last connection ended with (``None``: none
        received)."""

    def _check_state(self, message: dict[str, Any]) -> None:
        """A resync must hold every action this client was told of in this game."""
        game_id = message["table"]["game_id"]
        if game_id is None or message["view"] is None:
            return
        history = message["view"].get("history", [])
        told = sorted(
            (idx, action) for (g, idx), action in self.figures.broadcast.items() if g == game_id
        )
        for idx, action in told:
            if idx >= len(history) or history[idx] != action:
                self.figures.rollbacks.append(
                    f"table {self.code} game {game_id}: action {idx} {action!r} was told, "
                    f"the state after the restart has {len(history)} actions"
                )
                return

    def _decide(self) -> str | None:
        if self.view is None or self.result is not None or self.pending is not None:
            return None
        if self.refused_at == self.version:
            return None
        legal: list[str] = self.view.get("legal", [])
        calls = [a for a in legal if a.endswith("dos")]
        if calls:
            return calls[0]
        catches = [a for a in legal if "catch" in a]
        if catches and self.rng.random() < 0.5:
            return self.rng.choice(catches)
        if self.view.get("turn") == self.seat:
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            if turn:
                return self.rng.choice(turn)
        return None

    async def _act(self, ws: ClientConnection) -> None:
        if self.result is not None and self.host and self.game_id not in self.rematched:
            if self.game_id is not None:
                self.rematched.add(self.game_id)
            await ws.send(json.dumps({"type": "rematch"}))
            return
        action = self._decide()
        if action is None:
            return
        self.ids += 1
        self.pending = f"a{self.ids}"
        message = {"type": "action", "action": action, "version": self.version, "id": self.pending}
        await ws.send(json.dumps(message))

    def _on(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.seat = message["seat"]
        elif kind == "state":
            self._check_state(message)
            self.game_id = message["table"]["game_id"]
            self.version = message["version"]
            self.view = message["view"]
            self.result = message["result"]
            self.refused_at = None
            if self.welcomed is not None:
                self.welcomed.set()
        elif kind == "table":
            if message["table"]["game_id"] != self.game_id:
                self.game_id = message["table"]["game_id"]
        elif kind == "update":
            assert self.game_id is not None
            key = (self.game_id, message["version"] - 1)
            self.figures.broadcast[key] = message["action"]
            if message.get("id") is not None and message["id"] == self.pending:
                self.figures.acknowledged[key] = message["action"]
                self.pending = None
            self.version = message["version"]
            self.view = message["view"]
            if message["result"] is not None and self.result is None and self.host:
                self.figures.games_finished += 1
            self.result = message["result"]
        elif kind == "error":
            code = message["code"]
            if message.get("id") is not None and message["id"] == self.pending:
                self.pending = None
                if code != "stale":
                    self.refused_at = self.version
            self.figures.refused[code] = self.figures.refused.get(code, 0) + 1

    async def play(self, ws_base: str) -> None:
        """Connects, says hello and plays until the connection ends (the server is killed)."""
        self.pending = None
        self.rematched.clear()
        welcomed = self.welcomed = asyncio.Event()
        try:
            async with connect(
                f"{ws_base}/ws/{self.code}{self.query}", max_size=2**24, open_timeout=WAIT
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": self.token}))
                while True:
                    text = await asyncio.wait_for(ws.recv(), WAIT * 4)
                    message = json.loads(text)
                    self._on(message)
                    if message["type"] in ("state", "update", "error"):
                        await self._act(ws)
        except ConnectionClosed as closed:
            said = closed.rcvd
            self.closed_with = None if said is None else (said.code, said.reason)
        except OSError:
            self.closed_with = None
        finally:
            welcomed.set()
            if self.pending is not None:
                self.figures.kills_with_action_in_flight += 1


# --- the checks -----------------------------------------------------------------------------


def _db_url(database: str | None, data: Path) -> str:
    from dos.server.storage.database import database_url

    return database_url(database, data)


def read_database(url: str) -> tuple[dict[int, dict[str, Any]], dict[int, list[tuple[int, str]]]]:
    """Every game (id -> row) and its stored actions (id -> [(idx, action)], by idx), read
    straight from the database (the server is down)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            games = {
                row.id: dict(row._mapping)
                for row in connection.execute(
                    text("SELECT id, rules, options, seed, status, result FROM dos_games")
                )
            }
            actions: dict[int, list[tuple[int, str]]] = {}
            for row in connection.execute(
                text("SELECT game_id, idx, action FROM dos_actions ORDER BY game_id, idx")
            ):
                actions.setdefault(row.game_id, []).append((row.idx, row.action))
    finally:
        engine.dispose()
    for game in games.values():
        for key in ("options", "result"):
            if isinstance(game[key], str):
                game[key] = json.loads(game[key])
    return games, actions


def check_database(
    stored_games: tuple[dict[int, dict[str, Any]], dict[int, list[tuple[int, str]]]],
    figures: Figures,
    replayed: dict[int, Any],
) -> None:
    """Compares the stored games with what the clients were told; replays with the engine
    every game that has new actions since the last check."""
    from dos import ruleset

    games, actions = stored_games
    stored = {(g, idx): action for g, rows in actions.items() for idx, action in rows}
    for key, action in figures.acknowledged.items():
        if stored.get(key) != action:
            figures.lost.append(f"game {key[0]} action {key[1]} {action!r}: {stored.get(key)!r}")
    for key, action in figures.broadcast.items():
        if stored.get(key) != action and key not in figures.acknowledged:
            figures.unsent.append(f"game {key[0]} action {key[1]} {action!r}: {stored.get(key)!r}")
    for game_id, rows in actions.items():
        if [idx for idx, _ in rows] != list(range(len(rows))):
            figures.gaps.append(f"game {game_id}: indices {[idx for idx, _ in rows][:20]}...")
    for game_id, game in games.items():
        rows = actions.get(game_id, [])
        if replayed.get(game_id) == (len(rows), game["status"]):
            continue
        replayed[game_id] = (len(rows), game["status"])
        rules = ruleset.get(game["rules"])
        try:
            state = rules.new_game(game["options"], game["seed"])
            for _, text in rows:
                rules.apply(state, rules.parse_action(text))
            over = rules.is_over(state)
            if game["status"] == "finished":
                assert over, "marked finished, not over"
                assert rules.result(state) == game["result"], "another result"
        except Exception as error:
            figures.replay_failures.append(f"game {game_id}: {type(error).__name__}: {error}")


def check_records(
    url: str,
    stored: tuple[dict[int, dict[str, Any]], dict[int, list[tuple[int, str]]]],
    figures: Figures,
    done: set[int],
) -> None:
    """The record of every finished game not checked yet, through the HTTP API: it holds the
    stored actions and replays."""
    from dos import records

    games, actions = stored
    with httpx.Client(timeout=WAIT) as client:
        for game_id, game in games.items():
            if game["status"] != "finished" or game_id in done:
                continue
            response = client.get(f"{url}/api/games/{game_id}/record")
            try:
                assert response.status_code == 200, (response.status_code, response.text[:200])
                record = records.loads(response.text)
                assert record.actions == [a for _, a in actions.get(game_id, [])], (
                    "the record is not the stored actions"
                )
                records.replay(record)
            except Exception as error:
                figures.replay_failures.append(f"record of game {game_id}: {error}")
            done.add(game_id)
            figures.records_checked += 1


# --- the run --------------------------------------------------------------------------------


async def open_tables(url: str, count: int, rng: random.Random, figures: Figures) -> list[Client]:
    """``count`` started tables of two human clients and two bots; returns the clients."""
    clients = []
    async with httpx.AsyncClient(timeout=WAIT) as http:
        for _ in range(count):
            body = {"name": "h", "seats": [None, None, "easy", "medium"]}
            body["options"] = {"target_score": 40}
            response = await http.post(f"{url}/api/tables", json=body)
            response.raise_for_status()
            host = response.json()
            response = await http.post(f"{url}/api/tables/{host['code']}/join", json={"name": "g"})
            response.raise_for_status()
            guest = response.json()
            for grant, is_host in ((host, True), (guest, False)):
                rng_seat = random.Random(rng.random())
                clients.append(Client(host["code"], grant["token"], is_host, rng_seat, figures))
    return clients


async def start_tables(ws_base: str, clients: list[Client]) -> None:
    """The hosts start their tables (before the first cycle)."""
    for client in clients:
        if client.host:
            async with connect(f"{ws_base}/ws/{client.code}", open_timeout=WAIT) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": client.token}))
                await ws.send(json.dumps({"type": "start"}))
                while json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] != "state":
                    pass
                while json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] != "state":
                    pass


async def cycle(server: Server, clients: list[Client], rng: random.Random, longest: float) -> float:
    """Clients connect and play; at a random moment the server is killed. Returns the
    moment (seconds after every client had its state)."""
    ws_base = "ws" + server.url.removeprefix("http")
    tasks = [asyncio.create_task(c.play(ws_base)) for c in clients]
    await asyncio.sleep(0)  # every client has its event now
    for client in clients:
        assert client.welcomed is not None
        await asyncio.wait_for(client.welcomed.wait(), WAIT)
    moment = rng.uniform(0.0, longest)
    await asyncio.sleep(moment)
    server.kill()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT)
    return moment


async def run(args: argparse.Namespace, figures: Figures) -> tuple[int, list[str], list[float]]:
    """The cycles; returns how many ran, the server's error lines and its start times."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="dos-durability-") as folder:
        data = Path(folder)
        server = Server(data, args.database, args.bot_delay)
        url = _db_url(args.database, data)
        replayed: dict[int, Any] = {}
        recorded: set[int] = set()
        cycles = 0
        try:
            base = server.start()
            clients = await open_tables(base, args.tables, rng, figures)
            await start_tables("ws" + base.removeprefix("http"), clients)
            for number in range(args.cycles):
                moment = await cycle(server, clients, rng, args.longest)
                cycles += 1
                stored = read_database(url)  # the server is down: what the disk holds
                check_database(stored, figures, replayed)
                server.start()
                check_records(server.url, stored, figures, recorded)
                if not args.json:
                    print(
                        f"cycle {number + 1:3d}: killed after {moment:.2f} s; "
                        f"{len(figures.acknowledged)} acknowledged, {len(figures.lost)} lost",
                        flush=True,
                    )
        finally:
            server.stop()
            errors = server.error_lines()
    return cycles, errors, server.start_seconds[1:]


def _stop(_signal: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the play between kills (this benchmark's and ``failover.py``'s)."""
    parser.add_argument("--tables", type=int, default=4, help="tables played (default 4)")
    parser.add_argument("--database", default=None, help="a database URL (default: SQLite)")
    parser.add_argument(
        "--longest", type=float, default=2.0, help="longest play before a kill, seconds"
    )
    parser.add_argument("--bot-delay", type=float, default=0.02, help="the bots' delay scale")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients and the kills")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=100, help="kill -9 cycles (default 100)")
    play_arguments(parser)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _stop)  # the finally clauses stop the server
    figures = Figures()
    began = time.perf_counter()
    cycles, errors, starts = asyncio.run(run(args, figures))
    elapsed = time.perf_counter() - began
    row = {
        "cycles": cycles,
        "tables": args.tables,
        "database": "postgresql" if args.database and "postgres" in args.database else "sqlite",
        "acknowledged_actions": len(figures.acknowledged),
        "broadcast_actions": len(figures.broadcast),
        "lost_actions": len(figures.lost),
        "broadcast_not_stored": len(figures.unsent),
        "index_gaps": len(figures.gaps),
        "replay_failures": len(figures.replay_failures),
        "rollbacks_seen": len(figures.rollbacks),
        "games_finished": figures.games_finished,
        "records_replayed": figures.records_checked,
        "kills_with_action_in_flight": figures.kills_with_action_in_flight,
        "refused": figures.refused,
        "server_error_lines": len(errors),
        "restart_seconds_median": round(statistics.median(starts), 2) if starts else None,
        "seconds": round(elapsed, 1),
        "examples": (
            figures.lost
            + figures.unsent
            + figures.gaps
            + figures.replay_failures
            + figures.rollbacks
            + errors
        )[:10],
    }
    if args.json:
        print(json.dumps(row))
    else:
        print(
            f"{row['cycles']} cycles, {row['tables']} tables ({row['database']}): "
            f"{row['acknowledged_actions']} acknowledged actions, {row['lost_actions']} lost; "
            f"{row['broadcast_actions']} broadcast, {row['broadcast_not_stored']} not stored; "
            f"{row['index_gaps']} gaps, {row['replay_failures']} replay failures, "
            f"{row['rollbacks_seen']} rollbacks; {row['games_finished']} games finished, "
            f"{row['records_replayed']} records replayed; {row['kills_with_action_in_flight']} "
            f"kills with an action in flight; {row['server_error_lines']} server error lines; "
            f"restart {row['restart_seconds_median']} s (median); {row['seconds']} s in all"
        )
        for example in row["examples"]:
            print("  ", example)
    bad = row["lost_actions"] + row["broadcast_not_stored"] + row["index_gaps"]
    bad += row["replay_failures"] + row["rollbacks_seen"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
