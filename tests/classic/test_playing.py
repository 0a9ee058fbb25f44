"""A turn: play a fitting card if you can (you must), else draw one (RULES.md §9)."""

from __future__ import annotations

from dos.rules.classic.cards import COLOURS

from .conftest import assert_illegal, cards, draw_pile_top_first, legal, load, names, play

OTHERS = [["G1", "G2", "G3"], ["Y1", "Y2", "Y3"], ["R1", "R2", "R3"]]
"""Seats 1-3: three cards each, so that no play of theirs starts a reaction test."""


def test_a_card_of_the_same_colour_fits() -> None:
    state = load(hands=[["B9", "G1", "Y4"], *OTHERS], discard=["B5"])
    assert legal(state) == {"B9"}
    play(state, "B9")
    assert names(state.discard) == ["B5", "B9"]
    assert state.hands[0] == cards("G1", "Y4")


def test_a_card_of_the_same_number_fits() -> None:
    state = load(hands=[["R5", "G1", "Y4"], *OTHERS], discard=["B5"])
    assert legal(state) == {"R5"}
    play(state, "R5")
    assert COLOURS[state.colour] == "R"  # the colour to follow is now red


def test_a_symbol_fits_the_same_symbol_in_another_colour() -> None:
    state = load(hands=[["RS", "RR", "R+2", "G1"], *OTHERS], discard=["BS"])
    assert legal(state) == {"RS"}
    state = load(hands=[["RS", "RR", "R+2", "G1"], *OTHERS], discard=["BR"])
    assert legal(state) == {"RR"}


def test_a_card_that_shares_neither_colour_nor_number_is_rejected() -> None:
    state = load(hands=[["R6", "B7", "G1"], *OTHERS], discard=["B5"])
    message = assert_illegal(state, "R6", "does not fit")
    assert "red 6" in message and "blue 5" in message


def test_a_card_not_in_hand_is_rejected() -> None:
    state = load(hands=[["B7", "G1", "Y4"], *OTHERS], discard=["B5"])
    assert_illegal(state, "B8", "does not hold B8")


def test_a_wild_fits_any_card_and_sets_the_wished_colour() -> None:
    state = load(hands=[["W", "G1", "Y4", "R7"], *OTHERS], discard=["B5"])
    assert legal(state) == {"W=B", "W=G", "W=R", "W=Y"}
    play(state, "W=G")
    assert COLOURS[state.colour] == "G"
    # the next player (G1 G2 G3) must follow green
    assert legal(state) == {"G1", "G2", "G3"}
    state = load(hands=[["W", "G1", "Y4", "R7"], *OTHERS], discard=["B5"])
    play(state, "W=R")
    assert legal(state) == {"draw"}


def test_a_wild_draw_four_fits_any_card() -> None:
    state = load(hands=[["W+4", "G1", "Y4"], *OTHERS], discard=["R8"])
    assert legal(state) == {"W+4=B", "W+4=G", "W+4=R", "W+4=Y"}


def test_a_wild_cannot_be_played_on_another_wild() -> None:
    state = load(hands=[["W", "W+4", "G1", "Y4"], *OTHERS], discard=["W"], colour="R")
    assert "W=B" not in legal(state)
    assert "W+4=B" in legal(state)  # the Wild Draw Four is always playable
    assert_illegal(state, "W=B", "Wild cannot be played on another Wild")


def test_a_wild_may_be_played_on_a_wild_draw_four_whose_penalty_was_drawn() -> None:
    # Decision: "not on another Wild" means the plain Wild only.
    state = load(hands=[["W", "G1", "Y4"], *OTHERS], discard=["W+4"], colour="R")
    assert "W=G" in legal(state)


def test_on_a_wild_the_wished_colour_counts_and_no_number() -> None:
    state = load(hands=[["G5", "R1", "Y4"], *OTHERS], discard=["B5", "W"], colour="R")
    assert legal(state) == {"R1"}


def test_if_you_can_play_you_must_so_drawing_is_not_allowed() -> None:
    state = load(hands=[["B9", "G1", "Y4"], *OTHERS], discard=["B5"])
    assert "draw" not in legal(state)
    message = assert_illegal(state, "draw", "if you can play, you must")
    assert "B9" in message


def test_a_player_who_cannot_play_draws_one_card_and_the_turn_ends() -> None:
    # B9 is drawn; it would fit B5, but the turn is over (§9: draw one card; the turn ends).
    state = load(hands=[["G1", "Y4", "R7"], *OTHERS], discard=["B5"], draw_pile=["B9", "G9"])
    assert legal(state) == {"draw"}
    play(state, "draw")
    assert state.hands[0] == cards("B9", "G1", "R7", "Y4")
    assert draw_pile_top_first(state) == ["G9"]
    assert state.turn == 1
    assert names(state.discard) == ["B5"]


def test_after_a_play_the_turn_passes_clockwise() -> None:
    hands = [["B9", "G1", "Y4", "R7"], ["B1", "B2", "G7", "G8"], *OTHERS[1:]]
    state = load(hands=hands, discard=["B5"])
    play(state, "B9")
    assert state.turn == 1
    play(state, "B1")
    assert state.turn == 2


def test_out_of_turn_play_is_rejected() -> None:
    state = load(hands=[["B9", "G1", "Y4"], ["B1", "B2", "G7"], *OTHERS[1:]], discard=["B5"])
    assert_illegal(state, "1: B1", "seat 0's turn")
    play(state, "0: B9")  # the seat to act may name itself
    assert str(state.history[-1]) == "B9"


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top_card() -> None:
    state = load(hands=[["G1", "Y4", "R7"], *OTHERS], discard=["B7", "B8", "B5"], draw_pile=[])
    play(state, "draw")
    assert names(state.discard) == ["B5"]
    assert sorted(names(state.hands[0] + state.draw_pile)) == sorted(["G1", "Y4", "R7", "B7", "B8"])
    assert len(state.hands[0]) == 4


def test_with_no_card_left_to_draw_the_draw_gives_nothing_and_the_turn_passes() -> None:
    state = load(hands=[["G1", "Y4", "R7"], *OTHERS], discard=["B5"], draw_pile=[])
    play(state, "draw")
    assert state.hands[0] == cards("G1", "Y4", "R7")
    assert state.turn == 1
