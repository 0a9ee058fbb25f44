"""What a table's next owner takes over beyond its actions (``dos.server.tables.handover``): the
turn timer's deadline, the pause between rounds, the reaction test's clock and the host's choices.

The table is taken over the way another process takes it: loaded again from the database
(``Table.load``, the game replayed), then ``take_over`` of what the first one handed over.

The deal is the suite's (``support.suite_deals``), whatever it is: two people and no bot, so the
game moves only when a stand-in plays a seat's turn, which the tests wait for. The rated table
is dealt at random (a seeded server rates none), and nobody plays it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio
from fastapi import WebSocket

from dos.server.clock import ManualClock
from dos.server.deals import Deals
from dos.server.net.connections import Client
from dos.server.net.limits import Counters, Limits
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_table
from dos.server.tables import seating
from dos.server.tables.game_at import GameAt
from dos.server.tables.handover import (
    Handover,
    PauseClock,
    ReactionStart,
    TurnClock,
    hand_over,
    take_over,
)
from dos.server.tables.pause import RoundPause
from dos.server.tables.reaction import ReactionClock
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
from dos.server.tables.turn_timer import TurnTimer
from support import suite_deals

pytestmark = pytest.mark.asyncio

TURN = 30.0
GRACE = 10.0


def _service(data: Path, deals: Deals) -> Service:
    settings = Settings(bot_delay=0, grace_seconds=GRACE, pause_seconds=0, deals=deals)
    return Service(Database(f"sqlite:///{data / 'dos.sqlite3'}", "OFF"), data, settings)


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    """The server, dealing from the suite's seed."""
    found = _service(tmp_path, suite_deals())
    await found.start()
    yield found
    await found.stop()


@pytest_asyncio.fixture
async def random_service(tmp_path: Path) -> AsyncIterator[Service]:
    """The server, dealing at random: its tables may be rated (a seeded server rates none)."""
    found = _service(tmp_path, Deals())
    await found.start()
    yield found
    await found.stop()


async def _playing(service: Service, rated: bool = False) -> Table:
    """Two people in a game with a turn timer, both connected."""
    request = CreateTable(
        name="Ada", seats=[None, None], rated=rated, turn_seconds=TURN, options={}
    )
    code = (await service.create(request, "test"))["code"]
    await service.join(code, JoinTable(name="Bea"), "test")
    table = await service.table(code)
    assert table is not None
    for seat in (0, 1):
        client = Client(cast(WebSocket, None), "127.0.0.1", Counters(Limits()))
        await seating.attach(table, client, seat)
    await table.start(0)
    assert table.turn_timer.held() is not None
    return table


async def _next_owner(service: Service, table: Table, handover: Handover | None) -> Table:
    """``table`` as another process loads and takes it over."""
    stored = await service.db.read(load_table, table.code)
    assert stored is not None
    taken = await Table.load(stored, service.db, service.settings)
    taken.take_over(handover)
    taken.after_change()
    return taken


def _until(table: Table) -> float:
    held = table.turn_timer.held()
    assert held is not None
    return held[3]


async def test_the_turn_timer_goes_on_from_the_former_owners_deadline(service: Service) -> None:
    table = await _playing(service)
    handover = Handover.loads(table.handover().dumps())  # as written and read back
    assert handover is not None and handover.turn is not None
    turn = handover.turn
    assert (turn.seat, turn.version, turn.phase) == (
        table.rules.turn(table.current.state),
        0,
        "turn",
    )
    # Taken over five seconds before its end: five seconds are left, not a fresh turn.
    soon = Handover(turn=TurnClock(turn.seat, turn.version, "turn", time.time() + 5))
    taken = await _next_owner(service, table, soon)
    assert _until(taken) == pytest.approx(soon.turn.until, abs=0.05)  # type: ignore[union-attr]
    info = taken.turn_timer.info()
    assert info is not None and info["phase"] == "turn" and 4 < info["seconds"] <= 5
    taken.close()
    # Taken over three seconds after the turn ran out: three seconds into the grace.
    late = Handover(turn=TurnClock(turn.seat, turn.version, "turn", time.time() - 3))
    taken = await _next_owner(service, table, late)
    info = taken.turn_timer.info()
    assert info is not None and info["phase"] == "grace"
    assert GRACE - 4 < info["seconds"] <= GRACE - 3
    taken.close()


async def test_a_grace_run_out_meanwhile_brings_the_stand_in_at_once(service: Service) -> None:
    table = await _playing(service)
    seat = table.rules.turn(table.current.state)
    gone = Handover(turn=TurnClock(seat, table.current.version, "grace", time.time() - 1))
    taken = await _next_owner(service, table, gone)
    async with asyncio.timeout(10):
        while taken.current.version == table.current.version:  # the stand-in plays the seat's turn
            await taken.audience.changed(taken.audience.change, 10)
    assert taken.seats[seat].away
    taken.close()


async def test_a_clock_of_an_older_version_starts_in_full(service: Service) -> None:
    table = await _playing(service)
    seat = table.rules.turn(table.current.state)
    older = Handover(turn=TurnClock(seat, table.current.version - 1, "turn", time.time() + 2))
    taken = await _next_owner(service, table, older)
    assert _until(taken) > time.time() + TURN - 2  # a fresh turn, as after a restart
    taken.close()
    taken = await _next_owner(service, table, None)  # nothing handed over: the same
    assert _until(taken) > time.time() + TURN - 2
    taken.close()


