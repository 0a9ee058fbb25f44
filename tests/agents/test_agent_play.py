"""``dos agent-play``: your own bot (the example ``Shedder``, by path) plays whole games at a
live server over the HTTP agent API, from the seat view it rebuilds from the API's JSON; it
keeps one player across runs with an identity file, joins a table by its code, and is
refused before any table is made when it cannot play."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from dos import records
from dos.agents.runner import Outcome, SeatRunner, agent_play
from dos.ratings.policy import MIN_TARGET
from dos.rules.official import view
from dos.rules.official.views import view_from_json
from server.support import HTTP, ServerProcess
from support import run_cli

SHEDDER = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "shedder.py")
"""The example bot's file: its one bot class, ``Shedder``."""


def _seat(url: str, token: str, **params: Any) -> dict[str, Any]:
    answer = HTTP.get(
        f"{url}/api/agent/seat", params=params, headers={"authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_your_bot_plays_a_rated_game_and_its_view_is_the_engines(
    random_server: ServerProcess, tmp_path: Path
) -> None:
    """A whole rated game (target 100) against ``easy``: the bot's player is one AI player,
    and the view the API gives its seat at the end rebuilds into exactly the engine's view of
    the recorded game's last position."""
    agent_server = random_server  # rated games: a seeded server rates none
    identity = tmp_path / "shedder.token"
    lines: list[str] = []
    grant, outcomes = agent_play(
        agent_server.url,
        f"{SHEDDER}:Shedder",
        opponents=["easy"],
        target=MIN_TARGET,
        identity=identity,
        say=lines.append,
    )
    assert [type(o) for o in outcomes] == [Outcome] and outcomes[0].result["winner"] in (0, 1)
    assert grant["table"]["rated"] and identity.read_text().strip() == grant["player_token"]
    assert lines[0] == f"table {grant['code']}, seat 0: player {grant['player_id']}"
    assert lines[1] == outcomes[0].line() and lines[1].startswith(f"table {grant['code']}, game 1")

    seen = _seat(agent_server.url, grant["token"], history="true")
    answer = HTTP.get(
        f"{agent_server.url}/api/agent/seat/record",
        headers={"authorization": f"Bearer {grant['token']}"},
    )
    final = records.replay(records.loads(answer.text))
    assert view_from_json(seen["view"]) == view(final, 0)
    assert "history" not in _seat(agent_server.url, grant["token"])["view"]

    page = HTTP.get(f"{agent_server.url}/api/players/{grant['player_id']}").json()
    assert page["ai"] is True and page["name"] == "shedder"
    assert [(r["games"], r["provisional"]) for r in page["ratings"]] == [(1, True)]

    again, more = agent_play(
        agent_server.url, SHEDDER, opponents=["easy"], target=20, rated=False, identity=identity
    )
    assert again["player_id"] == grant["player_id"] and again["code"] != grant["code"]
    assert len(more) == 1


def test_your_bot_joins_a_table_by_its_code_and_plays_it_out(
    agent_server: ServerProcess,
) -> None:
    """The runner joins a table someone else made and plays two games there, dealt by the
    table's host (here another runner, with the ``random`` bot)."""
    body = {"name": "Host", "seats": [None, None], "options": {"target_score": 20}}
    host = HTTP.post(f"{agent_server.url}/api/tables", json=body).json()
    auth = {"authorization": f"Bearer {host['token']}"}
    played: dict[str, Any] = {}

    def join() -> None:
        try:
            played["grant"], played["outcomes"] = agent_play(
                agent_server.url, f"{SHEDDER}:Shedder", table=host["code"], games=2
            )
        except Exception as error:  # shown by the assertion below
            played["error"] = error

    joiner = threading.Thread(target=join)
    joiner.start()
    seen = _seat(agent_server.url, host["token"])
    while seen["table"]["seats"][1]["name"] is None:  # woken by the join
        params = {"version": seen["version"], "change": seen["change"], "until": "change"}
        seen = HTTP.get(
            f"{agent_server.url}/api/agent/seat/wait", params=params, headers=auth, timeout=40
        ).json()
    with httpx.Client(base_url=agent_server.url, timeout=40) as http:
        dealt = SeatRunner(http, host, "random", seed=2).play(2)
    joiner.join(timeout=60)
    assert "error" not in played, played.get("error")
    assert played["grant"]["seat"] == 1 and played["grant"]["table"]["code"] == host["code"]
    assert [o.game for o in played["outcomes"]] == [1, 2]
    for mine, theirs in zip(played["outcomes"], dealt, strict=True):
        assert mine.seat == 1 and mine.result == theirs.result  # the same two games


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "no/such/bot.py:Bot"], "--bot"),
        (["--bot", f"{SHEDDER}:Shedder", "--rules", "classic"], "plays the official rules"),
        (["--bot", "greedy", "--server", "ftp://x"], "--server: an http:// or https:// URL"),
        (["--bot", "greedy", "--opponents", "grandmaster"], "unknown bot level 'grandmaster'"),
        (["--bot", "greedy", "--table", "NOSUCH"], "table NOSUCH: the server refused (HTTP 404)"),
    ],
)
def test_a_bot_that_cannot_play_is_refused_with_status_2(
    agent_server: ServerProcess, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run_cli(capsys, "agent-play", "--server", agent_server.url, *args)
    assert (status, out) == (2, "") and err.startswith("dos agent-play: ")
    assert message in err, err


def test_the_command_prints_each_game(
    agent_server: ServerProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        capsys, "agent-play", "--server", agent_server.url, "--bot", f"{SHEDDER}:Shedder",
        "--opponents", "easy,open", "--target", "15", "--casual",
    )  # fmt: skip
    assert (status, err) == (0, "")
    first, second = out.splitlines()
    assert first.startswith("table ") and ", seat 0: player p_" in first
    assert ", game 1: seat 0 " in second and "; scores 0:" in second and " 2:" in second


def test_a_classic_bot_plays_a_classic_table_reaction_tests_and_all(
    agent_server: ServerProcess, tmp_path: Path
) -> None:
    """A classic bot by path (the first legal action; in the reaction test, the reaction
    the rules list) plays a whole classic game; its reaction answers are the server's to
    time."""
    path = tmp_path / "first.py"
    path.write_text(
        "import random\n\nfrom dos.bots.base import Budget\n"
        "from dos.rules.classic import Action, SeatView\n\n\n"
        'class FirstLegal:\n    name = "first"\n\n'
        "    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:\n"
        "        return view.legal[0]\n",
        encoding="utf-8",
    )
    grant, outcomes = agent_play(
        agent_server.url, f"{path}:FirstLegal", rules="classic", opponents=["easy"], rated=False
    )
    assert grant["table"]["rules"] == "classic"
    (outcome,) = outcomes
    assert sorted(outcome.result["ranking"]) == [0, 1]
    assert outcome.line().startswith(f"table {grant['code']}, game 1: seat 0 ")
    assert "; ranking " in outcome.line()
