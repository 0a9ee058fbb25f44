"""The friends' endpoints (``/api/friends``, docs/friends.md): following, friendships,
presence and challenges. Each reads who asks from the player token of its ``Authorization``
header (an account's: ``dos.server.people.friends.Friends.member``) and hands the rest to the
service; accepting a challenge makes its table here, with the service's own ``create`` (the
challenger hosts, at seat 0) and ``join`` (the friend, at seat 1).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi import Path as PathParam

from dos import ruleset
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters, client_address
from dos.server.net.limits import limited as limits_dependency
from dos.server.people.friends import Friends
from dos.server.people.friends_bodies import (
    AcceptChallenge,
    ChallengeInfo,
    Done,
    FriendsOverview,
    Inbox,
    NewChallenge,
    PresenceSetting,
    Pulse,
)
from dos.server.people.friends_store import Proposal
from dos.server.protocol.http_bodies import CreateTable, JoinTable, SeatGrant
from dos.server.protocol.refusals import RefusedError
from dos.server.service import Service

Authorization = Annotated[str | None, Header(max_length=2048)]
"""``Bearer PLAYER_TOKEN``."""
PlayerId = Annotated[str, PathParam(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player id in a path."""
ChallengeId = Annotated[str, PathParam(min_length=1, max_length=24, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A challenge's id in a path."""


def _refused(error: RefusedError) -> Exception:
    """A table refused to an accepted challenge (the accepting client's ``create`` or
    ``join`` limit, a busy server): 429 with ``Retry-After``, else 409 with its code."""
    if error.code == "rate_limited":
        return HTTPException(429, error.message, headers={"Retry-After": str(error.retry or 1)})
    return ApiError(409, error.code, error.message, error.field)


def checked_terms(body: NewChallenge) -> tuple[str, list[str], bool]:
    """The table a challenge asks for, as the server will make it: its rule set, its bots'
    levels (each one the rule set's bots play) and whether it is rated (only where the rule
    set rates games); refuses ``bad_request`` naming the field.

    >>> checked_terms(NewChallenge(to="p_x", name="Ada", rules="official", bots=["easy"]))
    ('official', ['easy'], False)
    """
    entry = ruleset.find(body.rules)
    if entry is None:
        known = ", ".join(ruleset.names())
        raise ApiError(400, "bad_request", f"rules: unknown rule set (known: {known})", "rules")
    levels = entry.levels()
    for index, level in enumerate(body.bots):
        if level not in levels:
            raise ApiError(
                400, "bad_request", f"bots.{index}: unknown bot level {level!r}", f"bots.{index}"
            )
    return entry.name, list(body.bots), body.rated and entry.rated


def friends_router(service: Service, friends: Friends, counters: Counters) -> APIRouter:
    """The friends' endpoints: reads and pulses count against the ``lookup`` limit,
    changes against ``accounts``."""
    router = APIRouter(prefix="/api/friends", tags=["friends"])
    looked = [limits_dependency(counters, "lookup")]
    counted = [limits_dependency(counters, "accounts")]

    @router.get("", response_model=FriendsOverview, dependencies=looked)
    async def overview(authorization: Authorization = None) -> dict[str, Any]:
        """Your friends and those you follow (with their presence), the friend requests to
        you and from you, and whether you hide your presence."""
        return await friends.overview(await friends.member(authorization))

    @router.post("/pulse", response_model=Inbox, dependencies=looked)
    async def pulse(body: Pulse, authorization: Authorization = None) -> dict[str, Any]:
        """Says where this page is (your presence), and answers the challenges open to you
        and yours, open or answered lately; pulse again after ``poll_ms``."""
        me = await friends.member(authorization)
        return await friends.pulse(me, body.where, body.code)

    @router.put("/presence", response_model=Done, dependencies=counted)
    async def presence(
        body: PresenceSetting, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Hides your presence from everyone (shown offline), or shows it again."""
        return await friends.hide(await friends.member(authorization), body.hidden)

    @router.put("/follows/{player_id}", response_model=Done, dependencies=counted)
    async def follow(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Follows a player: you see their presence."""
        return await friends.follow(await friends.member(authorization), player_id)

    @router.delete("/follows/{player_id}", response_model=Done, dependencies=counted)
    async def unfollow(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Stops following a player."""
        return await friends.unfollow(await friends.member(authorization), player_id)

    @router.post("/challenges", response_model=ChallengeInfo, status_code=201, dependencies=counted)
    async def challenge(body: NewChallenge, authorization: Authorization = None) -> dict[str, Any]:
        """Challenges a friend to a new table (the rule set, bots for the seats after yours
        and theirs, rated or not); they may accept it for two minutes."""
        me = await friends.member(authorization)
        rules, bots, rated = checked_terms(body)
        return await friends.challenge(Proposal(me, body.to, body.name, rules, bots, rated))

    @router.post(
        "/challenges/{challenge_id}/accept",
        response_model=SeatGrant,
        dependencies=counted,
    )
    async def accept(
        challenge_id: ChallengeId,
        body: AcceptChallenge,
        http: Request,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Accepts a challenge to you: its table is made, the challenger its host at seat 0,
        you at seat 1; answers your seat (the challenger's next pulse brings theirs)."""
        me = await friends.member(authorization)
        token = (authorization or "").strip().partition(" ")[2].strip()
        taken = await friends.take(me, challenge_id)
        client = client_address(http.client)
        try:
            host = await service.create(
                CreateTable(
                    name=taken.name,
                    rules=taken.rules,
                    seats=[None, None, *taken.bots],
                    rated=taken.rated,
                    player_token=service.signer.player_token(taken.challenger),
                ),
                client,
            )
            grant = await service.join(
                host["code"], JoinTable(name=body.name, seat=1, player_token=token), client
            )
        except RefusedError as error:
            await friends.reopen(challenge_id)
            raise _refused(error) from None
        await friends.settle(challenge_id, grant["code"])
        return grant

    @router.post(
        "/challenges/{challenge_id}/decline", response_model=ChallengeInfo, dependencies=counted
    )
    async def decline(
        challenge_id: ChallengeId, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Declines a challenge to you (the challenger is told)."""
        return await friends.decline(await friends.member(authorization), challenge_id)

    @router.delete("/challenges/{challenge_id}", response_model=ChallengeInfo, dependencies=counted)
    async def cancel(
        challenge_id: ChallengeId, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Withdraws a challenge of yours that is still open."""
        return await friends.cancel(await friends.member(authorization), challenge_id)

    @router.put("/{player_id}", response_model=Done, dependencies=counted)
    async def befriend(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Asks a player to be friends, or accepts their request (``status``: ``asked``,
        ``friends``, ``already``)."""
        return await friends.befriend(await friends.member(authorization), player_id)

    @router.delete("/{player_id}", response_model=Done, dependencies=counted)
    async def unfriend(player_id: PlayerId, authorization: Authorization = None) -> dict[str, Any]:
        """Declines or withdraws a friend request, or ends a friendship."""
        return await friends.unfriend(await friends.member(authorization), player_id)

    return router
