"""The log's pages on their own (``dos.server.tables.log_pages``): a connection gets the page of the
game in play as its seat may read it, and nothing of a game that is no longer the table's."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from dos import ruleset
from dos.server.storage.table_store import StoredGame
from dos.server.tables.history import GameLog
from dos.server.tables.log_pages import LogPages

pytestmark = pytest.mark.asyncio


@dataclass
class Reader:
    seat: int | None
    sent: list[Any] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


@dataclass
class Game:
    log: GameLog | None = None


def _played(seed: int, actions: int) -> GameLog:
    """The log of an official two-player game after its first ``actions`` actions."""
    rules: Any = ruleset.get("official")
    stored = StoredGame(1, 1, "official", {"players": 2}, seed, ["Ada", "Bea"], "playing", None)
    state = rules.new_game(stored.options, seed)
    game_log = GameLog(rules, stored, state)
    for _ in range(actions):
        seat = rules.turn(state)
        text = str(rules.legal_actions(state)[0])
        game_log.before_action(state, text, seat)
        rules.apply(state, rules.parse_action(text))
        game_log.after_action(state)
        stored.actions.append(text)
        stored.action_seats.append(seat)
        stored.by_bot.append(False)
    return game_log


async def test_a_reader_gets_the_latest_page_of_the_game_in_play() -> None:
    game = Game(_played(3, 4))
    ada = Reader(0)
    await LogPages("ABCDEF", game).send(ada)
    [page] = ada.sent
    assert page["type"] == "log" and len(page["entries"]) == 4


async def test_nothing_is_sent_before_the_first_game() -> None:
    ada = Reader(0)
    await LogPages("ABCDEF", Game()).send(ada)
    await LogPages("ABCDEF", Game()).send_first(ada)
    assert ada.sent == []


async def test_a_page_of_a_game_dealt_over_meanwhile_is_not_sent() -> None:
    game = Game()

    class Replaced:
        async def message(self, seat: int | None, before: int | None) -> str:
            game.log = _played(4, 1)  # a rematch dealt while the page was built
            return '{"type":"log"}'

    game.log = cast(GameLog, Replaced())
    ada = Reader(0)
    await LogPages("ABCDEF", game).send(ada)
    assert ada.sent == []


async def test_a_first_page_that_fails_is_logged_and_ends_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken:
        async def message(self, seat: int | None, before: int | None) -> str:
            raise RuntimeError("a bug")

    ada = Reader(0)
    with caplog.at_level(logging.ERROR, logger="dos.server.tables.log_pages"):
        await LogPages("ABCDEF", Game(cast(GameLog, Broken()))).send_first(ada)
    assert ada.sent == [] and "table ABCDEF: the log could not be sent" in caplog.text
