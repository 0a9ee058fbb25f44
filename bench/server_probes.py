"""Probes of the game server under load: spectators, replays, histories, long polls.

The script writes a database (SQLite, in a fresh temporary folder) with the engine, starts
its own ``dos serve`` on a free loopback port (``127.0.0.1``, ``--limit off --bot-delay 0
--pause 0``), and, while the two players of another table play an action after another over
their WebSockets (each action's round trip timed: sent, until the player's own ``update``),
measures:

- **at rest**: that table's action round trip with nothing else going on;
- **the stall**: N spectators connect at once to a long game in play (official rules, the
  host and two bots, ``target_score`` 3000, about 3,000 actions written before the start):
  how long until each one's ``log`` message arrives, its size (and the ``state``'s), and the
  other table's action round trip meanwhile;
- **the replay hammer**: one client fetches the replay of a finished long game (about 1,400
  and 5,400 actions) again and again, two at a time, within the look-up limit (10 requests a
  second): each whole replay's time and size (every page, where the server pages it), and
  the other table's round trip meanwhile;
- **the history size**: ``GET /api/players/{id}`` and ``/api/players/{id}/results`` of a
  player with 50,000 rating-history rows and 20,000 finished games (rows written before the
  start): size and time of one, then of ten at once, and the round trip meanwhile;
- **long polls**: 600 agent long polls (``GET /api/agent/seat/wait``, each asking again as
  soon as it is answered) on the busy table itself, and its player's round trip.

Every loop is bounded (a count of actions, a few seconds) and ends by itself; the server is
stopped at the end and the folder removed. The client runs on the same machine as the
server: its own work (up to 600 connections) counts against the same cores, which the
figures of CPU time per phase show.

    .venv/bin/python bench/server_probes.py [--quick] [--json FILE] [--src DIR]

``--src DIR`` runs another checkout's server and engine (its ``src`` folder), e.g. the code
before a fix: ``--src ../dos-before/src``. ``--quick`` scales every probe down (a minute).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import queue
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
LOOKUP_PER_SECOND = 10
"""The default look-up limit of a client (600 a minute): the replay hammer stays within it."""


@dataclass(frozen=True)
class Sizes:
    """How big each probe is."""

    long_actions: int = 3000
    spectators: int = 30
    replays: tuple[int, ...] = (1400, 5400)
    replay_seconds: float = 10.0
    history: int = 50_000
    results: int = 20_000
    at_once: int = 10
    polls: int = 600
    poll_seconds: float = 15.0
    rest_actions: int = 300

    @classmethod
    def quick(cls) -> Sizes:
        return cls(
            long_actions=1000,
            spectators=8,
            replays=(1400,),
            replay_seconds=3.0,
            history=5000,
            results=2000,
            at_once=10,
            polls=100,
            poll_seconds=5.0,
            rest_actions=100,
        )


# --- the database, written before the server starts ---------------------------------------------


@dataclass
class Built:
    """What the database holds for the probes."""

    long_code: str = ""
    long_actions: int = 0
    replays: dict[int, int] = field(default_factory=dict)
    """Game id of each finished long game, by its number of actions."""
    player: str = "p_benchhistory"


def _choose(rules: Any, state: Any, rng: random.Random) -> tuple[Any, int]:
    """An action and its seat: any seat's DOS call first, else the seat to act's action at
    random (no catches)."""
    for seat in range(rules.players(state)):
        for action in rules.legal_actions(state, seat):
            if str(action).endswith("dos"):
                return action, seat
    turn = rules.turn(state)
    legal = [a for a in rules.legal_actions(state, turn) if "catch" not in str(a)]
    return rng.choice(legal), turn


def _long_game_in_play(rules: Any, seed: int, count: int) -> tuple[Any, list[tuple[str, int]]]:
    """About ``count`` actions of a 3-seat game to 3000 points, stopped at seat 0's turn
    with no call or catch open to anyone (the bots then have nothing to do)."""
    options = {"players": 3, "target_score": 3000}
    rng = random.Random(seed)
    state = rules.new_game(options, seed)
    actions: list[tuple[str, int]] = []
    while True:
        if len(actions) >= count and rules.turn(state) == 0:
            quiet = all(
                not [a for a in rules.legal_actions(state, s) if ":" in str(a)] for s in range(1, 3)
            )
            if quiet:
                break
        assert not rules.is_over(state), "the long game ended: raise its target score"
        action, seat = _choose(rules, state, rng)
        rules.apply(state, action)
        actions.append((str(action), seat))
    return state, actions


def _finished_game(rules: Any, seed: int, count: int) -> tuple[Any, list[tuple[str, int]]]:
    """A 2-seat game played at random that ends after about ``count`` actions: played to a
    far target, then cut at the first round end past ``count`` that gives the leader a new
    best score, with that score as its target (the deal does not depend on it)."""
    far = {"players": 2, "target_score": 100_000}
    rng = random.Random(seed)
    state = rules.new_game(far, seed)
    actions: list[tuple[str, int]] = []
    best = 0
    while True:
        rounds = rules.rounds_played(state)
        action, seat = _choose(rules, state, rng)
        rules.apply(state, action)
        actions.append((str(action), seat))
        if rules.rounds_played(state) > rounds:
            top = max(rules.result(state)["scores"])
            if len(actions) >= count and top > best:
                break
            best = max(best, top)
    options = {"players": 2, "target_score": top}
    state = rules.new_game(options, seed)
    for text, _seat in actions:
        rules.apply(state, rules.parse_action(text))
    assert rules.is_over(state), "the cut game did not end where it should"
    return state, actions


def build_database(url: str, sizes: Sizes) -> Built:
    """Writes the tables, games and history of the probes (the schema first)."""
    from sqlalchemy import insert, update
    from sqlalchemy.orm import Session

    from dos import ruleset
    from dos.ratings.store import RatingHistoryRow, RatingRow
    from dos.server.storage.database import make_engine
    from dos.server.storage.models import ActionRow, GamePlayerRow, GameRow, TableRow
    from dos.server.storage.schema import migrate
    from dos.server.storage.table_store import (
        StoredGame,
        StoredSeat,
        StoredTable,
        insert_game,
        insert_table,
    )

    rules = ruleset.get("official")
    engine = make_engine(url, "OFF")
    migrate(engine)
    built = Built()
    now = time.time()

    def table(
        session: Session, code: str, seats: list[StoredSeat], options: dict[str, Any]
    ) -> None:
        insert_table(
            session,
            StoredTable(
                code=code,
                rules="official",
                options=options,
                public=True,
                status="lobby",
                host=0,
                turn_seconds=None,
                games=0,
                created_at=now,
                seats=seats,
                rated=False,
            ),
        )

    def game(
        session: Session,
        code: str,
        *,
        seats: list[StoredSeat],
        state: Any,
        seed: int,
        acts: list[tuple[str, int]],
    ) -> int:
        names = [s.name if s.name is not None else f"{s.bot} bot" for s in seats]
        stored = StoredGame(
            id=0,
            number=1,
            rules="official",
            options=rules.options_json(state),
            seed=seed,
            players=names,
            status="playing",
            result=None,
        )
        game_id = int(insert_game(session, code, stored, seats))
        rows = [
            {
                "game_id": game_id,
                "idx": i,
                "action": text,
                "seat": seat,
                "by_bot": seat != 0,
                "at": now,
            }
            for i, (text, seat) in enumerate(acts)
        ]
        session.execute(insert(ActionRow), rows)
        return game_id

    with Session(engine) as session:
        # The long game in play: the host and two easy bots.
        seed = 11
        state, acts = _long_game_in_play(rules, seed, sizes.long_actions)
        seats = [StoredSeat(0, "Host", None, "p_benchhost")]
        seats += [StoredSeat(i, None, "easy", None) for i in (1, 2)]
        table(session, "LONG01", seats, {"target_score": 3000})
        game(session, "LONG01", seats=seats, state=state, seed=seed, acts=acts)
        built.long_code, built.long_actions = "LONG01", len(acts)
        # The finished long games, for their replays.
        for number, count in enumerate(sizes.replays):
            seed = 100 + number
            state, acts = _finished_game(rules, seed, count)
            code = f"DONE{number:02d}"
            seats = [StoredSeat(0, "Host", None, "p_benchhost"), StoredSeat(1, None, "easy", None)]
            table(session, code, seats, {"target_score": rules.options_json(state)["target_score"]})
            game_id = game(session, code, seats=seats, state=state, seed=seed, acts=acts)
            session.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(status="finished", result=rules.result(state), finished_at=now)
            )
            session.execute(update(TableRow).where(TableRow.code == code).values(status="finished"))
            built.replays[len(acts)] = game_id
        # The player of a long history: finished games, rating points, one rating.
        small = rules.new_game({"players": 2, "target_score": 20}, 5)
        result = rules.result(small) | {"winner": 0, "scores": [25, 3], "rounds": 2}
        options = rules.options_json(small)
        table(session, "HIST01", [StoredSeat(0, "Hist", None, built.player)], {})
        session.execute(
            update(TableRow).where(TableRow.code == "HIST01").values(status="finished", rated=True)
        )
        first = 1_000_000
        count = max(sizes.history, sizes.results)
        session.execute(
            insert(GameRow),
            [
                {
                    "id": first + i,
                    "table_code": "HIST01",
                    "number": i + 1,
                    "rules": "official",
                    "options": options,
                    "seed": i,
                    "players": ["Hist", "easy bot"],
                    "status": "finished",
                    "result": result,
                    "started_at": now - 2 * (count - i),
                    "finished_at": now - 2 * (count - i) + 1,
                }
                for i in range(count)
            ],
        )
        players = []
        for i in range(sizes.results):
            players.append(
                {
                    "game_id": first + i,
                    "seat": 0,
                    "player_id": built.player,
                    "name": "Hist",
                    "bot": None,
                }
            )
            players.append(
                {
                    "game_id": first + i,
                    "seat": 1,
                    "player_id": None,
                    "name": "easy bot",
                    "bot": "easy",
                }
            )
        session.execute(insert(GamePlayerRow), players)
        session.execute(
            insert(RatingHistoryRow),
            [
                {
                    "game_id": first + i,
                    "player_id": built.player,
                    "rules": "official",
                    "players": 2,
                    "rank": i % 2,
                    "mu_before": 25.0 + (i % 7) * 0.1,
                    "sigma_before": 3.0,
                    "mu_after": 25.0 + (i % 5) * 0.1,
                    "sigma_after": 2.9,
                    "at": now - 2 * (count - i) + 1,
                }
                for i in range(sizes.history)
            ],
        )
        session.execute(
            insert(RatingRow),
            [
                {
                    "player_id": built.player,
                    "rules": "official",
                    "players": 2,
                    "name": "Hist",
                    "mu": 27.0,
                    "sigma": 1.0,
                    "ordinal": 24.0,
                    "games": sizes.history,
                    "wins": sizes.history // 2,
                    "updated": now,
                }
            ],
        )
        session.commit()
    engine.dispose()
    return built


# --- the server -------------------------------------------------------------------------------


class Server:
    """``dos serve`` in a child process on a free loopback port; its output is kept."""

    def __init__(self, data: Path, url: str, env: dict[str, str]) -> None:
        self.data = data
        self.database = url
        self.env = env
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self.url = ""

    def start(self, timeout: float = 120.0) -> str:
        command = [sys.executable, "-m", "dos", "serve", "--host", "127.0.0.1", "--port", "0"]
        command += ["--data", str(self.data), "--database", self.database]
        command += ["--bot-delay", "0", "--pause", "0", "--limit", "off"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if line == "":
                raise RuntimeError("the server exited:\n" + "".join(self.output))
            if "DOS server: open " in line:
                self.url = line.split("open ", 1)[1].strip().rstrip("/")
                return self.url
        self.stop()
        raise RuntimeError("the server did not start:\n" + "".join(self.output))

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put("")

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http")

    def cpu(self) -> float:
        """The server's CPU seconds so far (Linux; 0 elsewhere)."""
        if self.process is None:
            return 0.0
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def failures(self) -> int:
        return sum(1 for line in self.output if "Traceback" in line or line.startswith("ERROR"))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)


