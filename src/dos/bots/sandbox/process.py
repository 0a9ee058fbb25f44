"""A sandboxed bot's process as the game's process sees it: started, sent JSON lines, read
within a time limit, stopped (``dos.bots.sandbox.child`` is the other end).

A thread reads the child's replies into a queue as they come, so that waiting for one is a
wait on the queue with a timeout, on any platform. How long a reply took is measured by the
caller's clock (``time.monotonic``, or a test's), and a reply later than the limit by that
clock is refused as late, whenever it arrived.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]

COMMAND = (sys.executable, "-m", "dos.bots.sandbox.child")
"""The child's command line: this interpreter, running the child's module."""


@dataclass(frozen=True, slots=True)
class Late:
    """No reply within the limit: ``seconds`` had passed by the caller's clock."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Ended:
    """The child ended (or closed its end) without a reply; ``status``: its exit status."""

    status: int | None


class ChildProcess:
    """One child process and the thread that reads its replies."""

    def __init__(self, command: tuple[str, ...] = COMMAND) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self._replies: queue.Queue[Message | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="sandbox-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                message = {"garbled": line[:200].decode("utf-8", "replace").strip()}
            self._replies.put(message)
        self._replies.put(None)

    def send(self, message: Message) -> bool:
        """Sends one message; ``False`` if the child no longer reads."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
        except OSError:  # a broken pipe: the child has ended
            return False
        return True

    def reply(self, limit: float, clock: Callable[[], float]) -> Message | Late | Ended:
        """The next reply, if it comes within ``limit`` seconds as ``clock`` counts them."""
        began = clock()
        try:
            message = self._replies.get(timeout=max(0.0, limit))
        except queue.Empty:
            return Late(clock() - began)
        taken = clock() - began
        if taken > limit:
            return Late(taken)
        if message is None:
            return Ended(self._status())
        return message

    def _status(self) -> int | None:
        try:
            return self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """Ends the child (killed if it still runs) and closes its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        assert self.process.stdin is not None and self.process.stdout is not None
        with contextlib.suppress(OSError):  # a broken pipe: nothing is left to send
            self.process.stdin.close()
        self._reader.join(timeout=5.0)
        self.process.stdout.close()
