"""The server's database: one worker thread that owns every connection, group commits of
actions, Alembic migrations at start, and the repository of reads and writes.

Every write goes through ``Database``: ``await db.call(fn, ...)`` runs ``fn(session, ...)`` in
the worker thread and commits; ``await db.append(action)`` commits one accepted action. Reads
that players ask for (results, ratings, records) go through ``await db.read(fn, ...)``, on
reader threads with connections of their own: a slow read never queues ahead of an action's
commit, nor behind it. Actions
that arrive while a commit is under way are committed together in the next transaction (a
group commit), so a commit per action costs one disk flush per batch, not per action. A call
returns only after its transaction is committed: the server broadcasts an action only then.

Fencing, for a server of many processes (``dos serve --redis``; docs/deployment.md,
"Ownership and fencing"): a table's owner records its epoch with ``claim_epoch`` before it
commits, and each of its actions carries that epoch (``NewAction.epoch``) and commits only
while the table is at it, so a former owner's actions are refused (``StaleEpochError``) once
another owner has claimed. Only actions are fenced. The single-process server's actions carry
no epoch: stored as 0, not checked.
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
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session

from dos.ratings.store import rate_finished_game
from dos.server.chat import Line, delete_lines, load_lines
from dos.server.models import ActionRow, GamePlayerRow, GameRow, SeatRow, TableRow

T = TypeVar("T")

READERS = 2
"""Reader threads (``Database.read``)."""

CHECKPOINT_SECONDS = 1.0
"""How often the SQLite write-ahead log is copied into the database."""

ACTIVE = ("lobby", "playing")
"""Table statuses loaded at start: every unfinished table."""


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


@dataclass(slots=True)
class StoredSeat:
    """A seat as stored."""

    seat: int
    name: str | None = None
    bot: str | None = None
    player_id: str | None = None


@dataclass(slots=True)
class StoredGame:
    """A game as stored: how to deal it and the actions accepted so far."""

    id: int
    number: int
    rules: str
    options: dict[str, Any]
    seed: int
    players: list[str]
    status: str
    result: dict[str, Any] | None
    actions: list[str] = field(default_factory=list)
    action_seats: list[int] = field(default_factory=list)
    """The seat that made each action."""
    by_bot: list[bool] = field(default_factory=list)
    started_at: float = 0.0
    """When it was dealt (wall clock)."""
    last_at: float | None = None
    """When its last action was committed (wall clock; ``None``: none yet)."""


@dataclass(slots=True)
class StoredTable:
    """A table as stored, with its latest game."""

    code: str
    rules: str
    options: dict[str, Any]
    public: bool
    status: str
    host: int
    turn_seconds: float | None
    games: int
    created_at: float
    seats: list[StoredSeat]
    game: StoredGame | None = None
    rated: bool = True
    """Whether its games update the players' ratings."""
    deal_seed: int | None = None
    """The seed its games are dealt from (``dos.server.deals``); ``None``: at random."""
    chat: list[Line] = field(default_factory=list)
    """The latest lines of its chat, oldest first (``dos.server.chat``)."""

    @property
    def active_at(self) -> float:
        """When something last happened at it, as stored (wall clock): its latest game's
        last action, or its deal, or the table's creation."""
        game = self.game
        if game is None:
            return self.created_at
        return max(self.created_at, game.started_at, game.last_at or 0.0)


@dataclass(frozen=True, slots=True)
class NewAction:
    """One accepted action to commit."""

    game_id: int
    idx: int
    action: str
    seat: int
    by_bot: bool
    epoch: int | None = None
    """The fencing epoch of the table's owner that commits it (``claim_epoch``): the action
    commits only if the table's recorded epoch is this one, else ``StaleEpochError`` is raised
    and nothing of it is stored. ``None``: the single-process server, which owns every
    table; stored as 0 and not checked (the commit runs no fencing statement)."""
    at: float = field(kw_only=True)
    """When it was accepted, on the server's clock (``Clock.time``): its row's time."""