def _client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- the busy table: two players, an action after another --------------------------------------

TYPE = re.compile(r'"type"\s*:\s*"(\w+)"')


def message_type(text: str | bytes) -> str:
    head = text[:200] if isinstance(text, str) else text[:200].decode("utf-8", "replace")
    found = TYPE.search(head)
    if found:
        return found.group(1)
    return str(json.loads(text).get("type"))


class Seat:
    """One seat of the busy table over its WebSocket."""

    def __init__(self, ws_url: str, code: str, token: str, tick: asyncio.Event) -> None:
        self.url = f"{ws_url}/ws/{code}"
        self.token = token
        self.tick = tick
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.ws = await connect(self.url, max_size=None, open_timeout=60)
        await self.send({"type": "hello", "protocol": 1, "token": self.token})
        while self.version < 0:
            self._take(json.loads(await self.ws.recv()))
        self.reader = asyncio.create_task(self._read())

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.seat = message["seat"]
        elif kind in ("state", "update"):
            self.version, self.view, self.result = (
                message["version"],
                message["view"],
                message["result"],
            )
        elif kind == "pause" and self.seat in message.get("waiting", []):
            asyncio.get_running_loop().create_task(self.send({"type": "continue"}))
        ident = message.get("id")
        if kind in ("update", "error") and ident in self.pending:
            self.pending.pop(ident).set_result(message)
        self.tick.set()

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for text in self.ws:
                kind = message_type(text)
                if kind in ("log", "chat", "chat_rules", "pong", "timer"):
                    continue
                self._take(json.loads(text))

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()


