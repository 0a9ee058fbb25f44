"""An agent leaves its table: in the lobby its seat opens again (a host's role passes on),
during a game the stand-in plays its seat at once, until the agent acts again; its token
still reads the game it left, once over, until the next one is dealt.

The deal is the suite's (``support.suite_deals``), whatever it is: the stand-ins and the bot
play on by themselves (their DOS calls and catches, and every round's end, included), and the
tests hold whenever and however they move the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dos.agents.service import Agents
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.seat_service import SeatService
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.storage.table_store import load_table
from dos.server.tables.settings import Settings
from support import suite_deals

pytestmark = pytest.mark.asyncio


def _service(data: Path) -> Service:
    url = f"sqlite:///{data / 'dos.sqlite3'}"
    return Service(Database(url, "OFF"), data, Settings(bot_delay=0, deals=suite_deals()))


async def test_leaving_the_lobby_opens_the_seat(tmp_path: Path) -> None:
    service = _service(tmp_path)
    await service.start()
    agents = Agents(SeatService(service))
    try:
        host = await agents.create(CreateTable(name="Ada", seats=[None, None]), "test")
        guest = await agents.join(host["code"], JoinTable(name="Bob"), "test")
        seen = await agents.leave(guest["token"])
        assert seen.data["table"]["seats"][1]["name"] is None
        with pytest.raises(RefusedError) as refused:
            await agents.look(guest["token"])
        assert refused.value.code == "bad_token"
        stored = await service.db.read(load_table, host["code"])
        assert stored is not None and stored.seats[1].player_id is None
        again = await agents.join(host["code"], JoinTable(name="Cy"), "test")
        assert again["seat"] == 1
        # The host may leave too: the role passes to the player who is here.
        await agents.leave(host["token"])
        table = await service.table(host["code"])
        assert table is not None and table.host == 1 and table.seats[0].open
    finally:
        await service.stop()


async def test_leaving_a_game_gives_the_seat_to_the_stand_in_until_the_agent_acts(
    tmp_path: Path,
) -> None:
    service = _service(tmp_path)
    await service.start()
    agents = Agents(SeatService(service))
    try:
        host = await agents.create(CreateTable(name="Ada", seats=[None, None]), "test")
        guest = await agents.join(host["code"], JoinTable(name="Bob"), "test")
        await agents.start(host["token"])
        seen = await agents.leave(guest["token"])
        assert seen.data["table"]["seats"][1]["away"] is True
        table = await service.table(host["code"])
        assert table is not None and table.stand_ins.bot_level(1) is not None
        look = await agents.look(guest["token"])
        with pytest.raises(RefusedError):
            await agents.act(guest["token"], "R7@99", look.data["version"] + 1)  # stale
        assert table.seats[1].away is False  # acting took the seat back
    finally:
        await service.stop()


async def _to_the_end(agents: Agents, token: str) -> dict[str, Any]:
    """The seat's view once its game is over (the stand-ins and bots play it out)."""
    seen = (await agents.look(token)).data
    while seen["result"] is None:
        waited = await agents.wait(token, seen["version"], seen["change"], 30, "change")
        seen = waited.data
    return seen


async def test_a_player_who_left_reads_the_game_it_left_and_only_that(tmp_path: Path) -> None:
    """After its player left during a game, the seat opens as the game ends; its token still
    reads that game (its view, result and record), even once another player sits there, and
    nothing more: it acts for nobody, and once the next game is dealt it opens nothing."""
    service = _service(tmp_path)
    await service.start()
    agents = Agents(SeatService(service))
    try:
        body = CreateTable(name="Ada", seats=[None, None, "easy"], options={"target_score": 20})
        host = await agents.create(body, "test")
        guest = await agents.join(host["code"], JoinTable(name="Bob"), "test")
        await agents.start(host["token"])
        await agents.leave(guest["token"])
        await agents.leave(host["token"])  # the stand-ins and the bot play the game out
        end = await _to_the_end(agents, guest["token"])
        table = await service.table(host["code"])
        assert table is not None and table.seats[1].open  # the game is over: Bob's seat opens

        seen = (await agents.look(guest["token"])).data
        assert seen["seat"] == 1 and seen["result"] == end["result"] is not None
        assert seen["view"]["hand"] == end["view"]["hand"]  # Bob's own, as the game left it
        record = await agents.record(guest["token"])
        assert record["game"] == 1 and record["record"].startswith("{")
        with pytest.raises(RefusedError) as refused:
            await agents.act(guest["token"], "draw", seen["version"])
        assert refused.value.code == "not_seated"
        with pytest.raises(RefusedError) as refused:
            await agents.start(guest["token"])
        assert refused.value.code == "not_seated"

        cy = await agents.join(host["code"], JoinTable(name="Cy", seat=1), "test")
        assert (await agents.look(guest["token"])).data["result"] == end["result"]
        await agents.start(cy["token"])  # the next game: Cy's hand in seat 1
        for read in (agents.look, agents.record):
            with pytest.raises(RefusedError) as refused:
                await read(guest["token"])
            assert refused.value.code == "bad_token"
    finally:
        await service.stop()
