"""A turn: match, or draw then match or lay (RULES.md §3 and its Decisions)."""

from __future__ import annotations

from collections import Counter

from dos.rules.official import Phase
from dos.rules.official.cards import parse_card

from .conftest import (
    assert_illegal,
    cards,
    draw_pile_top_first,
    legal,
    load,
    names,
    play,
)

OTHERS = [["G1", "G4"], ["Y1", "Y4"], ["R1", "R4"]]
"""Seats 1-3: two cards each, loaded so (no DOS obligation is open)."""


def test_a_turn_starts_with_the_choice_of_matching_or_drawing() -> None:
    # B3+B4 = 7 doubles R7; G1+Y9 = 10 doubles G10; no single card matches.
    state = load(hands=[["B3", "B4", "G1", "Y9"], *OTHERS], center=["R7", "G10"])
    assert legal(state) == {"B3+B4@0", "G1+Y9@1", "draw"}


def test_a_player_who_draws_may_then_make_matches() -> None:
    # B1 G4 draw G7: G7 matches R7; no pair adds up to 7 or 10 (5, 8, 11).
    state = load(hands=[["B1", "G4"], *OTHERS], center=["R7", "Y10"], draw_pile=["G7", "Y6", "R6"])
    play(state, "draw")
    assert state.hands[0] == cards("B1", "G4", "G7")
    assert state.drew
    assert legal(state) == {"G7@0", "lay B1", "lay G4", "lay G7"}
    play(state, "G7@0")
    # No match is left: the matches end, R7 and G7 are discarded, Y6 refills the Center Row.
    assert state.turn == 1
    assert state.hands[0] == cards("B1", "G4")
    assert names(state.center) == ["Y10", "Y6"]
    assert Counter(names(state.discard)) == Counter(["G7", "R7"])
    assert draw_pile_top_first(state) == ["R6"]


def test_after_a_draw_with_no_match_the_player_must_lay_a_card() -> None:
    # B1+Y8 = 9, G3+Y8 = 11, B1+G3 = 4: nothing matches R7 or Y10.
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "draw")
    assert legal(state) == {"lay B1", "lay G3", "lay Y8"}
    assert "lay" in assert_illegal(state, "end", "§3")


def test_the_lay_puts_the_card_in_the_center_row_and_ends_the_turn() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "draw", "lay Y8")
    assert names(state.center) == ["R7", "Y10", "Y8"]
    assert state.hands[0] == cards("B1", "G3")
    assert state.turn == 1
    assert not state.drew
    assert draw_pile_top_first(state) == ["B6"]


def test_a_player_who_draws_may_lay_instead_of_matching() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["G7", "B6"])
    play(state, "draw", "lay B1")
    assert names(state.center) == ["R7", "Y10", "B1"]
    assert state.hands[0] == cards("G3", "G7")
    assert state.turn == 1


def test_a_lay_is_allowed_only_after_a_draw() -> None:
    state = load(hands=[["B1", "G3", "B7"], *OTHERS], center=["R7", "G1", "Y10"])
    assert not any(a.startswith("lay") for a in legal(state))
    assert_illegal(state, "lay B1", "§3")


def test_a_lay_is_not_allowed_after_a_draw_followed_by_a_match() -> None:
    state = load(hands=[["B1", "G3", "B7"], *OTHERS], center=["R7", "G1", "Y10"], draw_pile=["Y6"])
    play(state, "draw", "B7@0")  # B1 can still match G1: the turn is still matching
    assert state.phase == Phase.TURN
    assert legal(state) == {"B1@1", "end"}
    assert_illegal(state, "lay B1", "§3")


def test_drawing_is_instead_of_matching_not_after_it() -> None:
    state = load(hands=[["B7", "B1", "G3"], *OTHERS], center=["R7", "G1"])
    play(state, "B7@0")
    assert "draw" not in legal(state)
    assert_illegal(state, "draw", "§3")


def test_a_player_draws_at_most_one_card_a_turn() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "draw")
    assert_illegal(state, "draw", "§3")


def test_the_turn_cannot_end_before_a_match_or_a_draw() -> None:
    state = load(hands=[["B7", "G3"], *OTHERS], center=["R7", "Y10"])
    assert "end" not in legal(state)
    assert_illegal(state, "end", "§3")


def test_a_player_may_stop_matching_while_matches_are_left() -> None:
    state = load(hands=[["B7", "B1", "G3", "Y5"], *OTHERS], center=["R7", "G1", "Y10"])
    play(state, "B7@0")
    assert "end" in legal(state)
    play(state, "end")
    assert state.turn == 1
    assert state.hands[0] == cards("B1", "G3", "Y5")
    assert names(state.center) == ["G1", "Y10"]  # two cards remain: no refill
    assert Counter(names(state.discard)) == Counter(["B7", "R7"])


def test_the_matches_end_by_themselves_when_no_match_is_left() -> None:
    # After B7 on R7 the hand is Y5 G3: no single or double matches Y10.
    state = load(hands=[["B7", "Y5", "G3"], *OTHERS], center=["R7", "Y10"])
    play(state, "B7@0")
    assert state.turn == 1
    assert state.phase == Phase.TURN
    assert state.matched == {}