class Driver:
    """Two players of one table (no bots), each action's round trip timed."""

    def __init__(self, server: Server, seed: int = 1) -> None:
        self.server = server
        self.rng = random.Random(seed)
        self.tick = asyncio.Event()
        self.seats: list[Seat] = []
        self.code = ""
        self.tokens: list[str] = []
        self.samples: list[tuple[float, float]] = []
        """(when sent, round trip) of each accepted action."""
        self.refused = 0
        self.stopping = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.ids = 0

    async def open(self) -> None:
        async with httpx.AsyncClient(base_url=self.server.url, timeout=60) as http:
            body = {"name": "Ada", "seats": [None, None], "options": {"target_score": 100_000}}
            host = (await http.post("/api/tables", json=body)).json()
            guest = (
                await http.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"})
            ).json()
        self.code = host["code"]
        self.tokens = [host["token"], guest["token"]]
        for token in self.tokens:
            seat = Seat(self.server.ws_url, self.code, token, self.tick)
            await seat.connect()
            self.seats.append(seat)
        await self.seats[0].send({"type": "start"})
        await self._until(lambda: all(s.view is not None and s.version == 0 for s in self.seats))

    async def _until(self, condition: Any, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.tick.clear()
            if condition():
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the busy table did not move on")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.tick.wait(), left)

    def _choice(self, seat: Seat) -> str | None:
        view = seat.view
        if view is None or seat.result is not None:
            return None
        legal: list[str] = view["legal"]
        calls = [a for a in legal if a.endswith("dos")]
        if calls:
            return calls[0]
        if view["turn"] == seat.seat:
            turn = [a for a in legal if ":" not in a and "catch" not in a]
            if turn:
                return self.rng.choice(turn)
        return None

    async def act_once(self) -> None:
        await self._until(lambda: self.seats[0].version == self.seats[1].version)
        if self.seats[0].result is not None:
            raise RuntimeError("the busy table's game ended")
        for seat in self.seats:
            action = self._choice(seat)
            if action is not None:
                break
        else:
            self.tick.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.tick.wait(), 1.0)
            return
        self.ids += 1
        ident = f"a{self.ids}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        seat.pending[ident] = future
        started = time.perf_counter()
        await seat.send({"type": "action", "action": action, "version": seat.version, "id": ident})
        answer = await asyncio.wait_for(future, 300)
        if answer["type"] == "update":
            self.samples.append((started, time.perf_counter() - started))
        else:
            self.refused += 1

    async def run(self) -> None:
        while not self.stopping.is_set():
            await self.act_once()

    def start(self) -> None:
        self.stopping.clear()
        self.task = asyncio.create_task(self.run())

    async def stop(self) -> None:
        self.stopping.set()
        if self.task is not None:
            await self.task
            self.task = None

    async def actions(self, count: int) -> None:
        """Plays ``count`` actions (the loop not running in the background)."""
        done = len(self.samples)
        while len(self.samples) < done + count:
            await self.act_once()

    def between(self, start: float, end: float) -> list[float]:
        return [rtt for sent, rtt in self.samples if start <= sent <= end]

    async def close(self) -> None:
        for seat in self.seats:
            await seat.close()


