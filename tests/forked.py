"""``dos serve`` processes forked from one that has imported the server already.

The suite starts some seventy servers. Each ``python -m dos serve`` spends most of its start
importing the server (FastAPI, SQLAlchemy, pydantic models, the engine): close to a second of
CPU, on two cores shared by everything else. Here a process of the test worker's own (the
*zygote*) imports it once; each server is a fork of it with its own arguments, environment
and output, and is what ``subprocess.Popen`` would have started in every way the tests see:
its pid takes signals, its output comes on the pipe or file given, and ``ForkedServer``
answers ``poll``, ``wait``, ``terminate``, ``kill`` and ``send_signal`` as ``Popen`` does.

The fork runs ``dos.cli.main`` with the arguments given, after replacing its environment by
the one given. A server whose environment changes what Python itself reads at start
(``PYTHONPATH``) or which rule sets are loaded (``DOS_RULESETS``) is started as a fresh
process instead (``spawn``).

The zygote keeps each fork a zombie once it ends until the test side asks for its status, so
that the pid (and the pidfd the test side waits on) names that process only.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

_ZYGOTE = r"""
import gc, json, os, socket, sys
import dos.cli, dos.house, dos.server.app  # what every server imports: once, here
# ... and what each imports as it starts: the migrations' Alembic, SQLite's dialect, the
# event loop, FastAPI's lazy imports.
import alembic.command, alembic.config, alembic.context, alembic.op, alembic.runtime.migration
import fastapi.telemetry._runtime, pydantic.v1, sqlite3, uvicorn.lifespan.on, uvloop
import sqlalchemy.dialects.sqlite, sqlalchemy.dialects.sqlite.aiosqlite
# Out of the collector's sight: a fork's collections would otherwise walk (and copy) every
# object imported above, again in every server.
gc.freeze()

channel = socket.socket(fileno=int(sys.argv[1]))
os.set_inheritable(channel.fileno(), False)
while True:
    message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 1)
    if not message:
        break
    request = json.loads(message)
    if request["op"] == "reap":
        try:
            _, status = os.waitpid(request["pid"], 0)
            code = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            code = None
        channel.send(json.dumps({"code": code}).encode())
        continue
    pid = os.fork()
    if pid == 0:
        channel.close()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[0], 2)
        for fd in (null, fds[0]):
            os.close(fd)
        sys.stdout.reconfigure(line_buffering=True)
        sys.stderr.reconfigure(line_buffering=True)
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["dos", *request["argv"]]
        code = 1
        try:
            code = dos.cli.main(request["argv"])
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    os.close(fds[0])
    channel.send(json.dumps({"pid": pid}).encode())
"""

_FRESH = ("PYTHONPATH", "DOS_RULESETS")
"""Variables whose change a fork of the zygote would not honour (read at Python's start, or
when the rule sets were loaded)."""


class ForkedServer:
    """A forked ``dos serve``: the part of ``subprocess.Popen`` the tests use."""

    def __init__(self, zygote: Zygote, pid: int, stdout: IO[str] | None) -> None:
        self._zygote = zygote
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._pidfd = os.pidfd_open(pid)
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        return self._ended(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._ended(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(["dos", "serve"], timeout or 0)
        return code

    def _ended(self, timeout: float | None) -> int | None:
        with self._lock:
            if self.returncode is None:
                ready, _, _ = select.select([self._pidfd], [], [], timeout)
                if ready:
                    code = self._zygote.reap(self.pid)
                    self.returncode = -9 if code is None else code
                    os.close(self._pidfd)
            return self.returncode

    def send_signal(self, signal: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal)

    def terminate(self) -> None:
        self.send_signal(15)

    def kill(self) -> None:
        self.send_signal(9)


class Zygote:
    """The worker's process that has imported the server, and forks one on request."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._channel = ours
        self._process = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._lock = threading.Lock()

    def _ask(self, request: dict[str, Any], fds: Sequence[int] = ()) -> dict[str, Any]:
        with self._lock:
            socket.send_fds(self._channel, [json.dumps(request).encode()], list(fds))
            answer: dict[str, Any] = json.loads(self._channel.recv(1 << 16))
            return answer

    def fork(self, argv: Sequence[str], env: Mapping[str, str], out: int) -> int:
        """A fork running ``dos ARGV`` in ``env``, writing to the file descriptor ``out``."""
        pid: int = self._ask({"op": "fork", "argv": list(argv), "env": dict(env)}, [out])["pid"]
        return pid

    def reap(self, pid: int) -> int | None:
        code: int | None = self._ask({"op": "reap", "pid": pid})["code"]
        return code

    def close(self) -> None:
        self._channel.close()
        self._process.wait(30)


class _One:
    """The worker's zygote, started at its first server."""

    zygote: Zygote | None = None
    lock = threading.Lock()


def _the_zygote() -> Zygote:
    with _One.lock:
        if _One.zygote is None:
            _One.zygote = Zygote()
            atexit.register(_One.zygote.close)
        return _One.zygote


def start_server(
    argv: Sequence[str], env: Mapping[str, str], stdout: IO[Any] | None = None
) -> ForkedServer | subprocess.Popen[str]:
    """``dos ARGV`` (``serve ...``) in ``env``: a fork of the zygote, else (``_FRESH``) a fresh
    ``python -m dos``. Its output goes to ``stdout`` (an open file), else to a pipe read as
    text from the returned process's ``stdout``."""
    if any(env.get(name) != os.environ.get(name) for name in _FRESH):
        return subprocess.Popen(
            [sys.executable, "-m", "dos", *argv],
            stdout=stdout if stdout is not None else subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=dict(env),
        )
    if stdout is not None:
        pid = _the_zygote().fork(argv, env, stdout.fileno())
        return ForkedServer(_the_zygote(), pid, None)
    read, write = os.pipe()
    try:
        pid = _the_zygote().fork(argv, env, write)
    finally:
        os.close(write)
    return ForkedServer(_the_zygote(), pid, os.fdopen(read, "r"))
