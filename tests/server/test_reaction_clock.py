"""The reaction test's clock on its own (``dos.server.tables.reaction.ReactionClock``): it starts on
a test it has not seen, wakes the table when the test's time has run out, and goes on from
another process's start."""

from __future__ import annotations

from typing import Any

import pytest

from dos import ruleset
from dos.rules.classic.actions import react
from dos.server.clock import ManualClock
from dos.server.tables.game_at import GameAt
from dos.server.tables.reaction import ReactionClock

pytestmark = pytest.mark.asyncio

TAKING = GameAt(game=7, version=12, turn=1, reaction_limit=3.0)
"""Game 7 at version 12, taking a reaction test of three seconds."""


def _clock() -> tuple[ManualClock, ReactionClock, list[Any]]:
    clock = ManualClock()
    due: list[Any] = []
    return clock, ReactionClock(clock, ruleset.entry("classic").reaction, due.append), due


async def test_the_deadline_wakes_the_table_once_the_time_has_run_out() -> None:
    clock, tests, due = _clock()
    tests.follow(TAKING)
    await clock.advance(3.0)
    assert due == [] and tests.overdue() is None  # an answer exactly at the deadline counts
    await clock.advance(0.01)
    assert due == [(7, 12)]
    assert tests.overdue() == (7, 12) and tests.overdue((7, 12)) == (7, 12)
    assert tests.overdue((7, 11)) is None  # not this test


async def test_following_the_same_test_again_keeps_its_start() -> None:
    clock, tests, due = _clock()
    tests.follow(TAKING)
    await clock.advance(2.0)
    tests.follow(TAKING)  # a change that is not a new test (a chat line, a seat)
    assert tests.referee.elapsed() == 2.0
    await clock.advance(1.01)
    assert due == [(7, 12)]


async def test_a_game_that_moved_on_stops_the_test() -> None:
    clock, tests, due = _clock()
    tests.follow(TAKING)
    tests.follow(GameAt(game=7, version=13, turn=0))  # answered: no test now
    assert not tests.referee.running and clock.pending == []
    tests.follow(None)  # nor while no game is played
    await clock.advance(10)
    assert due == []


async def test_a_persons_answer_is_recorded_with_the_servers_time() -> None:
    clock, tests, _ = _clock()
    assert tests.watching(TAKING) and not tests.watching(None)
    assert tests.watching(TAKING)
    await clock.advance(1.25)
    assert str(tests.referee.judge(react(2, 40))) == "react 2 1250ms"


async def test_the_time_gone_before_a_takeover_counts() -> None:
    clock, tests, due = _clock()
    tests.resume((7, 12), 3.0, clock.time() - 2.5)
    assert tests.referee.elapsed() == 2.5 and tests.started_at == clock.time() - 2.5
    tests.follow(TAKING)
    await clock.advance(0.51)
    assert due == [(7, 12)]
