"""Seat views (dos.rules.official.view): what one seat may know, and nothing more."""

from __future__ import annotations

import json

import pytest

from dos.rules.official import (
    RULES,
    Options,
    State,
    apply,
    from_position,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from dos.rules.official.cards import NAMES
from support import random_states


def states(players: int, seed: int, steps: int) -> list[State]:
    return random_states(players, seed, steps, target_score=40)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (10, 3)])
def test_a_view_has_the_own_hand_and_only_the_sizes_of_the_others(players: int, seed: int) -> None:
    for state in states(players, seed, 200):
        for seat in range(players):
            seen = view(state, seat)
            assert seen.seat == seat
            assert seen.hand == tuple(state.hands[seat])
            assert seen.hand_sizes == tuple(len(h) for h in state.hands)
            assert seen.draw_pile_size == len(state.draw_pile)
            assert seen.center == tuple(state.center)
            assert seen.turn == state.turn
            assert seen.scores == tuple(state.scores)
            assert seen.dos_open == tuple(s for s in range(players) if state.dos_open >> s & 1)
            assert seen.history == tuple(state.history)
            data = seen.to_json()
            assert data["hand"] == [NAMES[c] for c in state.hands[seat]]
            assert "hands" not in data
            assert "draw_pile" not in data
            assert "rng" not in data


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (5, 5)])
def test_a_views_legal_actions_are_the_seats_legal_actions(players: int, seed: int) -> None:
    for state in states(players, seed, 200):
        for seat in range(players):
            seen = view(state, seat)
            assert list(seen.legal) == legal_actions(state, seat)
            assert seen.to_json()["legal"] == [str(a) for a in legal_actions(state, seat)]


def test_the_seat_to_act_sees_its_turn_and_the_others_only_calls_and_catches() -> None:
    position = {
        "players": 3,
        "dealer": 2,
        "turn": 0,
        "hands": [["B3", "R7", "DOS"], ["G5", "Y10"], ["R1", "R3", "R4"]],
        "center": ["R4", "B7"],
        "draw_pile": ["G1"],
        "discard": [],
        "scores": [0, 0, 0],
        "dos_open": [1],
    }
    state = from_position(position)
    assert [str(a) for a in view(state, 0).legal] == ["R7@1", "draw", "catch 1"]
    assert [str(a) for a in view(state, 1).legal] == ["1: dos"]
    assert [str(a) for a in view(state, 2).legal] == ["2: catch 1"]
    data = view(state, 2).to_json()
    assert data["hand"] == ["R1", "R3", "R4"]
    assert data["hand_sizes"] == [3, 2, 3]
    assert data["draw_pile_size"] == 1
    assert data["phase"] == "start"
    assert data["dos_open"] == [1]
    assert "G1" not in json.dumps(data), "the draw pile's card must not show"
    assert "Y10" not in json.dumps(data), "seat 1's hand must not show"


def test_a_view_shows_the_public_history_but_not_what_was_drawn() -> None:
    state = new_game(Options(players=2), 6)
    seat = state.turn
    apply(state, parse_action("draw"))
    other = 1 - seat
    data = view(state, other).to_json()
    assert data["history"] == ["draw"]
    assert data["hand_sizes"][seat] == 8
    assert data["phase"] == "drawn"
    mine = view(state, seat).to_json()
    assert len(mine["hand"]) == 8


def test_the_view_json_of_the_rule_set_interface_is_the_views() -> None:
    state = new_game(Options(players=3), 2)
    assert RULES.view_json(state, 1) == view(state, 1).to_json()


@pytest.mark.parametrize("seat", [-1, 3, 10, "0", None, 1.0, True])
def test_a_view_of_a_seat_that_does_not_exist_raises(seat: object) -> None:
    state = new_game(Options(players=3), 2)
    with pytest.raises(ValueError, match=r"^seat: there is no seat"):
        view(state, seat)  # type: ignore[arg-type]


def test_a_view_does_not_change_the_state() -> None:
    state = states(4, 7, 30)[-1]
    before = state.copy()
    for seat in range(4):
        view(state, seat).to_json()
    assert state == before


def test_a_view_is_frozen() -> None:
    seen = view(new_game(Options(players=2), 1), 0)
    with pytest.raises(AttributeError):
        seen.hand = ()  # type: ignore[misc]
