"""What a table's next owner needs that the database does not hold: its clocks and the host's
choices kept in memory.

The database holds every committed action, so a table taken over by another process (a
failover, a drain: ``dos.cluster.node``) is replayed to the same game. But some of a table's
life is not in its actions: the turn timer's deadline and whether it is in its grace, the
pause between rounds and who it still waits for, when the reaction test's clock started, and
what the host allowed (hints, spectators' chat). A ``Handover`` is that, written down by the
owner whenever it changes (``Table.handover``) and read by the next owner before the table
goes on (``Table.take_over``), so that a failover neither gives a player a fresh turn nor
cuts one short, nor forgets the host's word.

Times are deadlines on the wall clock (seconds since the epoch, ``time.time``): processes on
several machines must keep their clocks in step (NTP); a skew of a second moves a deadline by
a second. Each clock carries the game's version it was running at, and is taken over only when
the replayed game is at that very version: a handover older than the last action (written a
moment before the owner died) restarts that clock in full, as a server restart does.

>>> handover = Handover(turn=TurnClock(2, 17, "turn", 1700000030.5), hints_allowed=True)
>>> Handover.loads(handover.dumps()) == handover
True
>>> Handover.loads("not json") is None
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The turn timer: ``seat`` to act at ``version``, in ``phase`` (``turn`` or ``grace``)
    until ``until``."""

    seat: int
    version: int
    phase: str
    until: float


@dataclass(frozen=True, slots=True)
class PauseClock:
    """The pause after round ``round`` (the game at ``version``), waiting for ``waiting``
    until ``until``."""

    round: int
    version: int
    waiting: tuple[int, ...]
    until: float


@dataclass(frozen=True, slots=True)
class ReactionStart:
    """The reaction test of game ``game`` at ``version``, started at ``started``."""

    game: int
    version: int
    started: float


@dataclass(frozen=True, slots=True)
class Handover:
    """A table's clocks and the host's choices, as its next owner takes them over."""

    turn: TurnClock | None = None
    pause: PauseClock | None = None
    reaction: ReactionStart | None = None
    hints_allowed: bool = False
    spectators_chat: bool = False

    def dumps(self) -> str:
        """As JSON, compact."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str | bytes | None) -> Handover | None:
        """Read back from ``dumps``; ``None`` for nothing, or anything that is not one (a
        handover is a courtesy: a broken one restarts the clocks, as a restart does)."""
        if text is None:
            return None
        try:
            data = json.loads(text)
            turn, pause, reaction = data.get("turn"), data.get("pause"), data.get("reaction")
            return cls(
                turn=None if turn is None else TurnClock(**turn),
                pause=None
                if pause is None
                else PauseClock(**{**pause, "waiting": tuple(pause["waiting"])}),
                reaction=None if reaction is None else ReactionStart(**reaction),
                hints_allowed=bool(data.get("hints_allowed", False)),
                spectators_chat=bool(data.get("spectators_chat", False)),
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
