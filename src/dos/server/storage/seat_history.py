"""Who sat in a seat of a table, over time, as the table's records keep it: the seat as it is
now, the authors of its chat lines (``dos_chat_lines``) and the people of its games
(``dos_game_players``). A person who has left a seat is still found there, so that what
another player saw of them (a chat line, the seat at a game) names them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from dos.server.storage.models import ChatLineRow, GamePlayerRow, GameRow, SeatRow


@dataclass(frozen=True, slots=True)
class Occupant:
    """A person who sat in a seat: their player id and the name they sat under."""

    player_id: str
    name: str | None


def seat_occupants(session: Session, code: str, seat: int) -> list[Occupant]:
    """The people who sat in ``seat`` of table ``code``, latest first (each once under each
    name they sat under): the person there now, then those its chat lines and its games
    name, newest first. Bots and spectators are no one's occupants."""
    timed: list[tuple[float, int, Occupant]] = []
    now = session.get(SeatRow, (code, seat))
    if now is not None and now.player_id is not None and now.bot is None:
        timed.append((float("inf"), 0, Occupant(now.player_id, now.name)))
    lines = session.execute(
        select(ChatLineRow.at, ChatLineRow.id, ChatLineRow.player_id, ChatLineRow.name).where(
            ChatLineRow.table_code == code,
            ChatLineRow.seat == seat,
            ChatLineRow.player_id.is_not(None),
        )
    )
    timed += [(at, order, Occupant(pid, name)) for at, order, pid, name in lines if pid]
    games = session.execute(
        select(GameRow.started_at, GameRow.id, GamePlayerRow.player_id, GamePlayerRow.name)
        .join(GameRow, GameRow.id == GamePlayerRow.game_id)
        .where(
            GameRow.table_code == code,
            GamePlayerRow.seat == seat,
            GamePlayerRow.player_id.is_not(None),
            GamePlayerRow.bot.is_(None),
        )
    )
    timed += [(at, order, Occupant(pid, name)) for at, order, pid, name in games if pid]
    timed.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    people: list[Occupant] = []
    for _, _, occupant in timed:
        if occupant not in people:
            people.append(occupant)
    return people


def seat_person(session: Session, code: str, seat: int, name: str | None = None) -> Occupant | None:
    """The person of ``seat`` of table ``code`` that a player means: the latest who sat there
    under ``name`` (the name the seat showed them: a chat line's author, the seat at a game),
    or without a name the latest who sat there (the person there now, if any); ``None``: no
    such table or seat, or no such person."""
    for occupant in seat_occupants(session, code, seat):
        if name is None or occupant.name == name:
            return occupant
    return None
