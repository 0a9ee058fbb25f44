"""The pause between two rounds: the next round waits for the people at the table.

When a round ends and the game goes on, every connected human seat reads the round summary;
the table pauses until each of them has sent ``continue``, or until the countdown ends
(``Settings.pause_seconds``, ``dos serve --pause``; every client shows it), whichever comes
first. While it is paused nobody acts: the bots wait, actions are refused with ``paused``, and
no turn timer runs. A player who leaves during the pause is no longer waited for.

The pause knows nothing of the game: the table says when a round ended and who reads its
summary (``after_round``), and who has read it (``proceed``); the pause tells the table when
what clients show of it changed (``changed``: send ``message()``) and when it is over
(``over``: the game goes on).

>>> from dos.server.clock import ManualClock
>>> told = []
>>> pause = RoundPause(ManualClock(), 30.0, changed=lambda: told.append("changed"),
...                    over=lambda: told.append("over"))
>>> pause.after_round(1, [0, 2]), pause.message()["waiting"]
(True, [0, 2])
>>> pause.proceed(0); pause.proceed(2); told
['changed', 'changed', 'changed', 'over']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from dos.server.clock import Clock
from dos.server.tables.timers import Deadline


class RoundPause:
    """Who the table still waits for after a round, and the countdown.

    ``seconds``: the longest pause (0: none). ``changed()`` is called whenever what clients
    show of the pause changes (it starts, somebody proceeds, it ends); ``over()`` once it has
    ended by itself (the last reader, or the countdown), after ``changed``.
    """

    def __init__(
        self,
        clock: Clock,
        seconds: float,
        *,
        changed: Callable[[], None],
        over: Callable[[], None],
    ) -> None:
        self.clock = clock
        self.seconds = seconds
        self._changed = changed
        self._over = over
        self.waiting: set[int] = set()
        self.round = 0
        self._deadline = Deadline(clock)

    @property
    def active(self) -> bool:
        """Whether the table is paused."""
        return bool(self.waiting)

    def after_round(self, round_number: int, readers: Iterable[int]) -> bool:
        """Round ``round_number`` ended and ``readers`` read its summary: the table pauses for
        them (clients are told); whether it paused (not without a pause, nor without anybody
        to wait for)."""
        if self.seconds <= 0 or not self._start(round_number, readers, self.seconds):
            return False
        self._changed()
        return True

    def resume(self, round_number: int, readers: Iterable[int], until: float) -> bool:
        """Goes on from another process's pause (``held``): after round ``round_number``,
        waiting for ``readers`` until ``until`` on the wall clock; whether it paused (not
        once its end has passed). Clients are told with the table's next message."""
        seconds = until - self.clock.time()
        return seconds > 0 and self._start(round_number, readers, seconds)

    def _start(self, round_number: int, readers: Iterable[int], seconds: float) -> bool:
        self.waiting = set(readers)
        self.round = round_number
        if not self.waiting:
            self._deadline.cancel()
            return False
        self._deadline.start(seconds, self._countdown_over)
        return True

    def _countdown_over(self) -> None:
        self.waiting.clear()
        self._ended()

    def _ended(self) -> None:
        self._changed()
        self._over()

    def proceed(self, seat: int) -> None:
        """``seat`` has read the summary (``continue``), or left; the last one ends the pause.
        A seat not waited for changes nothing and tells nobody."""
        if seat not in self.waiting:
            return
        self.waiting.discard(seat)
        if self.waiting:
            self._changed()
            return
        self._deadline.cancel()
        self._ended()

    def held(self) -> tuple[int, tuple[int, ...], float] | None:
        """The pause as another process goes on from it (``dos.server.tables.handover``): its round,
        who it waits for, and its end on the wall clock; ``None``: no pause."""
        until = self._deadline.until
        if not self.waiting or until is None:
            return None
        return self.round, tuple(sorted(self.waiting)), until

    def cancel(self) -> None:
        """Ends the pause at once, telling nobody (a new game, a shutdown)."""
        self.waiting.clear()
        self._deadline.cancel()

    def message(self) -> dict[str, Any]:
        """The ``pause`` message's fields: the round, who is waited for, seconds left."""
        return {
            "round": self.round,
            "waiting": sorted(self.waiting),
            "seconds": round(self._deadline.remaining(), 3) if self.waiting else None,
        }
