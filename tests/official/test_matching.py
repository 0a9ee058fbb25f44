"""What matches what, and the colour bonuses (RULES.md §3).

Each scenario keeps a spare match available (``G10`` in hand, ``Y10`` in the Center Row), so
the turn stays in its matching phase after the match under test and the bonus it earned can
be read from the state.
"""

from __future__ import annotations

import pytest

from dos.errors import IllegalActionError
from dos.rules.official import Action, Kind, State, apply, parse_action
from dos.rules.official.matching import MatchKind, match_kind

from .conftest import assert_illegal, cards, legal, load, play

SPARE_HAND = "G10"
SPARE_CENTER = "Y10"


def table(target: str, hand: list[str]) -> State:
    """Seat 0 to act with ``hand`` (plus the spare) before ``target`` (plus the spare)."""
    return load(hands=[[*hand, SPARE_HAND], ["G1"], ["Y1"], ["R1"]], center=[target, SPARE_CENTER])


def bonuses_after(target: str, hand: list[str], action: str) -> tuple[int, int]:
    """Plays ``action`` on ``target``; returns (Single Color Matches, Double Color Matches)."""
    state = play(table(target, hand), action)
    assert state.matched == {0: tuple(cards(*hand))}, "the match was not recorded on card 0"
    return state.single_bonuses, state.double_bonuses


def kind(target: str, played: list[str], designations: tuple[int, ...] = ()) -> str:
    action = parse_action("+".join(played) + "@0")
    return match_kind(action.cards, designations or action.designations, cards(target)[0])


# --- Single Number Match ----------------------------------------------------------------


@pytest.mark.parametrize(("target", "card"), [("R7", "B7"), ("G1", "Y1"), ("B10", "R10")])
def test_single_number_match_needs_the_same_number(target: str, card: str) -> None:
    assert bonuses_after(target, [card], f"{card}@0") == (0, 0)
    assert kind(target, [card]) == MatchKind.SINGLE_NUMBER


@pytest.mark.parametrize(("target", "card"), [("R7", "B6"), ("R7", "B8"), ("G1", "Y10")])
def test_single_card_of_another_number_does_not_match(target: str, card: str) -> None:
    state = table(target, [card])
    assert f"{card}@0" not in legal(state)
    assert_illegal(state, f"{card}@0", "§3")


def test_single_card_of_the_targets_number_and_colour_is_a_single_color_match() -> None:
    assert bonuses_after("R7", ["R7"], "R7@0") == (1, 0)
    assert kind("R7", ["R7"]) == MatchKind.SINGLE_COLOR


def test_colour_alone_never_matches() -> None:
    state = table("R7", ["R5", "R1"])
    assert not any(a.endswith("@0") for a in legal(state))
    assert_illegal(state, "R5@0", "§3")
    assert_illegal(state, "R1@0", "§3")


# --- Double Number Match ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "pair"), [("R7", ["B3", "G4"]), ("B10", ["Y4", "R6"]), ("G5", ["B1", "Y4"])]
)
def test_double_number_match_is_two_cards_adding_up_to_the_targets_number(
    target: str, pair: list[str]
) -> None:
    assert bonuses_after(target, pair, "+".join(pair) + "@0") == (0, 0)
    assert kind(target, pair) == MatchKind.DOUBLE_NUMBER


@pytest.mark.parametrize(("target", "pair"), [("R7", ["B3", "G3"]), ("R7", ["B3", "G5"])])
def test_two_cards_that_do_not_add_up_to_the_target_do_not_match(
    target: str, pair: list[str]
) -> None:
    state = table(target, pair)
    assert "+".join(pair) + "@0" not in legal(state)
    assert_illegal(state, "+".join(pair) + "@0", "§3")


def test_a_double_can_use_two_copies_of_the_same_card() -> None:
    assert bonuses_after("B8", ["G4", "G4"], "G4+G4@0") == (0, 0)


def test_a_double_of_one_card_needs_both_copies_in_hand() -> None:
    state = table("B8", ["G4", "R1"])
    assert "G4+G4@0" not in legal(state)
    assert_illegal(state, "G4+G4@0", "§3")


