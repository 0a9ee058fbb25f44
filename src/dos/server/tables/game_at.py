"""Where the game being played at a table is, as its clocks are told after each change.

A table's clocks know nothing of the game (``dos.server.tables.turn_timer``,
``dos.server.tables.reaction``,
``dos.server.tables.handover``): after every change the table tells them where the game is, once, in
a ``GameAt``, or that no game is being played (``None``: before the first deal, between
games, while the round summary pauses it, once the table is closed).

>>> GameAt(game=7, version=12, turn=1, turn_seconds=30.0, reaction_limit=3.0).test
((7, 12), 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameAt:
    """Game ``game`` (its id) at ``version``, seat ``turn`` to act; ``turn_seconds``: the
    seat's time to act (``None``: its turn is not timed: a bot acts, or the table has no turn
    timer); ``reaction_limit``: the time limit of the reaction test the game is taking
    (``None``: none)."""

    game: int
    version: int
    turn: int
    turn_seconds: float | None = None
    reaction_limit: float | None = None

    @property
    def test(self) -> tuple[tuple[int, int] | None, float | None]:
        """The reaction test being taken, as the reaction clock knows it: its key (the game's
        id and version) and its time limit; ``(None, None)``: none."""
        if self.reaction_limit is None:
            return None, None
        return (self.game, self.version), self.reaction_limit
