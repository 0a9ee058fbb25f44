"""Every example of RULES.md §5, each as its own test.

The examples put a card on a Center Row card and name the kind of match. Each scenario keeps a
spare match available (``G10`` in hand, ``Y10`` in the row), so the turn is still in its
matching phase after the example and the colour bonus it earned can be read from the state;
the engine's own naming of the match (``match_kind``) is checked as well.
"""

from __future__ import annotations

import pytest

from dos.rules.official import Phase
from dos.rules.official.matching import MatchKind, match_kind

from .conftest import cards, load, play


def match(target: str, hand: list[str], action: str) -> tuple[int, int, str]:
    """Plays ``action`` from ``hand`` on ``target`` (Center Row card 0). Returns the Single
    and Double Color Matches earned and the engine's name for the match."""
    state = load(
        hands=[[*hand, "G10"], ["G1", "G3"], ["Y1", "Y3"], ["R1", "R3"]],
        center=[target, "Y10"],
    )
    play(state, action)
    assert state.phase == Phase.TURN
    assert state.matched == {0: tuple(cards(*hand))}
    assert state.hands[0] == cards("G10")
    played = action.split("@", maxsplit=1)[0].split("+")
    parsed = [cards(p.split("=")[0])[0] for p in played]
    designations = tuple(_designation(p) for p in played)
    name = match_kind(tuple(parsed), designations, cards(target)[0])
    return state.single_bonuses, state.double_bonuses, name


def _designation(played: str) -> int:
    if "=" not in played:
        return -1
    value = played.split("=")[1]
    return "BGRY".index(value) if value in "BGRY" else int(value)


def test_blue_7_on_red_7_is_a_single_number_match() -> None:
    assert match("R7", ["B7"], "B7@0") == (0, 0, MatchKind.SINGLE_NUMBER)


def test_red_7_on_red_7_is_a_single_color_match() -> None:
    assert match("R7", ["R7"], "R7@0") == (1, 0, MatchKind.SINGLE_COLOR)


@pytest.mark.parametrize(
    "pair",
    [["B5", "DOS"], ["Y3", "B4"], ["R6", "Y1"], ["Y5", "DOS"], ["G3", "R4"], ["G6", "B1"]],
    ids=["5+DOS", "3+4", "6+1", "yellow 5+DOS", "3+4 with one green", "6+1 one green"],
)
def test_5_plus_dos_3_plus_4_and_6_plus_1_on_a_7_are_double_number_matches_in_any_colours(
    pair: list[str],
) -> None:
    bonus = match("G7", pair, "+".join(pair) + "@0")
    assert bonus == (0, 0, MatchKind.DOUBLE_NUMBER)


def test_red_5_and_wild_dos_as_red_on_red_7_is_a_double_color_match() -> None:
    assert match("R7", ["R5", "DOS"], "R5+DOS=R@0") == (0, 1, MatchKind.DOUBLE_COLOR)


def test_red_5_and_wild_dos_on_red_7_is_a_double_color_match_when_no_colour_is_named() -> None:
    assert match("R7", ["R5", "DOS"], "R5+DOS@0") == (0, 1, MatchKind.DOUBLE_COLOR)


@pytest.mark.parametrize("five", ["B5", "G5", "Y5"])
def test_non_red_5_and_wild_dos_on_red_7_is_a_double_number_match_only(five: str) -> None:
    assert match("R7", [five, "DOS"], f"{five}+DOS@0") == (0, 0, MatchKind.DOUBLE_NUMBER)


def test_red_wild_number_as_7_on_red_7_is_a_single_color_match() -> None:
    assert match("R7", ["R#"], "R#=7@0") == (1, 0, MatchKind.SINGLE_COLOR)
    assert match("R7", ["R#"], "R#@0")[:2] == (1, 0)


def test_blue_3_and_yellow_wild_number_as_4_on_red_7_is_a_double_number_match() -> None:
    assert match("R7", ["B3", "Y#"], "B3+Y#=4@0") == (0, 0, MatchKind.DOUBLE_NUMBER)
    assert match("R7", ["B3", "Y#"], "B3+Y#@0")[:2] == (0, 0)


def test_red_3_and_red_wild_number_as_4_on_red_7_is_a_double_color_match() -> None:
    assert match("R7", ["R3", "R#"], "R3+R#=4@0") == (0, 1, MatchKind.DOUBLE_COLOR)
    assert match("R7", ["R3", "R#"], "R3+R#@0")[:2] == (0, 1)


@pytest.mark.parametrize("pair", [["R3", "B4"], ["B3", "R4"], ["R1", "B6"], ["B5", "R#"]])
def test_one_red_and_one_blue_card_summing_to_7_on_red_7_earn_no_bonus(pair: list[str]) -> None:
    assert match("R7", pair, "+".join(pair) + "@0") == (0, 0, MatchKind.DOUBLE_NUMBER)


def test_scoring_example_opponents_holding_3_5_6_wild_number_8_10_wild_dos_and_10_4_score_106() -> (
    None
):
    # Seat 0 goes out with a last match: B7 on G7 (a Single Number Match, nothing to place).
    state = load(
        hands=[["B7"], ["B3", "G5", "Y6", "R#"], ["R8", "B10", "DOS"], ["G10", "Y4"]],
        center=["G7", "Y9"],
        scores=[0, 0, 0, 0],
    )
    play(state, "B7@0")
    # (3 + 5 + 6 + 40) + (8 + 10 + 20) + (10 + 4) = 54 + 38 + 14
    assert state.scores == [106, 0, 0, 0]
    result = state.round_results[0]
    assert result.round == 1
    assert result.winner == 0
    assert result.points == 106
    assert result.hands == (
        (),
        tuple(cards("B3", "G5", "Y6", "R#")),
        tuple(cards("R8", "B10", "DOS")),
        tuple(cards("G10", "Y4")),
    )
    # The game goes on (106 < 200): the winner deals round 2.
    assert state.round == 2
    assert state.dealer == 0
    assert state.turn == 1
    assert state.winner is None
