"""What a table sends the people at it as it changes (docs/protocol.md): the table's info, full
states, each accepted action's update, the turn timer and the pause between rounds.

A broadcast is built once per change and handed to the audience (``dos.server.tables.audience``),
which delivers it to each connection; a message with a view carries each seat's own view
(``dos.server.tables.views``), the spectators sharing one. The table decides when something is sent;
this says what.

>>> from dos import ruleset
>>> from dos.server.clock import ManualClock
>>> from dos.server.tables.current_game import CurrentGame
>>> from dos.server.tables.seat import Seat
>>> from dos.server.tables.turn_timer import TurnTimer
>>> clock = ManualClock()
>>> entry = ruleset.entry("official")
>>> game = CurrentGame(entry, entry.rules(), None, "ABCDEF", clock)  # no game dealt yet
>>> timer = TurnTimer(10.0, lambda: None, print, clock)
>>> news = Broadcasts(Audience([Seat(0)], clock), game, timer, lambda: {"code": "ABCDEF"})
>>> news.state_message(0)
'{"type":"state","view":null,"version":0,"table":{"code":"ABCDEF"},"result":null,"timer":null}'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dos.server.protocol.server_messages import server_message
from dos.server.tables.audience import Audience
from dos.server.tables.current_game import CurrentGame
from dos.server.tables.turn_timer import TurnTimer
from dos.server.tables.views import Views, head


class Broadcasts:
    """The messages of one table: ``game`` its game in play, ``turn_timer`` its turn timer,
    ``info()`` the table as ``TableInfo``; sent through ``audience``."""

    def __init__(
        self,
        audience: Audience,
        game: CurrentGame,
        turn_timer: TurnTimer,
        info: Callable[[], dict[str, Any]],
    ) -> None:
        self.audience = audience
        self.game = game
        self.turn_timer = turn_timer
        self.info = info

    def state_message(self, seat: int | None) -> str:
        """A full ``state`` message for ``seat`` (``None``: a spectator)."""
        fields: dict[str, Any] = {
            "version": self.game.version,
            "table": self.info(),
            "result": self.game.result(),
            "timer": self.turn_timer.info(),
        }
        if self.game.state is None:
            return server_message("state", view=None, **fields)
        return self.game.full_views().message("state", seat, **fields)

    def table(self, spectators: bool = True) -> None:
        """Sends the table's info to everyone (to the seated players only when only the
        spectators changed: spectators learn their count with the next change, so N
        spectators coming one by one cost O(N) messages, not O(N²)); wakes whoever waits for
        a change."""
        self.audience.send(server_message("table", table=self.info()), spectators)
        self.audience.signal_change()

    def state(self) -> None:
        """Sends everyone a full ``state``."""
        self.audience.send_each(self.state_message)

    def update(self, actor: int, action: str, client_id: str | None, by_bot: bool) -> None:
        """Sends everyone the ``update`` of ``actor``'s accepted ``action`` (canonical), with
        their own view after it; the actor's own connection gets its message id back
        (``client_id``, docs/protocol.md), the others none."""
        views = Views(self.game.rules, self.game.state)
        fields: dict[str, Any] = {
            "version": self.game.version,
            "action": action,
            "seat": actor,
            "result": self.game.result(),
            "by_bot": by_bot,
        }
        common = head("update", id=None, **fields)
        own = common if client_id is None else head("update", id=client_id, **fields)
        self.audience.send_each(
            lambda seat: views.with_head(own if seat == actor else common, seat)
        )

    def timer(self) -> None:
        """Sends everyone the turn timer as it runs now (``timer``)."""
        self.audience.send(self.turn_timer.message())

    def pause(self, fields: dict[str, Any]) -> None:
        """Sends everyone the pause between rounds as it is now (``pause``, ``fields`` from
        ``RoundPause.message``)."""
        self.audience.send(server_message("pause", **fields))
