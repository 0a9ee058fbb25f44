"""``dos serve --bot-effort``: the searching bots think with a share of their levels' budgets."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from dos.bots.registry import LEVELS
from dos.play.bot import Budget
from dos.rules.official import RULES, new_game
from dos.server.tables.bots import BotDriver
from support import run_cli


class _Table:
    """What the driver reads of a table: an official game at its start, seat 1 a bot."""

    rules_name = "official"
    rules = RULES

    def __init__(self) -> None:
        self.state = new_game(seed=7)
        self.version = 0

    def playing(self) -> bool:
        return True

    def bot_level(self, seat: int) -> str | None:
        return "expert"

    async def submit_bot(self, seat: int, text: str, version: int) -> bool:
        return True


class _Recorder:
    """A bot that plays the first legal action and keeps the budget it was given."""

    name = "recorder"

    def __init__(self) -> None:
        self.budgets: list[Budget] = []

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        self.budgets.append(budget)
        return view.legal[0]


@pytest.mark.asyncio
@pytest.mark.parametrize("effort", [1.0, 0.25])
async def test_the_bots_think_with_their_share_of_the_level_budget(effort: float) -> None:
    table = _Table()
    driver = BotDriver(table, 0.0, 1, effort=effort, game=table, levels=table.bot_level)
    recorder = _Recorder()
    level = driver._player("expert")
    # The level's budget and reflexes, this bot's choices.
    driver._players["expert"] = dataclasses.replace(level, bot=recorder)
    await driver._choose(table.rules.turn(table.state), "expert")
    level_budget = LEVELS["expert"][3]
    assert recorder.budgets == [level_budget.scaled(effort)]
    assert level_budget.iterations is not None and level_budget.seconds is not None
    assert recorder.budgets[0].iterations == round(level_budget.iterations * effort)
    assert recorder.budgets[0].seconds == pytest.approx(level_budget.seconds * effort)


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "nan"])
def test_serve_refuses_an_effort_out_of_range(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _out, err = run_cli(capsys, "serve", "--bot-effort", value, "--port", "0")
    assert status == 2 and "--bot-effort" in err
