"""A tournament's rows, read and written as functions of a session (``Database.call`` and
``Database.read``), and what the rest of the database says about its players and tables.

A pairing is stored only together with a raise of the tournament's version from the one it
was made from (``store_pairing``): of two processes that pair at once, one stores its tables
and the other finds the version moved and stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from dos.ratings.store import RatingRow
from dos.server.storage.models import (
    BlockRow,
    GameRow,
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
)
from dos.tournaments.field import Entrant, Game, Pair


@dataclass(frozen=True, slots=True)
class KeptGame:
    """A tournament's table or bye as stored."""

    id: int
    number: int
    seats: tuple[str, ...]
    table_code: str | None
    ranks: tuple[int, ...] | None
    bye: bool
    paired_at: float
    ended_at: float | None

    @property
    def ended(self) -> bool:
        """Whether it counts already: a bye, or a table whose game ended."""
        return self.bye or self.ranks is not None

    def game(self) -> Game:
        """As the pure formats read it."""
        return Game(self.number, self.seats, self.ranks, self.bye)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A table or bye of a pairing, to store."""

    number: int
    seats: tuple[str, ...]
    table_code: str | None
    bye: bool = False


@dataclass(frozen=True, slots=True)
class Kept:
    """A tournament as stored: its settings, players (in the order they entered), games (in
    the order they ended, those under way last, then by id) and the pairs of its players
    that block each other."""

    id: str
    name: str
    format: str
    rules: str
    options: dict[str, Any]
    seats: int
    rated: bool
    streaks: bool
    organiser: str
    rounds: int | None
    round: int
    starts_at: float | None
    ends_at: float | None
    status: str
    created_at: float
    version: int
    players: tuple[Entrant, ...]
    games: tuple[KeptGame, ...]
    blocked: frozenset[Pair]

    def player(self, player_id: str) -> Entrant | None:
        """The entrant with this id, if any."""
        return next((p for p in self.players if p.player_id == player_id), None)

    def under_way(self) -> list[KeptGame]:
        """The tables whose game has not ended."""
        return [g for g in self.games if not g.ended]


def insert_tournament(session: Session, row: TournamentRow) -> None:
    """Stores a new tournament."""
    session.add(row)


def id_exists(session: Session, tournament_id: str) -> bool:
    """Whether a tournament has this id."""
    return session.get(TournamentRow, tournament_id) is not None


def load(session: Session, tournament_id: str) -> Kept | None:
    """The tournament with this id, or ``None``."""
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        return None
    players = session.scalars(
        select(TournamentPlayerRow)
        .where(TournamentPlayerRow.tournament_id == tournament_id)
        .order_by(TournamentPlayerRow.joined_at, TournamentPlayerRow.player_id)
    ).all()
    games = session.scalars(
        select(TournamentGameRow).where(TournamentGameRow.tournament_id == tournament_id)
    ).all()
    kept = sorted(
        (
            KeptGame(
                g.id,
                g.number,
                tuple(g.seats),
                g.table_code,
                None if g.ranks is None else tuple(g.ranks),
                g.bye,
                g.paired_at,
                g.ended_at,
            )
            for g in games
        ),
        key=lambda g: (g.ended_at is None, g.ended_at or 0.0, g.id),
    )
    ids = [p.player_id for p in players]
    blocks = session.execute(
        select(BlockRow.blocker, BlockRow.blocked).where(
            BlockRow.blocker.in_(ids), BlockRow.blocked.in_(ids)
        )
    )
    return Kept(
        id=row.id,
        name=row.name,
        format=row.format,
        rules=row.rules,
        options=dict(row.options),
        seats=row.seats,
        rated=row.rated,
        streaks=row.streaks,
        organiser=row.organiser,
        rounds=row.rounds,
        round=row.round,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        status=row.status,
        created_at=row.created_at,
        version=row.version,
        players=tuple(Entrant(p.player_id, p.name, p.rating, p.active) for p in players),
        games=tuple(kept),
        blocked=frozenset(frozenset(pair) for pair in blocks),
    )


def page(session: Session, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """How many tournaments there are, and ``limit`` of them from ``offset``: those not
    finished first, newest first."""
    total = session.scalar(select(func.count()).select_from(TournamentRow)) or 0
    counts = (
        select(
            TournamentPlayerRow.tournament_id,
            func.count().label("players"),
        )
        .where(TournamentPlayerRow.active.is_(True))
        .group_by(TournamentPlayerRow.tournament_id)
        .subquery()
    )
    rows = session.execute(
        select(TournamentRow, counts.c.players)
        .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
        .order_by(
            (TournamentRow.status == "finished").asc(),
            TournamentRow.created_at.desc(),
            TournamentRow.id,
        )
        .offset(offset)
        .limit(limit)
    ).all()
    return total, [
        {
            "id": row.id,
            "name": row.name,
            "format": row.format,
            "rules": row.rules,
            "seats": row.seats,
            "rated": row.rated,
            "status": row.status,
            "players": players or 0,
            "rounds": row.rounds,
            "round": row.round,
            "starts_at": row.starts_at,
            "ends_at": row.ends_at,
        }
        for row, players in rows
    ]


def to_tick(session: Session) -> list[str]:
    """The ids of the tournaments that may move by themselves, oldest first: those running,
    and arenas not started (their window opens). A Swiss not started waits for its
    organiser."""
    return list(
        session.scalars(
            select(TournamentRow.id)
            .where(
                or_(
                    TournamentRow.status == "running",
                    and_(TournamentRow.status == "open", TournamentRow.format == "arena"),
                )
            )
            .order_by(TournamentRow.created_at, TournamentRow.id)
        )
    )


def enter(session: Session, tournament_id: str, entrant: Entrant, at: float) -> None:
    """Enters a player (their id, name and rating), or (entered before) makes them active
    again under their name."""
    player_id, name, rating = entrant.player_id, entrant.name, entrant.rating
    row = session.get(TournamentPlayerRow, (tournament_id, player_id))
    if row is None:
        session.add(
            TournamentPlayerRow(
                tournament_id=tournament_id,
                player_id=player_id,
                name=name,
                rating=rating,
                active=True,
                joined_at=at,
            )
        )
    else:
        row.active, row.name = True, name


def set_active(session: Session, tournament_id: str, player_id: str, active: bool) -> bool:
    """Marks a player active or not; ``False`` if they never entered."""
    row = session.get(TournamentPlayerRow, (tournament_id, player_id))
    if row is None:
        return False
    row.active = active
    return True


def store_pairing(
    session: Session,
    tournament_id: str,
    version: int,
    games: list[NewGame],
    at: float,
    *,
    round: int | None = None,
    status: str | None = None,
) -> list[int] | None:
    """Stores ``games`` (and the tournament's new ``round`` and ``status``, when given) if
    the tournament is still at ``version``, raising it; their ids, or ``None`` if another
    pairing came first (nothing stored)."""
    values: dict[str, Any] = {"version": version + 1}
    if round is not None:
        values["round"] = round
    if status is not None:
        values["status"] = status
    moved = session.execute(
        update(TournamentRow)
        .where(TournamentRow.id == tournament_id, TournamentRow.version == version)
        .values(**values)
    )
    if getattr(moved, "rowcount", 0) != 1:
        return None
    rows = [
        TournamentGameRow(
            tournament_id=tournament_id,
            number=game.number,
            seats=list(game.seats),
            table_code=game.table_code,
            bye=game.bye,
            paired_at=at,
            ended_at=at if game.bye else None,
        )
        for game in games
    ]
    session.add_all(rows)
    session.flush()
    return [row.id for row in rows]


def set_status(session: Session, tournament_id: str, status: str) -> None:
    """Sets where a tournament stands (``running``, ``finished``)."""
    session.execute(
        update(TournamentRow)
        .where(TournamentRow.id == tournament_id)
        .values(status=status, version=TournamentRow.version + 1)
    )


def set_table(session: Session, game_id: int, code: str) -> None:
    """The table a tournament's game is played at."""
    session.execute(
        update(TournamentGameRow).where(TournamentGameRow.id == game_id).values(table_code=code)
    )


def store_ranks(session: Session, game_id: int, ranks: list[int], at: float) -> None:
    """A tournament's game ended with these ranks (once: a later call changes nothing)."""
    session.execute(
        update(TournamentGameRow)
        .where(TournamentGameRow.id == game_id, TournamentGameRow.ended_at.is_(None))
        .values(ranks=ranks, ended_at=at)
    )


def rating_of(session: Session, player_id: str, rules: str, seats: int) -> float:
    """A player's rating (ordinal) in ``rules`` at tables of ``seats``; 0 if never rated."""
    ordinal = session.scalar(
        select(RatingRow.ordinal).where(
            RatingRow.player_id == player_id, RatingRow.rules == rules, RatingRow.players == seats
        )
    )
    return float(ordinal) if ordinal is not None else 0.0


def table_game(session: Session, code: str) -> tuple[str, dict[str, Any] | None] | None:
    """The status and result of the first game of a table, ``None`` before it is dealt."""
    row = session.execute(
        select(GameRow.status, GameRow.result).where(
            GameRow.table_code == code, GameRow.number == 1
        )
    ).first()
    return None if row is None else (row[0], row[1])