def test_any_number_of_distinct_center_row_cards_can_be_matched_in_one_turn() -> None:
    state = load(
        hands=[["B7", "G3", "Y10", "Y1"], *OTHERS],
        center=["R7", "B3", "G10"],
        draw_pile=["G6", "Y6", "R6"],
    )
    play(state, "B7@0", "G3@1", "Y10@2")
    assert state.turn == 1
    assert state.hands[0] == cards("Y1")
    assert Counter(names(state.discard)) == Counter(["B7", "R7", "G3", "B3", "Y10", "G10"])
    assert sorted(names(state.center)) == ["G6", "Y6"]
    assert draw_pile_top_first(state) == ["R6"]


def test_each_center_row_card_can_be_matched_only_once_per_turn() -> None:
    state = load(hands=[["B7", "G7", "G10", "Y1"], *OTHERS], center=["R7", "Y10"])
    play(state, "B7@0")
    assert state.phase == Phase.TURN  # G10 can still match Y10
    assert not any(a.endswith("@0") for a in legal(state))
    assert_illegal(state, "G7@0", "§3")


def test_refilled_cards_cannot_be_matched_in_the_same_turn() -> None:
    # R7 on R7 is a Single Color Match; B6, Y3, G1 match nothing in the Center Row (Y10).
    state = load(
        hands=[["R7", "B6", "Y3", "G1"], *OTHERS], center=["R7", "Y10"], draw_pile=["G6", "B8"]
    )
    play(state, "R7@0")
    assert state.phase == Phase.PLACING
    assert names(state.center) == ["Y10", "G6"]
    # B6 would match the refilled G6, but matching is over.
    assert legal(state) == {"place B6", "place Y3", "place G1", "end"}
    assert_illegal(state, "B6@1", "§4")


def test_a_placed_card_can_be_matched_in_a_later_turn() -> None:
    state = load(
        hands=[["R7", "B6", "Y3", "G1"], *OTHERS], center=["R7", "Y10"], draw_pile=["G6", "B8"]
    )
    play(state, "R7@0", "place G1")
    assert names(state.center) == ["Y10", "G6", "G1"]
    assert state.turn == 1
    assert "G1@2" in legal(state)  # seat 1 holds G1 G4


def test_a_laid_card_can_be_matched_in_a_later_turn() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "draw", "lay B1")
    assert state.turn == 1
    assert "G1@2" in legal(state)  # seat 1 holds G1 G4


def test_play_passes_to_the_left_and_wraps_around() -> None:
    state = load(
        hands=[*OTHERS, ["B1", "G3"]],
        dealer=2,
        turn=3,
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
    )
    play(state, "draw", "lay Y8")
    assert state.turn == 0


def test_the_seat_to_act_may_name_itself() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "0: draw")
    assert state.drew
    assert state.hands[0] == cards("B1", "G3", "Y8")


def test_with_both_piles_empty_a_draw_gives_nothing_and_the_turn_goes_on_as_after_a_draw() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=[], discard=[])
    play(state, "draw")
    assert state.hands[0] == cards("B1", "G3")
    assert state.drew
    assert legal(state) == {"lay B1", "lay G3"}
    assert_illegal(state, "draw", "§3")
    assert_illegal(state, "end", "§3")
    play(state, "lay G3")
    assert names(state.center) == ["R7", "Y10", "G3"]
    assert state.turn == 1


def test_after_an_empty_draw_the_player_may_still_match() -> None:
    # B7+G4 = 11: the only match is B7 on R7.
    state = load(hands=[["B7", "G4"], *OTHERS], center=["R7", "Y10"], draw_pile=[], discard=[])
    play(state, "draw")
    assert legal(state) == {"B7@0", "lay B7", "lay G4"}
    play(state, "B7@0")
    assert state.turn == 1
    # The matched cards were the only ones left to refill the Center Row from.
    assert names(state.center)[0] == "Y10"
    assert len(state.center) == 2
    assert sorted(names(state.center[1:] + state.draw_pile)) == ["B7", "R7"]
    assert state.discard == []


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = load(
        hands=[["B1", "G3"], *OTHERS],
        center=["R7", "Y10"],
        draw_pile=[],
        discard=["G6", "Y8", "B9"],
    )
    play(state, "draw")
    assert len(state.hands[0]) == 3
    drawn = (Counter(state.hands[0]) - Counter(cards("B1", "G3"))).elements()
    assert sorted(names([*drawn, *state.draw_pile])) == ["B9", "G6", "Y8"]
    assert state.discard == []


def test_the_draw_pile_is_drawn_from_the_top() -> None:
    state = load(hands=[["B1", "G3"], *OTHERS], center=["R7", "Y10"], draw_pile=["Y8", "B6"])
    play(state, "draw")
    assert parse_card("Y8") in state.hands[0]
    assert draw_pile_top_first(state) == ["B6"]
