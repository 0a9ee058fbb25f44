"""`dos serve`'s server in a thread of the test's own process, for a browser test whose time
must be on the test's clock: the application ``dos serve`` runs (``dos.house.create_app``: the
server and the agent API) on the uvicorn server it runs it on (``uvicorn_server``), at a fixed
loopback port, with the server's time on a ``ManualClock`` that the test moves
(``advance``) instead of waiting. ``stop`` shuts it down as `dos serve` does on SIGTERM (the
clients told goodbye); a new one on the same data folder and port is a restarted server.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn

from dos.house import create_app
from dos.server.app import ServerConfig, bind, uvicorn_server
from dos.server.clock import ManualClock
from dos.server.deals import Deals
from dos.server.net.limits import Limits
from dos.server.tables.settings import Settings

START_SECONDS = 60.0
"""The longest a server may take to start or to stop (real time)."""


@dataclass
class InProcessServer:
    """One server on ``data`` at ``port``, its time on ``clock``, dealing from ``seed``;
    ``start`` and ``stop`` once each."""

    data: Path
    port: int
    clock: ManualClock
    seed: int
    _server: uvicorn.Server | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _ready: threading.Event = field(default_factory=threading.Event)
    _failure: list[BaseException] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> InProcessServer:
        """Starts it; returns once it answers requests."""
        settings = Settings(
            bot_delay=0,
            grace_seconds=3600,
            pause_seconds=0,
            clock=self.clock,
            deals=Deals(seed=self.seed),
        )
        config = ServerConfig(
            data=self.data,
            settings=settings,
            sqlite_synchronous="OFF",
            limits=Limits().with_changes(["off"]),  # every page comes from 127.0.0.1
        )
        self._server = uvicorn_server(create_app(config), config)
        self._thread = threading.Thread(target=self._run, name="server", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_SECONDS) or self._failure:
            self.stop()
            raise AssertionError(f"the server did not start: {self._failure}")
        return self

    def _run(self) -> None:
        assert self._server is not None
        server = self._server
        sock = bind("127.0.0.1", self.port)
        loop = asyncio.new_event_loop()
        self._loop = loop

        async def main() -> None:
            serving = asyncio.create_task(server.serve(sockets=[sock]))
            # uvicorn says it is up by a flag only: looked at on this loop, as `dos serve` does.
            while not server.started and not serving.done():
                await asyncio.sleep(0.01)
            self._ready.set()
            await serving

        try:
            loop.run_until_complete(main())
        except BaseException as error:  # said by ``start``
            self._failure.append(error)
        finally:
            self._ready.set()
            sock.close()
            loop.close()

    def advance(self, seconds: float) -> None:
        """Moves the server's clock ``seconds`` on (on its own event loop): whatever falls
        due meanwhile runs before this returns."""
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(self.clock.advance(seconds), self._loop).result(
            START_SECONDS
        )

    def stop(self) -> None:
        """Shuts it down as `dos serve` does (every client told goodbye); returns once it is
        down and its port free."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(START_SECONDS)
            assert not self._thread.is_alive(), "the server did not stop"
            self._thread = None
