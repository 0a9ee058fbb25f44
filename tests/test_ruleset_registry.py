"""A rule set added through the registry alone is listed and played by the server and the CLI.

The toy rule set (``toy_rules``: "count to N") implements ``dos.ruleset.RuleSet`` and
registers one ``Entry`` with no bots, no fast core, no codec, no terminal; no file of the
package knows its name. A test that asks for it (``toy``) has it registered, as importing it
as a plug-in does, and removed after; a plug-in is loaded by the environment variable
``DOS_RULESETS`` or an entry point of the group ``dos.rulesets``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType

import httpx
import pytest
from fastapi.testclient import TestClient

from dos import ruleset
from dos.cli import build_parser, main
from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.net.limits import Limits
from dos.server.tables.settings import Settings

TOY = "count-toy"
TESTS = Path(__file__).parent
"""The folder of ``toy_rules``: a plug-in's module is found on the import path."""

OFFERS = {"levels", "hints", "reviews", "rated", "reaction", "target_score", "dos_race"}
"""What ``/api/info`` says each rule set offers, beside its name and summary."""


@pytest.fixture
def toy() -> Iterator[ModuleType]:
    """The toy rule set's module, its entry registered for one test and removed after it."""
    module = importlib.import_module("toy_rules")
    module.register()
    try:
        yield module
    finally:
        ruleset.unregister(TOY)
    assert TOY not in ruleset.names()