async def test_the_pause_between_rounds_goes_on_with_whom_it_waits_for(service: Service) -> None:
    table = await _playing(service)
    pause = PauseClock(round=1, version=table.current.version, waiting=(1,), until=time.time() + 8)
    taken = await _next_owner(service, table, Handover(pause=pause))
    assert taken.pause.active and taken.pause.waiting == {1}
    message = taken.pause.message()
    assert message["round"] == 1 and 7 < message["seconds"] <= 8
    assert taken.turn_timer.held() is None  # no turn runs while it pauses
    again = Handover.loads(taken.handover().dumps())  # what it hands over in turn
    assert again is not None and again.pause is not None
    assert again.pause.until == pytest.approx(pause.until, abs=0.01)
    assert again.pause == PauseClock(1, table.current.version, (1,), again.pause.until)
    taken.close()
    over = PauseClock(round=1, version=table.current.version, waiting=(1,), until=time.time() - 1)
    taken = await _next_owner(service, table, Handover(pause=over))
    assert not taken.pause.active  # its countdown ended meanwhile: the game goes on
    taken.close()


async def test_the_hosts_choices_come_back_but_never_hints_at_a_rated_table(
    random_service: Service,
) -> None:
    table = await _playing(random_service)
    choices = Handover(hints_allowed=True, spectators_chat=True)
    taken = await _next_owner(random_service, table, choices)
    assert taken.hints_allowed and taken.chat.spectators
    taken.close()
    rated = await _playing(random_service, rated=True)
    assert rated.rated
    taken = await _next_owner(random_service, rated, choices)
    assert not taken.hints_allowed and taken.chat.spectators
    taken.close()


async def test_the_reaction_tests_clock_counts_the_time_gone_before_the_takeover() -> None:
    clock = ManualClock()
    reaction = ReactionClock(clock, None, lambda key: None)
    reaction.resume((7, 12), 3.0, clock.time() - 1.25)
    assert reaction.referee.key == (7, 12)
    assert reaction.referee.elapsed() == 1.25
    await clock.advance(2.0)
    assert reaction.referee.expired()


async def test_a_broken_handover_is_none() -> None:
    for text in (None, "", "[]", '{"turn": {"seat": 1}}', '{"pause": 3}', "\x00"):
        assert Handover.loads(text) is None, text
    assert Handover.loads("{}") == Handover()


async def test_a_table_closed_here_stays_still_when_its_connections_end(
    service: Service,
) -> None:
    # A table that left this process (another owns it now) is closed; its connections end
    # afterwards. Nothing may start it again: no grace for a leaver, no stand-in, no bot.
    table = await _playing(service)
    table.close()
    for place in table.seats:
        assert place.client is not None
        seating.detach(table, place.client)
        assert not place.leave_timer.running
    table.stand_ins.stand_in(0)
    table.after_change()
    assert not table.seats[0].away and not table.playing()
    assert table.turn_timer.held() is None


def _clocks(clock: ManualClock) -> tuple[TurnTimer, RoundPause, ReactionClock]:
    turn = TurnTimer(GRACE, lambda: None, lambda seat: None, clock)
    pause = RoundPause(clock, 30.0, changed=lambda: None, over=lambda: None)
    return turn, pause, ReactionClock(clock, None, lambda key: None)


async def test_the_clocks_are_handed_over_as_they_run() -> None:
    clock = ManualClock(start=1000.0)
    turn, pause, reaction = _clocks(clock)
    turn.run(TURN, seat=1, version=4)
    reaction.watch((9, 4), 3.0)
    await clock.advance(2.0)
    written = hand_over(4, turn, pause, reaction, hints_allowed=True, spectators_chat=False)
    assert written == Handover(
        turn=TurnClock(1, 4, "turn", 1000.0 + TURN),
        reaction=ReactionStart(9, 4, 1000.0),
        hints_allowed=True,
    )
    pause.after_round(2, [0])
    paused = hand_over(4, turn, pause, reaction, hints_allowed=False, spectators_chat=True)
    assert paused.pause == PauseClock(2, 4, (0,), 1032.0) and paused.spectators_chat


async def test_each_clock_is_taken_over_only_at_the_version_it_ran_at() -> None:
    clock = ManualClock(start=1000.0)
    former = Handover(
        turn=TurnClock(1, 4, "turn", 1005.0), reaction=ReactionStart(9, 4, started=999.0)
    )
    turn, pause, reaction = _clocks(clock)
    at = GameAt(9, 4, turn=1, turn_seconds=TURN, reaction_limit=3.0)
    take_over(former, at, turn, pause, reaction)
    assert turn.held() == (1, 4, "turn", 1005.0) and reaction.referee.elapsed() == 1.0
    turn, pause, reaction = _clocks(clock)
    later = GameAt(9, 5, turn=1, turn_seconds=TURN, reaction_limit=3.0)
    take_over(former, later, turn, pause, reaction)
    assert turn.held() is None and not reaction.referee.running  # they start afresh
    untimed = GameAt(9, 4, turn=1, turn_seconds=None)  # a bot acts now: no turn runs
    take_over(former, untimed, turn, pause, reaction)
    assert turn.held() is None


async def test_a_pause_taken_over_holds_the_other_clocks() -> None:
    clock = ManualClock(start=1000.0)
    former = Handover(
        turn=TurnClock(1, 4, "turn", 1005.0), pause=PauseClock(2, 4, (0, 1), until=1020.0)
    )
    turn, pause, reaction = _clocks(clock)
    take_over(former, GameAt(9, 4, turn=1, turn_seconds=TURN), turn, pause, reaction)
    assert pause.message() == {"round": 2, "waiting": [0, 1], "seconds": 20.0}
    assert turn.held() is None
