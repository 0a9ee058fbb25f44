"""A rule set added through the registry alone is listed and played by the server and the CLI.

The toy rule set here ("count to N": each seat in turn adds 1 or 2 to a running total; whoever
reaches the target wins) lives only in this file: it implements ``dos.ruleset.RuleSet`` and
registers one ``Entry`` with no bots, no fast core, no codec, no terminal. No other file knows
its name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient

from dos import ruleset
from dos.cli import build_parser, main
from dos.errors import IllegalActionError, NotationError, PositionError
from dos.server.app import ServerConfig, create_app
from dos.server.limits import Limits
from dos.server.tables import Settings

TOY = "count-toy"


class Add(NamedTuple):
    """Adds ``amount`` (1 or 2) to the total; ``seat`` as in ``2: add 1`` (``None``: the seat
    to act)."""

    amount: int
    seat: int | None = None

    def __str__(self) -> str:
        prefix = "" if self.seat is None else f"{self.seat}: "
        return f"{prefix}add {self.amount}"


@dataclass
class CountState:
    """A game of counting: the seats, the target, the total and whose turn it is."""

    players: int
    target: int
    total: int = 0
    turn: int = 0
    winner: int | None = None
    history: list[Add] = field(default_factory=list)


class CountRules:
    """The toy rule set behind the ``RuleSet`` interface."""

    name = TOY

    def new_game(self, options: dict[str, Any] | None, seed: int) -> CountState:
        options = dict(options or {})
        players = options.pop("players", 2)
        target = options.pop("target", 5)
        if options:
            raise ValueError(f"unknown options: {', '.join(options)}")
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError("players: 2 to 4")
        if not isinstance(target, int) or not 1 <= target <= 99:
            raise ValueError("target: 1 to 99")
        return CountState(players, target, turn=seed % players)

    def options_json(self, state: CountState) -> dict[str, Any]:
        return {"players": state.players, "target": state.target}

    def parse_action(self, text: str) -> Add:
        seat, _, rest = text.rpartition(":")
        words = rest.split()
        if len(words) != 2 or words[0] != "add" or words[1] not in ("1", "2"):
            raise NotationError(f"not an action: {text!r} (add 1, add 2)")
        if not seat:
            return Add(int(words[1]))
        if not seat.strip().isdigit():
            raise NotationError(f"not a seat: {seat!r}")
        return Add(int(words[1]), int(seat))

    def by_seat(self, state: CountState, action: Add, seat: int) -> Add | None:
        if action.seat is not None and action.seat != seat:
            return None
        return action._replace(seat=None if seat == state.turn else seat)

    def legal_actions(self, state: CountState, seat: int | None = None) -> list[Add]:
        if self.is_over(state) or (seat is not None and seat != state.turn):
            return []
        return [Add(1), Add(2)]

    def all_legal_actions(self, state: CountState) -> list[Add]:
        return self.legal_actions(state)

    def apply(self, state: CountState, action: Add) -> None:
        if self.is_over(state):
            raise IllegalActionError("the game is over", "game_over")
        if action.seat is not None and action.seat != state.turn:
            raise IllegalActionError("not your turn", "not_your_turn")
        state.total += action.amount
        state.history.append(action)
        if state.total >= state.target:
            state.winner = state.turn
        else:
            state.turn = (state.turn + 1) % state.players

    def copy(self, state: CountState) -> CountState:
        return replace(state, history=list(state.history))

    def is_over(self, state: CountState) -> bool:
        return state.winner is not None

    def turn(self, state: CountState) -> int:
        return state.turn

    def players(self, state: CountState) -> int:
        return state.players

    def rounds_played(self, state: CountState) -> int:
        return 1 if self.is_over(state) else 0

    def result(self, state: CountState) -> dict[str, Any]:
        return {"winner": state.winner, "rounds": self.rounds_played(state)}

    def to_position(self, state: CountState) -> dict[str, Any]:
        return {
            "rules": TOY,
            "options": self.options_json(state),
            "total": state.total,
            "turn": state.turn,
            "winner": state.winner,
            "history": [str(a) for a in state.history],
        }

    def from_position(self, data: object) -> CountState:
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object")
        try:
            state = self.new_game(data["options"], 0)
            state.total, state.turn, state.winner = data["total"], data["turn"], data["winner"]
            state.history = [self.parse_action(a) for a in data["history"]]
        except (KeyError, ValueError) as error:
            raise PositionError(f"not a {TOY} position: {error}") from None
        return state

    def view_json(self, state: CountState, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "options": self.options_json(state),
            "turn": state.turn,
            "phase": "over" if self.is_over(state) else "counting",
            "total": state.total,
            "winner": state.winner,
            "history": [str(a) for a in state.history],
            "hand": [],
            "legal": [str(a) for a in self.legal_actions(state, seat)],
        }


RULES = CountRules()


@pytest.fixture
def toy() -> Iterator[ruleset.Entry]:
    """The toy rule set, registered for one test and removed after it."""
    entry = ruleset.Entry(name=TOY, rules=lambda: RULES, summary="count to a target, 1 or 2 a go")
    ruleset.register(entry)
    try:
        yield entry
    finally:
        ruleset.unregister(TOY)
    assert TOY not in ruleset.names()


@pytest.fixture
def client(tmp_path: Path, toy: ruleset.Entry) -> Iterator[TestClient]:
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


def test_a_registered_rule_set_is_in_the_registry(toy: ruleset.Entry) -> None:
    assert ruleset.names() == (*ruleset.NAMES, TOY)
    assert ruleset.entry(TOY) is toy and ruleset.get(TOY) is RULES
    assert not toy.target_score and not toy.dos_race and toy.bots is None


def test_a_name_is_registered_once(toy: ruleset.Entry) -> None:
    with pytest.raises(ValueError, match="registered already"):
        ruleset.register(toy)


def test_the_server_lists_the_registered_rule_set(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert info["rules"] == [*ruleset.NAMES, TOY]
    assert info["levels_by_rules"][TOY] == []  # no bots play it


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
    toy: ruleset.Entry, capsys: pytest.CaptureFixture[str]
) -> None:
    assert build_parser().parse_args(["simulate", "--rules", TOY]).rules == TOY
    assert main(["rules"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == [*ruleset.NAMES, TOY]
    assert listed[-1].endswith("count to a target, 1 or 2 a go")


def test_the_cli_plays_the_registered_rule_set(
    toy: ruleset.Entry, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["simulate", "--rules", TOY, "--engine", "python", "--games", "3", "--json"]
    assert main(command) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rules"] == TOY and result["games"] == 3 and result["rounds"] == 3


def test_the_cli_refuses_a_rule_set_nobody_registered() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--rules", TOY])
