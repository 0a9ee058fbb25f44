"""The repository of the server's records: its tables, their seats and their games, as
functions of a session (run by ``dos.server.storage.database.Database``: ``await db.call(fn, ...)``
writes, ``await db.read(fn, ...)`` reads).

A table is stored when created, a seat whenever someone sits down or leaves, a game when it is
dealt and when it ends; the actions of a game are committed one by one by the database's
group commits (``dos.server.storage.database.Database.append``), and read back here with their game,
so a table loaded (a restart, another process taking it over) replays its game to where it stood.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dos import records
from dos.ratings.store import rate_finished_game
from dos.records.commitment import commitment
from dos.server.storage.models import ActionRow, GamePlayerRow, GameRow, SeatRow, TableRow

ACTIVE = ("lobby", "playing")
"""Table statuses loaded at start: every unfinished table."""


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
    salt: str | None = None
    """The secret salt of its deal's commitment (``None``: a game from before commitments)."""

    @property
    def commitment(self) -> str | None:
        """The commitment to its seed that everyone at the table is shown from its deal on
        (``dos.records.commitment``); ``None``: a game from before commitments."""
        return None if self.salt is None else commitment(self.seed, self.salt)

    def record(self) -> records.Record:
        """The game as its record (``docs/records.md``), with its commitment; the salt that
        opens it only once the game is finished: never while its deals can matter."""
        return records.Record(
            rules=self.rules,
            options=self.options,
            seed=self.seed,
            actions=self.actions,
            result=self.result,
            players=self.players,
            commitment=self.commitment,
            salt=self.salt if self.status == "finished" else None,
        )


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

    @property
    def active_at(self) -> float:
        """When something last happened at it, as stored (wall clock): its latest game's
        last action, or its deal, or the table's creation."""
        game = self.game
        if game is None:
            return self.created_at
        return max(self.created_at, game.started_at, game.last_at or 0.0)


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


def new_code(taken: set[str]) -> str:
    """A fresh table code: 6 characters that cannot be misread (no 0/O, 1/I/L).

    >>> len(new_code(set()))
    6
    """
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    while True:
        code = "".join(secrets.choice(alphabet) for _ in range(6))
        if code not in taken:
            return code


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
    """Stores which seat hosts the table (the role can pass on: ``dos.server.tables.seating``)."""
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
        deal_salt=game.salt,
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
    the table is no longer loaded or listed (its chat goes with it:
    ``dos.server.tables.chat.expire_with_chat``)."""
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
        salt=row.deal_salt,
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
    """A table with its seats, without its game."""
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
            salt=r.deal_salt,
        )
        for r in rows
    ]


def load_game(session: Session, game_id: int) -> StoredGame | None:
    """One game with its actions, or ``None``."""
    row = session.get(GameRow, game_id)
    return None if row is None else _game(session, row)
