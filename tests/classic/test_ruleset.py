"""The classic rule set through the common interface (``dos.ruleset``), as tools, clients and
the server use it: options and actions as JSON and text only."""

from __future__ import annotations

import random

import pytest

from dos import ruleset
from dos.errors import IllegalActionError, PositionError


def test_the_classic_rules_are_found_by_name() -> None:
    assert "classic" in ruleset.NAMES
    assert ruleset.get("classic").name == "classic"


def test_a_whole_game_through_the_common_interface() -> None:
    rules = ruleset.get("classic")
    state = rules.new_game({"players": 3, "reaction_time_ms": 2000}, seed=6)
    assert rules.options_json(state)["reaction_time_ms"] == 2000
    assert rules.players(state) == 3
    chooser = random.Random(6)
    reactions = 0
    while not rules.is_over(state):
        turn = rules.turn(state)
        seen = rules.view_json(state, turn)
        assert seen["turn"] == turn
        if seen["reaction"] is not None:
            reactions += 1
            assert seen["reaction"]["time_limit_ms"] == 2000
        text = chooser.choice(seen["legal"])
        copy = rules.copy(state)
        rules.apply(state, rules.parse_action(text))
        position = rules.to_position(copy)
        assert rules.to_position(rules.from_position(position)) == position
    assert reactions > 0
    result = rules.result(state)
    assert sorted(result["ranking"]) == [0, 1, 2]
    assert result["winner"] == result["ranking"][0]
    assert rules.rounds_played(state) == 1
    with pytest.raises(IllegalActionError):
        rules.apply(state, rules.parse_action("draw"))


def test_bad_options_are_rejected_by_name() -> None:
    rules = ruleset.get("classic")
    with pytest.raises(PositionError, match=r"options\.reaction_time_ms"):
        rules.new_game({"reaction_time_ms": 10}, seed=1)
    with pytest.raises(PositionError, match=r"options\.target_score: unknown option"):
        rules.new_game({"target_score": 200}, seed=1)
