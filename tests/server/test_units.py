"""Unit tests of the server's pieces: messages, tokens, the table life cycle, rate limits."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dos.server.net.limits import Counters, Limits
from dos.server.people.auth import Signer, TokenError, load_secret
from dos.server.protocol.base import MAX_MESSAGE_BYTES, ProtocolError
from dos.server.protocol.client_messages import ActionMessage, parse_client_message
from dos.server.protocol.schemas import schemas_markdown
from dos.server.tables.table import TRANSITIONS, Status


def test_an_action_message_is_read_with_its_version() -> None:
    message = parse_client_message('{"type": "action", "action": "R7@0", "version": 3}')
    assert message == ActionMessage(type="action", action="R7@0", version=3)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"action": "draw"}', "unknown_type"),
        ('{"type": "action", "action": "draw"}', "bad_message"),
        ('{"type": "action", "action": "draw", "version": -1}', "bad_message"),
        ('{"type": "ping", "extra": 1}', "bad_message"),
        (json.dumps({"type": "ping", "id": "x" * MAX_MESSAGE_BYTES}), "too_big"),
    ],
)
def test_bad_client_messages_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == code
    assert refused.value.message


def test_a_bad_message_names_the_field() -> None:
    with pytest.raises(ProtocolError, match="version"):
        parse_client_message('{"type": "action", "action": "draw", "version": "x"}')


def test_the_protocol_document_shows_the_current_schemas() -> None:
    document = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert schemas_markdown() in document, "run: python -m dos.server.protocol.schemas"


def test_a_seat_token_opens_its_seat_until_it_expires() -> None:
    signer = Signer(b"s" * 32, lifetime=100)
    token = signer.seat_token("ABCDEF", 1, "p_1", now=1000)
    assert signer.read_seat(token, now=1050).seat == 1
    with pytest.raises(TokenError) as expired:
        signer.read_seat(token, now=1101)
    assert expired.value.code == "expired_token"


def test_a_token_signed_with_another_secret_is_refused() -> None:
    token = Signer(b"a" * 32).seat_token("ABCDEF", 0, "p_1")
    with pytest.raises(TokenError) as forged:
        Signer(b"b" * 32).read_seat(token)
    assert forged.value.code == "bad_token"


def test_a_token_with_an_edited_payload_is_refused() -> None:
    signer = Signer(b"a" * 32)
    token = signer.seat_token("ABCDEF", 0, "p_1")
    other = signer.seat_token("ABCDEF", 1, "p_1")
    _payload, stamp, signature = token.split(".")
    forged = ".".join([other.split(".")[0], stamp, signature])  # seat 1's payload, seat 0's MAC
    assert forged != other
    with pytest.raises(TokenError):
        signer.read_seat(forged)


def test_a_player_token_is_not_a_seat_token() -> None:
    signer = Signer(b"a" * 32)
    with pytest.raises(TokenError):
        signer.read_seat(signer.player_token("p_1"))
    assert signer.read_player(signer.player_token("p_1")) == "p_1"


@pytest.mark.parametrize("junk", ["", "v1", "v1.x.y", "v2.a.b", "..", "v1.!!.??"])
def test_junk_is_not_a_token(junk: str) -> None:
    with pytest.raises(TokenError):
        Signer(b"a" * 32).read_seat(junk)


def test_the_secret_is_kept_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DOS_SECRET", raising=False)
    first = load_secret(tmp_path)
    assert load_secret(tmp_path) == first
    assert (tmp_path / "secret.key").stat().st_mode & 0o077 == 0


def test_the_life_cycle_allows_only_its_moves() -> None:
    assert TRANSITIONS[Status.LOBBY] == {Status.PLAYING}
    assert TRANSITIONS[Status.PLAYING] == {Status.FINISHED}
    assert TRANSITIONS[Status.FINISHED] == {Status.PLAYING}


def test_a_clients_budget_is_shared_by_its_connections() -> None:
    counters = Counters(Limits().with_changes(["client_messages=10/day"]))
    first = sum(counters.allow("client_messages", "10.0.0.1") for _ in range(6))
    second = sum(counters.allow("client_messages", "10.0.0.1") for _ in range(6))
    assert (first, second) == (6, 4)
    assert counters.allow("client_messages", "10.0.0.2")  # another client has its own
    assert counters.retry_after("client_messages", "10.0.0.1") >= 1


def test_a_limit_that_is_off_counts_nothing() -> None:
    counters = Counters(Limits().with_changes(["off"]))
    assert all(counters.allow("create", "10.0.0.1") for _ in range(1000))
    with pytest.raises(ValueError, match="table_page: cannot be off"):
        Limits().with_changes(["table_page=off"])
    with pytest.raises(ValueError, match="create: 'fast' is not a valid value"):
        Limits().with_changes(["create=fast"])


class _ThreadRecorder:
    """A bot that only notes the thread it was asked to decide on."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    def choose(self, view: Any, rng: Any, budget: Any) -> str:
        self.threads.append(threading.get_ident())
        return "draw"


@pytest.mark.parametrize("rules", ["official", "classic"])
def test_every_searching_level_decides_off_the_event_loop(rules: str) -> None:
    from dos.bots.registry import CLASSIC_LEVELS, LEVELS, SEARCH_BOTS
    from dos.rules import classic, official
    from dos.server.tables.bots import BotDriver, bot_support

    levels = CLASSIC_LEVELS if rules == "classic" else LEVELS
    support = bot_support(rules)
    assert support is not None and support.levels() == list(levels)
    searching = {level for level, (bot, *_) in levels.items() if bot in SEARCH_BOTS}
    assert "hard" in searching and ("expert" in searching or "expert" not in levels)
    assert rules == "classic" or "expert" in searching
    state = (classic if rules == "classic" else official).new_game(seed=1)
    table = SimpleNamespace(rules_name=rules, state=state)
    driver = BotDriver(table, scale=0.0, seed=1, game=table, levels=lambda seat: None)

    async def decide(level: str) -> bool:
        """Whether the level's decision ran on another thread than the event loop's."""
        recorder = _ThreadRecorder()
        driver._players[level] = replace(driver._player(level), bot=recorder)
        await driver._choose(1, level)
        assert len(recorder.threads) == 1
        return recorder.threads[0] != threading.get_ident()

    off_the_loop = {level for level in levels if asyncio.run(decide(level))}
    assert off_the_loop == searching
