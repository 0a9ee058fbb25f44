"""The chat allowance is the client's, not the connection's: reconnecting renews nothing.
Each connection may send ``Limits.chat`` messages and each client (network address)
``Limits.client_chat``, all its connections together.

The tests share one server (``chatty``): each is a client of its own there, connecting from a
loopback address of its own (``loopback``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.support import ServerProcess, WsPlayer, create_table

pytestmark = pytest.mark.asyncio

CLIENT_CHATS = 6
"""``client_chat``: chat messages of one client a minute, all its connections together."""
CONNECTION_CHATS = 5
"""``chat``: chat messages of one connection in 10 seconds."""


@pytest.fixture(scope="module")
def chatty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose only per-client limits are the two chat limits."""
    server = ServerProcess(
        tmp_path_factory.mktemp("chatty"),
        None,
        "--limit",
        "off",
        "--limit",
        f"client_chat={CLIENT_CHATS}/minute",
        "--limit",
        f"chat={CONNECTION_CHATS}/10second",
    )
    server.start()
    yield server
    server.stop()


async def _chat(player: WsPlayer, text: str) -> dict[str, Any]:
    """Sends a chat text; the answer: its own ``chat`` line, or the ``error`` refusing it."""
    await player.send({"type": "chat", "text": text})
    while True:
        message = await player.recv()
        if message["type"] == "error" or (message["type"] == "chat" and message["text"] == text):
            return message


async def _connect(server: ServerProcess, grant: dict[str, Any], loopback: str) -> WsPlayer:
    code, token = str(grant["code"]), str(grant["token"])
    return await WsPlayer(server.ws_url, code, token, loopback).connect()


async def test_reconnecting_does_not_renew_the_chat_allowance(
    chatty: ServerProcess, loopback: str
) -> None:
    """Ten connections, one after the other, three chats each: the client is allowed
    ``client_chat`` in all; the rest are refused with ``chat_rate_limited``."""
    grant = create_table(chatty.url, seats=[None, "easy"])
    answers: list[dict[str, Any]] = []
    for connection in range(10):
        player = await _connect(chatty, grant, loopback)
        for line in range(3):
            answers.append(await _chat(player, f"hello {connection}.{line}"))
        await player.close()
    sent = [a for a in answers if a["type"] == "chat"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(sent) == CLIENT_CHATS, [a.get("text") or a.get("code") for a in answers]
    assert sent == answers[:CLIENT_CHATS]  # the first ones pass, then none
    assert {a["code"] for a in refused} == {"chat_rate_limited"}
    assert all(a["message"] for a in refused)


async def test_one_connection_keeps_its_own_limit(chatty: ServerProcess, loopback: str) -> None:
    """Within the client's allowance a connection is still held to ``chat``; a refusal by
    the connection's limit costs the client nothing, so the next connection may still send
    what is left of the client's."""
    grant = create_table(chatty.url, seats=[None, "easy"])
    first = await _connect(chatty, grant, loopback)
    answers = [await _chat(first, f"one {n}") for n in range(CONNECTION_CHATS + 2)]
    assert [a["type"] for a in answers] == ["chat"] * CONNECTION_CHATS + ["error"] * 2
    assert {a["code"] for a in answers[CONNECTION_CHATS:]} == {"chat_rate_limited"}
    await first.close()
    second = await _connect(chatty, grant, loopback)
    left = CLIENT_CHATS - CONNECTION_CHATS
    answers = [await _chat(second, f"two {n}") for n in range(left + 1)]
    assert [a["type"] for a in answers] == ["chat"] * left + ["error"]
    assert answers[-1]["code"] == "chat_rate_limited"
    await second.close()
