"""A table and its game as the storage tests store them: the fields those tests do not vary,
written once."""

from __future__ import annotations

from typing import Any

from dos.server.storage.table_store import StoredGame, StoredSeat, StoredTable


def stored_table(
    code: str, *, options: dict[str, Any] | None = None, public: bool = True
) -> StoredTable:
    """A lobby table of Ada (seat 0, the host) and an ``easy`` bot."""
    return StoredTable(
        code=code,
        rules="official",
        options={"target_score": 50} if options is None else options,
        public=public,
        status="lobby",
        host=0,
        turn_seconds=None,
        games=0,
        created_at=1.0,
        seats=[StoredSeat(0, "Ada", None, "p_ada"), StoredSeat(1, None, "easy", None)],
    )


def stored_game(seed: int = 5) -> StoredGame:
    """The first game of such a table, being played to 50 points."""
    return StoredGame(
        id=0,
        number=1,
        rules="official",
        options={"players": 2, "target_score": 50},
        seed=seed,
        players=["Ada", "easy bot"],
        status="playing",
        result=None,
    )
