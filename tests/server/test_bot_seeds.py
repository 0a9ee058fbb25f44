"""The server's bots are handed generators that do not lead back to the game's seed, whether
they decide in the server's process or as jobs (``dos.seeds``; the attack is
``seed_recovery``)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from dos import ruleset, seeds
from dos.bots.random_bot import RandomBot
from dos.play.bot import Budget
from dos.play.official import Player
from dos.rules.official import new_game, view
from dos.server.tables.bot_job import bot_seed, decide
from dos.server.tables.bots import BotDriver
from seed_recovery import reveals, seeding_key

SEED = 20261129


class _Spy:
    """A random bot that keeps the state of each generator it is handed, as first seen."""

    name = "spy"

    def __init__(self) -> None:
        self.states: list[Any] = []

    def choose(self, seen: Any, rng: random.Random, budget: Budget) -> Any:
        self.states.append(rng.getstate())
        return RandomBot().choose(seen, rng, budget)


class _Table:
    """An official game dealt with ``SEED`` whose seats 1 and 2 are bots; the driver's first
    action is kept, not applied."""

    rules_name = "official"

    def __init__(self) -> None:
        self.rules = ruleset.get("official")
        self.state = self.rules.new_game({"players": 3}, SEED)
        while self.rules.turn(self.state) == 0:  # a bot's turn first
            self.rules.apply(self.state, self.rules.legal_actions(self.state, 0)[0])
        self.version = 0
        self.moved = asyncio.Event()

    def playing(self) -> bool:
        return True

    def bot_level(self, seat: int) -> str | None:
        return None if seat == 0 else "random"

    async def submit_bot(self, seat: int, text: str, version: int) -> bool:
        self.moved.set()
        return False


@pytest.mark.asyncio
async def test_a_bot_deciding_in_the_server_cannot_read_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = _Spy()
    monkeypatch.setattr("dos.server.tables.bots.make_player", lambda level, rules: Player(spy))
    table = _Table()
    driver = BotDriver(table, 0.0, SEED, game=table, levels=table.bot_level)
    driver.reset(SEED)
    driver.poke()
    await table.moved.wait()
    driver.stop()
    seat = table.rules.turn(table.state)
    (state,) = spy.states
    assert not reveals(state, SEED)
    assert seeding_key(state) == seeds.derive(SEED, "seat", seat)


def test_a_bot_deciding_as_a_job_cannot_read_the_seed() -> None:
    spy = _Spy()
    seen = view(new_game(seed=SEED), 1)
    seed = bot_seed(SEED, 1, 17)
    decide("official", "random", seen, effort=1.0, seed=seed, player=Player(spy))
    (state,) = spy.states
    assert not reveals(state, SEED)
    assert str(SEED) not in seed  # what travels in the job's payload
