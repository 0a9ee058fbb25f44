"""The pause between two rounds: the next round waits for the people at the table.

When a round ends and the game goes on, every connected human seat reads the round summary;
the table pauses until each of them has sent ``continue``, or until the countdown ends
(``Settings.pause_seconds``, ``dos serve --pause``; every client shows it), whichever comes
first. While it is paused nobody acts: the bots wait, actions are refused with ``paused``, and
no turn timer runs. A player who leaves during the pause is no longer waited for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from dos.server.clock import Clock
from dos.server.timers import Deadline


class RoundPause:
    """Who the table still waits for after a round, and the countdown."""

    def __init__(self, clock: Clock) -> None:
        self.waiting: set[int] = set()
        self.round = 0
        self._deadline = Deadline(clock)

    @property
    def active(self) -> bool:
        """Whether the table is paused."""
        return bool(self.waiting)

    def start(
        self, round_number: int, seats: Iterable[int], seconds: float, on_end: Callable[[], None]
    ) -> bool:
        """Pauses after round ``round_number`` for ``seats``; whether it paused (not without
        anybody to wait for). ``on_end`` runs when the countdown ends first."""
        self.waiting = set(seats)
        self.round = round_number
        if not self.waiting:
            self._deadline.cancel()
            return False

        def due() -> None:
            self.waiting.clear()
            on_end()

        self._deadline.start(seconds, due)
        return True

    def held(self) -> tuple[int, tuple[int, ...], float] | None:
        """The pause as another process goes on from it (``dos.server.handover``): its round,
        who it waits for, and its end on the wall clock; ``None``: no pause."""
        until = self._deadline.until
        if not self.waiting or until is None:
            return None
        return self.round, tuple(sorted(self.waiting)), until

    def leave(self, seat: int) -> bool:
        """``seat`` continues (or left); whether that ended the pause."""
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self._deadline.cancel()
            return True
        return False

    def cancel(self) -> None:
        """Ends the pause at once (a new game, a shutdown)."""
        self.waiting.clear()
        self._deadline.cancel()

    def message(self) -> dict[str, Any]:
        """The ``pause`` message's fields: the round, who is waited for, seconds left."""
        return {
            "round": self.round,
            "waiting": sorted(self.waiting),
            "seconds": round(self._deadline.remaining(), 3) if self.waiting else None,
        }
