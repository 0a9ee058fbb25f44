"""One seat of a table: who sits there (a person, a bot, or nobody), their connection, and
whether they are away (the stand-in plays for them) or have left."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dos.server.clock import SYSTEM_CLOCK
from dos.server.net.connections import Client
from dos.server.storage.table_store import StoredSeat
from dos.server.tables.timers import Deadline


@dataclass(slots=True)
class Seat:
    """One seat: open, a guest, or a bot; and the guest's connection."""

    index: int
    name: str | None = None
    bot: str | None = None
    player_id: str | None = None
    away: bool = False
    client: Client | None = None
    left: bool = False
    """The player left during the game: the seat opens when it ends
    (``dos.server.tables.seating``)."""
    remote: bool = False
    """The player plays over the agent API, where presence is a request, not a connection:
    no grace runs for their closed connection (they have none). In memory: after a restart an
    agent's first action takes its seat back from the stand-in."""
    kept: bool = False
    """Dealt into a rematch while within the grace after their connection closed (coming
    back, maybe through another process): the seat opens if the grace ends first
    (``dos.server.tables.seating``)."""
    leave_timer: Deadline = field(default_factory=lambda: Deadline(SYSTEM_CLOCK))
    """The grace after the player's connection closed; on the table's clock
    (``Settings.clock``), the real one unless given."""

    @property
    def open(self) -> bool:
        """Nobody sits here."""
        return self.name is None and self.bot is None

    def stored(self) -> StoredSeat:
        """The seat as stored."""
        return StoredSeat(self.index, self.name, self.bot, self.player_id)

    def display(self) -> str:
        """The seat's name for records: the guest's name or the bot's level."""
        return self.name if self.name is not None else f"{self.bot} bot"

    def info(self) -> dict[str, Any]:
        """The seat as ``SeatInfo``."""
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot is not None or self.client is not None,
            "away": self.away,
        }
