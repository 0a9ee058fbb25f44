"""What an agent may do at the server, as plain async functions over the server's seat API
(``dos.server.seat_service``).

The HTTP agent API (``dos.agents.http``) and the MCP tools served by ``dos serve``
(``dos.agents.mcp_server``) are thin wrappers over ``Agents``; neither has game logic of its
own. The seat always comes from a verified seat token, checked as the WebSocket's ``hello``
checks it, and every action goes through the table as the browser's does: the same
refusals (``stale``, ``notation``, ``illegal`` with the catalog's key, ``not_your_seat``,
``not_playing``), raised as the server's ``RefusedError``; a stale action's refusal also
tells the actions that moved the game since its version (``StaleError``).

What an agent is answered has one shape on both doors (``AgentView``, ``SeatGrant``,
``GameRecord``): the HTTP API sends it as JSON, the MCP tools as structured content.
"""

from __future__ import annotations

import json
import logging
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from pydantic import BaseModel, ConfigDict

from dos import ruleset
from dos.agents.text import LAST_ACTIONS, meaning, past, render
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.protocol.server_messages import TableInfo
from dos.server.seat_service import (
    Moment,
    SeatAt,
    SeatService,
    Until,
    check_wait,
)
from dos.server.seat_service import (
    PastAction as SeatPast,
)

log = logging.getLogger(__name__)

MARKED_KEPT = 100_000
"""How many players marked as AIs this process remembers (to write each mark once)."""

UNTIL: Until = "turn"
"""What a wait waits for unless told, on every path: the seat's turn (what an agent wants:
a change that gives it nothing to do, another seat's draw, does not end its wait)."""


# --- what an agent is answered (one shape on every path) ------------------------------------


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LegalAction(_Answer):
    """A legal action of the seat, in notation, and what it does in one English line."""

    action: str
    meaning: str


class PastAction(_Answer):
    """An action of the game: the version it was made on, its seat, its notation and what it
    did in one English line ("you" for the reader): public facts, but for the reader's own
    draw the card it drew (another seat's draw says "drew a card")."""

    version: int
    seat: int
    action: str
    words: str


class AgentJson(_Answer):
    """What a seat sees now: the table, the game's version, the table's change counter, the
    rule set's view of the seat (null before the first game), the result once over, the legal
    actions with their meanings, and the game's last actions (docs/agents.md)."""

    code: str
    seat: int
    version: int
    """The number of actions of the game so far: an action names the version it was made on."""
    change: int
    """Counts the table's changes; ``wait`` returns when it moves."""
    table: TableInfo
    view: dict[str, Any] | None
    result: dict[str, Any] | None
    legal: list[LegalAction]
    """The seat's legal actions now (``view.legal``), each with its meaning."""
    last_actions: list[PastAction]
    """The game's latest actions (at most 20), oldest first: what moved since a look."""


class AgentView(AgentJson):
    """``AgentJson`` and all of it as canonical text (``text``, docs/agents.md)."""

    text: str


class GameRecord(_Answer):
    """The record of a table's last game, named as the view names it: the table's ``code``,
    the ``game``'s number at the table (the view's ``game``), its ``game_id`` (the table's
    ``game_id``: ``GET /api/games/{game_id}``), and the ``record`` (JSON Lines,
    docs/records.md)."""

    code: str
    game: int
    game_id: int
    record: str


class StaleError(RefusedError):
    """``stale``, as the table refused it, with the actions that moved the game since the
    version the action was made on (``moved``: ``PastAction``, the latest 20 at most)."""

    def __init__(self, error: RefusedError, moved: list[dict[str, Any]]) -> None:
        super().__init__(error.code, error.message, error.reason, error.field, error.retry)
        self.moved = moved


@dataclass(slots=True)
class Seen:
    """What a seat sees at one change of its table (``data``, as ``AgentView``), and its JSON
    text, made once however many agents ask."""

    data: dict[str, Any]
    _json: str | None = field(default=None, repr=False)

    @property
    def json(self) -> str:
        """``data`` as JSON text (ASCII, compact)."""
        if self._json is None:
            self._json = json.dumps(self.data, ensure_ascii=True, separators=(",", ":"))
        return self._json


