"""Ratings in the server's database: one row per player, rule set and player count, and one
history row per rated game and player (for the rating-over-time plot).

``rate_finished_game`` runs inside the transaction that stores a game's end
(``dos.server.storage.table_store.finish_game``), so a game's ratings are committed together with
its result: a crash loses neither, and a game is never rated twice.

Players are guests by their player id and bot levels as ``bot:<level>`` (``bot:hard``): a
person sees where they stand against a level. A seat played by the stand-in bot after its
guest left stays the guest's (``docs/ratings.md``). What a game must be to be rated, and whose
result moves whose rating, is ``dos.ratings.policy``. A player who plays through the agent API
or MCP is marked an AI (``dos_agents``, ``mark_agent``): the people's board leaves them out,
and the bots' board lists them beside the levels (``dos.ratings.policy.board_of``).

The reads (``leaderboard``, ``player_ratings``) are bounded: a page of the board, the latest
``RECENT_GAMES`` games and one page of a player's history, each read along an index.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    and_,
    delete,
    exists,
    func,
    not_,
    or_,
    select,
)
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column

from dos.db.base import Base
from dos.db.games import GamePlayerRow, GameRow, TableRow
from dos.ratings.model import MAX_PLAYERS, MIN_PLAYERS, Rating, rate_against
from dos.ratings.policy import (
    BOT_PREFIX,
    BOTS,
    ESTABLISHED_GAMES,
    PEOPLE,
    established,
    is_bot,
    long_enough,
    opponents_with_standing,
    provisional,
)
from dos.ratings.ranks import RankError, ranks

log = logging.getLogger(__name__)


class RatingRow(Base):
    """A player's rating in one rule set at tables of one size."""

    __tablename__ = "dos_ratings"
    __table_args__ = (Index("ix_dos_ratings_board", "rules", "players", "ordinal"),)

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    """The display name the player last played under."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """mu - 3 sigma, stored to sort the leaderboard by it."""
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """What one rated game did to one player's rating."""

    __tablename__ = "dos_rating_history"
    __table_args__ = (Index("ix_dos_rating_history_player_at", "player_id", "at", "game_id"),)

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("dos_games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class AgentRow(Base):
    """A player who played through the agent API or MCP: an AI on the leaderboards."""

    __tablename__ = "dos_agents"

    player_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    since: Mapped[float] = mapped_column(Float)
    """When it first played as an agent."""


def mark_agent(session: Session, player_id: str, at: float | None = None) -> bool:
    """Marks a player as an AI (kept for good: its ratings are on the bots' board); whether
    it was not marked before."""
    if session.get(AgentRow, player_id) is not None:
        return False
    session.add(AgentRow(player_id=player_id, since=time.time() if at is None else at))
    return True


def is_agent(session: Session, player_id: str) -> bool:
    """Whether a player is marked as an AI."""
    return session.get(AgentRow, player_id) is not None


def seat_player(player_id: str | None, bot: str | None) -> str | None:
    """Who a seat rates: its bot level (``bot:hard``), else its guest.

    >>> seat_player(None, "hard"), seat_player("p_ada", None)
    ('bot:hard', 'p_ada')
    """
    if bot is not None:
        return BOT_PREFIX + bot
    return player_id


def rate_finished_game(
    session: Session, game_id: int, result: dict[str, Any], at: float | None = None
) -> bool:
    """Rates the players of a finished game (in the caller's transaction); whether it moved
    anyone's rating.

    A game is not rated when it is too short (``policy.long_enough``, from its stored
    options), when a seat has nobody to rate, when fewer than two players held its seats,
    when it has fewer than 2 or more than 10 seats, or when its result does not place every
    seat (logged: the game's end is stored all the same). Otherwise each player is rated
    against its opponents with standing only (``policy.opponents_with_standing``); one
    without any is not moved, and the game does not count for it. ``at``: the time of its
    history points (now by default).
    """
    game = session.get(GameRow, game_id)
    if game is None or not long_enough(game.rules, game.options):
        return False
    seats = list(
        session.scalars(
            select(GamePlayerRow)
            .where(GamePlayerRow.game_id == game_id)
            .order_by(GamePlayerRow.seat)
        )
    )
    count = len(game.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS or len(seats) != count:
        return False
    who = [seat_player(s.player_id, s.bot) for s in seats]
    if any(player is None for player in who):
        return False
    players = [player for player in who if player is not None]
    if len(set(players)) < 2:
        return False
    names = {player: seat.name for player, seat in zip(players, seats, strict=True)}
    rows = {
        row.player_id: row
        for row in session.scalars(
            select(RatingRow).where(
                RatingRow.player_id.in_(players),
                RatingRow.rules == game.rules,
                RatingRow.players == count,
            )
        )
    }
    current = {player: Rating(row.mu, row.sigma) for player, row in rows.items()}
    try:
        places = ranks(game.rules, result, count)
    except RankError as error:
        # A result without a place for every seat must not keep the game from finishing.
        log.warning("game %d is not rated: %s", game_id, error)
        return False
    # Standing as it was before this game: a person's tenth game makes them established
    # for the games after it.
    persons = {
        player
        for player, row in rows.items()
        if not is_bot(player) and established(player, row.games)
    }
    outcomes = rate_against(players, places, current, opponents_with_standing(players, persons))
    now = time.time() if at is None else at
    for player, outcome in outcomes.items():
        row = rows.get(player)
        if row is None:
            row = RatingRow(player_id=player, rules=game.rules, players=count, games=0, wins=0)
            session.add(row)
        row.name = names[player]
        row.mu, row.sigma = outcome.after.mu, outcome.after.sigma
        row.ordinal = outcome.after.ordinal
        row.games += 1
        row.wins += outcome.won
        row.updated = now
        session.add(
            RatingHistoryRow(
                game_id=game_id,
                player_id=player,
                rules=game.rules,
                players=count,
                rank=outcome.rank,
                mu_before=outcome.before.mu,
                sigma_before=outcome.before.sigma,
                mu_after=outcome.after.mu,
                sigma_after=outcome.after.sigma,
                at=now,
            )
        )
    return bool(outcomes)


def rerate_all(session: Session) -> int:
    """Rates every finished game of a rated table again, from nothing, in the order the games
    finished, under the rules of ``dos.ratings.policy``; returns how many moved a rating.

    For a database whose ratings were made under earlier rules (before migration ``0003``):
    it forgets every rating and history point, so a rating bought then is gone.
    """
    session.execute(delete(RatingHistoryRow))
    session.execute(delete(RatingRow))
    session.flush()
    games = session.execute(
        select(GameRow.id, GameRow.result, GameRow.finished_at)
        .join(TableRow, TableRow.code == GameRow.table_code)
        .where(GameRow.status == "finished", TableRow.rated)
        .order_by(GameRow.finished_at, GameRow.id)
    ).all()
    rated = 0
    for game_id, result, finished_at in games:
        if result is not None and rate_finished_game(session, game_id, result, finished_at):
            rated += 1
        session.flush()
    return rated


def _rating_json(row: RatingRow, ai: bool) -> dict[str, Any]:
    return {
        "player_id": row.player_id,
        "name": row.name,
        "rules": row.rules,
        "players": row.players,
        "rating": row.ordinal,
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "wins": row.wins,
        "bot": is_bot(row.player_id),
        "ai": ai,
        "provisional": provisional(row.player_id, row.games),
    }


def _listed(board: str) -> Any:
    """Who is on ``board`` (``dos.ratings.policy.board_of``): the established persons who are
    no AI (``people``), or the bot levels and the established AI players (``bots``)."""
    level = RatingRow.player_id.startswith(BOT_PREFIX)
    # Looked up by primary key for each rating row read, not gathered whole.
    marked = aliased(AgentRow)
    agent = exists().where(marked.player_id == RatingRow.player_id).correlate(RatingRow)
    established = RatingRow.games >= ESTABLISHED_GAMES
    if board == BOTS:
        return or_(level, and_(established, agent))
    if board == PEOPLE:
        return and_(established, not_(level), not_(agent))
    raise ValueError(f"unknown board {board!r}")


def leaderboard(
    session: Session, rules: str, players: int, offset: int, limit: int, *, board: str = PEOPLE
) -> tuple[int, list[dict[str, Any]]]:
    """How many players are on ``board`` (``people``, ``bots``) of ``rules`` at tables of
    ``players`` (``dos.ratings.policy.board_of``), and ``limit`` of them from ``offset``, best
    rating (mu - 3 sigma) first; each with its place (1: best) and whether it is an AI."""
    where = (RatingRow.rules == rules, RatingRow.players == players, _listed(board))
    total = session.scalar(select(func.count()).select_from(RatingRow).where(*where)) or 0
    rows = session.execute(
        select(RatingRow, AgentRow.player_id)
        .outerjoin(AgentRow, AgentRow.player_id == RatingRow.player_id)
        .where(*where)
        .order_by(RatingRow.ordinal.desc(), RatingRow.games.desc(), RatingRow.player_id)
        .offset(offset)
        .limit(limit)
    )
    return total, [
        {"place": offset + index + 1, **_rating_json(row, agent is not None)}
        for index, (row, agent) in enumerate(rows)
    ]


def _point(h: RatingHistoryRow) -> dict[str, Any]:
    after, before = Rating(h.mu_after, h.sigma_after), Rating(h.mu_before, h.sigma_before)
    return {
        "game_id": h.game_id,
        "rules": h.rules,
        "players": h.players,
        "rank": h.rank,
        "mu_before": h.mu_before,
        "sigma_before": h.sigma_before,
        "mu": h.mu_after,
        "sigma": h.sigma_after,
        "rating": after.ordinal,
        "change": after.ordinal - before.ordinal,
        "at": h.at,
    }


def history_count(session: Session, player_id: str) -> int:
    """How many rated games a player's history has."""
    count = select(func.count()).where(RatingHistoryRow.player_id == player_id)
    return session.scalar(count) or 0


def history_page(
    session: Session, player_id: str, offset: int, limit: int, total: int
) -> list[dict[str, Any]]:
    """The points ``offset`` to ``offset + limit`` of a player's ``total`` history points,
    oldest first (by time, then game). The index on (player_id, at, game_id) is walked from
    the nearer end, so the newest page costs no more than the oldest."""
    limit = max(0, min(limit, total - offset))
    if limit == 0:
        return []
    mine = RatingHistoryRow.player_id == player_id
    from_end = total - offset - limit
    if from_end < offset:
        newest_first = session.scalars(
            select(RatingHistoryRow)
            .where(mine)
            .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.game_id.desc())
            .offset(from_end)
            .limit(limit)
        )
        return [_point(h) for h in reversed(list(newest_first))]
    oldest_first = session.scalars(
        select(RatingHistoryRow)
        .where(mine)
        .order_by(RatingHistoryRow.at, RatingHistoryRow.game_id)
        .offset(offset)
        .limit(limit)
    )
    return [_point(h) for h in oldest_first]


def recent_games(session: Session, player_id: str, games: int) -> list[dict[str, Any]]:
    """A player's last ``games`` rated games, newest first."""
    rows = session.execute(
        select(RatingHistoryRow, GameRow)
        .join(GameRow, GameRow.id == RatingHistoryRow.game_id)
        .where(RatingHistoryRow.player_id == player_id)
        .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.game_id.desc())
        .limit(games)
    )
    recent = []
    for h, game in rows:
        point = _point(h)
        recent.append(
            {
                "game_id": game.id,
                "code": game.table_code,
                "rules": game.rules,
                "players": list(game.players),
                "rank": h.rank,
                "won": h.rank == 0,
                "rating_change": point["change"],
                "at": h.at,
            }
        )
    return recent


def player_ratings(
    session: Session, player_id: str, games: int, offset: int | None, limit: int
) -> dict[str, Any] | None:
    """A player's ratings (per rule set and player count), their last ``games`` rated games
    (newest first) and one page of their rating history: ``limit`` points from ``offset``
    (the oldest is 0; ``None``: the newest page), oldest first, with ``history_total``;
    ``None`` if never rated."""
    ratings = list(
        session.scalars(
            select(RatingRow)
            .where(RatingRow.player_id == player_id)
            .order_by(RatingRow.rules, RatingRow.players)
        )
    )
    if not ratings:
        return None
    total = history_count(session, player_id)
    start = max(0, total - limit) if offset is None else offset
    ai = is_agent(session, player_id)
    return {
        "player_id": player_id,
        "name": max(ratings, key=lambda row: row.updated).name,
        "bot": is_bot(player_id),
        "ai": ai,
        "established_games": ESTABLISHED_GAMES,
        "ratings": [_rating_json(row, ai) for row in ratings],
        "recent": recent_games(session, player_id, games),
        "history": history_page(session, player_id, start, limit, total),
        "history_total": total,
        "history_offset": start,
        "history_limit": limit,
    }
