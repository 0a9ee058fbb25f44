"""Errors (RULES.md §8): illegal actions, unreadable notation, positions that cannot load."""

from __future__ import annotations

from typing import Any

import pytest

from dos.errors import IllegalActionError, NotationError, PositionError
from dos.rules.official import Action, Kind, apply, from_position, legal_actions, parse_action

from .conftest import assert_illegal, load, play, position

PILE = ["G6", "Y6", "R6", "B6", "G8", "Y8", "R8", "B8"]

# Seat 0 to act. On R7: B7, B3+G4, and the Y#. On G10: Y1+Y9, B3+B7, Y#. On B1: Y1, Y#.
MATCHING = {
    "hands": [["B3", "G4", "B7", "Y1", "Y9", "Y#"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1"]],
    "center": ["R7", "G10", "B1"],
    "draw_pile": PILE,
}
# Seat 0 to act; R7 on R7 is a Single Color Match after which nothing else matches (G6 refills
# the row): the turn is in its placements.
PLACING = {
    "hands": [["R7", "B6", "Y3", "G1"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1"]],
    "center": ["R7", "Y10"],
    "draw_pile": PILE,
}
OPEN_2 = {"hands": [["B1", "G3", "Y5"], ["G1", "G3"], ["Y1", "Y3"], ["R1", "R3"]], "dos_open": [2]}
OVER = {"phase": "over", "winner": 1, "scores": [10, 200, 0, 0]}

ILLEGAL: list[tuple[str, dict[str, Any], list[str], str, str]] = [
    # (id, position, actions before, illegal action, section)
    ("wrong player draws", MATCHING, [], "1: draw", "§3"),
    ("wrong player matches", MATCHING, [], "1: G1@2", "§3"),
    ("wrong player ends", MATCHING, ["B7@0"], "2: end", "§3"),
    ("wrong player places", PLACING, ["R7@0"], "1: place G1", "§(3|4)"),
    ("card not in hand", MATCHING, [], "R7@0", "§3"),
    ("second card not in hand", MATCHING, [], "B3+B4@0", "§3"),
    ("one copy played twice", MATCHING, [], "Y#+Y#@0", "§3"),
    ("target already matched this turn", MATCHING, ["B7@0"], "B3+G4@0", "§3"),
    ("target beyond the center row", MATCHING, [], "B7@3", "§3"),
    ("single of another number", MATCHING, [], "Y9@0", "§3"),
    ("same colour, another number", MATCHING, [], "B3@2", "§3"),
    ("sum wrong", MATCHING, [], "B3+Y1@0", "§3"),
    ("sum too high", MATCHING, [], "B7+Y9@1", "§3"),
    ("designated wild number does not fit", MATCHING, [], "Y#=6@0", "§3"),
    ("designated wild number sum wrong", MATCHING, [], "B3+Y#=5@0", "§3"),
    ("lay without a draw", MATCHING, [], "lay B3", "§3"),
    ("lay after a draw and a match", MATCHING, ["draw", "B7@0"], "lay B3", "§3"),
    ("lay a card not in hand", MATCHING, ["draw"], "lay R10", "§3"),
    ("draw after a match", MATCHING, ["B7@0"], "draw", "§3"),
    ("second draw", MATCHING, ["draw"], "draw", "§3"),
    ("end before matching or drawing", MATCHING, [], "end", "§3"),
    ("end after a fruitless draw", MATCHING, ["draw"], "end", "§3"),
    ("place without a colour bonus", MATCHING, [], "place B3", "§4"),
    ("place after a number match", MATCHING, ["draw", "B7@0"], "place B3", "§4"),
    ("match during the placements", PLACING, ["R7@0"], "B6@1", "§4"),
    ("draw during the placements", PLACING, ["R7@0"], "draw", "§4"),
    ("lay during the placements", PLACING, ["R7@0"], "lay B6", "§3"),
    ("place a card not in hand", PLACING, ["R7@0"], "place R10", "§(3|4)"),
    ("call with no open obligation", MATCHING, [], "dos", "§6"),
    ("out-of-turn call with no open obligation", MATCHING, [], "2: dos", "§6"),
    ("catch with no open obligation", MATCHING, [], "1: catch 2", "§6"),
    ("catch yourself", OPEN_2, [], "2: catch 2", "§6"),
    ("catch yourself with nothing open", MATCHING, [], "catch 0", "§6"),
    ("catch after the call", OPEN_2, ["2: dos"], "1: catch 2", "§6"),
    ("call after the catch", OPEN_2, ["1: catch 2"], "2: dos", "§6"),
    ("catch a seat that does not exist", MATCHING, [], "catch 9", "§6"),
    ("act for a seat that does not exist", MATCHING, [], "9: dos", "§2"),
    ("draw after the game is over", OVER, [], "draw", "§7"),
    ("call after the game is over", OVER, [], "2: dos", "§7"),
]


@pytest.mark.parametrize(
    ("fields", "before", "action", "section"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_an_illegal_action_is_rejected_with_its_rule_and_changes_nothing(
    fields: dict[str, Any], before: list[str], action: str, section: str
) -> None:
    state = play(load(**fields), *before)
    everyone = {str(a) for seat in range(state.players) for a in legal_actions(state, seat)}
    assert action not in everyone
    assert_illegal(state, action, section)


def test_option_bonus_lay_mandatory_rejects_declining_a_placement() -> None:
    state = play(load(options={"players": 4, "bonus_lay_mandatory": True}, **PLACING), "R7@0")
    assert_illegal(state, "end", "§4")


def test_an_illegal_action_in_the_middle_of_a_turn_keeps_the_turn_as_it_was() -> None:
    state = play(load(**MATCHING), "draw", "B7@0")
    before = state.copy()
    for action in ("B3+G4@0", "lay Y1", "draw", "R7@1", "place Y1", "dos"):
        with pytest.raises(IllegalActionError):
            play(state, action)
    assert state == before


# --- notation -----------------------------------------------------------------------------

UNREADABLE = [
    "",
    "   ",
    "hello",
    "R7",
    "R7@",
    "@0",
    "R7@x",
    "R7@-1",
    "R11@0",
    "R2@0",
    "P7@0",
    "R7+@0",
    "R7++B3@0",
    "R1+G3+Y3@0",
    "B7=3@0",
    "R#=0@0",
    "R#=11@0",
    "R#=R@0",
    "DOS=X+R5@0",
    "DOS=4+R5@0",
    "lay",
    "lay R2",
    "lay R7 B3",
    "place",
    "place 7",
    "catch",
    "catch x",
    "catch -1",
    "draw now",
    "end turn",
    "x: draw",
    "1:",
]


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_notation_raises_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


@pytest.mark.parametrize("value", [None, 7, ["draw"]])
def test_an_action_must_be_text(value: Any) -> None:
    with pytest.raises(NotationError):
        parse_action(value)


# --- positions ----------------------------------------------------------------------------


REQUIRED = ("players", "dealer", "turn", "hands", "center", "draw_pile", "discard", "scores")


def _without(field: str) -> dict[str, Any]:
    data = position()
    del data[field]
    return data


BAD_POSITIONS: list[tuple[str, dict[str, Any] | Any, str]] = [
    # (id, position, field named in the message)
    ("not an object", ["players", 4], "position"),
    ("unknown card in a hand", position(hands=[["B1", "R2"], ["G1"], ["Y1"], ["R1"]]), "hands[0]"),
    ("unknown card in the center", position(center=["R7", "X9"]), "center"),
    ("unknown card in the draw pile", position(draw_pile=["G6", "Y6", "R11"]), "draw_pile"),
    ("card written as a number", position(discard=[25]), "discard"),
    (
        "more copies than the deck holds",
        position(hands=[["B1"], ["R7", "R7"], ["Y1"], ["R1"]], center=["R7", "Y10"]),
        "R7",
    ),
    ("thirteen wild dos", position(draw_pile=["DOS"] * 13), "DOS"),
    *[(f"missing {field}", _without(field), field) for field in REQUIRED],
    ("players as text", {**position(), "players": "4"}, "players"),
    ("too many players", position(players=11), "players"),
    ("dealer as text", position(dealer="0"), "dealer"),
    ("dealer not a seat", position(dealer=4), "dealer"),
    ("turn not an integer", position(turn=1.5), "turn"),
    ("hands as text", position(hands="B1 B3"), "hands"),
    ("center as text", position(center="R7"), "center"),
    ("draw pile missing its list", position(draw_pile=None), "draw_pile"),
    ("score as text", position(scores=[0, "x", 0, 0]), "scores[1]"),
    ("negative score", position(scores=[-1, 0, 0, 0]), "scores[0]"),
    ("drew as text", position(drew="yes"), "drew"),
    ("dos_open as a seat", position(dos_open=0), "dos_open"),
    ("dos_open on a hand of four", position(dos_open=[1]), "dos_open"),
    ("unknown phase", position(phase="lunch"), "phase"),
    ("unknown field", position(colour="red"), "colour"),
    ("unknown option", position(options={"players": 4, "speed": 3}), "options.speed"),
    ("mistyped option", position(options={"players": 4, "dealer_starts": 1}), "dealer_starts"),
    ("three hands for four players", position(players=4, hands=[["B1"], ["G1"], ["Y1"]]), "hands"),
    ("five hands for four players", position(players=4, hands=[["B1"]] * 5), "hands"),
    ("three scores for four players", position(scores=[0, 0, 0]), "scores"),
    ("one-card center row the draw pile could refill", position(center=["R7"]), "center"),
]


@pytest.mark.parametrize(
    ("data", "field"), [case[1:] for case in BAD_POSITIONS], ids=[case[0] for case in BAD_POSITIONS]
)
def test_a_bad_position_raises_a_position_error_naming_the_field(data: Any, field: str) -> None:
    with pytest.raises(PositionError) as info:
        from_position(data)
    assert field in str(info.value)


def test_the_default_position_of_these_tests_is_valid() -> None:
    state = from_position(position())
    assert state.turn == 0
    assert len(state.hands) == 4


@pytest.mark.parametrize(
    "action",
    [
        Action(Kind.DRAW, cards=(0,)),
        Action(Kind.END, target=1),
        Action(Kind.CALL, designations=(1,)),
        Action(Kind.LAY, cards=()),
        Action(Kind.PLACE, cards=(0, 1)),
        Action(Kind.CATCH, cards=(5,), target=1),
    ],
    ids=repr,
)
def test_an_action_carrying_fields_its_kind_does_not_use_is_rejected(action: Action) -> None:
    state = load(**MATCHING)
    before = state.copy()
    with pytest.raises(NotationError, match="malformed"):
        apply(state, action)
    assert state == before
