"""Units of the chat's refusals and the log's history (the round pause's:
``test_round_pause.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from dos import ruleset
from dos.server.net.limits import Counters, Limits
from dos.server.tables.chat import TEXT_MAX, ChatRefusedError, ChatRoom
from dos.server.tables.history import log_entries
from server.chat_fakes import FakeTable


@dataclass(eq=False)
class FakeClient:
    seat: int | None
    player_id: str | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)
    counters: Counters = field(default_factory=lambda: Counters(Limits()))

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def allow_chat(self) -> bool:
        return self.counters.allow("chat", str(id(self)))


@pytest.mark.parametrize(
    ("text", "reaction", "code", "field_named"),
    [
        ("x" * (TEXT_MAX + 1), None, "chat_too_long", "chat.text"),
        ("   ", None, "chat_empty", "chat.text"),
        ("bell\x07", None, "bad_message", "chat.text"),
        (None, "boo", "bad_message", "chat.reaction"),
        (None, None, "bad_message", "text"),
    ],
)
@pytest.mark.asyncio
async def test_a_bad_chat_message_is_refused_naming_the_field(
    text: str | None, reaction: str | None, code: str, field_named: str
) -> None:
    ada, bo = FakeClient(0), FakeClient(1)
    table = FakeTable([ada, bo])
    with pytest.raises(ChatRefusedError) as refused:
        await ChatRoom().say(table, ada, text, reaction)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert field_named in refused.value.message
    assert bo.sent == []  # nothing went out


@pytest.mark.asyncio
async def test_the_author_is_the_connection_and_spectators_need_the_host() -> None:
    ada, bo, rail = FakeClient(0), FakeClient(1), FakeClient(None)
    table = FakeTable([ada, bo, rail])
    room = ChatRoom()
    await room.say(table, bo, "hi", None)  # type: ignore[arg-type]
    assert bo.sent[-1] == {"type": "chat", "seat": 1, "name": "Bo", "text": "hi", "reaction": None}
    with pytest.raises(ChatRefusedError, match="chat_not_allowed"):
        await room.say(table, rail, "hello", None)  # type: ignore[arg-type]
    with pytest.raises(ChatRefusedError, match="not_host"):
        room.allow_spectators(table, bo, True)  # type: ignore[arg-type]
    room.allow_spectators(table, ada, True)  # type: ignore[arg-type]
    assert rail.sent[-1] == {"type": "chat_rules", "spectators": True}
    await room.say(table, rail, "hello", None)  # type: ignore[arg-type]
    assert ada.sent[-1]["seat"] is None and ada.sent[-1]["name"] is None
    for _ in range(4):
        await room.say(table, bo, "again", None)  # type: ignore[arg-type]
    with pytest.raises(ChatRefusedError, match="chat_rate_limited"):
        await room.say(table, bo, "once more", None)  # type: ignore[arg-type]


def test_the_log_history_tells_a_seat_its_own_draws_only() -> None:
    rules: Any = ruleset.get("official")
    state = rules.new_game({"players": 2}, 7)
    actions, seats = [], []
    for _ in range(6):
        seat = rules.turn(state)
        action = "draw" if "draw" in [str(a) for a in rules.legal_actions(state)] else None
        if action is None:
            action = str(rules.legal_actions(state)[0])
        rules.apply(state, rules.parse_action(action))
        actions.append(str(state.history[-1]))
        seats.append(seat)
    entries, now = log_entries(rules, {"players": 2}, 7, actions, seats, viewer=0)
    assert [e["action"] for e in entries] == actions
    assert all(("drawn" in e) == (e["seat"] == 0 and e["action"] == "draw") for e in entries)
    assert all("hand" not in e["before"] for e in entries) and "hand" not in now
    assert any(len(e.get("drawn", [])) == 1 for e in entries)
