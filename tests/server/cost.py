"""What a request costs the server's event loop, measured with the loop's own clock.

``LoopMeter`` wraps every callback the event loop of one thread runs (a task's step, a
timer, an I/O callback) and measures the CPU time of that thread during it
(``time.thread_time``): what the loop itself spent, not the time it waited for the GIL or
another process, so a busy CI machine does not change it. A garbage collection that happens
to run inside a callback is left out: it is the whole process's cost, not the request's
(``dos serve`` tunes and freezes the collector for that, ``dos.server.app.serve``), and in a
test process full of other objects it could add a tenth of a second to any callback.

``InProcessServer`` runs the whole application (``create_app``) on uvicorn in a thread of
this process, on the asyncio loop, so its callbacks can be measured; ``long_game`` writes a
long game into a fresh database before the server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy import insert

from dos import ruleset
from dos.house import create_app
from dos.server.app import ServerConfig, bind
from dos.server.net.limits import Limits
from dos.server.storage.database import Database, database_url
from dos.server.storage.models import ActionRow
from dos.server.storage.schema import migrate
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    insert_game,
    insert_table,
)
from dos.server.tables.settings import Settings


class LoopMeter:
    """The longest callback (in CPU seconds of its thread) of the event loop of one thread,
    and the total, since ``reset``."""

    def __init__(self) -> None:
        self.thread: int | None = None
        self.worst = 0.0
        self.total = 0.0
        self.what = ""
        self.collecting = 0.0
        """CPU seconds the loop's thread has spent in garbage collections."""
        self._collection_started = 0.0

    def _collection(self, phase: str, _info: dict[str, Any]) -> None:
        if threading.get_ident() != self.thread:
            return
        if phase == "start":
            self._collection_started = time.thread_time()
        else:
            self.collecting += time.thread_time() - self._collection_started

    def reset(self) -> None:
        """Starts a new measurement."""
        self.worst = 0.0
        self.total = 0.0
        self.what = ""

    def record(self, spent: float, what: Callable[[], str]) -> None:
        self.total += spent
        if spent > self.worst:
            self.worst = spent
            self.what = what()

    @contextmanager
    def installed(self) -> Iterator[LoopMeter]:
        """Measures the callbacks of ``self.thread``'s loop while in the block."""
        handle = asyncio.events.Handle
        original = handle._run
        meter = self

        def run(self: asyncio.Handle) -> None:
            if threading.get_ident() != meter.thread:
                original(self)
                return
            start, collected = time.thread_time(), meter.collecting
            try:
                original(self)
            finally:
                spent = time.thread_time() - start - (meter.collecting - collected)
                meter.record(spent, lambda: repr(self))

        handle._run = run  # type: ignore[method-assign]
        gc.callbacks.append(self._collection)
        try:
            yield self
        finally:
            handle._run = original  # type: ignore[method-assign]
            gc.callbacks.remove(self._collection)


class InProcessServer:
    """The server's application on uvicorn, in a thread of this process, on a free loopback
    port, with its event loop measured by ``meter``. The grace is long: the players of a
    stored game (``long_game``) never connect, and no stand-in plays for them while measured."""

    def __init__(self, data: Path, meter: LoopMeter, *limits: str) -> None:
        config = ServerConfig(
            data=data,
            settings=Settings(bot_delay=0, grace_seconds=3600, pause_seconds=0),
            limits=Limits().with_changes(["off", *limits]),
        )
        self.app = create_app(config)
        self.meter = meter
        self.sock = bind("127.0.0.1", 0)
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, loop="asyncio", log_level="warning", lifespan="on")
        )
        self.thread = threading.Thread(target=self._run, name="server", daemon=True)

    def _run(self) -> None:
        self.meter.thread = threading.get_ident()
        self.server.run(sockets=[self.sock])

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise AssertionError("the server did not start")
            time.sleep(0.01)
        self._warm_up()
        return self

    def _warm_up(self) -> None:
        """One HTTP request and one WebSocket, so that what the framework builds on first use
        (its routes' state) is not counted against the requests measured."""
        import httpx
        from websockets.sync.client import connect

        httpx.get(f"{self.url}/api/health", timeout=30).raise_for_status()
        with (
            connect(f"{self.ws_url}/ws/NOTABLE", open_timeout=30) as ws,
            contextlib.suppress(Exception),
        ):
            ws.recv(timeout=30)

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


def long_game(
    data: Path, actions: int, seed: int = 1, code: str = "LONG22", finished: bool = False
) -> int:
    """Writes an official two-player table ``code`` whose game has ``actions`` random legal
    actions (target score 100,000, so it goes on) into the database of ``data``, both seats
    guests (``p_ada``, ``p_bob``); returns the game's id."""
    rules = ruleset.get("official")
    options = {"players": 2, "target_score": 100_000}
    state = rules.new_game(options, seed)
    rng = random.Random(seed)
    texts: list[str] = []
    seats: list[int] = []
    while len(texts) < actions:
        seat = rules.turn(state)
        action = rng.choice(rules.legal_actions(state, seat))
        rules.apply(state, action)
        texts.append(str(action))
        seats.append(seat)
    db = Database(database_url(None, data))
    migrate(db.engine)
    seated = [StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, "Bob", None, "p_bob")]
    table = StoredTable(
        code=code,
        rules="official",
        options={"target_score": 100_000},
        public=True,
        status="lobby",
        host=0,
        turn_seconds=None,
        games=0,
        created_at=time.time(),
        seats=seated,
    )
    game = StoredGame(
        id=0,
        number=1,
        rules="official",
        options=rules.options_json(rules.new_game(options, seed)),
        seed=seed,
        players=["Ada", "Bob"],
        status="playing",
        result=None,
    )

    def write(session: Any) -> int:
        insert_table(session, table)
        game_id = insert_game(session, code, game, seated)
        rows = [
            {"game_id": game_id, "idx": i, "action": t, "seat": s, "by_bot": False, "at": 0.0}
            for i, (t, s) in enumerate(zip(texts, seats, strict=True))
        ]
        session.execute(insert(ActionRow), rows)
        return game_id

    game_id = db.run_sync(write)
    if finished:
        from sqlalchemy import update

        from dos.server.storage.models import GameRow, TableRow

        def finish(session: Any) -> None:
            session.execute(
                update(GameRow).where(GameRow.id == game_id).values(status="finished", result={})
            )
            session.execute(update(TableRow).where(TableRow.code == code).values(status="expired"))

        db.run_sync(finish)
    db.engine.dispose()
    return game_id
