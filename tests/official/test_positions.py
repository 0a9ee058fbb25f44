"""Positions: saving any state as JSON and loading it back (dos.rules.official.positions)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from dos.errors import PositionError
from dos.rng import seed_state
from dos.rules.official import (
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    from_position,
    parse_action,
    to_position,
)
from dos.rules.official.cards import full_deck, parse_card
from support import random_states

MINIMAL: dict[str, Any] = {
    "players": 2,
    "dealer": 1,
    "turn": 0,
    "hands": [["B3", "R7", "DOS"], ["G5", "Y10", "Y#"]],
    "center": ["R4", "B7"],
    "draw_pile": ["G1", "B9", "R3"],
    "discard": ["Y6"],
    "scores": [10, 0],
}


def reachable_states(players: int, seed: int, options: dict[str, Any], steps: int) -> list[State]:
    return random_states(players, seed, steps, **options)


GAMES = [
    (2, 1, {"target_score": 40}),
    (3, 2, {"bonus_lay_mandatory": True, "target_score": 50}),
    (4, 3, {"dealer_starts": True, "target_score": 60}),
    (6, 4, {"deal_passes_left": True, "target_score": 40}),
    (10, 5, {"target_score": 30}),
]


def same_except_records(loaded: State, state: State) -> None:
    """A position keeps everything but the history, round results and draw for dealer."""
    loaded.history = state.history[:]
    loaded.round_results = state.round_results[:]
    loaded.dealer_draws = state.dealer_draws[:]
    assert loaded == state


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_saved_positions_of_reachable_states_load_back_unchanged(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    phases = set()
    for state in reachable_states(players, seed, options, steps=1000):
        position = to_position(state)
        phases.add(position["phase"])
        text = json.dumps(position)
        assert to_position(from_position(json.loads(text))) == position
        same_except_records(from_position(position), state)
    assert {"start", "drawn", "matching", "over"} <= phases


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_a_loaded_position_plays_on_exactly_like_the_game_it_came_from(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    states = reachable_states(players, seed, options, steps=400)
    chooser = random.Random(seed)
    for state in states[::5]:
        if state.phase == Phase.OVER:
            continue
        loaded = from_position(to_position(state))
        assert all_legal_actions(loaded) == all_legal_actions(state)
        # the generator state travels with the position: reshuffles and deals agree
        for _ in range(30):
            if state.phase == Phase.OVER:
                break
            action = chooser.choice(all_legal_actions(state))
            apply(state, action)
            apply(loaded, action)
            assert to_position(loaded) == to_position(state)


def test_a_minimal_start_of_turn_position_loads_with_defaults() -> None:
    state = from_position(MINIMAL)
    assert state.options == Options(players=2)
    assert state.phase == Phase.TURN
    assert not state.drew
    assert state.matched == {}
    assert state.round == 1
    assert state.rng == seed_state(0)
    assert state.dos_open == 0
    assert state.penalties == [0, 0]
    assert state.winner is None
    assert state.draw_pile[-1] == parse_card("G1"), "the first card listed is the top card"
    saved = to_position(state)
    assert saved["draw_pile"] == MINIMAL["draw_pile"], "draw_pile is written top card first"
    assert saved["phase"] == "start"
    for key, value in MINIMAL.items():
        assert saved[key] == value
    assert [str(a) for a in all_legal_actions(state)] == ["R7@1", "draw"]


def test_the_draw_pile_is_listed_top_card_first() -> None:
    state = from_position(MINIMAL)
    apply(state, parse_action("draw"))
    assert to_position(state)["hands"][0] == ["B3", "G1", "R7", "DOS"]
    assert to_position(state)["draw_pile"] == ["B9", "R3"]


def test_hands_are_loaded_in_any_order_and_saved_sorted() -> None:
    state = from_position(with_field("hands", [["DOS", "R7", "B3"], ["Y#", "G5", "Y10"]]))
    assert to_position(state)["hands"] == MINIMAL["hands"]


def test_a_position_may_hold_fewer_cards_and_the_next_deal_uses_all_108() -> None:
    position = {
        "players": 2,
        "dealer": 1,
        "turn": 0,
        "hands": [["G#"], ["B3", "B4", "B5"]],
        "center": ["B10", "Y3"],
        "draw_pile": ["Y4"],
        "discard": [],
        "scores": [0, 0],
    }
    state = from_position(position)
    assert len(state.all_cards()) == 7
    apply(state, parse_action("G#@0"))  # goes out: the round ends, 3 + 4 + 5 = 12 points
    assert state.scores == [12, 0]
    assert state.round == 2
    assert sorted(state.all_cards()) == sorted(full_deck())


def with_field(key: str, value: object) -> dict[str, Any]:
    position = copy.deepcopy(MINIMAL)
    position[key] = value
    return position


def without_field(key: str) -> dict[str, Any]:
    position = copy.deepcopy(MINIMAL)
    del position[key]
    return position


BAD = [
    # unknown card
    ("hands[0][1]", with_field("hands", [["B3", "R11", "DOS"], ["G5"]])),
    ("hands[1][0]", with_field("hands", [["B3"], ["X"]])),
    ("center[0]", with_field("center", ["R2", "B7"])),
    ("draw_pile[2]", with_field("draw_pile", ["G1", "B9", "WILD"])),
    ("discard[0]", with_field("discard", ["Y0"])),
    ("hands[0][0]", with_field("hands", [[7], ["G5"]])),
    # too many copies
    ("cards", with_field("discard", ["R7", "R7"])),
    ("cards", with_field("draw_pile", ["DOS"] * 12)),
    # missing fields
    *[(key, without_field(key)) for key in MINIMAL],
    # wrong types and ranges
    ("players", with_field("players", "2")),
    ("players", with_field("players", True)),
    ("players", with_field("players", 11)),
    ("dealer", with_field("dealer", 2)),
    ("turn", with_field("turn", -1)),
    ("turn", with_field("turn", 0.0)),
    ("hands", with_field("hands", [["B3"]])),
    ("hands", with_field("hands", "B3")),
    ("hands[1]", with_field("hands", [["B3"], "G5"])),
    ("hands[1]", with_field("hands", [["B3"], []])),
    ("center", with_field("center", "R4")),
    ("draw_pile", with_field("draw_pile", None)),
    ("discard", with_field("discard", {})),
    ("scores", with_field("scores", [0])),
    ("scores[0]", with_field("scores", [-1, 0])),
    ("scores[1]", with_field("scores", [0, "5"])),
    ("round", with_field("round", 0)),
    ("rng", with_field("rng", -1)),
    ("rng", with_field("rng", 1 << 64)),
    ("rng", with_field("rng", "seed")),
    ("drew", with_field("drew", "yes")),
    ("drew", with_field("drew", True)),  # phase 'start' means no draw yet
    ("options", with_field("options", [])),
    ("options.colour", with_field("options", {"players": 2, "colour": "red"})),
    ("options.players", with_field("options", {"players": 3})),
    ("options.target_score", with_field("options", {"players": 2, "target_score": 0})),
    ("options.dealer_starts", with_field("options", {"players": 2, "dealer_starts": 1})),
    ("format", with_field("format", "dos-game")),
    ("version", with_field("version", 2)),
    ("rules", with_field("rules", "classic")),
    # phases and what they need
    ("phase", with_field("phase", "middle")),
    ("phase", with_field("phase", 0)),
    ("matched", {**MINIMAL, "phase": "matching"}),
    ("matched", with_field("matched", [{"target": 0, "cards": ["R4"]}])),
    ("matched", {**MINIMAL, "phase": "matching", "matched": {"0": ["R4"]}}),
    ("matched[0]", {**MINIMAL, "phase": "matching", "matched": [{"target": 0}]}),
    (
        "matched[0].target",
        {**MINIMAL, "phase": "matching", "matched": [{"target": 5, "cards": ["R4"]}]},
    ),
    (
        "matched[0].cards",
        {**MINIMAL, "phase": "matching", "matched": [{"target": 0, "cards": ["B1"] * 3}]},
    ),
    (
        "matched[1].target",
        {
            **MINIMAL,
            "phase": "matching",
            "matched": [{"target": 0, "cards": ["R4"]}, {"target": 0, "cards": ["B4"]}],
        },
    ),
    ("bonuses", with_field("bonuses", {"single": 1})),
    ("bonuses.double", with_field("bonuses", {"single": 0, "double": -1})),
    ("bonuses", with_field("bonuses", {"single": 1, "double": 0})),  # no match made
    ("placements_left", with_field("placements_left", 1)),
    ("placements_left", {**MINIMAL, "phase": "placing"}),
    (
        "placements_left",
        {
            **MINIMAL,
            "phase": "placing",
            "placements_left": 2,
            "bonuses": {"single": 1, "double": 0},
        },
    ),
    ("penalties", with_field("penalties", [0])),
    ("penalties[1]", with_field("penalties", [0, 2])),
    ("penalties[0]", with_field("penalties", [-2, 0])),
    ("winner", with_field("winner", 0)),
    ("winner", {**MINIMAL, "phase": "over"}),
    ("winner", {**MINIMAL, "phase": "over", "winner": 0}),  # 10 is below the target 200
    # DOS obligations
    ("dos_open[0]", with_field("dos_open", [0])),  # seat 0 holds three cards
    ("dos_open[0]", with_field("dos_open", [2])),
    ("dos_open[0]", with_field("dos_open", ["0"])),
    ("dos_open", with_field("dos_open", 1)),
    # unknown field, and not an object at all
    ("colour", with_field("colour", "red")),
    ("position", ["not", "an", "object"]),
]


@pytest.mark.parametrize(("field", "position"), BAD, ids=[f"{i}-{b[0]}" for i, b in enumerate(BAD)])
def test_a_bad_field_is_rejected_with_a_message_naming_it(field: str, position: object) -> None:
    before = copy.deepcopy(position)
    with pytest.raises(PositionError) as error:
        from_position(position)
    message = str(error.value)
    assert message.startswith(f"{field}:"), message
    assert position == before, "loading must not change its input"


def test_too_many_copies_names_the_card_and_the_counts() -> None:
    with pytest.raises(PositionError, match=r"^cards: 4 copies of R1 .* holds 3$"):
        from_position(with_field("discard", ["R1", "R1", "R1", "R1"]))


def test_a_hand_of_two_loaded_without_an_obligation_has_none() -> None:
    """RULES §6: a hand that already holds two cards when a position is loaded has not
    *become* two."""
    state = from_position(with_field("hands", [["B3", "R7"], ["G5", "Y10", "Y#"]]))
    assert state.dos_open == 0
    assert all(a.kind.name not in ("CALL", "CATCH") for a in all_legal_actions(state))


def test_an_open_obligation_is_kept_and_written_back() -> None:
    position = with_field("hands", [["B3", "R7"], ["G5", "Y10", "Y#"]])
    position["dos_open"] = [0]
    state = from_position(position)
    assert to_position(state)["dos_open"] == [0]
    assert [str(a) for a in all_legal_actions(state)][-3:] == ["draw", "dos", "1: catch 0"]


def test_every_loadable_position_that_is_not_over_has_a_legal_action() -> None:
    position = {
        **MINIMAL,
        "hands": [["B3", "R7", "DOS"], []],
        "turn": 1,
        "phase": "placing",
        "placements_left": 1,
        "bonuses": {"single": 1, "double": 0},
        "options": {"players": 2, "bonus_lay_mandatory": True},
    }
    try:
        state = from_position(position)
    except PositionError as error:
        assert str(error).startswith("hands[1]:")
    else:
        assert all_legal_actions(state), "a game that is not over with nothing to do"


def test_partial_options_take_the_number_of_players_from_the_position() -> None:
    state = from_position({**MINIMAL, "options": {"target_score": 50}})
    assert state.options.players == 2
    assert state.options.target_score == 50