def test_three_cards_never_make_a_match() -> None:
    state = table("R10", ["B1", "G3", "Y6"])
    before = state.copy()
    three = Action(Kind.MATCH, tuple(cards("B1", "G3", "Y6")), 0)
    with pytest.raises(IllegalActionError, match="RULES §3"):
        apply(state, three)
    assert state == before


def test_both_cards_in_the_targets_colour_make_a_double_color_match() -> None:
    assert bonuses_after("R7", ["R3", "R4"], "R3+R4@0") == (0, 1)
    assert kind("R7", ["R3", "R4"]) == MatchKind.DOUBLE_COLOR


@pytest.mark.parametrize("pair", [["R3", "B4"], ["B3", "R4"], ["G3", "G4"]])
def test_a_double_color_match_needs_both_cards_in_the_targets_colour(pair: list[str]) -> None:
    assert bonuses_after("R7", pair, "+".join(pair) + "@0") == (0, 0)


# --- Wild cards ---------------------------------------------------------------------------


def test_a_wild_dos_in_hand_counts_as_2() -> None:
    assert bonuses_after("B7", ["DOS", "G5"], "G5+DOS@0") == (0, 0)
    state = table("B5", ["DOS", "G4"])
    assert_illegal(state, "G4+DOS@0", "§3")
    assert_illegal(state, "DOS@0", "§3")


def test_two_wild_dos_add_up_to_4() -> None:
    assert bonuses_after("G4", ["DOS", "DOS"], "DOS+DOS@0") == (0, 1)
    assert_illegal(table("G5", ["DOS", "DOS"]), "DOS+DOS@0", "§3")


def test_a_wild_dos_in_hand_takes_the_colour_of_the_matchers_choice() -> None:
    assert bonuses_after("R7", ["R5", "DOS"], "R5+DOS@0") == (0, 1)
    assert bonuses_after("Y7", ["Y5", "DOS"], "Y5+DOS@0") == (0, 1)
    assert bonuses_after("R7", ["B5", "DOS"], "B5+DOS@0") == (0, 0)


def test_two_wild_dos_take_the_targets_colour_for_a_double_color_match() -> None:
    assert bonuses_after("B4", ["DOS", "DOS"], "DOS+DOS@0") == (0, 1)


def test_a_wild_dos_target_is_2_and_only_1_plus_1_doubles_it() -> None:
    state = table("DOS", ["B1", "G1", "B3", "Y4"])
    matches_on_target = {a for a in legal(state) if a.endswith("@0")}
    assert matches_on_target == {"B1+G1@0"}
    for action in ("B3@0", "B1@0", "B1+B3@0", "G1+B3@0"):
        assert_illegal(state, action, "§3")
    play(state, "B1+G1@0")
    assert state.matched == {0: tuple(cards("B1", "G1"))}


def test_a_wild_dos_matches_a_wild_dos_target() -> None:
    # Both take the same colour of the matcher's choice: a Single Color Match.
    assert bonuses_after("DOS", ["DOS"], "DOS@0") == (1, 0)


def test_a_wild_dos_target_takes_the_colour_of_the_matchers_choice() -> None:
    assert bonuses_after("DOS", ["B1", "B1"], "B1+B1@0") == (0, 1)
    assert bonuses_after("DOS", ["B1", "G1"], "B1+G1@0") == (0, 0)
    assert kind("DOS", ["B1", "G1"]) == MatchKind.DOUBLE_NUMBER


def test_a_wild_number_target_takes_any_number_from_1_to_10() -> None:
    for card in ("B1", "B3", "G6", "Y10", "DOS"):
        state = table("R#", [card])
        assert f"{card}@0" in legal(state)
        play(state, f"{card}@0")
        assert state.matched == {0: tuple(cards(card))}


def test_a_double_onto_a_wild_number_target_needs_a_sum_from_2_to_10() -> None:
    assert bonuses_after("R#", ["B5", "G5"], "B5+G5@0") == (0, 0)
    assert bonuses_after("R#", ["B1", "G1"], "B1+G1@0") == (0, 0)
    state = table("R#", ["B10", "G1", "Y6", "B5"])
    assert "G1+B10@0" not in legal(state)
    assert_illegal(state, "B10+G1@0", "§3")
    assert_illegal(state, "Y6+B5@0", "§3")


