"""An HTTP agent plays whole games against the server's bots, through the agent API only;
the example client of docs/agents.md is that agent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dos import records
from dos.agents.text import FORMAT
from server.support import HTTP, ServerProcess

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def example_client() -> dict[str, Any]:
    """The example client's code from docs/agents.md, run: its names."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- example client -->\n```python\n(.*?)```", text, re.DOTALL)
    assert found, "docs/agents.md has no example client"
    names: dict[str, Any] = {}
    exec(compile(found.group(1), str(DOCS), "exec"), names)
    return names


def test_the_documented_example_client_plays_a_whole_game(agent_server: ServerProcess) -> None:
    result = example_client()["play"](agent_server.url, "Agent", 7)
    assert result["winner"] in (0, 1)
    assert max(result["scores"]) >= 20


@pytest.mark.parametrize(
    ("rules", "options"), [("official", {"target_score": 20}), ("classic", {})]
)
def test_an_agent_plays_each_rule_set_to_the_end_and_reads_the_record(
    agent_server: ServerProcess, rules: str, options: dict[str, Any]
) -> None:
    url = agent_server.url
    body = {"name": "Reader", "rules": rules, "seats": [None, "easy"], "options": options}
    grant = HTTP.post(f"{url}/api/tables", json=body).json()
    auth = {"authorization": f"Bearer {grant['token']}"}
    early = HTTP.get(f"{url}/api/agent/seat/record", headers=auth)
    assert early.status_code == 409 and early.json()["code"] == "bad_state"
    seat = HTTP.post(f"{url}/api/agent/seat/start", headers=auth).json()
    while seat["result"] is None:
        legal = seat["view"]["legal"]
        mine = [a for a in legal if a.endswith("dos")] or [
            a for a in legal if ":" not in a and not a.startswith("catch")
        ]
        if mine:
            move = {"action": mine[0], "version": seat["version"]}
            answer = HTTP.post(f"{url}/api/agent/seat/actions", json=move, headers=auth)
            if answer.status_code == 200:
                seat = answer.json()
                continue
        since = {"version": seat["version"], "change": seat["change"], "until": "turn"}
        seat = HTTP.get(f"{url}/api/agent/seat/wait", params=since, headers=auth, timeout=40).json()
    assert seat["text"].splitlines()[0] == f"DOS {FORMAT}"
    assert "result: winner" in seat["text"]
    record = HTTP.get(f"{url}/api/agent/seat/record", headers=auth)
    assert record.status_code == 200
    assert record.headers["content-type"].startswith("application/x-ndjson")
    game = records.loads(record.text)
    assert game.rules == rules
    assert len(game.actions) == seat["version"]
    assert game.result == seat["result"]


def test_the_agent_api_is_in_the_openapi_document(agent_server: ServerProcess) -> None:
    paths = HTTP.get(f"{agent_server.url}/openapi.json").json()["paths"]
    for path in (
        "/api/agent/seat",
        "/api/agent/seat/actions",
        "/api/agent/seat/start",
        "/api/agent/seat/wait",
        "/api/agent/seat/record",
        "/api/agent/rules/{name}",
    ):
        assert path in paths, path


def test_a_wait_waits_for_the_turn_by_default_on_both_paths(
    agent_server: ServerProcess,
) -> None:
    """``until`` defaults to ``turn`` over HTTP as over MCP (``test_mcp``): what an agent
    wants; ``change`` is asked for."""
    document = HTTP.get(f"{agent_server.url}/openapi.json").json()
    wait = document["paths"]["/api/agent/seat/wait"]["get"]
    until = next(p for p in wait["parameters"] if p["name"] == "until")
    assert until["schema"]["default"] == "turn"
    assert "turn" in wait["description"]


def test_the_rules_of_each_rule_set(agent_server: ServerProcess) -> None:
    official = HTTP.get(f"{agent_server.url}/api/agent/rules/official")
    classic = HTTP.get(f"{agent_server.url}/api/agent/rules/classic")
    assert "Double Color Match" in official.text
    assert "reaction test" in classic.text
    unknown = HTTP.get(f"{agent_server.url}/api/agent/rules/chess")
    assert unknown.status_code == 400 and unknown.json()["code"] == "bad_request"


def test_the_view_gives_each_legal_action_its_meaning(agent_server: ServerProcess) -> None:
    url = agent_server.url
    grant = HTTP.post(f"{url}/api/tables", json={"name": "Ann", "seats": [None, None]}).json()
    auth = {"authorization": f"Bearer {grant['token']}"}
    lobby = HTTP.get(f"{url}/api/agent/seat", headers=auth).json()
    assert lobby["view"] is None and lobby["legal"] == []
    seat = HTTP.post(f"{url}/api/agent/seat/start", headers=auth).json()
    assert [a["action"] for a in seat["legal"]] == seat["view"]["legal"]
    lines = seat["text"].split("\nlegal:\n", 1)[1].splitlines() if seat["legal"] else []
    assert lines == [f"- {a['action']} | {a['meaning']}" for a in seat["legal"]]