@pytest.fixture
def unregistered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy neither registered nor imported, as in a process that has not loaded it yet;
    removed again after the test (and its module as it was)."""
    ruleset.unregister(TOY)
    monkeypatch.delitem(sys.modules, "toy_rules", raising=False)
    try:
        yield
    finally:
        ruleset.unregister(TOY)


@pytest.fixture
def client(tmp_path: Path, toy: ModuleType) -> Iterator[TestClient]:
    """A server in process, on SQLite, that knows the toy rule set."""
    config = ServerConfig(
        data=tmp_path,
        database=None,
        settings=Settings(bot_delay=0, grace_seconds=0.2, pause_seconds=0),
        limits=Limits().with_changes(["off"]),
    )
    with TestClient(create_app(config)) as running:
        yield running


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_registered_rule_set_is_in_the_registry(toy: ModuleType) -> None:
    assert ruleset.names() == (*ruleset.NAMES, TOY)
    entry = ruleset.entry(TOY)
    assert entry is toy.ENTRY and ruleset.get(TOY) is toy.RULES
    assert not entry.target_score and not entry.dos_race and entry.bots is None
    assert not entry.hints and not entry.reviews and not entry.rated and entry.levels() == []


def test_a_name_is_registered_once(toy: ModuleType) -> None:
    with pytest.raises(ValueError, match="registered already"):
        ruleset.register(toy.ENTRY)
    assert toy.register() is toy.ENTRY  # importing it again registers nothing


def test_the_server_lists_the_registered_rule_set(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert info["rules"] == [*ruleset.NAMES, TOY]
    assert info["levels_by_rules"][TOY] == []  # no bots play it
    assert [listed["name"] for listed in info["rulesets"]] == info["rules"]


def test_the_server_says_what_each_rule_set_offers(client: TestClient) -> None:
    offered = {listed.pop("name"): listed for listed in client.get("/api/info").json()["rulesets"]}
    levels = ["easy", "medium", "hard", "expert"]
    assert offered["official"] == {
        "summary": ruleset.entry("official").summary,
        "levels": levels,
        **{"hints": True, "reviews": True, "rated": True, "reaction": False},
        **{"target_score": True, "dos_race": True},
    }
    assert offered["classic"] == {
        "summary": ruleset.entry("classic").summary,
        "levels": levels,
        **{"hints": False, "reviews": False, "rated": True, "reaction": True},
        **{"target_score": False, "dos_race": False},
    }
    assert offered[TOY] == {
        "summary": "count to a target, 1 or 2 a go",
        "levels": [],
        **{"hints": False, "reviews": False, "rated": False, "reaction": False},
        **{"target_score": False, "dos_race": False},
    }


def test_the_server_refuses_bots_at_a_rule_set_without_them(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"name": "Ada", "rules": TOY, "seats": [None, "easy"]})
    assert answer.status_code == 400, answer.text
    assert "bots cannot play" in answer.text


def test_the_server_plays_a_registered_rule_set_to_the_end(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={"name": "Ada", "rules": TOY, "seats": [None, None], "options": {"target": 4}},
    )
    assert created.status_code == 201, created.text
    host = created.json()
    assert host["table"]["rules"] == TOY
    joined = client.post(f"/api/tables/{host['code']}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    tokens = {0: host["token"], 1: joined.json()["token"]}
    seen = client.post("/api/agent/seat/start", headers=_bearer(tokens[0])).json()
    waiting = 1 - seen["view"]["turn"]
    move = {"action": "add 1", "version": seen["version"]}
    refused = client.post("/api/agent/seat/actions", json=move, headers=_bearer(tokens[waiting]))
    assert refused.json()["code"] == "illegal", refused.text  # the toy engine's own refusal
    while seen["result"] is None:
        turn = seen["view"]["turn"]
        seen = client.get("/api/agent/seat", headers=_bearer(tokens[turn])).json()
        assert [legal["action"] for legal in seen["legal"]] == ["add 1", "add 2"]
        assert "view: " in seen["text"]  # told in the plain words of a rule set without its own
        move = {"action": "add 2", "version": seen["version"]}
        seen = client.post("/api/agent/seat/actions", json=move, headers=_bearer(tokens[turn]))
        assert seen.status_code == 200, seen.text
        seen = seen.json()
    assert seen["view"]["total"] == 4 and seen["view"]["phase"] == "over"
    assert seen["result"]["winner"] == seen["view"]["winner"]
    assert [past["action"] for past in seen["last_actions"]] == ["add 2", "add 2"]


def test_the_cli_lists_the_registered_rule_set(
    toy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_parser().parse_args(["simulate", "--rules", TOY]).rules == TOY
    assert main(["rules"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == [*ruleset.NAMES, TOY]
    assert listed[-1].endswith("count to a target, 1 or 2 a go")


def test_the_cli_plays_the_registered_rule_set(
    toy: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["simulate", "--rules", TOY, "--engine", "python", "--games", "3", "--json"]
    assert main(command) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rules"] == TOY and result["games"] == 3 and result["rounds"] == 3


def test_the_cli_refuses_a_rule_set_nobody_registered() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--rules", TOY])


# --- plug-ins ----------------------------------------------------------------------------------


def test_a_module_named_in_the_variable_registers_on_import(unregistered: None) -> None:
    ruleset.load_plug_ins([], " toy_rules , ")
    assert ruleset.names()[-1] == TOY
    assert ruleset.get(TOY).name == TOY


def test_an_entry_point_names_a_module_or_a_callable(unregistered: None) -> None:
    group = ruleset.PLUG_IN_GROUP
    ruleset.load_plug_ins([EntryPoint(name="toy", value="toy_rules", group=group)], "")
    assert TOY in ruleset.names()
    ruleset.unregister(TOY)  # its module stays imported: only calling registers it again
    ruleset.load_plug_ins([EntryPoint(name="toy", value="toy_rules:register", group=group)], "")
    assert TOY in ruleset.names()


def test_a_plug_in_that_fails_is_named(unregistered: None) -> None:
    with pytest.raises(ruleset.PlugInError, match=r"^DOS_RULESETS: the module 'no_such_rules'"):
        ruleset.load_plug_ins([], "toy_rules,no_such_rules")
    point = EntryPoint(name="broken", value="toy_rules:no_such_name", group=ruleset.PLUG_IN_GROUP)
    with pytest.raises(ruleset.PlugInError, match=r"plug-in 'broken' \(toy_rules:no_such_name"):
        ruleset.load_plug_ins([point], "")


def _plugged_env(modules: str) -> dict[str, str]:
    """The environment of a process that loads ``modules`` as plug-ins, found in ``TESTS``."""
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "DOS_RULESETS": modules, "PYTHONPATH": path}


def test_a_process_told_by_the_variable_lists_the_plug_in() -> None:
    command = [sys.executable, "-m", "dos", "rules"]
    listed = subprocess.run(
        command, env=_plugged_env("toy_rules"), capture_output=True, text=True, check=True
    )
    assert [line.split()[0] for line in listed.stdout.splitlines()] == [*ruleset.NAMES, TOY]
    env = _plugged_env("no_such_rules")
    failed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert failed.returncode == 2, failed.stderr
    assert "DOS_RULESETS: the module 'no_such_rules' failed to load" in failed.stderr


def test_a_server_told_by_the_variable_offers_the_plug_in(tmp_path: Path) -> None:
    from server.support import ServerProcess

    env = _plugged_env("toy_rules")
    server = ServerProcess(tmp_path, None, env={k: env[k] for k in ("DOS_RULESETS", "PYTHONPATH")})
    server.start()
    try:
        info = httpx.get(f"{server.url}/api/info").json()
    finally:
        server.stop()
    assert info["rules"] == [*ruleset.NAMES, TOY]
    assert info["rulesets"][-1] == {
        "name": TOY,
        "summary": "count to a target, 1 or 2 a go",
        "levels": [],
        **dict.fromkeys(OFFERS - {"levels"}, False),
    }
