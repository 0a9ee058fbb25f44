"""Game reviews through the server (docs/protocol.md, "Reviews"): started
and followed over HTTP, computed by the job runner, kept across a restart, the same as
``dos review --json``, and refused clearly."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dos import records
from dos.review import review_record
from server.reviewing import SAMPLES, finished_game, followed
from server.support import HTTP, ServerProcess, WsPlayer, create_table


def _start(data: Path, *args: str) -> ServerProcess:
    env = {"DOS_REVIEW_SAMPLES": str(SAMPLES), "DOS_JOB_WORKERS": "1"}
    process = ServerProcess(data, None, *args, env=env)
    process.start()
    return process


@pytest.fixture(scope="module")
def reviewing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose reviews take ``SAMPLES`` samples a decision."""
    process = _start(tmp_path_factory.mktemp("reviews"))
    yield process
    process.stop()


async def _finished_game(server: ServerProcess, seed: int) -> int:
    return await finished_game(server.url, server.ws_url, seed)


def _done(server: ServerProcess, game_id: int, seat: int) -> list[dict[str, Any]]:
    return followed([server.url], game_id, seat)


@pytest.fixture(scope="module")
def game_id(reviewing: ServerProcess) -> int:
    return asyncio.run(_finished_game(reviewing, 4))


def test_a_review_is_started_followed_and_kept(reviewing: ServerProcess, game_id: int) -> None:
    url = f"{reviewing.url}/api/games/{game_id}/review"
    missing = HTTP.get(url, params={"seat": 0})
    assert missing.status_code == 404 and missing.json()["code"] == "no_review"

    started = HTTP.post(url, json={"seat": 0})
    assert started.status_code == 200, started.text
    first = started.json()
    assert first["status"] in ("running", "done")
    states = [first, *_done(reviewing, game_id, 0)]
    final = states[-1]
    assert final["status"] == "done", final
    for state in states:
        if state["status"] == "running" and state["total"] is not None:
            assert 0 <= state["done"] <= state["total"]
    dones = [s["done"] for s in states]
    assert dones == sorted(dones)  # progress only goes forward

    # The review is `dos review --json`'s with the server's settings.
    text = HTTP.get(f"{reviewing.url}/api/games/{game_id}/record").text
    expected = review_record(records.loads(text), 0, samples=SAMPLES, seed=0).to_json()
    assert final["review"] == expected
    summary = expected["summary"]
    assert final["total"] == final["done"] == summary["decisions"] + summary["forced"]

    again = HTTP.post(url, json={"seat": 0}).json()  # kept: the same, at once
    assert again["status"] == "done" and again["review"] == expected
    other = HTTP.post(url, json={"seat": 1}).json()  # another seat is another review
    assert other["status"] in ("running", "done")
    assert _done(reviewing, game_id, 1)[-1]["review"]["seat"] == 1


def test_refusals_change_nothing(reviewing: ServerProcess, game_id: int) -> None:
    base = f"{reviewing.url}/api/games"
    unknown = HTTP.post(f"{base}/999999/review", json={"seat": 0})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_game"
    bad_seat = HTTP.post(f"{base}/{game_id}/review", json={"seat": 2})
    assert bad_seat.status_code == 400
    assert (bad_seat.json()["code"], bad_seat.json()["field"]) == ("bad_seat", "seat")
    for body in ({"seat": -1}, {"seat": "one"}, {}, {"seat": 0, "more": 1}):
        refused = HTTP.post(f"{base}/{game_id}/review", json=body)
        assert refused.status_code in (400, 422), (body, refused.text)
    no_seat = HTTP.get(f"{base}/{game_id}/review")
    assert no_seat.status_code in (400, 422)

    grant = create_table(reviewing.url, seats=[None, "easy"])
    playing = asyncio.run(_started(reviewing, grant))
    unfinished = HTTP.post(f"{base}/{playing}/review", json={"seat": 0})
    assert unfinished.status_code == 409 and unfinished.json()["code"] == "bad_state"


async def _started(server: ServerProcess, grant: dict[str, Any]) -> int:
    ada = await WsPlayer(server.ws_url, grant["code"], grant["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    assert ada.table is not None
    game: int = ada.table["game_id"]
    await ada.close()
    return game


def test_a_review_survives_a_restart_and_is_rate_limited(tmp_path: Path) -> None:
    # A server of its own: it is restarted with other limits, which the module's other tests
    # must not meet, whichever order they run in.
    reviewing = _start(tmp_path / "data")
    try:
        _survives_a_restart(reviewing, asyncio.run(_finished_game(reviewing, 4)))
    finally:
        reviewing.stop()


def _survives_a_restart(reviewing: ServerProcess, game_id: int) -> None:
    url = f"{reviewing.url}/api/games/{game_id}/review"
    assert HTTP.post(url, json={"seat": 0}).status_code == 200
    review = _done(reviewing, game_id, 0)[-1]["review"]
    assert review is not None
    reviewing.stop()
    # The same data folder, now with a limit on reviews.
    reviewing.args = (*reviewing.args, "--limit", "off", "--limit", "reviews=3/minute")
    reviewing.start()  # its own environment (env) again
    url = f"{reviewing.url}/api/games/{game_id}/review"
    kept = HTTP.get(url, params={"seat": 0}).json()
    assert kept["status"] == "done" and kept["review"] == review
    answers = [HTTP.post(url, json={"seat": 0}) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[3].json()["code"] == "rate_limited"
    assert "Retry-After" in answers[3].headers
