"""``/api/tournaments``: list, create, view (the standings), join, leave, and the organiser's
start of a Swiss round, drop and add; a player's seat at their table under way
(docs/tournaments.md).

Who asks is the player of the body's ``player_token``, never a name or id the body claims.
Every request counts as a ``lookup`` of the client; creating one also as a ``create``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.protocol.refusals import RefusedError
from dos.server.tournaments.bodies import CreateTournament, Entry, Organised, Signed
from dos.server.tournaments.service import PAGE, Tournaments

TournamentId = Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z0-9]+$")]
"""A tournament's id in a path."""

STATUS = {
    "bad_request": 400,
    "bad_token": 401,
    "expired_token": 401,
    "not_organiser": 403,
    "banned": 403,
    "no_tournament": 404,
    "not_entered": 409,
    "bad_state": 409,
}
"""The HTTP status of each refusal (400 for the others)."""


def _refused(error: RefusedError) -> ApiError:
    return ApiError(STATUS.get(error.code, 400), error.code, error.message, error.field)


def tournaments_router(tournaments: Tournaments, counters: Counters) -> APIRouter:
    """The tournaments' endpoints."""
    router = APIRouter(prefix="/api/tournaments")
    lookup = [limits_dependency(counters, "lookup")]
    creating = [limits_dependency(counters, "lookup", "create")]

    @router.get("", dependencies=lookup)
    async def listed(
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
        limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE,
    ) -> dict[str, Any]:
        """The tournaments, those not finished first, newest first."""
        return await tournaments.page(offset, limit)

    @router.post("", status_code=201, dependencies=creating)
    async def create(request: CreateTournament) -> dict[str, Any]:
        """A new tournament, organised by the asking player."""
        try:
            return await tournaments.create(request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.get("/{tournament_id}", dependencies=lookup)
    async def view(tournament_id: TournamentId) -> dict[str, Any]:
        """A tournament, its standings and its tables, brought up to date."""
        try:
            await tournaments.tick(tournament_id)
            return await tournaments.view(tournament_id)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/join", dependencies=lookup)
    async def join(tournament_id: TournamentId, request: Entry) -> dict[str, Any]:
        """Enters the asking player (or brings them back)."""
        try:
            return await tournaments.join(tournament_id, request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/leave", dependencies=lookup)
    async def leave(tournament_id: TournamentId, request: Signed) -> dict[str, Any]:
        """The asking player is paired no more."""
        try:
            return await tournaments.leave(tournament_id, request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/start", dependencies=lookup)
    async def start(tournament_id: TournamentId, request: Signed) -> dict[str, Any]:
        """The organiser starts a Swiss's next round."""
        try:
            return await tournaments.start_round(tournament_id, request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/drop", dependencies=lookup)
    async def drop(tournament_id: TournamentId, request: Organised) -> dict[str, Any]:
        """The organiser drops a player."""
        try:
            return await tournaments.drop(tournament_id, request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/add", dependencies=lookup)
    async def add(tournament_id: TournamentId, request: Organised) -> dict[str, Any]:
        """The organiser adds a player."""
        try:
            return await tournaments.add(tournament_id, request)
        except RefusedError as error:
            raise _refused(error) from None

    @router.post("/{tournament_id}/seat", dependencies=lookup)
    async def seat(tournament_id: TournamentId, request: Signed) -> dict[str, Any]:
        """The asking player's seat at their table under way (``seat``: null while they
        wait)."""
        try:
            await tournaments.tick(tournament_id)
            return {"seat": await tournaments.seat(tournament_id, request)}
        except RefusedError as error:
            raise _refused(error) from None

    return router