# --- the figures ------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}"


def spread(values: list[float]) -> dict[str, Any]:
    """Count, p50, p99 and max of round trips (seconds)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"n": len(ordered), "p50": statistics.median(ordered), "p99": p99, "max": ordered[-1]}


def spread_text(figures: dict[str, Any]) -> str:
    if not figures.get("n"):
        return "none"
    return (
        f"{ms(figures['p50'])} / {ms(figures['p99'])} / {ms(figures['max'])} ms (n={figures['n']})"
    )


@dataclass
class Phase:
    """A probe's window: its figures, the round trips in it and the CPU time spent."""

    name: str
    figures: dict[str, Any] = field(default_factory=dict)
    started: float = 0.0
    ended: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0


class Timer:
    def __init__(self, server: Server, phase: Phase) -> None:
        self.server, self.phase = server, phase

    def __enter__(self) -> Phase:
        self.phase.started = time.perf_counter()
        self.cpu = (self.server.cpu(), _client_cpu())
        return self.phase

    def __exit__(self, *exc: object) -> None:
        self.phase.ended = time.perf_counter()
        self.phase.server_cpu = self.server.cpu() - self.cpu[0]
        self.phase.client_cpu = _client_cpu() - self.cpu[1]


# --- the probes -------------------------------------------------------------------------------


