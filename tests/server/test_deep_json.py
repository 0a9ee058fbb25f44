"""A JSON body nested too deeply to read is ``bad_json`` (400), as docs/protocol.md says, on
every endpoint that reads a JSON body, and the server goes on answering. So is any other body
the JSON parser fails on: one that is not UTF-8, a number past Python's 4,300 digits."""

from __future__ import annotations

from typing import Any

import pytest

from server.support import HTTP, TIMEOUT, ServerProcess, create_table

DEPTH = 3000
"""Deeper than the JSON parser reads (its recursion limit), well within the 16 KiB body."""
OBJECT_DEPTH = 2500
"""As deep in objects (``{"a":`` takes five bytes a level) within the 16 KiB body."""

BODIES = {
    "nested arrays": "[" * DEPTH + "]" * DEPTH,
    "nested objects": '{"a":' * OBJECT_DEPTH + "1" + "}" * OBJECT_DEPTH,
    "unclosed nesting": "[" * DEPTH,
    "a deep field": '{"name": "Ada", "options": ' + "[" * DEPTH + "]" * DEPTH + "}",
    "not UTF-8": b'{"name": "Ada\xff"}',
    "a number too long": '{"name": "Ada", "seats": [' + "7" * 5000 + "]}",
}
"""Bodies the server cannot read as JSON."""


@pytest.fixture(scope="module")
def deep(server: ServerProcess) -> ServerProcess:
    """The server the tests share (``server``): after every deep body it must still answer."""
    return server


@pytest.fixture(scope="module")
def grant(deep: ServerProcess) -> dict[str, Any]:
    """A table with an agent's seat: the three endpoints that read a JSON body."""
    return create_table(deep.url, seats=[None, None])


def _paths(grant: dict[str, Any]) -> list[str]:
    return ["/api/tables", f"/api/tables/{grant['code']}/join", "/api/agent/seat/actions"]


@pytest.mark.parametrize("body", list(BODIES.values()), ids=list(BODIES))
@pytest.mark.parametrize("endpoint", [0, 1, 2], ids=["create", "join", "agent action"])
def test_a_body_too_deep_to_read_is_bad_json(
    deep: ServerProcess, grant: dict[str, Any], endpoint: int, body: str | bytes
) -> None:
    content = body.encode("ascii") if isinstance(body, str) else body
    assert len(content) < 16384  # not refused for its size
    response = HTTP.post(
        deep.url + _paths(grant)[endpoint],
        content=content,
        headers={
            "content-type": "application/json",
            "authorization": f"Bearer {grant['token']}",
        },
        timeout=TIMEOUT,
    )
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["code"] == "bad_json", answer
    assert answer["message"] and answer["field"] is None, answer
    assert deep.process is not None and deep.process.poll() is None
    alive = HTTP.get(f"{deep.url}/api/tables/{grant['code']}", timeout=TIMEOUT)
    assert alive.status_code == 200, alive.text


def test_the_server_still_seats_players_after_deep_bodies(
    deep: ServerProcess, grant: dict[str, Any]
) -> None:
    for body in BODIES.values():
        HTTP.post(f"{deep.url}/api/tables", content=body, timeout=TIMEOUT)
    joined = HTTP.post(
        f"{deep.url}/api/tables/{grant['code']}/join", json={"name": "Bob"}, timeout=TIMEOUT
    )
    assert joined.status_code == 200, joined.text
    assert create_table(deep.url, seats=[None, "easy"])["code"]
