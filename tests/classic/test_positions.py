"""Positions (docs/classic.md): saved and loaded back, and every bad field named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dos.errors import PositionError
from dos.rules.classic import Phase, from_position, new_game, to_position

from .conftest import play, position


def test_a_saved_position_loads_back_to_the_same_state() -> None:
    state = new_game(seed=9)
    assert from_position(json.loads(json.dumps(to_position(state)))) == state


def test_a_position_in_the_reaction_test_keeps_its_targets_and_the_next_seat() -> None:
    state = from_position(position(hands=[["B7", "G3", "Y4"], ["G1", "G2", "G3", "G4"]]))
    play(state, "B7")
    saved = to_position(state)
    assert saved["phase"] == "reaction"
    assert saved["reaction"] == {"targets": [list(t) for t in state.targets], "next": 1}
    loaded = from_position(saved)
    assert loaded.phase == Phase.REACTION
    assert loaded.targets == state.targets
    assert loaded.after_reaction == 1


def test_a_minimal_position_takes_the_defaults() -> None:
    state = from_position(position())
    assert state.direction == 1
    assert state.pending == 0
    assert state.ranking == []
    assert state.phase == Phase.PLAY


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"hands": [["B1"]]}, "players"),
        ({"players": 3, "hands": [["B1"], ["B2"], ["B3"], ["B4"]]}, "hands"),
        ({"discard": []}, "discard"),
        ({"discard": ["W"]}, "colour"),
        ({"colour": "G"}, "colour"),
        ({"pending": 2}, "pending"),
        ({"discard": ["B+2"], "pending": 3}, "pending"),
        ({"direction": 2}, "direction"),
        ({"phase": "drawn"}, "phase"),
        ({"phase": "reaction"}, "reaction"),
        ({"reaction": {"targets": [[500, 500]], "next": 1}}, "reaction"),
        ({"ranking": [0]}, "hands"),
        ({"ranking": [0, 0]}, "ranking"),
        ({"turn": 9}, "turn"),
        ({"hands": [["B1"], ["B1"], ["B1"], ["B2"]]}, "cards"),
        ({"hands": [["X1"], ["B1"], ["B2"], ["B3"]]}, r"hands\[0\]\[0\]"),
        ({"drawpile": []}, "drawpile"),
        ({"rules": "official"}, "rules"),
        ({"options": {"stacking": "yes"}}, "options.stacking"),
        ({"rng": -1}, "rng"),
    ],
)
def test_a_bad_position_is_rejected_naming_the_field(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError, match=f"^{field}"):
        from_position(position(**overrides))