async def probe_rest(server: Server, driver: Driver, sizes: Sizes) -> Phase:
    phase = Phase("at rest")
    await driver.actions(20)  # warm up
    with Timer(server, phase):
        await driver.actions(sizes.rest_actions)
    phase.figures["actions"] = spread(driver.between(phase.started, phase.ended))
    return phase


@dataclass
class Watchers:
    """The spectators of the stall: how many got their log, and when they may leave."""

    count: int
    logged: int = 0
    everyone: asyncio.Event = field(default_factory=asyncio.Event)
    leave: asyncio.Event = field(default_factory=asyncio.Event)


async def _spectate(server: Server, code: str, watchers: Watchers) -> dict[str, float]:
    """A spectator's connection: seconds until its ``state`` and its ``log``, their sizes;
    it stays open until the probe ends."""
    started = time.perf_counter()
    seen: dict[str, float] = {}
    async with connect(f"{server.ws_url}/ws/{code}", max_size=None, open_timeout=600) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": None}))
        while "log" not in seen:
            text = await asyncio.wait_for(ws.recv(), 600)
            kind = message_type(text)
            if kind in ("state", "log"):
                seen[kind] = time.perf_counter() - started
                seen[f"{kind}_bytes"] = len(text.encode() if isinstance(text, str) else text)
        watchers.logged += 1
        if watchers.logged == watchers.count:
            watchers.everyone.set()
        await watchers.leave.wait()
    return seen


async def _wave(server: Server, code: str, count: int) -> tuple[Watchers, list[Any]]:
    """``count`` spectators connecting at once; returns once each has its log."""
    watchers = Watchers(count)
    tasks = [asyncio.create_task(_spectate(server, code, watchers)) for _ in range(count)]
    while not watchers.everyone.is_set():
        for task in tasks:
            if task.done():
                task.result()  # one ends early only by failing: the probe fails
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watchers.everyone.wait(), 0.2)
    return watchers, tasks


async def probe_stall(server: Server, driver: Driver, sizes: Sizes, built: Built) -> Phase:
    """Two waves of spectators, the second while the first stays: the first log of a game
    may cost the server more than the next ones."""
    phase = Phase(
        f"stall: 2 x {sizes.spectators} spectators of a {built.long_actions:,}-action game in play"
    )
    driver.start()
    await asyncio.sleep(0.5)
    with Timer(server, phase):
        first, first_tasks = await _wave(server, built.long_code, sizes.spectators)
        second, second_tasks = await _wave(server, built.long_code, sizes.spectators)
        await asyncio.sleep(0.5)  # the round trips just after
    for watchers in (first, second):
        watchers.leave.set()
    waves = [[await t for t in first_tasks], [await t for t in second_tasks]]
    await driver.stop()
    for name, seen in zip(("", "second_"), waves, strict=True):
        phase.figures[f"{name}log_seconds"] = spread([s["log"] for s in seen])
        phase.figures[f"{name}state_seconds"] = spread([s["state"] for s in seen])
    seen = waves[0] + waves[1]
    phase.figures["log_bytes"] = max(int(s["log_bytes"]) for s in seen)
    phase.figures["state_bytes"] = max(int(s["state_bytes"]) for s in seen)
    phase.figures["actions"] = spread(driver.between(phase.started, phase.ended))
    return phase


