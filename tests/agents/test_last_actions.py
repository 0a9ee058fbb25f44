"""What moved the game, told to an agent: its view gives the game's last actions (at most
``LAST_ACTIONS``, each with its seat and in words), and a stale action's refusal the actions
since the version it was made on: a lost DOS race says who caught the agent.

The deal is the suite's (``support.suite_deals``), whatever it is: two agents and no bot, so
nothing moves the game but what they send (no out-of-turn call comes unasked), and the few
actions the tests play stay within the first round; a round that ended first would fail the
DOS race's test by name."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from dos.agents.service import Agents, StaleError
from dos.agents.text import LAST_ACTIONS
from dos.i18n.describe import card_name
from dos.rules.official.cards import parse_card
from dos.server.protocol.http_bodies import CreateTable, JoinTable
from dos.server.protocol.refusals import RefusedError
from dos.server.seat_service import SeatService
from dos.server.service import Service
from dos.server.storage.database import Database
from dos.server.tables.settings import Settings
from support import suite_deals

pytestmark = pytest.mark.asyncio


class Game:
    """Two agents at a table of two human seats (nothing moves but what they send)."""

    def __init__(self, agents: Agents, tokens: list[str]) -> None:
        self.agents = agents
        self.tokens = tokens

    async def look(self, seat: int) -> dict[str, Any]:
        return (await self.agents.look(self.tokens[seat])).data

    async def act(self, seat: int, action: str, version: int) -> dict[str, Any]:
        return (await self.agents.act(self.tokens[seat], action, version)).data


@pytest_asyncio.fixture
async def game(tmp_path: Path) -> AsyncIterator[Game]:
    url = f"sqlite:///{tmp_path / 'dos.sqlite3'}"
    service = Service(Database(url, "OFF"), tmp_path, Settings(bot_delay=0, deals=suite_deals()))
    await service.start()
    agents = Agents(SeatService(service))
    try:
        request = CreateTable(name="Ada", seats=[None, None], options={"target_score": 500})
        host = await agents.create(request, "test")
        guest = await agents.join(host["code"], JoinTable(name="Bob"), "test")
        await agents.start(host["token"])
        yield Game(agents, [host["token"], guest["token"]])
    finally:
        await service.stop()


def plain(legal: list[str]) -> list[str]:
    """The turn's own actions (no DOS call, no catch)."""
    return [a for a in legal if ":" not in a and not a.startswith("catch") and a != "dos"]


async def test_the_view_tells_the_last_actions_at_most_a_page(game: Game) -> None:
    rng = random.Random(2)
    start = await game.look(0)
    assert start["last_actions"] == []
    assert "\nlast actions:\nlegal:" in start["text"]
    played: list[tuple[int, int, str]] = []
    while len(played) < LAST_ACTIONS + 5:
        views = [await game.look(seat) for seat in (0, 1)]
        turn = views[0]["view"]["turn"]
        action = rng.choice(plain(views[turn]["view"]["legal"]))
        version = views[turn]["version"]
        await game.act(turn, action, version)
        played.append((version, turn, action))
    for seat in (0, 1):
        seen = await game.look(seat)
        last = seen["last_actions"]
        assert len(last) == LAST_ACTIONS
        assert [(e["version"], e["seat"], e["action"]) for e in last] == played[-LAST_ACTIONS:]
        assert last[-1]["version"] == seen["version"] - 1
        for entry in last:
            who = "you" if entry["seat"] == seat else f"seat {entry['seat']}"
            assert entry["words"].startswith(f"{who} "), entry
            assert "\n" not in entry["words"]
        section = seen["text"].split("\nlast actions:\n", 1)[1].split("\nlegal:", 1)[0]
        assert len(section.splitlines()) == LAST_ACTIONS
        assert section.splitlines()[-1].startswith(f"- {seen['version'] - 1} seat ")
        others = [e for e in last if e["action"] == "draw" and e["seat"] != seat]
        assert all(e["words"].endswith(" drew a card") for e in others)  # never which card


async def test_your_own_draw_names_the_card_and_nobody_elses(game: Game) -> None:
    """The seat that drew reads which card it drew (in its view and its text); the other
    seat reads "drew a card", and the card is nowhere in its answer."""
    views = [await game.look(seat) for seat in (0, 1)]
    drawer = views[0]["view"]["turn"]
    other = 1 - drawer
    held = list(views[drawer]["view"]["hand"])
    await game.act(drawer, "draw", views[drawer]["version"])
    hand = list((await game.look(drawer))["view"]["hand"])
    for card in held:
        hand.remove(card)
    (card,) = hand
    name = card_name("en", parse_card(card))
    mine, theirs = await game.look(drawer), await game.look(other)
    assert mine["last_actions"][-1]["words"] == f"you drew {name}"
    assert f"- 0 seat {drawer}: draw | you drew {name}" in mine["text"]
    assert theirs["last_actions"][-1]["words"] == f"seat {drawer} drew a card"
    assert f"- 0 seat {drawer}: draw | seat {drawer} drew a card" in theirs["text"]
    assert name not in json.dumps(theirs["last_actions"])


async def test_a_lost_dos_race_says_who_caught_you(game: Game) -> None:
    """One seat must call "DOS!"; the other catches it first: the call, made on the version
    before the catch, is refused as stale, and the refusal says who caught whom."""
    rng = random.Random(5)
    for _ in range(5000):
        views = [await game.look(seat) for seat in (0, 1)]
        assert not views[0]["view"]["round_results"], "the round ended before a DOS race came"
        catches = [
            (seat, action)
            for seat in (0, 1)
            for action in views[seat]["view"]["legal"]
            if "catch" in action
        ]
        if catches:
            catcher, catch = catches[0]
            caught = 1 - catcher
            version = views[catcher]["version"]
            assert any(a.endswith("dos") for a in views[caught]["view"]["legal"])
            await game.act(catcher, catch, version)
            with pytest.raises(RefusedError) as refused:
                await game.act(caught, "dos", version)
            error = refused.value
            assert isinstance(error, StaleError) and error.code == "stale"
            words = f'seat {catcher} caught you, who had not called "DOS!": two penalty cards'
            assert error.moved == [
                {"version": version, "seat": catcher, "action": catch, "words": words}
            ]
            after = await game.look(caught)
            assert after["last_actions"][-1] == error.moved[0]
            assert f"- {version} seat {catcher}: catch {caught} | {words}" in after["text"]
            return
        turn = views[0]["view"]["turn"]
        action = rng.choice(plain(views[turn]["view"]["legal"]))
        await game.act(turn, action, views[turn]["version"])
    raise AssertionError("no DOS race came")


async def test_a_stale_action_on_a_version_to_come_tells_nothing(game: Game) -> None:
    seen = await game.look(0)
    with pytest.raises(RefusedError) as refused:
        await game.act(0, "draw", seen["version"] + 3)
    assert refused.value.code == "stale"
    assert not isinstance(refused.value, StaleError)
