"""``dos agent-play`` at a server that limits its clients: the runner waits as the server's
``Retry-After`` asks and plays on; one that must stop says so and leaves the table, whose
stand-in plays its seat to the game's end. The waits are the test's own (``sleep``): nothing
waits for real."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dos.agents.runner import PATIENCE, AgentPlayError, SeatRunner, agent_play, take_seat
from server.support import TIMEOUT, ServerProcess

SHEDDER = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "shedder.py")


def _server(data: Path, *limits: str) -> ServerProcess:
    return ServerProcess(data, None, "--limit", "off", *[a for x in limits for a in ("--limit", x)])


@pytest.fixture(scope="module")
def few_lookups(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that allows a client 8 API look-ups a day (nothing else is limited): a game
    takes more."""
    process = _server(tmp_path_factory.mktemp("lookups"), "lookup=8/day")
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def few_actions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that allows a client 3 actions a day (nothing else is limited)."""
    process = _server(tmp_path_factory.mktemp("actions"), "client_messages=3/day")
    process.start()
    yield process
    process.stop()


class Days(httpx.BaseTransport):
    """The runner's connection, from one loopback address a day. The server counts a
    client's requests by its address; ``sleep`` records the wait it is asked for and lets
    the day pass: from then on the runner connects from a fresh address, which the server
    counts afresh, as it would count this one once the day is over."""

    def __init__(self, loopback: str) -> None:
        self.base = loopback.split(".", 2)[2]  # X.Y of 127.0.X.Y: this test's own
        self.day = 0
        self.transport = self._connect()
        self.asked: list[float] = []
        """The ``Retry-After`` of each 429 the server answered."""
        self.waited: list[float] = []
        """What the runner asked ``sleep`` to wait."""

    def _connect(self) -> httpx.HTTPTransport:
        return httpx.HTTPTransport(local_address=f"127.{100 + self.day}.{self.base}")

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.transport.handle_request(request)
        if response.status_code == 429:
            self.asked.append(float(response.headers["retry-after"]))
        return response

    def sleep(self, seconds: float) -> None:
        self.waited.append(seconds)
        self.transport.close()
        self.day += 1
        self.transport = self._connect()

    def close(self) -> None:
        self.transport.close()


def test_the_runner_waits_as_the_server_asks_and_plays_on(
    few_lookups: ServerProcess, loopback: str
) -> None:
    days = Days(loopback)
    notes: list[str] = []
    grant, outcomes = agent_play(
        few_lookups.url,
        f"{SHEDDER}:Shedder",
        opponents=["easy"],
        target=20,
        rated=False,
        transport=days,
        sleep=days.sleep,
        patience=10 * 86400,
        note=notes.append,
    )
    assert len(outcomes) == 1 and outcomes[0].result["winner"] in (0, 1)
    assert days.asked, "the limit never refused the runner"
    assert days.waited == days.asked  # each wait as long as the server asked
    assert all(1 <= wait <= 86400 for wait in days.waited)
    assert len(notes) == len(days.waited) and "HTTP 429, waiting " in notes[0]
    assert grant["seat"] == 0


def _seat(url: str, token: str, path: str = "", **params: Any) -> httpx.Response:
    return httpx.get(
        f"{url}/api/agent/seat{path}",
        params=params,
        headers={"authorization": f"Bearer {token}"},
        timeout=TIMEOUT + 10,
    )


def test_a_runner_that_must_stop_says_so_and_leaves_the_game_to_the_stand_in(
    few_actions: ServerProcess, loopback: str
) -> None:
    """The server asks for a day's wait, past the runner's patience: the runner leaves the
    table and says so; the stand-in plays the seat to the game's end, and the seat's token
    still reads the game's result and record."""
    url = few_actions.url
    waited: list[float] = []
    transport = httpx.HTTPTransport(local_address=loopback)
    with httpx.Client(base_url=url, transport=transport, timeout=TIMEOUT + 10) as http:
        options = {"target_score": 20}
        grant = take_seat(http, name="shedder", opponents=["easy"], options=options, rated=False)
        runner = SeatRunner(http, grant, f"{SHEDDER}:Shedder", sleep=waited.append)
        with pytest.raises(AgentPlayError) as stopped:
            runner.play(1)
    said = str(stopped.value)
    assert waited == []  # a day is past the patience: no wait at all
    assert said.startswith(f"stopped at table {grant['code']} (game 1; 0 of 1 played): ")
    assert "HTTP 429" in said and "rate_limited" in said and f"{PATIENCE:g} s" in said
    assert said.endswith("left the table: the server's stand-in plays seat 0 to the end of game 1")

    token = grant["token"]
    seen = _seat(url, token).json()
    # The stand-in plays the seat (it may have played the game to its end already: a seat
    # left is no longer "away" once its game is over).
    assert seen["result"] is not None or seen["table"]["seats"][0]["away"] is True
    while seen["result"] is None:
        since = {"version": seen["version"], "change": seen["change"], "until": "change"}
        answer = _seat(url, token, "/wait", **since)
        assert answer.status_code == 200, answer.text
        seen = answer.json()
    assert seen["result"]["winner"] in (0, 1)
    record = _seat(url, token, "/record")
    assert record.status_code == 200 and record.headers["dos-game"] == "1"
