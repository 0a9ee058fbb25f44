"""The pause between rounds (``dos.server.tables.pause``) on its own: who it waits for, its
countdown, what it tells the table, and how another process goes on from it."""

from __future__ import annotations

import pytest

from dos.server.clock import ManualClock
from dos.server.tables.pause import RoundPause

pytestmark = pytest.mark.asyncio


class Told:
    """What the pause told its table, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def changed(self) -> None:
        self.said.append("changed")

    def over(self) -> None:
        self.said.append("over")


def _pause(clock: ManualClock, told: Told, seconds: float = 5.0) -> RoundPause:
    return RoundPause(clock, seconds, changed=told.changed, over=told.over)


async def test_the_pause_waits_for_each_reader_and_ends_with_the_last() -> None:
    told = Told()
    pause = _pause(ManualClock(), told)
    assert pause.after_round(3, [0, 2])
    assert pause.message() == {"round": 3, "waiting": [0, 2], "seconds": 5.0}
    pause.proceed(2)
    assert pause.active and pause.waiting == {0}
    pause.proceed(2)  # twice changes nothing, and tells nobody
    pause.proceed(1)  # nor a seat never waited for
    assert told.said == ["changed", "changed"]
    pause.proceed(0)
    assert not pause.active and pause.message()["seconds"] is None
    assert told.said == ["changed", "changed", "changed", "over"]


async def test_the_countdown_ends_the_pause_at_its_own_end() -> None:
    clock, told = ManualClock(), Told()
    pause = _pause(clock, told)
    pause.after_round(4, [1])
    await clock.advance(4.9)
    assert pause.active and pause.message()["seconds"] == pytest.approx(0.1)
    await clock.advance(0.1)
    assert not pause.active
    assert told.said == ["changed", "changed", "over"]


async def test_no_pause_without_readers_or_without_seconds() -> None:
    clock, told = ManualClock(), Told()
    assert not _pause(clock, told).after_round(1, [])
    assert not _pause(clock, told, seconds=0).after_round(1, [0, 1])
    assert told.said == [] and clock.pending == []


async def test_a_cancelled_pause_tells_nobody_and_its_countdown_never_comes() -> None:
    clock, told = ManualClock(), Told()
    pause = _pause(clock, told)
    pause.after_round(2, [0])
    pause.cancel()
    await clock.advance(10)
    assert not pause.active and told.said == ["changed"]


async def test_another_process_goes_on_from_what_the_pause_held() -> None:
    clock, told = ManualClock(start=1000.0), Told()
    pause = _pause(clock, told)
    pause.after_round(2, [2, 0])
    await clock.advance(1.5)
    held = pause.held()
    assert held == (2, (0, 2), 1005.0)
    later = _pause(clock, Told())
    assert later.resume(*held)
    assert later.message() == {"round": 2, "waiting": [0, 2], "seconds": 3.5}
    assert _pause(clock, Told()).held() is None
    await clock.advance(5)
    assert not _pause(clock, Told()).resume(*held)  # its end has passed: no pause
