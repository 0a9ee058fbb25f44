"""Stand-ins: the bot that plays for a person who is away, until they come back.

A seated person is **away** when the stand-in bot (``dos.server.tables.bots.STAND_IN``) plays their
seat. That happens during a game only, and only to a person (a bot's seat plays itself):

- **after the grace**: their connection closed (or they never came back after a restart, or
  were dealt in without a connection) and ``grace_seconds`` passed (``Settings.grace_seconds``,
  longer than a reload) without a new one; an agent over HTTP (``Seat.remote``) has no
  connection and gets no grace;
- **at once**: they left the table during a game, the host replaced them, or their turn
  timer's grace ran out (``dos.server.tables.turn_timer``).

They are **back** with a new connection, ``back``, or an agent's action; the stand-in stops
at the game's end too (the next deal starts everyone present). The grace runs in the lobby as
well: a host gone that long passes the role on (``dos.server.tables.seating``), through ``gone``.

The stand-ins know nothing of the game: the table says whether a game is being played
(``in_game``), and is told when a seat's stand-in starts or stops by their own decision
(``changed``: the turn timer starts afresh, everyone is told) and when a person's grace ran
out (``gone``).

>>> from dos.server.clock import ManualClock
>>> from dos.server.tables.seat import Seat
>>> seats = [Seat(0, "Ada"), Seat(1, bot="easy")]
>>> stand_ins = StandIns(seats, 10.0, in_game=lambda: True, changed=lambda: None,
...                      gone=lambda seat: None)
>>> stand_ins.stand_in(0), stand_ins.bot_level(0), stand_ins.bot_level(1)
(True, 'medium', 'easy')
>>> stand_ins.back(0), stand_ins.bot_level(0)
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable

from dos.server.tables.bots import STAND_IN
from dos.server.tables.seat import Seat
from dos.server.tables.seating import person


class StandIns:
    """Who plays for the people of one table's ``seats`` (the table's own list) while they
    are away."""

    def __init__(
        self,
        seats: list[Seat],
        grace_seconds: float,
        *,
        in_game: Callable[[], bool],
        changed: Callable[[], None],
        gone: Callable[[int], None],
    ) -> None:
        self.seats = seats
        self.grace_seconds = grace_seconds
        self._in_game = in_game
        self._changed = changed
        self._gone = gone
        self.closed = False
        """The table was closed here: nobody is awaited, nobody stood in for any more."""

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot playing ``seat`` now: its own, or the stand-in's."""
        place = self.seats[seat]
        if place.bot is not None:
            return place.bot
        return STAND_IN if place.away else None

    def await_return(self, seat: int) -> None:
        """``seat``'s person is not connected: past the grace, the stand-in plays for them
        during a game, and ``gone`` is told. Nothing for a bot, an agent or a connected
        person, nor once closed."""
        place = self.seats[seat]
        if self.closed or not person(place) or place.client is not None or place.remote:
            return
        place.leave_timer.start(self.grace_seconds, lambda: self._grace_over(seat))

    def _grace_over(self, seat: int) -> None:
        place = self.seats[seat]
        if place.client is not None or place.remote:
            return
        self.stand_in(seat)
        self._gone(seat)

    def stand_in(self, seat: int) -> bool:
        """The stand-in plays ``seat`` from now on, during a game (also while the round
        summary pauses it), until its person comes back: ``changed`` is told. Whether it
        started (not for a bot's seat, one stood in for already, or outside a game)."""
        place = self.seats[seat]
        if place.bot is not None or place.away or self.closed or not self._in_game():
            return False
        place.away = True
        self._changed()
        return True

    def back(self, seat: int) -> bool:
        """``seat``'s person takes their seat back (``back``, an agent's action): they have
        not left, and ``changed`` is told if the stand-in played for them. Whether it did."""
        if not self._return(seat):
            return False
        self._changed()
        return True

    def arrived(self, seat: int) -> bool:
        """``seat``'s person is here again with a new connection: no grace runs for them,
        they have not left, and the stand-in stops playing for them, telling nobody (the
        table says it with the rest of the arrival). Whether the stand-in played for them."""
        self.seats[seat].leave_timer.cancel()
        return self._return(seat)

    def _return(self, seat: int) -> bool:
        place = self.seats[seat]
        place.left = place.kept = False
        if not place.away:
            return False
        place.away = False
        return True

    def dealt(self) -> None:
        """A game was dealt: nobody has left it yet, and each person without a connection is
        awaited (their stand-in comes after the grace; for a seat kept through a rematch, after
        what was left of the grace it was kept in)."""
        for place in self.seats:
            place.left = False
            if person(place) and place.client is None and not place.kept:
                self.await_return(place.index)

    def close(self) -> None:
        """The table closed here: no grace runs, and none starts again."""
        self.closed = True
        for place in self.seats:
            place.leave_timer.cancel()
