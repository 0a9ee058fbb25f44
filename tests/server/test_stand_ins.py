"""Stand-ins on their own (``dos.server.tables.stand_ins``): the grace after a closed connection,
the stand-in during a game only, and a person's return."""

from __future__ import annotations

from typing import cast

import pytest

from dos.server.clock import ManualClock
from dos.server.net.connections import Client
from dos.server.tables.bots import STAND_IN
from dos.server.tables.seat import Seat
from dos.server.tables.stand_ins import StandIns
from dos.server.tables.timers import Deadline

pytestmark = pytest.mark.asyncio

GRACE = 10.0


class Table:
    """What a table tells the stand-ins, and hears from them."""

    def __init__(self, clock: ManualClock) -> None:
        self.in_game = True
        self.changes = 0
        self.gone: list[int] = []
        self.seats = [
            Seat(0, "Ada", leave_timer=Deadline(clock)),
            Seat(1, "Bea", leave_timer=Deadline(clock)),
            Seat(2, bot="easy", leave_timer=Deadline(clock)),
        ]
        self.stand_ins = StandIns(
            self.seats,
            GRACE,
            in_game=lambda: self.in_game,
            changed=self.changed,
            gone=self.gone.append,
        )

    def changed(self) -> None:
        self.changes += 1


async def test_a_person_without_a_connection_is_stood_in_for_after_the_grace() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.stand_ins.await_return(1)
    await clock.advance(GRACE - 0.1)
    assert table.stand_ins.bot_level(1) is None
    await clock.advance(0.1)
    assert table.stand_ins.bot_level(1) == STAND_IN and table.seats[1].away
    assert table.changes == 1 and table.gone == [1]


async def test_the_grace_passes_the_host_on_in_the_lobby_but_stands_nobody_in() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.in_game = False
    table.stand_ins.await_return(0)
    await clock.advance(GRACE)
    assert not table.seats[0].away and table.changes == 0
    assert table.gone == [0]  # the table passes the host's role on


async def test_a_new_connection_within_the_grace_keeps_the_seat() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.stand_ins.await_return(0)
    table.seats[0].client = cast(Client, object())
    assert not table.stand_ins.arrived(0)  # nobody stood in for them yet
    await clock.advance(GRACE * 2)
    assert not table.seats[0].away and table.gone == []


async def test_bots_agents_and_connected_people_are_never_awaited() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.seats[1].remote = True  # an agent: presence is a request, not a connection
    for seat in (1, 2):
        table.stand_ins.await_return(seat)
    assert clock.pending == []
    assert not table.stand_ins.stand_in(2)  # a bot's seat plays itself
    assert table.stand_ins.bot_level(2) == "easy"


async def test_back_and_arrival_end_the_stand_in_and_only_back_tells() -> None:
    table = Table(ManualClock())
    assert table.stand_ins.stand_in(0) and not table.stand_ins.stand_in(0)
    assert table.changes == 1
    table.seats[0].left = True
    assert table.stand_ins.back(0) and table.changes == 2
    assert not table.seats[0].away and not table.seats[0].left
    assert not table.stand_ins.back(0) and table.changes == 2
    table.stand_ins.stand_in(0)
    assert table.stand_ins.arrived(0) and table.changes == 3  # the arrival tells nobody


async def test_a_deal_awaits_whoever_is_not_connected() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.seats[0].client = cast(Client, object())
    table.seats[1].left = True
    table.stand_ins.dealt()
    assert not table.seats[1].left and len(clock.pending) == 1
    await clock.advance(GRACE)
    assert table.seats[1].away and not table.seats[0].away


async def test_a_closed_table_awaits_nobody_and_stands_nobody_in() -> None:
    clock = ManualClock()
    table = Table(clock)
    table.stand_ins.await_return(1)
    table.stand_ins.close()
    await clock.advance(GRACE)
    table.stand_ins.await_return(0)
    assert clock.pending == [] and not table.stand_ins.stand_in(0)
    assert table.changes == 0 and table.gone == []
