"""Helpers of the server tests: a real server process, a throwaway PostgreSQL cluster, and a
WebSocket player that checks every message it receives."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import queue
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from dos import records
from dos.server.protocol.server_messages import SERVER_MESSAGE
from forked import ForkedServer, start_server
from support import VIEW_KEYS, deal_seed_args

TIMEOUT = 30.0
"""Seconds to wait for any one message or condition before failing."""

CLASSIC_VIEW_KEYS = {
    "rules",
    "seat",
    "options",
    "turn",
    "phase",
    "hand",
    "hand_sizes",
    "top",
    "colour",
    "direction",
    "pending",
    "discard",
    "draw_pile_size",
    "reaction",
    "ranking",
    "starter",
    "history",
    "legal",
}
"""The keys a classic seat view may have (``docs/classic.md``): only ``hand`` holds a hidden
card, and it is the seat's own."""


class ServerProcess:
    """``dos serve`` in a child process on a free loopback port."""

    def __init__(
        self,
        data: Path,
        database: str | None = None,
        *args: str,
        env: dict[str, str] | None = None,
        seeded: bool = True,
    ) -> None:
        self.data = data
        self.seeded = seeded
        """Whether it deals from the suite's seed (``support.DEAL_SEED``); a server whose
        games must be rated deals at random (a seeded server's games never are)."""
        self.database = database
        self.args = args
        self.env = dict(env or {})
        """Environment variables of the server's own (``DOS_HINT_ITERATIONS``...)."""
        self.process: ForkedServer | subprocess.Popen[str] | None = None
        self.reader: threading.Thread | None = None
        self.url = ""
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []

    def start(self) -> str:
        """Starts the server; returns its base URL once it listens."""
        command = [sys.executable, "-m", "dos", "serve", "--port", "0", "--data", str(self.data)]
        # Instant bots searching with a tenth of their budgets: these tests check what the
        # server does with their actions, not the actions' strength.
        command += ["--bot-delay", "0", "--bot-effort", "0.1", "--pause", "0", *self.args]
        if self.seeded and "--deal-seed" not in self.args:
            command += deal_seed_args()
        if "--limit" not in self.args:
            command += ["--limit", "off"]  # instant test players are faster than people
        if self.database:
            command += ["--database", self.database]
        # Its job workers start cold (DOS_JOB_WARM=0): warming them at every start costs the
        # suite's two cores a few seconds per server, for the first search's sake only.
        # tests/server/test_job_warm.py checks the warm start. One worker a lane: each worker
        # readies the compiled rollouts for itself (about half a CPU-second) before its first
        # search, and no test here needs two searches of one lane at once.
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "DOS_JOB_WARM": "0",
            "DOS_JOB_WORKERS": "1",
            "DOS_BOT_WORKERS": "1",
            **self.env,
        }
        env.pop("DATABASE_URL", None)
        self.process = start_server(command[3:], env)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        self.reader.start()
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                self.kill()
                output = "".join(self.output)
                raise AssertionError("the server did not start:\n" + output) from None
            if line == "":
                raise AssertionError("the server exited:\n" + "".join(self.output))
            if "DOS server: open " in line:
                self.url = line.split("open ", 1)[1].strip().rstrip("/")
                # The server binds 127.0.0.1 and shows it by name: the tests use the address.
                self.url = self.url.replace("//localhost:", "//127.0.0.1:")
                return self.url

    def _read(self, process: ForkedServer | subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.output.append(line)
            self.lines.put(line)
        self.lines.put("")

    @property
    def ws_url(self) -> str:
        """The WebSocket base URL."""
        return "ws" + self.url.removeprefix("http")

    def kill(self) -> None:
        """SIGKILL: the server dies at once, mid-whatever."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(TIMEOUT)
        self._close_pipe()

    def _close_pipe(self) -> None:
        if self.reader is not None:
            self.reader.join(TIMEOUT)
            self.reader = None
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not end."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_pipe()


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresCluster:
    """A throwaway PostgreSQL cluster in a temporary folder (Debian's binaries)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise FileNotFoundError("no PostgreSQL binaries in /usr/lib/postgresql/*/bin")
        self.bin = Path(found[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="dos-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        """Starts the cluster; returns the server URL (no database name)."""
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-N")
        self.resume()
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"

    def halt(self, mode: str = "fast") -> None:
        """Stops the server (``fast``: its connections cut, as an operator's stop;
        ``immediate``: as a crash), keeping its files for ``resume``."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "stop")

    def resume(self) -> None:
        """Starts the server (again, after ``halt``: same port, same databases); returns once
        it accepts connections."""
        options = f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1 -F"
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )

    def running(self) -> bool:
        """Whether the server runs (``pg_ctl status``)."""
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        command = [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "status"]
        done = subprocess.run([*prefix, *command], check=False, capture_output=True, timeout=120)
        return done.returncode == 0

    def stop(self) -> None:
        """Stops the cluster and removes its folder."""
        with contextlib.suppress(Exception):
            self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop"
            )
        shutil.rmtree(self.folder, ignore_errors=True)

    def new_database(self, base: str) -> str:
        """A fresh empty database; returns its URL."""
        import psycopg

        name = f"dos_{random.getrandbits(40):x}"
        plain = base.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(plain + "/postgres", autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"{base}/{name}"


# --- HTTP ---------------------------------------------------------------------------------------

TLS = ssl.create_default_context()
"""One TLS context for the helpers' requests (``verify=TLS``): a top-level ``httpx`` call
otherwise builds a new one, loading the CA bundle, about 30 ms a request on the suite's cores
(the test servers speak plain HTTP: it is never used for a handshake)."""


class _Http:
    """``httpx.get``, ``post``, ``put`` and ``delete`` with the one TLS context ``TLS``: the
    same requests, without a CA bundle loaded for each."""

    @staticmethod
    def get(url: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(url, verify=TLS, **kwargs)

    @staticmethod
    def post(url: str, **kwargs: Any) -> httpx.Response:
        return httpx.post(url, verify=TLS, **kwargs)

    @staticmethod
    def put(url: str, **kwargs: Any) -> httpx.Response:
        return httpx.put(url, verify=TLS, **kwargs)

    @staticmethod
    def delete(url: str, **kwargs: Any) -> httpx.Response:
        return httpx.delete(url, verify=TLS, **kwargs)


HTTP = _Http()
"""``HTTP.get(url, ...)`` for ``httpx.get(url, ...)`` (and ``post``, ``put``, ``delete``)."""


def create_table(url: str, **body: Any) -> dict[str, Any]:
    """``POST /api/tables``; returns the seat grant."""
    body.setdefault("name", "Host")
    response = httpx.post(f"{url}/api/tables", json=body, timeout=TIMEOUT, verify=TLS)
    assert response.status_code == 201, response.text
    grant: dict[str, Any] = response.json()
    return grant


def join_table(url: str, code: str, name: str, **body: Any) -> dict[str, Any]:
    """``POST /api/tables/{code}/join``; returns the seat grant."""
    response = httpx.post(
        f"{url}/api/tables/{code}/join",
        json={"name": name, **body},
        timeout=TIMEOUT,
        verify=TLS,
    )
    assert response.status_code == 200, response.text
    grant: dict[str, Any] = response.json()
    return grant


# --- a WebSocket player -------------------------------------------------------------------------


class WsPlayer:
    """A client of one seat (or a spectator): keeps the version, view and history it was told,
    and validates every message against the protocol's schemas."""

    def __init__(
        self, ws_url: str, code: str, token: str | None, local_address: str | None = None
    ) -> None:
        self.url = f"{ws_url}/ws/{code}"
        self.token = token
        self.local_address = local_address
        """The loopback address to connect from (a test's own ``loopback``: a client of its
        own to the server's per-client limits); default: the system's choice."""
        self.ws: ClientConnection | None = None
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.history: list[str] = []
        self.result: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.waited_for = False
        """A round's summary pauses the table until this seat continues."""
        self._ids = 0

    async def connect(self, hello: bool = True) -> WsPlayer:
        """Opens the connection and says hello; waits for the full state."""
        where = {"local_addr": (self.local_address, 0)} if self.local_address else {}
        # Every message the server sends is taken in, as a browser does (``max_queue=None``:
        # no flow control). With a bounded queue a connection that a test closes with more
        # than 16 messages unread stops reading, misses the server's close frame and waits
        # for the close timeout (10 s) before it drops the connection.
        self.ws = await connect(
            self.url, max_size=2**24, max_queue=None, open_timeout=TIMEOUT, **where
        )
        if hello:
            await self.send({"type": "hello", "protocol": 1, "token": self.token})
            welcome = await self.expect("welcome")
            self.seat = welcome["seat"]
            await self.expect("state")
        return self

    async def close(self) -> None:
        """Closes the connection."""
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: Any) -> None:
        """Sends a message (a dict as JSON, text as is)."""
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message, checked and taken into account."""
        assert self.ws is not None
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(text)
        SERVER_MESSAGE.validate_python(message)
        self.messages.append(message)
        kind = message["type"]
        if kind == "state":
            self.version = message["version"]
            self.view = message["view"]
            self.history = list(message["view"]["history"]) if message["view"] else []
            self.result = message["result"]
            self.table = message["table"]
        elif kind == "update":
            assert message["version"] == self.version + 1, (message["version"], self.version)
            self.version = message["version"]
            self.view = message["view"]
            self.history.append(message["action"])
            self.result = message["result"]
        elif kind == "table":
            self.table = message["table"]
        elif kind == "pause":
            self.waited_for = self.seat in message["waiting"]
        return message

    async def expect(self, kind: str, timeout: float = TIMEOUT, **fields: Any) -> dict[str, Any]:
        """Reads messages until one of type ``kind`` (with these field values) arrives."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - loop.time()))
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    def next_id(self) -> str:
        """A fresh action id."""
        self._ids += 1
        return f"a{self._ids}"

    async def act(self, action: str, version: int | None = None) -> dict[str, Any]:
        """Sends an action; returns the ``update`` or ``error`` that answers it."""
        ident = self.next_id()
        await self.send(
            {
                "type": "action",
                "action": action,
                "version": self.version if version is None else version,
                "id": ident,
            }
        )
        while True:
            message = await self.recv()
            if message.get("id") == ident and message["type"] in ("update", "error"):
                return message

    def choice(self, rng: random.Random) -> str | None:
        """What this player does now: its own DOS call at once, its turn's action at random."""
        if self.view is None or self.result is not None:
            return None
        legal: list[str] = self.view["legal"]
        calls = [a for a in legal if a.endswith("dos")]
        if calls:
            return calls[0]
        if self.view["turn"] == self.seat:
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            if turn:
                return rng.choice(turn)
        return None

    async def step(self, rng: random.Random) -> None:
        """One step of this seat's: it ends a round's pause that waits for it, then plays a
        legal action drawn by ``rng``, or reads the next message when it has none to play."""
        if self.waited_for:
            self.waited_for = False
            await self.send({"type": "continue"})
        action = self.choice(rng)
        if action is None:
            await self.recv()
        else:
            await self.act(action)

    async def stored_end(self) -> None:
        """Reads until the table says the game's end is stored (the last update may come a
        moment before the game is recorded as finished)."""
        while self.table is None or self.table["status"] != "finished":
            await self.recv()

    async def rematch(self) -> None:
        """Deals the next game, as the host, once the table says the last one's end is stored
        (as the page offers it then), and reads up to the new deal."""
        await self.stored_end()
        await self.send({"type": "rematch"})
        await self.expect("state")

    async def play_to_end(self, rng: random.Random, limit: int = 5000) -> dict[str, Any]:
        """Plays until the game is over, reading each round's summary at once, and until the
        table says the game's end is stored; returns the result."""
        for _ in range(limit):
            if self.result is not None:
                await self.stored_end()
                return self.result
            await self.step(rng)
        raise AssertionError("the game did not end")


def hands_by_version(record_text: str) -> list[list[list[str]]]:
    """Every seat's hand (sorted card names) after each action of a recorded official game."""
    from dos.rules.official.cards import NAMES

    record = records.loads(record_text)
    state = records.start(record)
    hands = [[sorted(NAMES[c] for c in hand) for hand in state.hands]]

    def step(_number: int, _action: str, now: Any) -> None:
        hands.append([sorted(NAMES[c] for c in hand) for hand in now.hands])

    records.replay(record, on_step=step)
    return hands


def classic_hands_by_version(record_text: str) -> list[list[list[str]]]:
    """Every seat's hand (sorted card names) after each action of a recorded classic game,
    replayed from its seed."""
    from dos.rules.classic import RULES
    from dos.rules.classic.cards import NAMES

    record = records.loads(record_text)
    assert record.rules == "classic" and record.seed is not None
    state = RULES.new_game(record.options, record.seed)
    hands = [[sorted(NAMES[c] for c in hand) for hand in state.hands]]
    for text in record.actions:
        RULES.apply(state, RULES.parse_action(text))
        hands.append([sorted(NAMES[c] for c in hand) for hand in state.hands])
    return hands


def check_hidden(player: WsPlayer, hands: list[list[list[str]]], keys: set[str] = VIEW_KEYS) -> int:
    """Checks that every view ``player`` received held only its own seat's hand (spectators:
    none) and nothing else private (only the view ``keys``); returns how many views were
    checked."""
    checked = 0
    for message in player.messages:
        view = message.get("view")
        if message["type"] not in ("state", "update") or view is None:
            continue
        assert set(view) <= keys, set(view) - keys
        version = message["version"]
        if player.seat is None:
            assert "hand" not in view and "legal" not in view
            assert view["seat"] is None
        else:
            assert view["seat"] == player.seat
            assert sorted(view["hand"]) == hands[version][player.seat], (version, player.seat)
        checked += 1
    return checked


BOT_REFLEXES = ("dos", "catch", "react", "timeout")
"""How a bot's update begins when it is no move of its turn (a DOS call, a catch, a reaction
test, or the server's timeout)."""


async def play_until_the_bot_moves(
    player: WsPlayer, bot_seat: int, moves: int, rng: random.Random, limit: int = 5000
) -> list[str]:
    """Plays ``player``'s seat at random (reading each round's summary at once) until the bot
    at ``bot_seat`` has made ``moves`` moves of its own turns; returns those moves."""
    for _ in range(limit):
        made = [
            m["action"]
            for m in player.messages
            if m["type"] == "update"
            and m["by_bot"]
            and m["seat"] == bot_seat
            and not m["action"].startswith(BOT_REFLEXES)
        ]
        if len(made) >= moves:
            return made
        assert player.result is None, "the game ended before the bot made its moves"
        await player.step(rng)
    raise AssertionError("the bot did not move")


@contextlib.contextmanager
def running(server: ServerProcess) -> Iterator[ServerProcess]:
    """Starts a server and stops it at the end."""
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def drive(
    players: list[WsPlayer], rng: random.Random, stop_version: int | None = None
) -> None:
    """Plays a game between WebSocket players only (no bots), one action at a time, until
    the game ends or reaches ``stop_version``; every player has then seen every action (and,
    at the end, that the game's end is stored)."""
    while True:
        target = max(p.version for p in players)
        for player in players:
            while player.version < target:
                await player.recv()
        if players[0].result is not None:
            for player in players:
                await player.stored_end()
            return
        if stop_version is not None and target >= stop_version:
            return
        for player in players:
            action = player.choice(rng)
            if action is not None:
                answer = await player.act(action)
                assert answer["type"] == "update", answer
                break
        else:
            raise AssertionError("nobody can act")


def in_own_reaction(player: WsPlayer) -> bool:
    """Whether ``player``'s seat is to take a classic reaction test now."""
    view = player.view
    return (
        view is not None
        and player.result is None
        and view["phase"] == "reaction"
        and view["reaction"]["seat"] == player.seat
    )


async def play_to_reaction(player: WsPlayer, rng: random.Random, limit: int = 5000) -> None:
    """At a classic table: plays ``player``'s turns at random until its seat is to take a
    reaction test (which it leaves unanswered). ``player`` is the host: should a game end
    first, it deals a rematch and goes on."""
    for _ in range(limit):
        if in_own_reaction(player):
            return
        if player.result is not None:
            await player.rematch()
            continue
        action = player.choice(rng)
        if action is None:
            await player.recv()
        else:
            answer = await player.act(action)
            assert answer["type"] in ("update", "error"), answer
    raise AssertionError("no reaction test came")
