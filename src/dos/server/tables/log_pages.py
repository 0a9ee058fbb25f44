"""Pages of the current game's log, sent to the connections that ask
(``dos.server.tables.history``).

Each connection gets the latest page after its first ``state``, and an earlier one when it
asks (``{"type": "log", "before": N}``). A page may need a replay (a table loaded mid-game,
a page older than the entries kept): it is built off the event loop (``GameLog.message``),
and meanwhile a new game may have been dealt; a page of a game that is no longer the table's
is not sent (the connection got the new game's ``state``, and its log follows).
"""

from __future__ import annotations

import logging
from typing import Protocol

from dos.server.tables.history import GameLog

log = logging.getLogger(__name__)


class Reader(Protocol):
    """A connection as a page reaches it: its seat (``None``: a spectator) and its queue."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queues ``text`` for the connection."""
        ...


class Game(Protocol):
    """The game a table plays now (``dos.server.tables.current_game.CurrentGame``): its log."""

    @property
    def log(self) -> GameLog | None:
        """The current game's log (``None`` before the first game)."""
        ...


class LogPages:
    """The log's pages of one table (``code``) whose game in play is ``game``."""

    def __init__(self, code: str, game: Game) -> None:
        self.code = code
        self.game = game

    async def send(self, reader: Reader, before: int | None = None) -> None:
        """Sends ``reader`` a page of the current game's log as its seat may read it: the
        latest, or the one before the entry ``before``; nothing before the first game, nor
        when another game was dealt while the page was built."""
        game_log = self.game.log
        if game_log is None:
            return
        text = await game_log.message(reader.seat, before)
        if game_log is self.game.log:
            reader.send(text)

    async def send_first(self, reader: Reader) -> None:
        """The latest page, after a connection's first ``state``; a failure is logged (a bug
        must not go unseen) and ends nothing."""
        try:
            await self.send(reader)
        except Exception:
            log.exception("table %s: the log could not be sent", self.code)
