"""Ratings in the server's database: one row per player, rule set and player count, and one
history row per rated game and player (for the rating-over-time plot).

``rate_finished_game`` runs inside the transaction that stores a game's end
(``dos.server.storage.finish_game``), so a game's ratings are committed together with its
result: a crash loses neither, and a game is never rated twice.

Players are guests by their player id and bot levels as ``bot:<level>`` (``bot:hard``): a
person sees where they stand against a level. A seat played by the stand-in bot after its
guest left stays the guest's (``docs/ratings.md``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from dos.ratings.model import MAX_PLAYERS, MIN_PLAYERS, Rating, rate_game
from dos.ratings.ranks import RankError, ranks
from dos.server.models import Base, GamePlayerRow, GameRow

log = logging.getLogger(__name__)

BOT_PREFIX = "bot:"
"""The player id of a bot level is this prefix and the level."""


class RatingRow(Base):
    """A player's rating in one rule set at tables of one size."""

    __tablename__ = "dos_ratings"

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

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("dos_games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(String(48), primary_key=True, index=True)
    rules: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


def seat_player(player_id: str | None, bot: str | None) -> str | None:
    """Who a seat rates: its bot level (``bot:hard``), else its guest.

    >>> seat_player(None, "hard"), seat_player("p_ada", None)
    ('bot:hard', 'p_ada')
    """
    if bot is not None:
        return BOT_PREFIX + bot
    return player_id


def rate_finished_game(session: Session, game_id: int, result: dict[str, Any]) -> bool:
    """Rates the players of a finished game (in the caller's transaction); whether it did.

    A game is not rated when a seat has nobody to rate, when fewer than two players held
    its seats, when it has fewer than 2 or more than 10 seats, or when its result does not
    place every seat (logged: the game's end is stored all the same).
    """
    game = session.get(GameRow, game_id)
    if game is None:
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
    outcomes = rate_game(players, places, current)
    now = time.time()
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
    return True


def _rating_json(row: RatingRow) -> dict[str, Any]:
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
        "bot": row.player_id.startswith(BOT_PREFIX),
    }


def leaderboard(
    session: Session, rules: str, players: int, offset: int, limit: int
) -> tuple[int, list[dict[str, Any]]]:
    """How many players are rated in ``rules`` at tables of ``players``, and ``limit`` of
    them from ``offset``, best rating (mu - 3 sigma) first; each with its place (1: best)."""
    where = (RatingRow.rules == rules, RatingRow.players == players)
    total = session.scalar(select(func.count()).select_from(RatingRow).where(*where)) or 0
    rows = session.scalars(
        select(RatingRow)
        .where(*where)
        .order_by(RatingRow.ordinal.desc(), RatingRow.games.desc(), RatingRow.player_id)
        .offset(offset)
        .limit(limit)
    )
    return total, [
        {"place": offset + index + 1, **_rating_json(row)} for index, row in enumerate(rows)
    ]


def player_ratings(session: Session, player_id: str, games: int) -> dict[str, Any] | None:
    """A player's ratings (per rule set and player count), their last ``games`` rated games
    (newest first) and the history of every rating (oldest first); ``None`` if never rated."""
    ratings = list(
        session.scalars(
            select(RatingRow)
            .where(RatingRow.player_id == player_id)
            .order_by(RatingRow.rules, RatingRow.players)
        )
    )
    if not ratings:
        return None
    history = list(
        session.scalars(
            select(RatingHistoryRow)
            .where(RatingHistoryRow.player_id == player_id)
            .order_by(RatingHistoryRow.at, RatingHistoryRow.game_id)
        )
    )
    points: list[dict[str, Any]] = []
    for h in history:
        after, before = Rating(h.mu_after, h.sigma_after), Rating(h.mu_before, h.sigma_before)
        points.append(
            {
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
        )
    recent = []
    for point in reversed(points[-games:] if games else []):
        game = session.get(GameRow, point["game_id"])
        if game is None:
            continue
        recent.append(
            {
                "game_id": game.id,
                "code": game.table_code,
                "rules": game.rules,
                "players": list(game.players),
                "rank": point["rank"],
                "won": point["rank"] == 0,
                "rating_change": point["change"],
                "at": point["at"],
            }
        )
    return {
        "player_id": player_id,
        "name": max(ratings, key=lambda row: row.updated).name,
        "bot": player_id.startswith(BOT_PREFIX),
        "ratings": [_rating_json(row) for row in ratings],
        "recent": recent,
        "history": points,
    }
