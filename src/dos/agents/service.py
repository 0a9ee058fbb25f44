"""What an agent may do at the server, as plain async functions over the server's ``Service``.

The HTTP agent API (``dos.agents.http``) and the MCP tools served by ``dos serve``
(``dos.agents.mcp_server``) are thin wrappers over ``Agents``; neither has game logic of its
own. The seat always comes from a verified seat token, checked as the WebSocket's ``hello``
checks it, and every action goes through ``Table.submit`` as the browser's does: the same
refusals (``stale``, ``notation``, ``illegal`` with the catalog's key, ``not_your_seat``,
``not_playing``), raised as the server's ``RefusedError``.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
import weakref
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

from dos import ruleset
from dos.agents.text import meaning, render
from dos.server.auth import TokenError
from dos.server.games import record_of
from dos.server.messages import CreateTable, JoinTable
from dos.server.service import Service
from dos.server.storage import load_game
from dos.server.tables import RefusedError, Status, Table

MAX_WAIT_SECONDS = 30.0
"""The longest one wait lasts (a long poll is answered by then)."""

Until = Literal["change", "turn"]
"""What a wait waits for: any change of the table, or a change after which the seat has
something to do (a legal action, or the game is over)."""


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
    """The operations of agents, over the server's tables."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._seen: weakref.WeakKeyDictionary[Table, dict[int, tuple[int, int, Seen]]] = (
            weakref.WeakKeyDictionary()
        )
        """Each table's latest answer per seat, by (change, version): long polls woken by
        one change share one view, text and JSON."""

    # --- tables -------------------------------------------------------------------------------

    def tables(self, offset: int, limit: int) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first (``GET /api/tables``)."""
        total, tables = self.service.public_tables(offset, limit)
        return {"tables": tables, "total": total, "offset": offset, "limit": limit}

    async def create(self, request: CreateTable, client: str) -> dict[str, Any]:
        """A new table with the agent as its host at seat 0: the ``SeatGrant``; counted
        against the ``client``'s ``create`` limit as every path to it is."""
        return await self.service.create(request, client)

    async def join(self, code: str, request: JoinTable, client: str) -> dict[str, Any]:
        """Takes an open seat of a table in the lobby: the ``SeatGrant``; counted against
        the ``client``'s ``join`` limit."""
        return await self.service.join(code, request, client)

    # --- a seat -------------------------------------------------------------------------------

    async def seat(self, token: str) -> tuple[Table, int]:
        """The table and seat a seat token opens; raises ``RefusedError`` (``bad_token``,
        ``expired_token``, ``no_table``) as the WebSocket refuses the token (its ``hello``,
        or its address for ``no_table``)."""
        try:
            claim = self.service.signer.read_seat(token)
        except TokenError as error:
            raise RefusedError(error.code, error.message, field="token") from None
        table = await self.service.table(claim.code)
        if table is None:
            raise RefusedError("no_table", f"there is no table {claim.code!r} (any more)")
        if not table.opens(claim.seat, claim.player_id):
            raise RefusedError(
                "bad_token", "this token does not open a seat at this table", field="token"
            )
        if table.idle_since is not None:
            table.idle_since = time.monotonic()  # an agent's request is presence at the table
        return table, claim.seat

    async def look(self, token: str) -> Seen:
        """The seat's view now: the table, version, change, view (JSON), result, the legal
        actions with their meanings, and the canonical text."""
        table, seat = await self.seat(token)
        return await self._look(table, seat)

    async def _look(self, table: Table, seat: int) -> Seen:
        # Under the table's lock, as the WebSocket's resync: never an action mid-commit.
        async with table.lock:
            known = self._seen.setdefault(table, {})
            cached = known.get(seat)
            if cached is not None and cached[:2] == (table.change, table.version):
                return cached[2]
            seen = Seen(self._view(table, seat))
            known[seat] = (table.change, table.version, seen)
            return seen

    def _view(self, table: Table, seat: int) -> dict[str, Any]:
        info = table.info()
        view = table.view(seat, history=False)
        result = _result(table)
        return {
            "code": table.code,
            "seat": seat,
            "version": table.version,
            "change": table.change,
            "table": info,
            "view": view,
            "result": result,
            "legal": _meanings(table.rules_name, view),
            "text": render(
                info, seat, version=table.version, change=table.change, view=view, result=result
            ),
        }

    async def act(self, token: str, action: str, version: int) -> Seen:
        """Plays ``action`` (notation) for the token's seat, made on ``version``; returns the
        seat's view after it. Refused exactly as the browser's ``action`` message."""
        table, seat = await self.seat(token)
        await table.submit(seat, action, version)
        return await self._look(table, seat)

    async def start(self, token: str) -> Seen:
        """The host starts the game (lobby), or deals a rematch (finished)."""
        table, seat = await self.seat(token)
        if table.status == Status.FINISHED:
            await table.rematch(seat)
        else:
            await table.start(seat)
        return await self._look(table, seat)

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: Until
    ) -> Seen:
        """Waits until the table is not as the agent saw it (``version`` of the game, and
        ``change`` of the table if given) — for ``until="turn"``, until then the seat has a
        legal action or no game is going on — or ``timeout`` seconds (at most 30) have
        passed; returns the seat's view. Woken by the table itself after every change: no
        polling. A ``timeout`` that is not a number of seconds from 0 to 30 is refused, on
        every path."""
        if not (math.isfinite(timeout) and 0 <= timeout <= MAX_WAIT_SECONDS):
            raise RefusedError(
                "bad_request",
                f"timeout: a number of seconds from 0 to {MAX_WAIT_SECONDS:g}",
                field="timeout",
            )
        if until not in ("change", "turn"):
            raise RefusedError("bad_request", "until: 'change' or 'turn'", field="until")
        table, seat = await self.seat(token)
        deadline = time.monotonic() + timeout
        while True:
            seen = table.change
            moved = table.version != version or (change is not None and seen != change)
            if moved and (until == "change" or _has_something_to_do(table, seat)):
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if moved:
                change = seen  # a change that gives the seat nothing to do: wait for the next
                version = table.version
            await table.changed(seen, left)
        return await self._look(table, seat)

    async def record(self, token: str) -> str:
        """The record (JSON Lines, ``docs/records.md``) of the table's last game, once it
        is finished."""
        table, _seat = await self.seat(token)
        if table.game is None:
            raise RefusedError("bad_state", "no game has been played at this table")
        game = await self.service.db.read(load_game, table.game.id)
        if game is None or game.status != "finished":
            raise RefusedError(
                "bad_state", f"game {table.game.id} is not finished: its record stays hidden"
            )
        return await asyncio.to_thread(record_of(game).dumps)


def _meanings(rules: str, view: dict[str, Any] | None) -> list[dict[str, str]]:
    """The legal actions of a view, each with its one-line meaning."""
    if view is None:
        return []
    return [{"action": a, "meaning": meaning(rules, view, a)} for a in view["legal"]]


def _result(table: Table) -> dict[str, Any] | None:
    """The game's result once it is over (as the ``state`` message gives it), else ``None``."""
    if table.state is None or not table.rules.is_over(table.state):
        return None
    result: dict[str, Any] = table.rules.result(table.state)
    return result


def _has_something_to_do(table: Table, seat: int) -> bool:
    if not table.playing():
        return True
    return bool(table.rules.legal_actions(table.state, seat))


def rules_text(name: str) -> str:
    """The rules of the rule set ``name`` in short, for agents (``rules_<name>.md``)."""
    if name not in ruleset.NAMES:
        raise RefusedError(
            "bad_request",
            f"rules: unknown rule set {name!r} (known: {', '.join(ruleset.NAMES)})",
            field="rules",
        )
    return resources.files(__package__).joinpath(f"rules_{name}.md").read_text(encoding="utf-8")
