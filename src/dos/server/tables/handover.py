"""What a table's next owner needs that the database does not hold: its clocks and the host's
choices kept in memory.

The database holds every committed action, so a table taken over by another process (a
failover, a drain: ``dos.cluster.node``) is replayed to the same game. But some of a table's
life is not in its actions: the turn timer's deadline and whether it is in its grace, the
pause between rounds and who it still waits for, when the reaction test's clock started, and
what the host allowed (hints, spectators' chat). A ``Handover`` is that, written down by the
owner whenever it changes (``hand_over``, through ``Table.handover``) and read by the next owner
before the table goes on (``take_over``, through ``Table.take_over``), so that a failover
neither gives a player a fresh turn nor cuts one short, nor forgets the host's word.

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

from dos.server.tables.game_at import GameAt
from dos.server.tables.pause import RoundPause
from dos.server.tables.reaction import ReactionClock
from dos.server.tables.turn_timer import TurnTimer


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


def hand_over(
    version: int,
    turn: TurnTimer,
    pause: RoundPause,
    reaction: ReactionClock,
    *,
    hints_allowed: bool,
    spectators_chat: bool,
) -> Handover:
    """What a table's clocks and its host's choices are now, the game at ``version``, as its
    next owner takes them over.

    >>> from dos.server.clock import ManualClock
    >>> clock = ManualClock(start=1000.0)
    >>> turn = TurnTimer(10.0, lambda: None, print, clock)
    >>> pause = RoundPause(clock, 30.0, changed=lambda: None, over=lambda: None)
    >>> reaction = ReactionClock(clock, None, print)
    >>> turn.run(30.0, seat=1, version=4)
    >>> hand_over(4, turn, pause, reaction, hints_allowed=False, spectators_chat=True).turn
    TurnClock(seat=1, version=4, phase='turn', until=1030.0)
    """
    held_turn = turn.held()
    held_pause = pause.held()
    referee = reaction.referee
    started = None
    if referee.running and reaction.started_at:
        game, at = referee.key
        started = ReactionStart(game, at, reaction.started_at)
    return Handover(
        turn=None if held_turn is None else TurnClock(*held_turn),
        pause=None if held_pause is None else PauseClock(held_pause[0], version, *held_pause[1:]),
        reaction=started,
        hints_allowed=hints_allowed,
        spectators_chat=spectators_chat,
    )


def take_over(
    handover: Handover, at: GameAt, turn: TurnTimer, pause: RoundPause, reaction: ReactionClock
) -> None:
    """Goes on with the clocks of a former owner's ``handover``, the game being played at
    ``at``: each clock only where the game is at the version it ran at (an older one starts
    afresh with the table's next change). A pause taken over holds the other clocks: no turn
    runs, no test is taken while it lasts.

    >>> from dos.server.clock import ManualClock
    >>> clock = ManualClock(start=1000.0)
    >>> turn = TurnTimer(10.0, lambda: None, print, clock)
    >>> pause = RoundPause(clock, 30.0, changed=lambda: None, over=lambda: None)
    >>> reaction = ReactionClock(clock, None, print)
    >>> handover = Handover(turn=TurnClock(1, 4, "turn", 1005.0))
    >>> take_over(handover, GameAt(9, 4, turn=1, turn_seconds=30.0), turn, pause, reaction)
    >>> turn.info()
    {'seat': 1, 'seconds': 5.0, 'phase': 'turn'}
    """
    held_pause = handover.pause
    if (
        held_pause is not None
        and held_pause.version == at.version
        and pause.resume(held_pause.round, held_pause.waiting, held_pause.until)
    ):
        return
    started = handover.reaction
    key, limit = at.test
    if started is not None and limit is not None and key == (started.game, started.version):
        reaction.resume(key, limit, started.started)
    held_turn = handover.turn
    if (
        held_turn is not None
        and at.turn_seconds is not None
        and held_turn.version == at.version
        and held_turn.seat == at.turn
    ):
        turn.resume(held_turn.seat, held_turn.version, held_turn.phase, held_turn.until)