TOTAL = re.compile(rb'"total":(\d+)')


async def _whole_replay(http: httpx.AsyncClient, game_id: int, pace: Any) -> dict[str, Any]:
    """Every frame of a replay (page after page where the server pages it): the time its
    requests took (not the waits between them, which keep to the look-up limit), each
    request's, and the sizes."""
    busy = 0.0
    size = wire = 0
    requests: list[float] = []
    offset = 0
    while True:
        await pace()
        params = {"offset": offset} if offset else None
        started = time.perf_counter()
        answer = await http.get(f"/api/games/{game_id}/replay", params=params)
        requests.append(time.perf_counter() - started)
        busy += requests[-1]
        if answer.status_code != 200:
            raise RuntimeError(f"replay {game_id}: {answer.status_code} {answer.text[:200]}")
        body = answer.content
        size += len(body)
        wire += answer.num_bytes_downloaded
        found = TOTAL.search(body[:4096])
        if found is None:  # one answer holds every frame
            break
        offset += 200
        if offset >= int(found.group(1)):
            break
    return {"seconds": busy, "bytes": size, "wire": wire, "requests": requests}


class Pace:
    """At most ``rate`` requests a second, all callers together."""

    def __init__(self, rate: float) -> None:
        self.gap = 1.0 / rate
        self.next = time.perf_counter()
        self.lock = asyncio.Lock()

    async def __call__(self) -> None:
        async with self.lock:
            now = time.perf_counter()
            if self.next > now:
                await asyncio.sleep(self.next - now)
            self.next = max(now, self.next) + self.gap


async def probe_replay(
    server: Server, driver: Driver, sizes: Sizes, actions: int, game_id: int
) -> Phase:
    phase = Phase(f"replay hammer: a {actions:,}-action game")
    pace = Pace(LOOKUP_PER_SECOND)
    replays: list[dict[str, Any]] = []
    driver.start()
    await asyncio.sleep(0.5)
    async with httpx.AsyncClient(base_url=server.url, timeout=600) as http:
        with Timer(server, phase):
            end = time.perf_counter() + sizes.replay_seconds

            async def hammer() -> None:
                while time.perf_counter() < end:
                    replays.append(await _whole_replay(http, game_id, pace))

            await asyncio.gather(hammer(), hammer())
    await driver.stop()
    phase.figures["replay_seconds"] = spread([r["seconds"] for r in replays])
    phase.figures["request_seconds"] = spread([t for r in replays for t in r["requests"]])
    phase.figures["replays"] = len(replays)
    phase.figures["replay_bytes"] = replays[0]["bytes"]
    phase.figures["replay_wire"] = replays[0]["wire"]
    phase.figures["requests"] = sum(len(r["requests"]) for r in replays)
    phase.figures["actions"] = spread(driver.between(phase.started, phase.ended))
    return phase


async def probe_history(server: Server, driver: Driver, sizes: Sizes, built: Built) -> Phase:
    phase = Phase(f"history: {sizes.history:,} rating points, {sizes.results:,} results")
    paths = {
        "page": f"/api/players/{built.player}",
        "results": f"/api/players/{built.player}/results",
    }
    driver.start()
    await asyncio.sleep(0.5)
    async with httpx.AsyncClient(base_url=server.url, timeout=600) as http:

        async def get(path: str) -> dict[str, float]:
            started = time.perf_counter()
            answer = await http.get(path)
            if answer.status_code != 200:
                raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:200]}")
            return {
                "seconds": time.perf_counter() - started,
                "bytes": len(answer.content),
                "wire": answer.num_bytes_downloaded,
            }

        with Timer(server, phase):
            for name, path in paths.items():
                one = await get(path)
                phase.figures[f"{name}_seconds"] = one["seconds"]
                phase.figures[f"{name}_bytes"] = one["bytes"]
                phase.figures[f"{name}_wire"] = one["wire"]
            for name, path in paths.items():
                started = time.perf_counter()
                many = await asyncio.gather(*[get(path) for _ in range(sizes.at_once)])
                phase.figures[f"{name}_at_once_seconds"] = time.perf_counter() - started
                phase.figures[f"{name}_at_once_max"] = max(m["seconds"] for m in many)
            await asyncio.sleep(0.3)
    await driver.stop()
    phase.figures["actions"] = spread(driver.between(phase.started, phase.ended))
    return phase


