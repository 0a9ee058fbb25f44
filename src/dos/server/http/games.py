"""The finished games' endpoints: a game's record and its replay, page by page.

A replay shows every position of a game, all hands: building it replays the whole game, which
for a long game costs far more than any other request. So it is built once per game on a
worker thread, never on the event loop, kept in a bounded cache of ready JSON text
(``ReplayCache``: a finished game never changes), and served in pages of at most
``REPLAY_PAGE`` frames. A client that makes the server build one pays for it: the game's
actions count against its ``work`` budget (``Limits.work``), a limit by cost; a page from the
cache costs a look-up like any other request.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from dos import records, ruleset
from dos.server.net.errors import ApiError
from dos.server.net.limits import Counters, client_address
from dos.server.net.limits import limited as limits_dependency
from dos.server.protocol.http_bodies import Replay
from dos.server.service import Service
from dos.server.storage.table_store import StoredGame, load_game

REPLAY_PAGE = 200
"""The most frames one page of a replay has."""
CACHE_BYTES = 64 * 1024 * 1024
"""The most text the replay cache holds; the least recently used games leave first."""

GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]
"""A game id in a path (a database integer)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Built:
    """A finished game's replay as JSON text: the header's fields and each frame."""

    head: str
    """``"game_id":..,"rules":..,"options":..,"players":..,"result":..,"shuffle":..`` (no
    braces)."""
    frames: list[str]

    @property
    def size(self) -> int:
        return len(self.head) + sum(len(frame) for frame in self.frames)

    def page(self, offset: int, limit: int) -> str:
        """One page as the ``Replay`` JSON text."""
        chosen = self.frames[offset : offset + limit]
        return (
            ("{" + self.head + f',"total":{len(self.frames)},"offset":{offset},"limit":{limit}')
            + ',"frames":['
            + ",".join(chosen)
            + "]}"
        )


def build_replay(game: StoredGame) -> Built:
    """Every position of ``game``, replayed from its seed, and its commitment opened (a game
    is replayed only once finished). Pure: run on a worker thread."""
    rules = ruleset.get(game.rules)
    state = rules.new_game(game.options, game.seed)
    frames = [_dumps({"action": None, "position": rules.to_position(state)})]
    dealt = [0]  # the frame of each round's deal
    for text in game.actions:
        rounds = rules.rounds_played(state)
        rules.apply(state, rules.parse_action(text))
        frames.append(_dumps({"action": text, "position": rules.to_position(state)}))
        if rules.rounds_played(state) > rounds and not rules.is_over(state):
            dealt.append(len(frames) - 1)
    shuffle = None
    if game.salt is not None and game.commitment is not None:
        shuffle = {
            "commitment": game.commitment,
            "seed": str(game.seed),
            "salt": game.salt,
            "rounds": dealt,
        }
    head = _dumps(
        {
            "game_id": game.id,
            "rules": game.rules,
            "options": game.options,
            "players": game.players,
            "result": game.result,
            "shuffle": shuffle,
        }
    )[1:-1]
    return Built(head, frames)


class ReplayCache:
    """Built replays by game id, least recently used first out past ``limit`` bytes; one
    build per game at a time, however many ask for it."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._built: OrderedDict[int, Built] = OrderedDict()
        self._building: dict[int, asyncio.Task[Built]] = {}

    def get(self, game_id: int) -> Built | None:
        """The built replay, if cached."""
        built = self._built.get(game_id)
        if built is not None:
            self._built.move_to_end(game_id)
        return built

    async def build(self, game: StoredGame) -> Built:
        """Builds (or awaits the build of) ``game``'s replay on a worker thread and keeps it."""
        task = self._building.get(game.id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._build(game))
            self._building[game.id] = task
            task.add_done_callback(lambda _: self._building.pop(game.id, None))
        return await asyncio.shield(task)

    async def _build(self, game: StoredGame) -> Built:
        built = await asyncio.to_thread(build_replay, game)
        self._built[game.id] = built
        self.size += built.size
        while self.size > self.limit and len(self._built) > 1:
            _, old = self._built.popitem(last=False)
            self.size -= old.size
        return built


def games_router(service: Service, counters: Counters) -> Any:
    """The endpoints of finished games, to include in the server's application."""

    def limited(*kinds: str) -> Any:
        return limits_dependency(counters, *kinds)

    router = APIRouter(prefix="/api/games")
    cache = ReplayCache()

    async def finished_game(game_id: int) -> StoredGame:
        game = await service.db.read(load_game, game_id)
        if game is None:
            raise ApiError(404, "no_game", f"there is no game {game_id}", "game_id")
        if game.status != "finished":
            raise ApiError(
                409, "bad_state", f"game {game_id} is not finished: its record stays hidden"
            )
        return game

    @router.get(
        "/{game_id}/record",
        response_class=Response,
        responses={200: {"content": {"application/x-ndjson": {}}}},
        dependencies=[limited("lookup")],
    )
    async def game_record(game_id: GameId) -> Response:
        """A finished game's record (JSON Lines), replayable with ``dos replay``: with its
        commitment, the seed and salt that open it, and every round's deal, for ``dos
        verify``."""
        game = await finished_game(game_id)
        return Response(
            await asyncio.to_thread(lambda: records.with_deals(game.record()).dumps()),
            media_type="application/x-ndjson",
            headers={"content-disposition": f'attachment; filename="dos-game-{game_id}.jsonl"'},
        )

    @router.get(
        "/{game_id}/replay",
        response_model=Replay,
        dependencies=[limited("lookup")],
    )
    async def game_replay(
        game_id: GameId,
        request: Request,
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
        limit: Annotated[int | None, Query(ge=1, le=10000)] = None,
    ) -> Response:
        """Positions of a finished game, all hands shown: ``limit`` frames (at most 200)
        from ``offset``; ``total`` is the number of frames (the actions and the deal). The
        first request of a game replays it, and costs the client its actions in work."""
        limit = REPLAY_PAGE if limit is None else min(limit, REPLAY_PAGE)
        built = cache.get(game_id)
        if built is None:
            game = await finished_game(game_id)
            who = client_address(request.client)
            if not counters.spend("work", len(game.actions), who):
                wait = counters.retry_after("work", who)
                raise HTTPException(
                    429,
                    f"too much replay work: try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
            built = await cache.build(game)
        return Response(built.page(offset, limit), media_type="application/json")

    return router
