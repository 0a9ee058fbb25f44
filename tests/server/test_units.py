"""Unit tests of the server's pieces: messages, tokens, the table life cycle, rate limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dos.server.auth import Signer, TokenError, load_secret
from dos.server.connections import RateLimit
from dos.server.messages import (
    MAX_MESSAGE_BYTES,
    ActionMessage,
    ProtocolError,
    parse_client_message,
    schemas_markdown,
)
from dos.server.tables import TRANSITIONS, Status


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
    assert schemas_markdown() in document, "run: python -m dos.server.messages"


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
    forged = ".".join([token.split(".")[0], other.split(".")[1], token.split(".")[2]])
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


def test_the_rate_limit_refills_over_time() -> None:
    limit = RateLimit(rate=10.0, burst=5.0)
    assert sum(limit.allow(now=0.0) for _ in range(10)) == 5
    assert sum(limit.allow(now=0.2) for _ in range(10)) == 2
