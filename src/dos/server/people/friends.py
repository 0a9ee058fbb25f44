"""Friends: following a player, friendships both agree to, presence, and challenges between
friends (docs/friends.md).

The rules, each checked here before a row changes:

- Only accounts take part (a passkey or a recovery code keeps the player,
  ``dos.server.people.account_store``): a guest is refused ``sign_in_needed``, and so is any
  request about a guest (``no_player``). Who asks is the player token's player, never a body's.
- Following is one-sided: who follows a player sees their presence. Being friends takes
  both: one asks, the other accepts (or declines); either may end it. Two players of whom
  one blocks the other (``dos.server.people.blocks``) can neither become friends nor
  challenge each other.
- Presence (``dos.server.people.presence``) is seen by friends and followers only, and by
  nobody when its player hides it.
- A challenge goes to a friend only, at most ``MAX_OPEN_CHALLENGES`` open at once per
  challenger and one per friend; it can be answered for ``CHALLENGE_SECONDS``. Answering takes
  it in one statement (``friends_store.answer``): two answers never both win.

Everything is kept in the database, and each rule that counts is checked in the transaction
that writes: every process of a server of many reads and enforces the same, whichever one a
player's page reaches. Making the table of an accepted challenge is the endpoint's
(``dos.server.http.friends``), over the service's own ``create`` and ``join``.
"""

from __future__ import annotations

from typing import Any

from dos.server.clock import Clock
from dos.server.net.errors import ApiError
from dos.server.people import blocks
from dos.server.people import friends_store as store
from dos.server.people.accounts import Accounts
from dos.server.people.auth import Signer
from dos.server.people.friends_store import Challenge, Proposal, Related
from dos.server.people.presence import (
    PULSE_SECONDS,
    WAITING_PULSE_SECONDS,
    Shown,
    needs_writing,
    shown,
)
from dos.server.storage.database import Database

CHALLENGE_SECONDS = 120.0
"""How long a challenge can be accepted."""
OUTCOME_SECONDS = 60.0
"""How long a challenger's pulses still bring back a challenge answered (or expired)."""
MAX_OPEN_CHALLENGES = 3
"""The most challenges one player has open at once."""
MAX_FOLLOWS = 500
"""The most players one player follows."""
MAX_FRIENDSHIPS = 500
"""The most friendships (asked or agreed) one player is in."""
MEMBER_SECONDS = 300.0
"""How long this process trusts that a player it found to be an account still is one."""
KEPT_PLAYERS = 20_000
"""The most players this process remembers (membership, last presence written) at once."""


def _presence(seen: Shown) -> dict[str, Any]:
    return {"state": seen.state, "code": seen.code}


def challenge_info(challenge: Challenge, now: float) -> dict[str, Any]:
    """A challenge as the endpoints answer it (``ChallengeInfo``)."""
    return {
        "id": challenge.id,
        "challenger": challenge.challenger,
        "challenged": challenge.challenged,
        "name": challenge.name,
        "rules": challenge.rules,
        "bots": challenge.bots,
        "rated": challenge.rated,
        "status": challenge.state(now),
        "expires_at": challenge.expires_at,
        "code": challenge.table_code,
    }


