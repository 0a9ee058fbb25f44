"""What a table sends as it changes, on its own (``dos.server.tables.broadcasts``): one message per
change, each seat with its own view, the actor's message id to the actor alone."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from dos import ruleset
from dos.server.clock import ManualClock
from dos.server.net.connections import Client
from dos.server.storage.table_store import StoredGame
from dos.server.tables.audience import Audience
from dos.server.tables.broadcasts import Broadcasts
from dos.server.tables.current_game import CurrentGame
from dos.server.tables.seat import Seat
from dos.server.tables.turn_timer import TurnTimer

pytestmark = pytest.mark.asyncio


@dataclass(eq=False)
class Reader:
    seat: int | None
    sent: list[Any] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def _table() -> tuple[Broadcasts, list[Reader], CurrentGame]:
    """Two seats and a spectator at an official game just dealt."""
    clock = ManualClock()
    entry = ruleset.entry("official")
    rules = entry.rules()
    game = CurrentGame(entry, rules, None, "ABCDEF", clock)  # type: ignore[arg-type]
    stored = StoredGame(5, 1, "official", {"players": 2}, 3, ["Ada", "Bea"], "playing", None)
    game.install(stored, rules.new_game(stored.options, stored.seed))
    readers = [Reader(0), Reader(1), Reader(None)]
    seats = [Seat(0, "Ada"), Seat(1, "Bea")]
    for place, reader in zip(seats, readers, strict=False):
        place.client = cast(Client, reader)
    audience = Audience(seats, clock)
    audience.watch(cast(Client, readers[2]))
    timer = TurnTimer(10.0, lambda: None, print, clock)
    return Broadcasts(audience, game, timer, lambda: {"code": "ABCDEF"}), readers, game


async def test_a_full_state_shows_each_seat_its_own_hand_and_the_spectator_none() -> None:
    news, readers, _ = _table()
    news.state()
    ada, bea, rail = (r.sent[-1] for r in readers)
    assert {m["type"] for m in (ada, bea, rail)} == {"state"}
    assert ada["view"]["seat"] == 0 and bea["view"]["seat"] == 1
    assert "hand" in ada["view"] and "hand" not in rail["view"]
    assert ada["table"] == {"code": "ABCDEF"} and ada["version"] == 0 and ada["timer"] is None


async def test_an_update_gives_the_actor_its_message_id_and_the_others_none() -> None:
    news, readers, game = _table()
    state = game.state
    text = str(game.rules.legal_actions(state)[0])
    actor = game.rules.turn(state)
    after = game.prepare(game.read(actor, text, 0), 0)
    game.state, game.version = after, 1  # as a commit leaves it
    news.update(actor, text, "m-1", by_bot=False)
    ids = {r.seat: r.sent[-1]["id"] for r in readers}
    assert ids == {actor: "m-1", 1 - actor: None, None: None}
    assert all(r.sent[-1]["version"] == 1 and r.sent[-1]["action"] == text for r in readers)


async def test_the_tables_info_reaches_the_spectators_only_when_told() -> None:
    news, readers, _ = _table()
    news.table(spectators=False)
    assert [len(r.sent) for r in readers] == [1, 1, 0]
    news.table()
    assert readers[2].sent == [{"type": "table", "table": {"code": "ABCDEF"}}]
    assert news.audience.change == 2  # whoever waits for a change is woken each time


async def test_the_timer_and_the_pause_are_sent_as_they_are() -> None:
    news, readers, _ = _table()
    news.timer()
    assert readers[0].sent[-1] == {"type": "timer", "seat": None, "seconds": None, "phase": None}
    news.pause({"round": 1, "waiting": [0], "seconds": 5.0})
    assert readers[2].sent[-1] == {"type": "pause", "round": 1, "waiting": [0], "seconds": 5.0}
