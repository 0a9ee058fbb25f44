"""A table as ``TableInfo`` (docs/protocol.md): what its people and the lobby see of it.

Two sources give the same shape: the table its owner holds (``table_info``: who is
connected, the spectators, whether hints are open), and the database alone (``stored_info``:
for a lobby whose owner has not written the table's entry). Side by side here so that they
stay one shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dos.server.tables.hints import hints_open, offered

if TYPE_CHECKING:
    from dos.server.storage.table_store import StoredTable
    from dos.server.tables.table import Table


def table_info(table: Table) -> dict[str, Any]:
    """``table`` as ``TableInfo``, as its owner holds it."""
    game = table.current.stored
    return {
        "code": table.code,
        "rules": table.rules_name,
        "options": table.options,
        "public": table.public,
        "rated": table.rated,
        "status": table.status.value,
        "host": table.host,
        "turn_seconds": table.turn_seconds,
        "game": table.games,
        "game_id": None if game is None else game.id,
        "seats": [s.info() for s in table.seats],
        "spectators": len(table.audience.spectators),
        "hints": hints_open(table),
        "seeded": table.deal_seed is not None,
        "commitment": None if game is None else game.commitment,
    }


def stored_info(stored: StoredTable, game_id: int | None) -> dict[str, Any]:
    """A table as ``TableInfo`` from the database alone, for a lobby whose owner has not
    written its entry (created a moment ago, or its owner just died): what only the owner
    knows is left at its quietest (nobody connected but the bots, no spectators, hints as a
    host who allowed none)."""
    people = sum(1 for s in stored.seats if s.bot is None and s.player_id is not None)
    return {
        "code": stored.code,
        "rules": stored.rules,
        "options": dict(stored.options),
        "public": stored.public,
        "rated": stored.rated,
        "status": stored.status,
        "host": stored.host,
        "turn_seconds": stored.turn_seconds,
        "game": stored.games,
        "game_id": game_id,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "connected": s.bot is not None,
                "away": False,
            }
            for s in stored.seats
        ],
        "spectators": 0,
        "hints": not stored.rated and offered(stored.rules) and people <= 1,
        "seeded": stored.deal_seed is not None,
        "commitment": None if stored.game is None else stored.game.commitment,
    }
