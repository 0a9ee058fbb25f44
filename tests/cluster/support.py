"""Helpers of the cluster tests: a throwaway Redis server (Debian's ``redis-server``)."""

from __future__ import annotations

import queue
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

from server.support import TIMEOUT, free_port


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
