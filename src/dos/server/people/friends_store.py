"""The friends' rows, as functions of a session (run by ``dos.server.storage.database.Database``):
follows, friendships, presence and challenges. Each function does its part in one
transaction, so a rule that counts (how many open challenges, one answer to a challenge) holds
whichever process of a server of many runs it. The rules themselves, and the refusals in
words, are the service's (``dos.server.people.friends``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from dos.server.people.account_store import load_account
from dos.server.people.presence import Seen
from dos.server.storage.models import (
    ChallengeRow,
    FollowRow,
    FriendshipRow,
    GamePlayerRow,
    PresenceRow,
    SeatRow,
    TableRow,
)


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as kept (``ChallengeRow``)."""

    id: str
    challenger: str
    challenged: str
    name: str
    rules: str
    bots: list[str]
    rated: bool
    status: str
    created_at: float
    expires_at: float
    answered_at: float | None
    table_code: str | None

    def state(self, now: float) -> str:
        """Its status at ``now``: an open challenge past its time is ``expired``.

        >>> c = Challenge("c", "a", "b", "Ada", "official", [], True, "open", 0.0, 10.0,
        ...               None, None)
        >>> c.state(5.0), c.state(10.0)
        ('open', 'expired')
        """
        return "expired" if self.status == "open" and now >= self.expires_at else self.status


@dataclass(frozen=True, slots=True)
class Related:
    """Another player as one sees them: their id, latest display name, presence as kept."""

    player_id: str
    name: str | None
    seen: Seen | None


@dataclass(frozen=True, slots=True)
class Circle:
    """A player's friends, those they follow, the friend requests to them and from them,
    and whether they hide their presence."""

    friends: list[Related]
    following: list[Related]
    asked_me: list[Related]
    asked_by_me: list[Related]
    hidden: bool


def _challenge(row: ChallengeRow) -> Challenge:
    return Challenge(
        row.id,
        row.challenger,
        row.challenged,
        row.name,
        row.rules,
        list(row.bots),
        row.rated,
        row.status,
        row.created_at,
        row.expires_at,
        row.answered_at,
        row.table_code,
    )


def pair(a: str, b: str) -> tuple[str, str]:
    """The key of a friendship: the lesser id first.

    >>> pair("p_b", "p_a")
    ('p_a', 'p_b')
    """
    return (a, b) if a < b else (b, a)


def is_account(session: Session, player_id: str) -> bool:
    """Whether a passkey or a recovery code keeps ``player_id`` (a guest's id: no)."""
    return load_account(session, player_id).registered


# --- follows and friendships ---------------------------------------------------------------------


def follow(session: Session, follower: str, followed: str, now: float) -> bool:
    """``follower`` follows ``followed``; ``False`` if they did already."""
    if session.get(FollowRow, (follower, followed)) is not None:
        return False
    session.add(FollowRow(follower=follower, followed=followed, at=now))
    return True


def unfollow(session: Session, follower: str, followed: str) -> bool:
    """``follower`` no longer follows ``followed``; whether they did."""
    done = session.execute(
        delete(FollowRow).where(FollowRow.follower == follower, FollowRow.followed == followed)
    )
    return bool(getattr(done, "rowcount", 0))


def count_follows(session: Session, follower: str) -> int:
    """How many players ``follower`` follows."""
    return int(session.scalar(select(func.count()).where(FollowRow.follower == follower)) or 0)


def friendship(session: Session, a: str, b: str) -> FriendshipRow | None:
    """The friendship of ``a`` and ``b``, asked or agreed, if there is one."""
    return session.get(FriendshipRow, pair(a, b))


def count_friendships(session: Session, player: str) -> int:
    """How many friendships (asked or agreed) ``player`` is in."""
    return int(
        session.scalar(
            select(func.count()).where(
                or_(FriendshipRow.first == player, FriendshipRow.second == player)
            )
        )
        or 0
    )


def ask(session: Session, me: str, other: str, now: float) -> str:
    """``me`` asks ``other`` to be friends: ``asked``; ``friends`` when ``other`` had asked
    ``me`` already (both agree); ``already`` when asked or friends before."""
    row = friendship(session, me, other)
    if row is None:
        first, second = pair(me, other)
        session.add(FriendshipRow(first=first, second=second, asked_by=me, agreed=False, at=now))
        return "asked"
    if not row.agreed and row.asked_by == other:
        row.agreed = True
        row.at = now
        return "friends"
    return "already"


