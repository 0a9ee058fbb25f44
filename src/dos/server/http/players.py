"""The players' endpoints: the leaderboard, a player's page and a player's results.

Every list is a bounded page read along an index (``docs/ratings.md``, "Endpoints"): the
leaderboard 50 players at most, a player's page their ratings, 20 latest rated games and 200
points of their rating history, a player's results 50 games, with totals counted by SQL
aggregates. The reads run on the database's reader threads (``Database.read``), beside the
writer: they never queue behind the commit of an action, nor ahead of it.

What many ask for at once (the first page of a board, a popular player's page) is read once
and kept for ``CACHE_SECONDS`` in a small cache (``ReadCache``): requests that come while it
is read wait for that same read. A rated game therefore shows on the board and the pages
within ``CACHE_SECONDS`` of its end.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Annotated, Any, TypeVar, cast

from fastapi import APIRouter, Query
from fastapi import Path as PathParam
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from dos import ruleset
from dos.ratings.api import HISTORY_PAGE, LEADERBOARD_PAGE, RECENT_GAMES, Leaderboard, PlayerPage
from dos.ratings.model import MAX_PLAYERS, MIN_PLAYERS
from dos.ratings.policy import BOARDS, PEOPLE
from dos.ratings.store import leaderboard, player_ratings
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters
from dos.server.net.limits import limited as limits_dependency
from dos.server.protocol.http_bodies import PlayerResults
from dos.server.service import Service
from dos.server.storage.models import GamePlayerRow, GameRow

T = TypeVar("T")

RESULTS_PAGE = 50
"""The most games one page of a player's results has."""
CACHE_SECONDS = 5.0
"""How long an answer of these endpoints is served again without reading the database."""
CACHE_ENTRIES = 256
"""The most answers the cache keeps (each a bounded page); the least recently used go first."""