class Friends:
    """The friends' rules over the server's database; who asks comes from ``accounts``
    (their player token)."""

    def __init__(self, db: Database, accounts: Accounts, signer: Signer, clock: Clock) -> None:
        self.db = db
        self.accounts = accounts
        self.signer = signer
        self.clock = clock
        self._members: dict[str, float] = {}
        self._written: dict[str, tuple[str, str | None, float]] = {}

    def _now(self) -> float:
        return self.clock.time()

    @staticmethod
    def _bounded(kept: dict[str, Any]) -> None:
        if len(kept) >= KEPT_PLAYERS:
            kept.clear()

    async def member(self, authorization: str | None) -> str:
        """The player of the request's token, who must be an account: 401 without a valid
        token, 403 ``sign_in_needed`` for a guest."""
        me = self.accounts.me(authorization).player_id
        now = self.clock.monotonic()
        if now - self._members.get(me, -MEMBER_SECONDS) < MEMBER_SECONDS:
            return me
        if not await self.db.read(store.is_account, me):
            raise ApiError(
                403,
                "sign_in_needed",
                "friends are for players kept by a passkey or a recovery code: sign in",
                "authorization",
            )
        self._bounded(self._members)
        self._members[me] = now
        return me

    async def _other(self, me: str, other: str) -> None:
        """Refuses ``other`` when it is ``me`` or not an account."""
        if other == me:
            raise ApiError(400, "not_yourself", "player_id: that is you", "player_id")
        if not await self.db.read(store.is_account, other):
            raise ApiError(404, "no_player", "player_id: no account has this id", "player_id")

    # --- follows and friendships --------------------------------------------------------------

    async def follow(self, me: str, other: str) -> dict[str, Any]:
        """``me`` follows ``other`` (at most ``MAX_FOLLOWS`` players)."""
        await self._other(me, other)
        return {"changed": await self.db.call(self._follow, me, other, self._now())}

    @staticmethod
    def _follow(session: Any, me: str, other: str, now: float) -> bool:
        if store.count_follows(session, me) >= MAX_FOLLOWS:
            raise ApiError(409, "too_many_follows", f"you follow {MAX_FOLLOWS} players already")
        return store.follow(session, me, other, now)

    async def unfollow(self, me: str, other: str) -> dict[str, Any]:
        """``me`` stops following ``other``."""
        return {"changed": await self.db.call(store.unfollow, me, other)}

    async def befriend(self, me: str, other: str) -> dict[str, Any]:
        """``me`` asks ``other`` to be friends, or accepts their request: ``status`` says
        which (``asked``, ``friends``, ``already``)."""
        await self._other(me, other)
        status = await self.db.call(self._ask, me, other, self._now())
        return {"changed": status != "already", "status": status}

    @staticmethod
    def _ask(session: Any, me: str, other: str, now: float) -> str:
        if blocks.between(session, me, other):
            raise ApiError(
                403, "blocked_player", "player_id: one of you blocks the other", "player_id"
            )
        if store.friendship(session, me, other) is None:
            for player in (me, other):
                if store.count_friendships(session, player) >= MAX_FRIENDSHIPS:
                    raise ApiError(
                        409,
                        "too_many_friends",
                        f"a player has at most {MAX_FRIENDSHIPS} friends and requests",
                    )
        return store.ask(session, me, other, now)

    async def unfriend(self, me: str, other: str) -> dict[str, Any]:
        """Ends ``me``'s friendship with ``other``: a request withdrawn or declined, a
        friend removed."""
        return {"changed": await self.db.call(store.drop, me, other)}

    async def overview(self, me: str) -> dict[str, Any]:
        """``me``'s friends, follows and requests, with the presence each may be seen with."""
        circle = await self.db.read(store.circle, me)
        now = self._now()

        def person(related: Related, with_presence: bool) -> dict[str, Any]:
            out: dict[str, Any] = {"player_id": related.player_id, "name": related.name}
            if with_presence:
                out["presence"] = _presence(shown(related.seen, now))
            return out

        return {
            "friends": [person(r, True) for r in circle.friends],
            "following": [person(r, True) for r in circle.following],
            "requests_in": [person(r, False) for r in circle.asked_me],
            "requests_out": [person(r, False) for r in circle.asked_by_me],
            "hidden": circle.hidden,
        }

    # --- presence -------------------------------------------------------------------------------

    async def hide(self, me: str, hidden: bool) -> dict[str, Any]:
        """``me`` hides their presence from everyone (or shows it again)."""
        await self.db.call(store.set_hidden, me, hidden, self._now())
        return {"changed": True, "status": "hidden" if hidden else "shown"}

    async def pulse(self, me: str, where: str, code: str | None) -> dict[str, Any]:
        """A page of ``me``'s says where it is: kept as their presence (written when it says
        something new, else every ``REFRESH_SECONDS``); answers the challenges open to them
        and their own, open or answered lately (accepted: with their seat), and when to
        pulse again (sooner while a challenge of theirs awaits its answer)."""
        code = code.upper() if code and where != "site" else None
        now = self._now()
        if needs_writing(self._written.get(me), where, code, now):
            await self.db.call(store.write_presence, me, where, code, now)
            self._bounded(self._written)
            self._written[me] = (where, code, now)
        to_me, mine = await self.db.read(store.inbox, me, now, now - OUTCOME_SECONDS)
        waiting = any(c.state(now) == "open" for c in mine)
        return {
            "challenges": [challenge_info(c, now) for c in to_me],
            "outcomes": [self._outcome(c, now) for c in mine],
            "poll_ms": round((WAITING_PULSE_SECONDS if waiting else PULSE_SECONDS) * 1000),
        }

    def _outcome(self, challenge: Challenge, now: float) -> dict[str, Any]:
        landing = None
        if challenge.state(now) == "accepted" and challenge.table_code is not None:
            code = challenge.table_code
            landing = {
                "code": code,
                "seat": 0,
                "token": self.signer.seat_token(code, 0, challenge.challenger),
            }
        return {"challenge": challenge_info(challenge, now), "landing": landing}

    # --- challenges -----------------------------------------------------------------------------

    async def challenge(self, proposal: Proposal) -> dict[str, Any]:
        """A new challenge from ``proposal.challenger`` to their friend (the table's rule set
        and bot levels are checked by the caller)."""
        await self._other(proposal.challenger, proposal.challenged)
        made = await self.db.call(self._challenge, proposal, self._now())
        return challenge_info(made, self._now())

    @staticmethod
    def _challenge(session: Any, proposal: Proposal, now: float) -> Challenge:
        me, to = proposal.challenger, proposal.challenged
        if not store.are_friends(session, me, to):
            raise ApiError(403, "not_friends", "to: you can challenge only your friends", "to")
        if blocks.between(session, me, to):
            raise ApiError(403, "blocked_player", "to: one of you blocks the other", "to")
        open_now = store.open_challenges_by(session, me, now)
        if any(c.challenged == to for c in open_now):
            raise ApiError(409, "challenge_open", "to: your challenge to them is still open", "to")
        if len(open_now) >= MAX_OPEN_CHALLENGES:
            raise ApiError(
                409,
                "too_many_challenges",
                f"you have {MAX_OPEN_CHALLENGES} challenges open already: wait for an answer",
            )
        return store.insert_challenge(session, proposal, now, CHALLENGE_SECONDS)

    async def take(self, me: str, challenge_id: str) -> Challenge:
        """``me`` accepts a challenge to them: it is theirs alone from now (404
        ``no_challenge`` when it is not open to them: answered, expired, withdrawn, or
        another's)."""
        taken = await self.db.call(store.answer, challenge_id, me, "accepted", self._now())
        if taken is None:
            raise ApiError(
                404, "no_challenge", "this challenge is no longer open to you", "challenge_id"
            )
        return taken

    async def settle(self, challenge_id: str, code: str) -> None:
        """The table of an accepted challenge was made: ``code``."""
        await self.db.call(store.settle, challenge_id, code)

    async def reopen(self, challenge_id: str) -> None:
        """The table of an accepted challenge could not be made: it is open again."""
        await self.db.call(store.reopen, challenge_id)

    async def decline(self, me: str, challenge_id: str) -> dict[str, Any]:
        """``me`` declines a challenge to them."""
        return await self._close(me, challenge_id, "declined")

    async def cancel(self, me: str, challenge_id: str) -> dict[str, Any]:
        """``me`` withdraws a challenge of theirs."""
        return await self._close(me, challenge_id, "cancelled")

    async def _close(self, me: str, challenge_id: str, status: str) -> dict[str, Any]:
        done = await self.db.call(store.answer, challenge_id, me, status, self._now())
        if done is None:
            raise ApiError(
                404, "no_challenge", "this challenge is no longer open to you", "challenge_id"
            )
        return challenge_info(done, self._now())