class Agents:
    """The operations of agents, over the server's seats (``SeatService``)."""

    def __init__(self, seats: SeatService) -> None:
        self.seats = seats
        self._seen: weakref.WeakKeyDictionary[Moment, Seen] = weakref.WeakKeyDictionary()
        """What was answered at each moment of a seat (the server makes one per change of
        the table): long polls woken by one change share one answer, text and JSON."""
        self._marked: set[str] = set()
        """The players marked as AIs by this process (``mark``)."""

    # --- tables -------------------------------------------------------------------------------

    async def tables(self, offset: int, limit: int) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first (``GET /api/tables``)."""
        total, tables = await self.seats.tables(offset, limit)
        return {"tables": tables, "total": total, "offset": offset, "limit": limit}

    async def create(self, request: CreateTable, client: str) -> dict[str, Any]:
        """A new table with the agent as its host at seat 0: the ``SeatGrant``; counted
        against the ``client``'s ``create`` limit as every path to it is. The agent's player
        is marked an AI (``mark``)."""
        grant = await self.seats.create(request, client)
        await self.mark(grant["player_id"])
        return grant

    async def join(self, code: str, request: JoinTable, client: str) -> dict[str, Any]:
        """Takes an open seat of a table in the lobby: the ``SeatGrant``; counted against
        the ``client``'s ``join`` limit. The agent's player is marked an AI (``mark``)."""
        grant = await self.seats.join(code, request, client)
        await self.mark(grant["player_id"])
        return grant

    async def mark(self, player_id: str | None) -> None:
        """Marks the player as an AI, once (``SeatService.mark_agent``): whoever plays
        through the agent API or MCP is listed on the bots' leaderboard, apart from people
        (docs/ratings.md). A mark that cannot be stored is logged: play goes on."""
        if player_id is None or player_id in self._marked:
            return
        try:
            await self.seats.mark_agent(player_id)
        except Exception:
            log.exception("could not mark player %s as an AI", player_id)
            return
        if len(self._marked) >= MARKED_KEPT:
            self._marked.clear()
        self._marked.add(player_id)

    # --- a seat -------------------------------------------------------------------------------

    async def look(self, token: str, history: bool = False) -> Seen:
        """The seat's view now: the table, version, change, view (JSON), result, the legal
        actions with their meanings, and the canonical text; with ``history``, the view
        holds the game's history too (every action, as the WebSocket's ``state`` has it: what
        a bot's ``SeatView`` is rebuilt from, ``dos.agents.seat_view``)."""
        return await self._look(await self.seats.seat(token), history)

    async def _look(self, seat: SeatAt, history: bool = False) -> Seen:
        moment = await seat.moment(last=LAST_ACTIONS, history=history)
        if history:  # the whole history grows with the game: made for each asker
            return Seen(_answer(moment))
        seen = self._seen.get(moment)
        if seen is None:
            seen = self._seen[moment] = Seen(_answer(moment))
        return seen

    async def act(self, token: str, action: str, version: int, dos: bool = False) -> Seen:
        """Plays ``action`` (notation) for the token's seat, made on ``version``; returns the
        seat's view after it. Refused exactly as the browser's ``action`` message; a stale
        action as ``StaleError``, which tells what moved the game since ``version`` (a lost
        DOS race: who caught the seat, or called first). An agent that left its seat to the
        stand-in takes it back by acting."""
        seat = await self.seats.seat(token)
        await self.mark(seat.player_id)
        try:
            await seat.act(action, version, dos=dos)
        except RefusedError as error:
            if error.code != "stale" or not 0 <= version < seat.version:
                raise
            moved = await seat.past(version, LAST_ACTIONS)
            raise StaleError(error, _words(seat.rules, seat.seat, moved)) from None
        return await self._look(seat)

    async def leave(self, token: str) -> Seen:
        """The seat leaves its table: in the lobby the seat opens again; during a game the
        stand-in plays it until the agent acts again."""
        seat = await self.seats.seat(token)
        await seat.leave()
        return await self._look(seat)

    async def start(self, token: str) -> Seen:
        """The host starts the game (lobby), or deals a rematch (finished)."""
        seat = await self.seats.seat(token)
        await self.mark(seat.player_id)
        await seat.start()
        return await self._look(seat)

    async def wait(
        self,
        token: str,
        version: int,
        change: int | None,
        timeout: float,
        until: Until,
        *,
        history: bool = False,
    ) -> Seen:
        """Waits until the table is not as the agent saw it (``version`` of the game, and
        ``change`` of the table if given) — for ``until="turn"``, until then the seat has a
        legal action or no game is going on — or ``timeout`` seconds (at most 30) have
        passed; returns the seat's view (with the game's history if ``history``, as
        ``look``). Woken by the table itself after every change: no polling. A ``timeout``
        that is not a number of seconds from 0 to 30 is refused, on every path."""
        check_wait(timeout, until)
        seat = await self.seats.seat(token)
        await seat.wait(version, change, timeout, until)
        return await self._look(seat, history)

    async def record(self, token: str) -> dict[str, Any]:
        """The record (JSON Lines, ``docs/records.md``) of the table's last game, once it
        is finished, named as the view names it (``GameRecord``: the game's number at the
        table, and its id)."""
        seat = await self.seats.seat(token)
        number, game_id, text = await seat.record()
        return {"code": seat.code, "game": number, "game_id": game_id, "record": text}


def _answer(moment: Moment) -> dict[str, Any]:
    """What an agent is answered at ``moment`` (``AgentView``)."""
    last = _words(moment.rules, moment.seat, moment.past)
    text = render(
        moment.info,
        moment.seat,
        version=moment.version,
        change=moment.change,
        view=moment.view,
        result=moment.result,
        last=last,
    )
    return {
        "code": moment.code,
        "seat": moment.seat,
        "version": moment.version,
        "change": moment.change,
        "table": moment.info,
        "view": moment.history if moment.history is not None else moment.view,
        "result": moment.result,
        "legal": _meanings(moment.rules, moment.view),
        "last_actions": last,
        "text": text,
    }


def _words(rules: str, viewer: int, actions: Sequence[SeatPast]) -> list[dict[str, Any]]:
    """The game's actions, each as ``PastAction`` for ``viewer``: in words from the public
    brief before it, and for the viewer's own draws the cards drawn; never another's card."""
    return [
        past(rules, a.index, a.seat, a.action, viewer, before=a.before, drawn=a.drawn)
        for a in actions
    ]


def _meanings(rules: str, view: dict[str, Any] | None) -> list[dict[str, str]]:
    """The legal actions of a view, each with its one-line meaning."""
    if view is None:
        return []
    return [{"action": a, "meaning": meaning(rules, view, a)} for a in view["legal"]]


def rules_text(name: str) -> str:
    """The rules of the rule set ``name`` in short, for agents (``rules_<name>.md``)."""
    known = [n for n in ruleset.names() if _rules_file(n).is_file()]
    if name not in known:
        raise RefusedError(
            "bad_request",
            f"rules: unknown rule set {name!r} (known: {', '.join(known)})",
            field="rules",
        )
    return _rules_file(name).read_text(encoding="utf-8")


def _rules_file(name: str) -> Traversable:
    """The agents' short rules of the rule set ``name`` (present or not)."""
    return resources.files(__package__).joinpath(f"rules_{name}.md")