Offset = Annotated[int, Query(ge=0, le=2**31)]
"""Where a page of a list starts."""
PageLimit = Annotated[int | None, Query(ge=1, le=10000)]
"""How many items a page of a list has (the server caps it)."""
HistoryOffset = Annotated[int | None, Query(ge=0, le=2**31)]
"""Where a page of a rating history starts, the oldest point being 0 (none: the newest page)."""
PlayerId = Annotated[str, PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
"""A player id in a path."""
RatedId = Annotated[str, PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_:\-]+$")]
"""A rated player in a path: a player id, or ``bot:<level>``."""


class ReadCache:
    """Answers kept for ``seconds`` after their read began, at most ``entries`` of them.

    The first request for a key reads; the requests that come while it reads share its
    answer, and so do those within ``seconds``. A read that fails is not kept.
    """

    def __init__(
        self,
        seconds: float = CACHE_SECONDS,
        entries: int = CACHE_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = seconds
        self.entries = entries
        self.clock = clock
        self._kept: OrderedDict[Hashable, tuple[float, asyncio.Future[Any]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    async def get(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """The answer for ``key``: kept, or read now with ``read()``."""
        now = self.clock()
        kept = self._kept.get(key)
        if kept is not None and kept[0] > now:
            self._kept.move_to_end(key)
            future = kept[1]
        else:
            future = asyncio.ensure_future(read())
            # Its failure is retrieved even if every request that waited for it went away.
            future.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._kept[key] = (now + self.seconds, future)
            self._kept.move_to_end(key)
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)
        try:
            # Shielded: a request that goes away does not cancel the read others wait for.
            return cast(T, await asyncio.shield(future))
        except Exception:
            if self._kept.get(key, (0.0, None))[1] is future:
                del self._kept[key]
            raise


def player_results(
    session: Session, player_id: str, offset: int = 0, limit: int = RESULTS_PAGE
) -> list[dict[str, Any]]:
    """``limit`` of a player's finished games from ``offset``, newest first (by the time
    they finished, then the game), each with the player's seat and whether it won."""
    rows = session.execute(
        select(GamePlayerRow, GameRow)
        .join(GameRow, GameRow.id == GamePlayerRow.game_id)
        .where(GamePlayerRow.player_id == player_id, GameRow.status == "finished")
        .order_by(GameRow.finished_at.desc(), GameRow.id.desc(), GamePlayerRow.seat)
        .offset(offset)
        .limit(limit)
    )
    results = []
    for player, game in rows:
        result = dict(game.result or {})
        results.append(
            {
                "game_id": game.id,
                "code": game.table_code,
                "seat": player.seat,
                "name": player.name,
                "players": list(game.players),
                "result": result,
                "won": result.get("winner") == player.seat,
            }
        )
    return results


def result_totals(session: Session, player_id: str) -> tuple[int, int]:
    """How many finished games a player has, and how many they won: SQL aggregates."""
    won = case((GameRow.result["winner"].as_integer() == GamePlayerRow.seat, 1), else_=0)
    games, wins = session.execute(
        select(func.count(), func.coalesce(func.sum(won), 0))
        .select_from(GamePlayerRow)
        .join(GameRow, GameRow.id == GamePlayerRow.game_id)
        .where(GamePlayerRow.player_id == player_id, GameRow.status == "finished")
    ).one()
    return int(games), int(wins)


def results_page(session: Session, player_id: str, offset: int, limit: int) -> dict[str, Any]:
    """``GET /api/players/{player_id}/results``: the totals and one page, in one read."""
    games, wins = result_totals(session, player_id)
    return {
        "player_id": player_id,
        "games": games,
        "wins": wins,
        "offset": offset,
        "limit": limit,
        "results": player_results(session, player_id, offset, limit),
    }


def players_router(service: Service, counters: Counters) -> APIRouter:
    """The leaderboard, player page and player results endpoints (each a ``lookup``), with
    a ``ReadCache`` of their own."""
    router = APIRouter()
    kept = ReadCache(clock=service.clock.monotonic)
    lookup = [limits_dependency(counters, "lookup")]

    @router.get("/api/leaderboard", response_model=Leaderboard, dependencies=lookup)
    async def ranking(
        rules: Annotated[str, Query(min_length=1, max_length=32)] = ruleset.DEFAULT,
        players: Annotated[int, Query(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 2,
        offset: Offset = 0,
        limit: PageLimit = None,
        board: Annotated[str, Query(min_length=1, max_length=16)] = PEOPLE,
    ) -> dict[str, Any]:
        """The players on ``board`` of ``rules`` at tables of ``players``, best first: the
        people's (``people``, the established persons) or the bots' (``bots``: the bot levels
        and the established AI players) (docs/ratings.md); ``limit`` of them (at most 50)
        from ``offset``."""
        if ruleset.find(rules) is None:
            raise ApiError(400, "bad_request", f"there is no rule set {rules!r}", "rules")
        if board not in BOARDS:
            raise ApiError(400, "bad_request", f"board: {' or '.join(BOARDS)}", "board")
        size = LEADERBOARD_PAGE if limit is None else min(limit, LEADERBOARD_PAGE)

        async def read() -> dict[str, Any]:
            read_board = functools.partial(leaderboard, board=board)
            total, entries = await service.db.read(read_board, rules, players, offset, size)
            return {
                "rules": rules,
                "players": players,
                "board": board,
                "total": total,
                "offset": offset,
                "limit": size,
                "entries": entries,
            }

        return await kept.get(("board", rules, players, offset, size, board), read)

    @router.get("/api/players/{player_id}", response_model=PlayerPage, dependencies=lookup)
    async def rated_player(
        player_id: RatedId, offset: HistoryOffset = None, limit: PageLimit = None
    ) -> dict[str, Any]:
        """A player's ratings, 20 latest rated games and one page of their rating history
        (at most 200 points, oldest first: the newest page unless ``offset`` says where the
        page starts, the oldest point being 0) (docs/ratings.md)."""
        size = HISTORY_PAGE if limit is None else min(limit, HISTORY_PAGE)

        async def read() -> dict[str, Any] | None:
            return await service.db.read(player_ratings, player_id, RECENT_GAMES, offset, size)

        page = await kept.get(("player", player_id, offset, size), read)
        if page is None:
            raise ApiError(404, "no_player", "this player has no rated game", "player_id")
        return page

    @router.get(
        "/api/players/{player_id}/results", response_model=PlayerResults, dependencies=lookup
    )
    async def results(
        player_id: PlayerId, offset: Offset = 0, limit: PageLimit = None
    ) -> dict[str, Any]:
        """A player's finished games, newest first: ``limit`` of them (at most 50) from
        ``offset``, with the totals of their games and wins."""
        size = RESULTS_PAGE if limit is None else min(limit, RESULTS_PAGE)

        async def read() -> dict[str, Any]:
            return await service.db.read(results_page, player_id, offset, size)

        return await kept.get(("results", player_id, offset, size), read)

    return router