VERSION = re.compile(rb'"version":(\d+)')


async def _http_get(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """One request on a kept-alive HTTP/1.1 connection: the status and the body (plain
    streams: an HTTP client library costs more CPU than 600 polls leave to the client)."""
    writer.write(request)
    status = int((await reader.readline()).split()[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if not chunked:
        return status, await reader.readexactly(length)
    body = b""
    while size := int((await reader.readline()).strip(), 16):
        body += await reader.readexactly(size + 2)
    await reader.readline()
    return status, body


async def probe_polls(server: Server, driver: Driver, sizes: Sizes) -> Phase:
    phase = Phase(f"long polls: {sizes.polls} agents waiting on the busy table")
    stop = asyncio.Event()
    answered: list[float] = []
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    version = driver.seats[0].version

    async def poll(number: int) -> None:
        seen = version
        reader, writer = await asyncio.open_connection(host, int(port))
        token = driver.tokens[number % 2]
        try:
            while not stop.is_set():
                path = f"/api/agent/seat/wait?version={seen}&until=change&timeout=30"
                request = (
                    f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\r\n"
                ).encode()
                status, body = await _http_get(reader, writer, request)
                if status != 200:
                    raise RuntimeError(f"wait: {status} {body[:200]!r}")
                found = VERSION.search(body[:400])
                seen = int(found.group(1)) if found else seen
                answered.append(time.perf_counter())
        finally:
            writer.close()

    pollers = [asyncio.create_task(poll(n)) for n in range(sizes.polls)]
    await asyncio.sleep(min(5.0, 1.0 + sizes.polls / 200))  # every poll sent and waiting
    for task in pollers:
        if task.done():
            task.result()  # a poll that failed
    before = len(answered)
    driver.start()
    with Timer(server, phase):
        await asyncio.sleep(sizes.poll_seconds)
        stop.set()
        await driver.stop()
    for task in pollers:
        task.cancel()
    failed = [r for r in await asyncio.gather(*pollers, return_exceptions=True) if r is not None]
    failed = [r for r in failed if not isinstance(r, asyncio.CancelledError)]
    if failed:
        raise RuntimeError(f"{len(failed)} polls failed: {failed[0]!r}")
    done = driver.between(phase.started, phase.ended)
    phase.figures["actions"] = spread(done)
    phase.figures["answers"] = len([t for t in answered if phase.started <= t <= phase.ended])
    phase.figures["answered_before"] = before
    phase.figures["actions_per_second"] = len(done) / max(1e-9, phase.ended - phase.started)
    return phase


async def run_probes(server: Server, built: Built, sizes: Sizes) -> list[Phase]:
    driver = Driver(server)
    await driver.open()
    phases = [await probe_rest(server, driver, sizes)]
    phases.append(await probe_stall(server, driver, sizes, built))
    for actions, game_id in sorted(built.replays.items()):
        phases.append(await probe_replay(server, driver, sizes, actions, game_id))
    phases.append(await probe_history(server, driver, sizes, built))
    phases.append(await probe_polls(server, driver, sizes))
    await driver.close()
    return phases


# --- the report -------------------------------------------------------------------------------


def report(phases: list[Phase], header: list[str]) -> str:
    lines = [*header, ""]
    width = 50
    for phase in phases:
        f = phase.figures
        lines.append(phase.name)
        rows: list[tuple[str, str]] = []
        if "log_seconds" in f:
            for wave, key in (("first", ""), ("second", "second_")):
                rows.append(
                    (
                        f"{wave} wave: log arrives after (p50/p99/max)",
                        spread_text(f[f"{key}log_seconds"]),
                    )
                )
                rows.append(
                    (f"{wave} wave: state arrives after", spread_text(f[f"{key}state_seconds"]))
                )
            rows.append(
                ("log message, state message", f"{f['log_bytes']:,} B, {f['state_bytes']:,} B")
            )
        if "replay_seconds" in f:
            rows.append(
                ("whole replay, its requests' time (p50/p99/max)", spread_text(f["replay_seconds"]))
            )
            rows.append(("one request (p50 / p99 / max)", spread_text(f["request_seconds"])))
            rows.append(
                (
                    "replay size (JSON, on the wire), requests",
                    f"{f['replay_bytes']:,} B, {f['replay_wire']:,} B,"
                    f" {f['requests'] / max(1, f['replays']):.0f} a replay",
                )
            )
        if "page_seconds" in f:
            for name, title in (("page", "GET /api/players/{id}"), ("results", "GET .../results")):
                rows.append(
                    (
                        f"{title}: time, size (wire)",
                        f"{ms(f[f'{name}_seconds'])} ms, {f[f'{name}_bytes']:,} B"
                        f" ({f[f'{name}_wire']:,} B)",
                    )
                )
                rows.append(
                    (
                        f"{title}: ten at once, all / slowest",
                        f"{ms(f[f'{name}_at_once_seconds'])} ms"
                        f" / {ms(f[f'{name}_at_once_max'])} ms",
                    )
                )
        if "answers" in f:
            rows.append(("poll answers in the window", f"{f['answers']:,}"))
            rows.append(("actions a second", f"{f['actions_per_second']:.1f}"))
        rows.append(("other table's action (p50 / p99 / max)", spread_text(f["actions"])))
        rows.append(
            ("CPU seconds: server, client", f"{phase.server_cpu:.1f}, {phase.client_cpu:.1f}")
        )
        lines += [f"  {name:<{width}} {value}" for name, value in rows]
        lines.append("")
    return "\n".join(lines)


def _describe(src: Path | None) -> list[str]:
    import dos

    where = Path(dos.__file__).resolve().parents[1]
    commit = "?"
    with contextlib.suppress(Exception):
        commit = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(where), "status", "--porcelain", "--", "."],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if dirty:
            commit += " + uncommitted changes"
    return [
        f"DOS server probes, {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"code: {where} ({commit})",
        f"machine: {platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f} at start",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every probe scaled down")
    parser.add_argument("--src", type=Path, help="the src folder of the code to probe")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures")
    parser.add_argument("--spectators", type=int, help="spectators of the stall")
    parser.add_argument("--polls", type=int, help="long polls")
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONUNBUFFERED"] = "1"
    if args.src is not None:
        src = args.src.resolve()
        sys.path.insert(0, str(src))
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    elif "dos" not in sys.modules:
        with contextlib.suppress(ImportError):
            import dos  # noqa: F401
        if "dos" not in sys.modules:
            sys.path.insert(0, str(ROOT / "src"))
            env["PYTHONPATH"] = str(ROOT / "src")
    sizes = Sizes.quick() if args.quick else Sizes()
    changes = {k: v for k, v in (("spectators", args.spectators), ("polls", args.polls)) if v}
    if changes:
        sizes = Sizes(**{**sizes.__dict__, **changes})
    header = _describe(args.src)
    folder = Path(tempfile.mkdtemp(prefix="dos-probes-"))
    try:
        data = folder / "data"
        data.mkdir()
        url = f"sqlite:///{data / 'dos.sqlite3'}"
        started = time.perf_counter()
        built = build_database(url, sizes)
        header.append(f"database written in {time.perf_counter() - started:.1f} s")
        server = Server(data, url, env)
        started = time.perf_counter()
        server.start()
        header.append(f"server started in {time.perf_counter() - started:.1f} s")
        try:
            phases = asyncio.run(run_probes(server, built, sizes))
        finally:
            server.stop()
        header.append(f"tracebacks or ERROR lines in the server's output: {server.failures()}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = report(phases, header)
    print(text)
    if args.json is not None:
        figures = [{**p.figures, "name": p.name, "server_cpu": p.server_cpu} for p in phases]
        args.json.write_text(json.dumps({"header": header, "phases": figures}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