def accept(session: Session, me: str, other: str, now: float) -> bool:
    """``me`` agrees to ``other``'s request; ``False`` if ``other`` asked nothing."""
    row = friendship(session, me, other)
    if row is None or row.agreed or row.asked_by != other:
        return False
    row.agreed = True
    row.at = now
    return True


def drop(session: Session, me: str, other: str) -> bool:
    """Ends the friendship of ``me`` and ``other`` however far it went (a request withdrawn
    or declined, a friend removed); whether there was one."""
    first, second = pair(me, other)
    done = session.execute(
        delete(FriendshipRow).where(FriendshipRow.first == first, FriendshipRow.second == second)
    )
    return bool(getattr(done, "rowcount", 0))


def are_friends(session: Session, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` both agreed to be friends."""
    row = friendship(session, a, b)
    return row is not None and row.agreed


def _names(session: Session, ids: Iterable[str]) -> dict[str, str]:
    """Each player's display name: their latest game's, else the newest table's seat they
    took (a player who never finished sitting down to a game), else none."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    latest = (
        select(GamePlayerRow.player_id, func.max(GamePlayerRow.game_id).label("game_id"))
        .where(GamePlayerRow.player_id.in_(wanted))
        .group_by(GamePlayerRow.player_id)
        .subquery()
    )
    rows = session.execute(
        select(GamePlayerRow.player_id, GamePlayerRow.name).join(
            latest,
            and_(
                GamePlayerRow.player_id == latest.c.player_id,
                GamePlayerRow.game_id == latest.c.game_id,
            ),
        )
    )
    names = {str(player): str(name) for player, name in rows if name is not None}
    unnamed = [p for p in wanted if p not in names]
    if unnamed:
        seats = session.execute(
            select(SeatRow.player_id, SeatRow.name)
            .join(TableRow, TableRow.code == SeatRow.table_code)
            .where(SeatRow.player_id.in_(unnamed), SeatRow.name.is_not(None))
            .order_by(TableRow.created_at)
        )
        names.update({str(player): str(name) for player, name in seats})  # the newest wins
    return names


def _seen(session: Session, ids: Iterable[str]) -> dict[str, Seen]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.scalars(select(PresenceRow).where(PresenceRow.player_id.in_(wanted)))
    return {r.player_id: Seen(r.where, r.code, r.seen_at, r.hidden) for r in rows}


def circle(session: Session, me: str) -> Circle:
    """``me``'s friends, follows and requests (each with name and presence as kept)."""
    rows = session.scalars(
        select(FriendshipRow).where(or_(FriendshipRow.first == me, FriendshipRow.second == me))
    ).all()
    friends, asked_me, asked_by_me = [], [], []
    for row in rows:
        other = row.second if row.first == me else row.first
        if row.agreed:
            friends.append(other)
        elif row.asked_by == me:
            asked_by_me.append(other)
        else:
            asked_me.append(other)
    following = list(session.scalars(select(FollowRow.followed).where(FollowRow.follower == me)))
    everyone = [*friends, *asked_me, *asked_by_me, *following]
    names = _names(session, everyone)
    seen = _seen(session, [*friends, *following])
    mine = session.get(PresenceRow, me)

    def related(ids: list[str], with_presence: bool) -> list[Related]:
        return [
            Related(p, names.get(p), seen.get(p) if with_presence else None) for p in sorted(ids)
        ]

    return Circle(
        friends=related(friends, True),
        following=related(following, True),
        asked_me=related(asked_me, False),
        asked_by_me=related(asked_by_me, False),
        hidden=mine is not None and mine.hidden,
    )


# --- presence ------------------------------------------------------------------------------------


def write_presence(session: Session, me: str, where: str, code: str | None, now: float) -> None:
    """``me`` is ``where`` (at table ``code``) at ``now``."""
    row = session.get(PresenceRow, me)
    if row is None:
        session.add(PresenceRow(player_id=me, where=where, code=code, seen_at=now, hidden=False))
    else:
        row.where, row.code, row.seen_at = where, code, now


def set_hidden(session: Session, me: str, hidden: bool, now: float) -> None:
    """``me`` hides their presence (or shows it again)."""
    row = session.get(PresenceRow, me)
    if row is None:
        session.add(PresenceRow(player_id=me, where="site", code=None, seen_at=now, hidden=hidden))
    else:
        row.hidden = hidden


# --- challenges ----------------------------------------------------------------------------------


def open_challenges_by(session: Session, challenger: str, now: float) -> list[Challenge]:
    """The challenges ``challenger`` made that are still open at ``now``."""
    rows = session.scalars(
        select(ChallengeRow).where(
            ChallengeRow.challenger == challenger,
            ChallengeRow.status == "open",
            ChallengeRow.expires_at > now,
        )
    )
    return [_challenge(r) for r in rows]


@dataclass(frozen=True, slots=True)
class Proposal:
    """A challenge asked for: from whom, to whom, and the table: the challenger's display name
    there, the rule set, a bot level per seat after the two players', rated or not."""

    challenger: str
    challenged: str
    name: str
    rules: str
    bots: list[str]
    rated: bool


KEPT_SECONDS = 86400.0
"""How long a challenge is kept after it was made (the answers are told within a minute)."""


def insert_challenge(session: Session, proposal: Proposal, now: float, seconds: float) -> Challenge:
    """A new open challenge, answerable for ``seconds``; the challenger's challenges made more
    than ``KEPT_SECONDS`` ago are forgotten."""
    session.execute(
        delete(ChallengeRow).where(
            ChallengeRow.challenger == proposal.challenger,
            ChallengeRow.created_at < now - KEPT_SECONDS,
        )
    )
    row = ChallengeRow(
        id="c_" + secrets.token_urlsafe(12),
        challenger=proposal.challenger,
        challenged=proposal.challenged,
        name=proposal.name,
        rules=proposal.rules,
        bots=list(proposal.bots),
        rated=proposal.rated,
        status="open",
        created_at=now,
        expires_at=now + seconds,
        answered_at=None,
        table_code=None,
    )
    session.add(row)
    session.flush()
    return _challenge(row)


def challenge(session: Session, challenge_id: str) -> Challenge | None:
    """The challenge with this id."""
    row = session.get(ChallengeRow, challenge_id)
    return None if row is None else _challenge(row)


ANSWERED_BY = {"accepted": "challenged", "declined": "challenged", "cancelled": "challenger"}
"""Who may move an open challenge to each status: the one challenged accepts or declines, the
challenger withdraws."""


def answer(
    session: Session, challenge_id: str, me: str, status: str, now: float
) -> Challenge | None:
    """Moves an open, unexpired challenge to ``status`` (``ANSWERED_BY``: by ``me`` on the
    side that may) in one statement, so two answers cannot both win; ``None`` when no such
    challenge is open to ``me``."""
    side = (
        ChallengeRow.challenged if ANSWERED_BY[status] == "challenged" else ChallengeRow.challenger
    )
    found = session.execute(
        update(ChallengeRow)
        .where(
            ChallengeRow.id == challenge_id,
            side == me,
            ChallengeRow.status == "open",
            ChallengeRow.expires_at > now,
        )
        .values(status=status, answered_at=now)
        .returning(ChallengeRow.id)
    ).first()
    return None if found is None else challenge(session, challenge_id)


def settle(session: Session, challenge_id: str, code: str) -> None:
    """An accepted challenge's table is ``code``."""
    session.execute(
        update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(table_code=code)
    )


def reopen(session: Session, challenge_id: str) -> None:
    """An accepted challenge whose table could not be made is open again."""
    session.execute(
        update(ChallengeRow)
        .where(ChallengeRow.id == challenge_id, ChallengeRow.table_code.is_(None))
        .values(status="open", answered_at=None)
    )


def inbox(
    session: Session, me: str, now: float, since: float
) -> tuple[list[Challenge], list[Challenge]]:
    """The challenges open to ``me`` at ``now``, and ``me``'s own challenges answered, or
    expired, since ``since``."""
    to_me = session.scalars(
        select(ChallengeRow)
        .where(
            ChallengeRow.challenged == me,
            ChallengeRow.status == "open",
            ChallengeRow.expires_at > now,
        )
        .order_by(ChallengeRow.created_at)
    )
    mine = session.scalars(
        select(ChallengeRow)
        .where(
            ChallengeRow.challenger == me,
            or_(
                ChallengeRow.answered_at >= since,
                and_(
                    ChallengeRow.status == "open",
                    ChallengeRow.expires_at <= now,
                    ChallengeRow.expires_at >= since,
                ),
                and_(ChallengeRow.status == "open", ChallengeRow.expires_at > now),
            ),
        )
        .order_by(ChallengeRow.created_at)
    )
    return [_challenge(r) for r in to_me], [_challenge(r) for r in mine]