class StaleEpochError(Exception):
    """A write under a fencing epoch that is not the table's: another owner has claimed the
    table since (or this writer never claimed it). Nothing of the write was stored.

    >>> str(StaleEpochError("ABCDEF", 3, 4))
    'table ABCDEF: epoch 3 refused, the table is at epoch 4'
    """

    def __init__(self, code: str, epoch: int, recorded: int | None) -> None:
        self.code = code
        self.epoch = epoch
        self.recorded = recorded
        at = "no such table" if recorded is None else f"the table is at epoch {recorded}"
        super().__init__(f"table {code}: epoch {epoch} refused, {at}")


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


MIGRATION_LOCK = 0x444F535F4D494752
"""The PostgreSQL advisory lock the migrations run under (``migrate``)."""


def migrate(engine: Engine) -> None:
    """Brings the schema up to the newest migration (Alembic, from the installed package).
    On PostgreSQL under an advisory lock held to the end of the migration's transaction:
    processes started together on a new database (many processes' first start) migrate one
    after the other, the later ones finding the schema built."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    folder = resources.files("dos.server").joinpath("migrations")
    with resources.as_file(folder) as path:
        config.set_main_option("script_location", str(path))
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                lock = text("SELECT pg_advisory_xact_lock(:key)")
                connection.execute(lock, {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


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
                _check_epochs(connection, actions)
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


def _check_epochs(connection: Connection, actions: list[NewAction]) -> None:
    """Raises ``StaleEpochError`` unless each fenced action's table is at the action's epoch.

    In the transaction that inserts the actions, before them: a conditional update of the
    table's row (``WHERE epoch = :epoch``, the value left as it is) both checks the epoch and
    locks the row on PostgreSQL until the commit, so a ``claim_epoch`` of a new owner waits
    for this commit and every later write of the former owner finds rowcount 0. SQLite runs
    one writer at a time, which gives the same order."""
    fenced = sorted({(a.game_id, a.epoch) for a in actions if a.epoch is not None})
    for game_id, epoch in fenced:
        code = select(GameRow.table_code).where(GameRow.id == game_id).scalar_subquery()
        held = connection.execute(
            update(TableRow)
            .where(TableRow.code == code, TableRow.epoch == epoch)
            .values(epoch=TableRow.epoch)
        )
        if getattr(held, "rowcount", 0) != 1:
            found = connection.execute(
                select(TableRow.code, TableRow.epoch).where(TableRow.code == code)
            ).first()
            name = str(game_id) if found is None else found[0]
            raise StaleEpochError(name, epoch, None if found is None else found[1])


# --- the repository: functions of a session --------------------------------------------------


def insert_table(session: Session, table: StoredTable) -> None:
    """Stores a new table and its seats."""
    session.add(
        TableRow(
            code=table.code,
            rules=table.rules,
            options=table.options,
            public=table.public,
            status=table.status,
            host=table.host,
            turn_seconds=table.turn_seconds,
            games=table.games,
            created_at=table.created_at,
            rated=table.rated,
            deal_seed=table.deal_seed,
        )
    )
    session.flush()
    for seat in table.seats:
        session.add(
            SeatRow(
                table_code=table.code,
                seat=seat.seat,
                name=seat.name,
                bot=seat.bot,
                player_id=seat.player_id,
            )
        )


def table_epoch(session: Session, code: str) -> int | None:
    """The fencing epoch recorded for a table (0 until an owner claims one), or ``None`` if
    there is no such table: the high-water mark a new owner's epoch must pass
    (``dos.cluster.lease.TableLease.acquire``'s ``floor``)."""
    return session.scalar(select(TableRow.epoch).where(TableRow.code == code))


def claim_epoch(
    session: Session, code: str, epoch: int, owner: str, after: int | None = None
) -> None:
    """Records ``epoch`` as the table's, claimed by ``owner``; from this commit on, only
    actions under ``epoch`` commit at the table (``NewAction.epoch``).

    Guarantees: the recorded epoch never decreases, and each epoch is claimed by one owner
    only. A claim succeeds if ``epoch`` is larger than the recorded one, or equal to it and
    claimed by the same ``owner`` (a repeated claim); otherwise it raises
    ``StaleEpochError`` and changes nothing. ``after``: the claim succeeds only if the
    recorded epoch is still ``after`` (an owner that keeps the table it holds in memory: no
    other owner claimed it, so nothing was committed that it has not seen). Atomic on SQLite
    and PostgreSQL: one conditional update, checked by its rowcount (it waits for a commit of
    the former owner's actions under way)."""
    newer = or_(
        TableRow.epoch < epoch,
        and_(TableRow.epoch == epoch, TableRow.epoch_owner == owner),
    )
    if after is not None:
        newer = and_(newer, TableRow.epoch == after)
    claimed = session.execute(
        update(TableRow).where(TableRow.code == code, newer).values(epoch=epoch, epoch_owner=owner)
    )
    if getattr(claimed, "rowcount", 0) != 1:
        raise StaleEpochError(code, epoch, table_epoch(session, code))


def code_exists(session: Session, code: str) -> bool:
    """Whether a table has this code."""
    return session.get(TableRow, code) is not None


def save_seat(session: Session, code: str, seat: StoredSeat) -> None:
    """Stores who sits in a seat."""
    session.execute(
        update(SeatRow)
        .where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
        .values(name=seat.name, bot=seat.bot, player_id=seat.player_id)
    )


def save_host(session: Session, code: str, host: int) -> None:
    """Stores which seat hosts the table (the role can pass on: ``dos.server.seating``)."""
    session.execute(update(TableRow).where(TableRow.code == code).values(host=host))


def insert_game(
    session: Session,
    code: str,
    game: StoredGame,
    seats: list[StoredSeat],
) -> int:
    """Stores a new game (and the seats it fills), marks the table playing; returns its id.
    Its start is ``game.started_at``, the caller's time (the table's clock)."""
    for seat in seats:
        save_seat(session, code, seat)
    row = GameRow(
        table_code=code,
        number=game.number,
        rules=game.rules,
        options=game.options,
        seed=game.seed,
        players=game.players,
        status="playing",
        result=None,
        started_at=game.started_at,
        finished_at=None,
    )
    session.add(row)
    session.flush()
    for seat in seats:
        session.add(
            GamePlayerRow(
                game_id=row.id,
                seat=seat.seat,
                player_id=seat.player_id,
                name=game.players[seat.seat],
                bot=seat.bot,
            )
        )
    session.execute(
        update(TableRow).where(TableRow.code == code).values(status="playing", games=game.number)
    )
    return row.id


def finish_game(
    session: Session, code: str, game_id: int, result: dict[str, Any], at: float
) -> None:
    """Stores a game's result and marks it and its table finished at ``at`` (the caller's
    time: the table's clock); at a rated table, the players' ratings are updated in the same
    transaction, once (``dos.ratings.store``), their history points at ``at`` too. A table
    dealt from a known seed (``dos.server.deals``) is never rated, whatever it says."""
    finished = session.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.status == "playing")
        .values(status="finished", result=result, finished_at=at)
    )
    session.execute(update(TableRow).where(TableRow.code == code).values(status="finished"))
    rated, deal_seed = session.execute(
        select(TableRow.rated, TableRow.deal_seed).where(TableRow.code == code)
    ).one()
    if getattr(finished, "rowcount", 0) == 1 and rated and deal_seed is None:
        rate_finished_game(session, game_id, result, at)


