"""The server's database: one worker thread that owns every write, and its group commits.

Every write goes through ``Database``: ``await db.call(fn, ...)`` runs ``fn(session, ...)`` in
the worker thread and commits; ``await db.append(action)`` commits one accepted action. Reads
that players ask for (results, ratings, records) go through ``await db.read(fn, ...)``, on
reader threads with connections of their own: a slow read never queues ahead of an action's
commit, nor behind it. Actions that arrive while a commit is under way are committed together
in the next transaction (a group commit), so a commit per action costs one disk flush per
batch, not per action. A call returns only after its transaction is committed: the server
broadcasts an action only then.

What is written lives elsewhere, each with its concept: the schema and its migrations, run as
the database starts (``dos.server.storage.schema``); the tables, seats and games
(``dos.server.storage.table_store``); the epochs that fence a former owner's actions
(``dos.server.storage.fencing``, checked here in each commit of actions); the chat, the accounts,
the ratings, each in its own module, as functions of a session given to ``call`` and ``read``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, insert
from sqlalchemy.orm import Session

from dos.server.storage.fencing import check_epochs
from dos.server.storage.models import ActionRow
from dos.server.storage.schema import migrate

T = TypeVar("T")

READERS = 2
"""Reader threads (``Database.read``)."""

CHECKPOINT_SECONDS = 1.0
"""How often the SQLite write-ahead log is copied into the database."""


def database_url(url: str | None, data: Path) -> str:
    """The URL to use: ``url`` (``postgresql://`` gets the psycopg driver), else the
    ``DATABASE_URL`` variable, else SQLite in the data folder.

    >>> database_url("postgresql://u@h/db", Path("data"))
    'postgresql+psycopg://u@h/db'
    >>> database_url("sqlite:///x.db", Path("data"))
    'sqlite:///x.db'
    """
    chosen = url or os.environ.get("DATABASE_URL") or f"sqlite:///{data / 'dos.sqlite3'}"
    for prefix in ("postgresql://", "postgres://"):
        if chosen.startswith(prefix):
            return "postgresql+psycopg://" + chosen[len(prefix) :]
    return chosen


@dataclass(frozen=True, slots=True)
class NewAction:
    """One accepted action to commit."""

    game_id: int
    idx: int
    action: str
    seat: int
    by_bot: bool
    epoch: int | None = None
    """The fencing epoch of the table's owner that commits it (``dos.server.storage.fencing``): the
    action commits only if the table's recorded epoch is this one, else ``StaleEpochError`` is
    raised and nothing of it is stored. ``None``: the single-process server, which owns every
    table; stored as 0 and not checked (the commit runs no fencing statement)."""
    at: float = field(kw_only=True)
    """When it was accepted, on the server's clock (``Clock.time``): its row's time."""


class _Job:
    __slots__ = ("args", "fn", "future", "loop")

    def __init__(
        self,
        fn: Callable[..., Any] | None,
        args: tuple[Any, ...],
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
    ) -> None:
        self.fn = fn
        self.args = args
        self.loop = loop
        self.future = future


def _resolve(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def make_engine(url: str, sqlite_synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys and the given ``synchronous``."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_synchronous}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            # Checkpoints run in their own thread (``Database``), not in a commit.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


CHECK_SECONDS = 10
"""How long ``check`` waits for a PostgreSQL server to answer."""


class DatabaseAccessError(ValueError):
    """The database cannot be used as named; the message is one line for the host."""


def check(url: str) -> None:
    """Opens one connection to ``url`` (``database_url``'s) and closes it, so that a process
    started with a database it cannot use stops at once with one line, not a traceback:
    raises ``DatabaseAccessError`` for a URL that is not a database the server can use, or a
    database that does not answer or refuses the connection (its password hidden).

    >>> check("mysql://u@h/db")
    Traceback (most recent call last):
    ...
    dos.server.storage.database.DatabaseAccessError: mysql://u@h/db: not a database the \
server can use (sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME)
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

    usable = "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME"
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseAccessError(f"{url!r}: not a database URL ({usable})") from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise DatabaseAccessError(f"{shown}: not a database the server can use ({usable})")
    try:
        if parsed.get_backend_name() == "postgresql":
            engine = create_engine(parsed, connect_args={"connect_timeout": CHECK_SECONDS})
        else:
            engine = make_engine(url)
    except (SQLAlchemyError, ImportError, OSError) as error:
        raise DatabaseAccessError(f"{shown}: {_first_line(error)}") from None
    try:
        with engine.connect():
            pass
    except DBAPIError as error:
        cause = error.orig if error.orig is not None else error
        raise DatabaseAccessError(
            f"the database {shown} did not answer: {_first_line(cause)}"
        ) from None
    except (SQLAlchemyError, OSError) as error:
        raise DatabaseAccessError(
            f"the database {shown} did not answer: {_first_line(error)}"
        ) from None
    finally:
        engine.dispose()


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


class Database:
    """The database behind the server, used from one event loop."""

    def __init__(self, url: str, sqlite_synchronous: str = "FULL") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_synchronous)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._checkpointer: threading.Thread | None = None
        self._stopping = threading.Event()
        self._readers: ThreadPoolExecutor | None = None

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def start(self) -> None:
        """Migrates the schema and starts the worker thread."""
        migrate(self.engine)
        self._thread = threading.Thread(target=self._work, name="dos-db", daemon=True)
        self._thread.start()
        if not self._in_memory():
            self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="dos-db-read")
        path = self._sqlite_path()
        if path is not None:
            self._stopping.clear()
            self._checkpointer = threading.Thread(
                target=self._checkpoint, args=(path,), name="dos-db-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _sqlite_path(self) -> str | None:
        if self.dialect != "sqlite":
            return None
        path = self.url.split("///", 1)[-1]
        return path if path and path != ":memory:" else None

    def _in_memory(self) -> bool:
        """Whether the database lives in one connection's memory (then reads share the
        worker's connection)."""
        return self.dialect == "sqlite" and self._sqlite_path() is None

    def _checkpoint(self, path: str) -> None:
        """Copies the write-ahead log into the database every second, beside the commits
        (SQLite would otherwise do it inside a commit, which then waits for it)."""
        import sqlite3

        connection = sqlite3.connect(path, check_same_thread=False)
        try:
            connection.execute("PRAGMA busy_timeout=5000")
            while not self._stopping.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            with contextlib.suppress(sqlite3.Error):
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            connection.close()

    def close(self) -> None:
        """Finishes the queued work, stops the worker and closes the connections."""
        if self._readers is not None:
            self._readers.shutdown(wait=True, cancel_futures=True)
            self._readers = None
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()
            self._thread = None
        if self._checkpointer is not None:
            self._stopping.set()
            self._checkpointer.join()
            self._checkpointer = None
        self.engine.dispose()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs ``fn(session, *args)`` in the worker, commits, and returns its result."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(fn, args, loop, future))
        return await future

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs ``fn(session, *args)`` on a reader thread, writes nothing, and returns its
        result: beside the worker, so a read never waits for a commit nor holds one up."""
        if self._readers is None:
            return await self.call(fn, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, functools.partial(self._read, fn, args))

    def _read(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        with Session(self.engine) as session:
            try:
                return fn(session, *args)
            finally:
                session.rollback()

    async def append(self, action: NewAction) -> None:
        """Commits one accepted action (with whatever else is waiting: a group commit)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put(_Job(None, (action,), loop, future))
        await future

    def run_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs ``fn(session, *args)`` here and commits (before the worker starts, or in tests)."""
        with Session(self.engine) as session:
            value = fn(session, *args)
            session.commit()
            return value

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            batch = [job]
            with contextlib.suppress(queue.Empty):
                while True:
                    batch.append(self._jobs.get_nowait())
            stop = False
            appends: list[_Job] = []
            for item in batch:
                if item is None:
                    stop = True
                    continue
                if item.fn is None:
                    appends.append(item)
                    continue
                self._flush(appends)
                appends = []
                self._run(item)
            self._flush(appends)
            if stop:
                return

    def _run(self, job: _Job) -> None:
        assert job.fn is not None
        try:
            with Session(self.engine) as session:
                value = job.fn(session, *job.args)
                session.commit()
        except Exception as error:
            job.loop.call_soon_threadsafe(_resolve, job.future, None, error)
        else:
            job.loop.call_soon_threadsafe(_resolve, job.future, value, None)

    def _flush(self, jobs: list[_Job]) -> None:
        if not jobs:
            return
        actions: list[NewAction] = [job.args[0] for job in jobs]
        rows = [
            {
                "game_id": a.game_id,
                "idx": a.idx,
                "action": a.action,
                "seat": a.seat,
                "by_bot": a.by_bot,
                "at": a.at,
                "epoch": a.epoch or 0,
            }
            for a in actions
        ]
        error: Exception | None = None
        try:
            with self.engine.begin() as connection:
                check_epochs(
                    connection, [(a.game_id, a.epoch) for a in actions if a.epoch is not None]
                )
                connection.execute(_INSERT_ACTION, rows)
        except Exception as failure:
            error = failure
        if error is not None and len(jobs) > 1:
            # One bad row must not fail the others: commit them one by one.
            for job in jobs:
                self._flush([job])
            return
        for job in jobs:
            job.loop.call_soon_threadsafe(_resolve, job.future, None, error)


_INSERT_ACTION = insert(ActionRow)
