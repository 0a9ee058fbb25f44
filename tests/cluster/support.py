"""Helpers of the cluster tests: a throwaway Redis server (Debian's ``redis-server``) and
``dos bot-worker`` processes."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from server.support import TIMEOUT, ServerProcess, free_port

READY = 2 * TIMEOUT
"""Seconds a worker may take to start: its fork server loads every job's modules, then each
process the compiled rollouts (seconds; more on a busy machine)."""


class RedisServer:
    """``redis-server`` in a child process on a free loopback port, its files in a temporary
    folder. Nothing is persisted unless ``persistent`` (then an append-only file, fsynced at
    every write, brings the data back after a restart)."""

    def __init__(self, persistent: bool = False) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("no redis-server on the PATH (Debian: redis-server)")
        self.binary = binary
        self.persistent = persistent
        self.folder = Path(tempfile.mkdtemp(prefix="dos-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.output: list[str] = []

    @property
    def url(self) -> str:
        """The server's URL, for ``redis.asyncio.Redis.from_url``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        """Starts the server (again, on the same port after ``stop``); returns its URL once
        it accepts connections."""
        persistence = ["--appendonly", "yes", "--appendfsync", "always"]
        if not self.persistent:
            persistence = ["--appendonly", "no"]
        command = [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.folder),
            "--save",
            "",
            *persistence,
            "--daemonize",
            "no",
            "--logfile",
            "",
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, lines), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=TIMEOUT)
            except queue.Empty:
                self.kill()
                raise AssertionError(
                    "redis-server did not start:\n" + "".join(self.output)
                ) from None
            if line == "":
                raise AssertionError("redis-server exited:\n" + "".join(self.output))
            if "Ready to accept connections" in line:
                return self.url

    def _read(self, process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.output.append(line)
            lines.put(line)
        lines.put("")
        process.stdout.close()

    def stop(self) -> None:
        """Shuts the server down (SIGTERM), then SIGKILL if it does not end; its files stay
        for a restart."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def kill(self) -> None:
        """SIGKILL: the server dies at once, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(TIMEOUT)
        self.process = None

    def restart(self) -> str:
        """Stops the server and starts it again on the same port; returns its URL."""
        self.stop()
        return self.start()

    def remove(self) -> None:
        """Stops the server and removes its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Worker:
    """``dos bot-worker`` in a child process (taking over jobs idle for a second); its log
    is read as it comes."""

    def __init__(self, url: str, name: str) -> None:
        command = [sys.executable, "-m", "dos", "bot-worker", "--redis", url, "--name", name]
        self.url = url
        self.name = name
        self.process = subprocess.Popen(
            [*command, "--claim-after", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.output: list[str] = []
        self.ended = False
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self.output.append(line)
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()
        self.process.stdout.close()

    def count(self, text: str) -> int:
        """How many lines of its log so far hold ``text``."""
        return sum(1 for line in list(self.output) if text in line)

    def wait_for(self, text: str, times: int = 1, timeout: float = TIMEOUT) -> None:
        """Waits until ``times`` lines of its log hold ``text``."""
        with self._changed:
            self._changed.wait_for(lambda: self.ended or self.count(text) >= times, timeout)
        if self.count(text) < times:
            raise AssertionError(f"{self.name} never logged {text!r}:\n{self.log}")

    @property
    def log(self) -> str:
        """Everything it logged so far."""
        return "".join(self.output)

    def kill(self) -> None:
        """SIGKILL, as a machine dies: its running job is left half done."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(TIMEOUT)

    def stop(self) -> int:
        """SIGTERM; returns the exit status."""
        if self.process.poll() is None:
            self.process.terminate()
        return self.process.wait(TIMEOUT)


IN_LOOP_TTL = 1.0
"""The lease TTL of the server processes the ``make`` fixture starts in the test's loop."""


def redis_processes(
    folder: Path, database: str, redis_url: str, count: int, secret: str
) -> list[ServerProcess]:
    """``count`` ``dos serve --redis`` processes of one server (not started), ``p0`` to
    ``p{count - 1}``: one database, one Redis, one secret, a data folder each below
    ``folder``."""
    return [
        ServerProcess(
            folder / f"p{i}",
            database,
            "--redis",
            redis_url,
            "--name",
            f"p{i}",
            env={"DOS_SECRET": secret},
        )
        for i in range(count)
    ]