def expire_table(session: Session, code: str, game_id: int | None, at: float) -> None:
    """Marks a table ``expired`` (nobody came back to it) and its unfinished game, if any,
    ``abandoned`` at ``at`` (the caller's time: the server's clock). Its games stay stored;
    the table is no longer loaded or listed, and its chat is deleted."""
    delete_lines(session, code)
    if game_id is not None:
        session.execute(
            update(GameRow)
            .where(GameRow.id == game_id, GameRow.status == "playing")
            .values(status="abandoned", finished_at=at)
        )
    session.execute(update(TableRow).where(TableRow.code == code).values(status="expired"))


def _game(session: Session, row: GameRow) -> StoredGame:
    game = StoredGame(
        id=row.id,
        number=row.number,
        rules=row.rules,
        options=dict(row.options),
        seed=row.seed,
        players=list(row.players),
        status=row.status,
        result=row.result,
        started_at=row.started_at,
    )
    for action, seat, by_bot, at in session.execute(
        select(ActionRow.action, ActionRow.seat, ActionRow.by_bot, ActionRow.at)
        .where(ActionRow.game_id == row.id)
        .order_by(ActionRow.idx)
    ):
        game.actions.append(action)
        game.action_seats.append(seat)
        game.by_bot.append(by_bot)
        game.last_at = at
    return game