def test_a_wild_number_target_keeps_its_own_colour() -> None:
    assert bonuses_after("R#", ["R10"], "R10@0") == (1, 0)
    assert bonuses_after("R#", ["B10"], "B10@0") == (0, 0)
    assert bonuses_after("R#", ["R4", "R5"], "R4+R5@0") == (0, 1)


def test_a_wild_number_in_hand_takes_any_number_from_1_to_10() -> None:
    for target in ("B1", "G5", "Y10"):
        state = table(target, ["R#"])
        assert "R#@0" in legal(state)
        play(state, "R#@0")
    assert bonuses_after("DOS", ["R#"], "R#@0") == (1, 0)


def test_a_wild_number_is_never_0() -> None:
    state = table("B10", ["R#", "Y10"])
    assert "Y10+R#@0" not in legal(state)
    assert_illegal(state, "Y10+R#@0", "§3")


def test_a_wild_number_keeps_its_own_colour() -> None:
    assert bonuses_after("R7", ["Y#"], "Y#@0") == (0, 0)
    assert bonuses_after("R7", ["R#"], "R#@0") == (1, 0)


def test_two_wild_numbers_make_any_double() -> None:
    assert bonuses_after("B10", ["B#", "B#"], "B#+B#@0") == (0, 1)
    assert bonuses_after("Y3", ["B#", "G#"], "B#+G#@0") == (0, 0)
    assert_illegal(table("Y1", ["B#", "G#"]), "B#+G#@0", "§3")


# --- Designations -------------------------------------------------------------------------


def test_the_engine_picks_the_designations_with_the_best_colour_result() -> None:
    assert bonuses_after("R7", ["R3", "R#"], "R3+R#@0") == (0, 1)
    assert bonuses_after("G7", ["G5", "DOS"], "G5+DOS@0") == (0, 1)
    assert bonuses_after("DOS", ["Y#"], "Y#@0") == (1, 0)


def test_an_explicit_wild_dos_colour_is_honoured_even_when_it_earns_no_bonus() -> None:
    assert bonuses_after("R7", ["R5", "DOS"], "DOS=B+R5@0") == (0, 0)
    assert kind("R7", ["R5", "DOS=B"]) == MatchKind.DOUBLE_NUMBER
    assert bonuses_after("R7", ["R5", "DOS"], "DOS=R+R5@0") == (0, 1)


def test_an_explicit_wild_dos_colour_on_a_wild_dos_target() -> None:
    assert bonuses_after("DOS", ["DOS"], "DOS=Y@0") == (1, 0)
    assert bonuses_after("DOS", ["R1", "R1"], "R1+R1@0") == (0, 1)


def test_an_explicit_wild_number_is_honoured() -> None:
    assert bonuses_after("R7", ["R#"], "R#=7@0") == (1, 0)
    assert bonuses_after("R7", ["B3", "Y#"], "B3+Y#=4@0") == (0, 0)
    state = table("R7", ["R#", "B3"])
    assert_illegal(state, "R#=6@0", "§3")
    assert_illegal(state, "B3+R#=5@0", "§3")
    assert_illegal(table("DOS", ["B1", "R#"]), "B1+R#=2@0", "§3")
    assert bonuses_after("DOS", ["B1", "R#"], "B1+R#=1@0") == (0, 0)


def test_a_match_lists_every_possible_match_as_a_legal_action() -> None:
    # Hand B3 G4 R7 (+ spare G10) before Y7 and Y10: R7 singles Y7, B3+G4 doubles it,
    # G10 singles Y10, and nothing else adds up (B3+R7=10 doubles Y10 too).
    state = load(hands=[["B3", "G4", "R7", "G10"], ["G1"], ["Y1"], ["R1"]], center=["Y7", "Y10"])
    assert legal(state) == {"R7@0", "B3+G4@0", "G10@1", "B3+R7@1", "draw"}
