"""The turn timer on its own (``dos.server.tables.turn_timer``): a turn, then a grace, then the
stand-in; restarted only by something new; and taken over from another process's deadline."""

from __future__ import annotations

import pytest

from dos.server.clock import ManualClock
from dos.server.tables.game_at import GameAt
from dos.server.tables.turn_timer import TurnTimer

pytestmark = pytest.mark.asyncio

GRACE = 10.0


def _timer(clock: ManualClock) -> tuple[TurnTimer, list[str], list[int]]:
    told: list[str] = []
    gone: list[int] = []
    timer = TurnTimer(GRACE, lambda: told.append("changed"), gone.append, clock)
    return timer, told, gone


async def test_a_turn_then_its_grace_then_the_stand_in() -> None:
    clock = ManualClock()
    timer, told, gone = _timer(clock)
    timer.follow(GameAt(1, 4, turn=1, turn_seconds=30.0))
    assert timer.info() == {"seat": 1, "seconds": 30.0, "phase": "turn"}
    await clock.advance(30.0)
    assert timer.info() == {"seat": 1, "seconds": GRACE, "phase": "grace"}
    await clock.advance(GRACE)
    assert gone == [1] and told == ["changed"] * 3


async def test_the_same_turn_again_changes_nothing_but_a_renewal_restarts_it() -> None:
    clock = ManualClock()
    timer, told, _ = _timer(clock)
    at = GameAt(1, 4, turn=1, turn_seconds=30.0)
    timer.follow(at)
    await clock.advance(5.0)
    timer.follow(at)
    assert timer.info() == {"seat": 1, "seconds": 25.0, "phase": "turn"} and len(told) == 1
    timer.renew()  # the player came back
    timer.follow(at)
    assert timer.info() == {"seat": 1, "seconds": 30.0, "phase": "turn"} and len(told) == 2


async def test_an_untimed_turn_or_no_game_stops_it_and_says_so() -> None:
    clock = ManualClock()
    timer, told, _ = _timer(clock)
    timer.follow(GameAt(1, 4, turn=1, turn_seconds=30.0))
    timer.follow(GameAt(1, 5, turn=0))  # a bot acts: no timer
    assert timer.info() is None and told == ["changed", "changed"]
    timer.follow(None)  # stopped already: nobody is told again
    assert told == ["changed", "changed"] and clock.pending == []
    assert '"seat":null' in timer.message()


async def test_a_turn_taken_over_past_its_end_is_in_its_grace_by_as_much() -> None:
    clock = ManualClock(start=1000.0)
    timer, _, gone = _timer(clock)
    timer.resume(1, 4, "turn", until=997.0)
    assert timer.info() == {"seat": 1, "seconds": GRACE - 3, "phase": "grace"}
    assert timer.held() == (1, 4, "grace", 1007.0)
    other, _, gone_there = _timer(clock)
    other.resume(0, 4, "grace", until=999.0)  # its grace ran out meanwhile
    await clock.advance(0)
    assert gone_there == [0] and gone == []