def _bare_table(session: Session, row: TableRow) -> StoredTable:
    """A table with its seats, without its game and its chat."""
    seats = [
        StoredSeat(s.seat, s.name, s.bot, s.player_id)
        for s in session.scalars(
            select(SeatRow).where(SeatRow.table_code == row.code).order_by(SeatRow.seat)
        )
    ]
    return StoredTable(
        code=row.code,
        rules=row.rules,
        options=dict(row.options),
        public=row.public,
        status=row.status,
        host=row.host,
        turn_seconds=row.turn_seconds,
        games=row.games,
        created_at=row.created_at,
        seats=seats,
        rated=row.rated,
        deal_seed=row.deal_seed,
    )


def _table(session: Session, row: TableRow) -> StoredTable:
    stored = _bare_table(session, row)
    latest = session.scalars(
        select(GameRow).where(GameRow.table_code == row.code).order_by(GameRow.number.desc())
    ).first()
    stored.game = None if latest is None else _game(session, latest)
    stored.chat = load_lines(session, row.code)
    return stored


def load_active(session: Session) -> list[StoredTable]:
    """Every unfinished table (lobby or playing), with its latest game and its actions."""
    rows = session.scalars(
        select(TableRow).where(TableRow.status.in_(ACTIVE)).order_by(TableRow.created_at)
    )
    return [_table(session, row) for row in rows]


def active_codes(session: Session) -> list[str]:
    """The codes of every unfinished table (lobby or playing), oldest first: what the
    processes of a server of many look after (``dos.cluster.node``)."""
    rows = session.scalars(
        select(TableRow.code).where(TableRow.status.in_(ACTIVE)).order_by(TableRow.created_at)
    )
    return list(rows)


def public_page(
    session: Session, offset: int, limit: int
) -> tuple[int, list[tuple[StoredTable, int | None]]]:
    """How many public tables are unfinished, and ``limit`` of them from ``offset``, newest
    first, each with its seats (no game) and the id of its latest game (``None``: none yet):
    the lobby's list in a server of many processes (``Service.public_tables``)."""
    where = (TableRow.public.is_(True), TableRow.status.in_(ACTIVE))
    total = session.scalar(select(func.count()).select_from(TableRow).where(*where)) or 0
    rows = session.scalars(
        select(TableRow)
        .where(*where)
        .order_by(TableRow.created_at.desc(), TableRow.code)
        .offset(offset)
        .limit(limit)
    ).all()
    page = []
    for row in rows:
        latest = session.scalar(
            select(GameRow.id)
            .where(GameRow.table_code == row.code)
            .order_by(GameRow.number.desc())
            .limit(1)
        )
        page.append((_bare_table(session, row), latest))
    return total, page


def load_table(session: Session, code: str) -> StoredTable | None:
    """One table by code, or ``None`` (also for an expired table)."""
    row = session.get(TableRow, code)
    return None if row is None or row.status == "expired" else _table(session, row)


def list_games(
    session: Session, code: str, offset: int = 0, limit: int | None = None
) -> tuple[int, list[StoredGame]]:
    """How many games a table has had, and ``limit`` of them (all: ``None``) from
    ``offset``, without their actions, oldest first."""
    where = GameRow.table_code == code
    total = session.scalar(select(func.count()).select_from(GameRow).where(where)) or 0
    rows = session.scalars(
        select(GameRow).where(where).order_by(GameRow.number).offset(offset).limit(limit)
    )
    return total, [
        StoredGame(
            id=r.id,
            number=r.number,
            rules=r.rules,
            options=dict(r.options),
            seed=r.seed,
            players=list(r.players),
            status=r.status,
            result=r.result,
        )
        for r in rows
    ]


def load_game(session: Session, game_id: int) -> StoredGame | None:
    """One game with its actions, or ``None``."""
    row = session.get(GameRow, game_id)
    return None if row is None else _game(session, row)
