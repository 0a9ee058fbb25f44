"""The DOS call and catching (RULES.md §6, §4.4)."""

from __future__ import annotations

from dos.rules.official import from_position, to_position

from .conftest import (
    assert_illegal,
    cards,
    draw_pile_top_first,
    every_legal,
    legal,
    load,
    open_obligations,
    play,
)

PILE = ["G6", "Y6", "R6", "B6", "G8", "Y8", "R8", "B8"]
TWO_CARDS = [["B1", "G3", "Y5"], ["G1", "G3"], ["Y1", "Y3"], ["R1", "R3"]]
"""Seat 0 to act (nothing to call); seats 1-3 loaded holding two cards."""


# --- when an obligation opens -------------------------------------------------------------


def test_a_hand_that_becomes_two_cards_by_matching_must_call_dos() -> None:
    # B3+G4 on R7 leaves Y1 Y5 (6, no match on G10): the turn passes with the call still due.
    state = load(
        hands=[["B3", "G4", "Y1", "Y5"], ["G1", "G3", "G5"], ["Y3", "Y4", "Y9"], ["R1", "R3"]],
        center=["R7", "G10"],
    )
    play(state, "B3+G4@0")
    assert state.turn == 1
    assert open_obligations(state) == [0]
    assert legal(state, 0) == {"0: dos"}
    assert every_legal(state) >= {"catch 0", "0: dos", "2: catch 0", "3: catch 0"}


def test_a_hand_that_becomes_two_cards_by_laying_must_call_dos() -> None:
    state = load(
        hands=[["B1", "G3"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
    )
    play(state, "draw")
    assert open_obligations(state) == []  # three cards
    play(state, "lay Y8")
    assert open_obligations(state) == [0]


def test_a_hand_that_becomes_two_cards_by_placing_a_bonus_card_must_call_dos() -> None:
    state = load(
        hands=[["R7", "Y1", "Y4", "Y5"], ["G1", "G4", "G5"], ["Y3", "B4", "B5"], ["R1", "R4"]],
        center=["R7", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0")  # Y1 Y4 Y5 cannot make 10
    assert open_obligations(state) == []
    play(state, "place Y1")
    assert state.turn == 1
    assert open_obligations(state) == [0]


def test_a_hand_that_becomes_two_cards_by_the_players_own_draw_must_call_dos() -> None:
    state = load(
        hands=[["B1"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
    )
    play(state, "draw")
    assert state.hands[0] == cards("B1", "Y8")
    assert open_obligations(state) == [0]
    assert "dos" in legal(state)


def test_a_hand_that_becomes_two_cards_by_a_forced_draw_must_call_dos() -> None:
    # Seat 0's Double Color Match makes seat 2, holding one card, draw a second.
    state = load(
        hands=[["R3", "R4", "B1", "B5"], ["G1", "G4", "G5"], ["Y1"], ["R1", "R5", "B4"]],
        center=["R7", "Y10"],
        draw_pile=PILE,
    )
    play(state, "R3+R4@0", "end")
    assert state.hands[2] == cards("Y1", "R6")
    assert open_obligations(state) == [0, 2]  # seat 0 went down to B1 B5 as well


def test_a_hand_already_holding_two_cards_when_loaded_has_not_become_two() -> None:
    state = load(hands=TWO_CARDS)
    assert open_obligations(state) == []
    assert legal(state, 1) == set()
    assert_illegal(state, "1: dos", "§6")
    assert_illegal(state, "catch 1", "§6")


def test_a_saved_position_lists_its_open_obligations() -> None:
    state = load(
        hands=[["B1"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
    )
    play(state, "draw")
    saved = to_position(state)
    assert saved["dos_open"] == [0]
    assert from_position(saved).dos_open == state.dos_open
    loaded = load(hands=TWO_CARDS, dos_open=[2])
    assert legal(loaded, 1) == {"1: catch 2"}


# --- calling ----------------------------------------------------------------------------


def test_calling_dos_closes_the_obligation() -> None:
    state = load(
        hands=[["B1"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
    )
    play(state, "draw", "dos")
    assert open_obligations(state) == []
    assert_illegal(state, "dos", "§6")
    assert_illegal(state, "1: catch 0", "§6")


def test_a_player_may_call_dos_out_of_turn() -> None:
    state = load(hands=TWO_CARDS, dos_open=[2])
    play(state, "2: dos")
    assert open_obligations(state) == []
    assert state.turn == 0
    assert state.hands[2] == cards("Y1", "Y3")


def test_a_call_with_no_open_obligation_is_illegal() -> None:
    state = load()
    assert_illegal(state, "dos", "§6")
    assert_illegal(state, "2: dos", "§6")


# --- catching ---------------------------------------------------------------------------


def test_a_player_caught_out_of_turn_draws_two_penalty_cards_at_once() -> None:
    state = load(hands=TWO_CARDS, dos_open=[2], draw_pile=PILE)
    play(state, "1: catch 2")
    assert state.hands[2] == cards("Y1", "Y3", "G6", "Y6")
    assert draw_pile_top_first(state) == PILE[2:]
    assert open_obligations(state) == []
    assert state.turn == 0
    assert state.penalties == [0, 0, 0, 0]


def test_the_player_to_act_may_catch_another_player() -> None:
    state = load(hands=TWO_CARDS, dos_open=[2], draw_pile=PILE)
    assert "catch 2" in legal(state)
    play(state, "catch 2")
    assert state.hands[2] == cards("Y1", "Y3", "G6", "Y6")
    assert legal(state) == {"draw"}  # B1 G3 Y5 match neither B7 nor G10; nobody else is open


def test_a_catch_closes_the_obligation() -> None:
    state = load(hands=TWO_CARDS, dos_open=[2], draw_pile=PILE)
    play(state, "3: catch 2")
    assert_illegal(state, "1: catch 2", "§6")
    assert_illegal(state, "2: dos", "§6")


def test_nobody_catches_themselves() -> None:
    state = load(hands=TWO_CARDS, dos_open=[2])
    assert legal(state, 2) == {"2: dos"}
    assert legal(state, 1) == {"1: catch 2"}
    assert_illegal(state, "2: catch 2", "§6")


def test_a_catch_with_no_open_obligation_is_illegal() -> None:
    state = load(hands=TWO_CARDS)
    assert_illegal(state, "1: catch 2", "§6")
    assert_illegal(state, "catch 3", "§6")


def test_player_caught_during_own_turn_takes_penalty_at_end_of_turn() -> None:
    # B3+G4 on R7 leaves Y1 Y9, which can still double G10: the turn goes on.
    state = load(
        hands=[["B3", "G4", "Y1", "Y9"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1", "R3"]],
        center=["R7", "G10"],
        draw_pile=PILE,
    )
    play(state, "B3+G4@0")
    assert open_obligations(state) == [0]
    play(state, "2: catch 0")
    assert open_obligations(state) == []
    assert state.hands[0] == cards("Y1", "Y9")  # not yet
    assert state.penalties[0] == 2
    play(state, "end")
    # Step 2 refills the row with G6, then step 4 gives the penalty: Y6 and R6.
    assert state.hands[0] == cards("Y1", "Y9", "Y6", "R6")
    assert draw_pile_top_first(state) == PILE[3:]
    assert state.penalties == [0, 0, 0, 0]
    assert state.turn == 1


def test_a_player_caught_during_own_turn_cannot_go_out_that_turn() -> None:
    state = load(
        hands=[["B3", "G4", "Y1", "Y9"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1", "R3"]],
        center=["R7", "G10"],
        draw_pile=PILE,
    )
    play(state, "B3+G4@0", "1: catch 0", "Y1+Y9@1")
    # The hand emptied, but the two penalty cards (R6 B6, after G6 and Y6 refilled the row)
    # arrive before the round could end.
    assert state.hands[0] == cards("R6", "B6")
    assert state.round_results == []
    assert state.scores == [0, 0, 0, 0]
    assert state.round == 1
    assert state.turn == 1


def test_a_penalty_that_leaves_exactly_two_cards_opens_a_new_obligation() -> None:
    state = load(
        hands=[["B3", "G4", "Y1", "Y9"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1", "R3"]],
        center=["R7", "G10"],
        draw_pile=PILE,
    )
    play(state, "B3+G4@0", "1: catch 0", "Y1+Y9@1")
    assert open_obligations(state) == [0]
    play(state, "3: catch 0")
    assert state.hands[0] == cards("R6", "B6", "G8", "Y8")  # now out of turn: at once


def test_the_penalty_comes_after_the_others_draw_for_a_double_color_match() -> None:
    state = load(
        hands=[["B3", "G4", "R3", "R4"], ["G1", "G3", "G5"], ["Y3", "Y4"], ["R1", "R5"]],
        center=["Y7", "R7"],
        draw_pile=PILE,
    )
    play(state, "B3+G4@0", "2: catch 0", "R3+R4@1")
    # Refill G6 Y6; the others draw R6 (seat 1), B6 (seat 2), G8 (seat 3); penalty Y8 R8.
    assert state.hands[1] == cards("G1", "G3", "G5", "R6")
    assert state.hands[2] == cards("Y3", "Y4", "B6")
    assert state.hands[3] == cards("R1", "R5", "G8")
    assert state.hands[0] == cards("Y8", "R8")
    assert state.round_results == []
    assert open_obligations(state) == [0]  # seats 2 and 3 went from two cards to three


def test_a_penalty_owed_is_taken_at_the_end_of_a_turn_ended_by_a_lay() -> None:
    state = load(
        hands=[["B1"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6", "G6", "Y6"],
    )
    play(state, "draw", "3: catch 0")
    assert state.hands[0] == cards("B1", "Y8")
    play(state, "lay B1")
    assert state.hands[0] == cards("Y8", "B6", "G6")
    assert state.turn == 1


def test_calls_and_catches_may_be_made_during_the_bonus_placements() -> None:
    state = load(
        hands=[["R7", "Y1", "Y5"], ["G1", "G4", "G5"], ["Y3", "B4", "B5"], ["R1", "R4"]],
        center=["R7", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0")  # Y1 Y5: two cards, and a placement to make
    assert open_obligations(state) == [0]
    play(state, "3: catch 0")
    assert state.penalties[0] == 2
    play(state, "end")
    # G6 refilled the row; the penalty is Y6 R6.
    assert state.hands[0] == cards("Y1", "Y5", "Y6", "R6")


# --- how long an obligation stays open ----------------------------------------------------


def test_an_obligation_stays_open_across_turns_until_called_or_caught() -> None:
    state = load(
        hands=[["B1", "G3"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6", "R8", "G6", "Y6"],
    )
    play(state, "draw", "lay Y8")  # seat 0 is down to two
    play(state, "draw", "lay B6")  # seat 1: G1 G4 G5 B6 matches nothing (7, 10, Y8)
    assert state.turn == 2
    assert open_obligations(state) == [0]
    play(state, "2: catch 0")
    assert state.hands[0] == cards("B1", "G3", "R8", "G6")


def test_the_obligation_closes_when_the_hand_size_changes() -> None:
    state = load(
        hands=[["R3", "R4", "B1", "B5"], ["G1", "G4", "G5"], ["Y1", "Y3"], ["R1", "R5"]],
        center=["R7", "Y10"],
        dos_open=[2],
        draw_pile=PILE,
    )
    play(state, "R3+R4@0", "end")  # a Double Color Match: seat 2 draws a third card
    assert state.hands[2] == cards("Y1", "Y3", "R6")
    assert 2 not in open_obligations(state)
    assert_illegal(state, "catch 2", "§6")


def test_a_new_obligation_opens_the_next_time_the_hand_becomes_two() -> None:
    state = load(
        hands=[["B1", "G3"], ["G1", "G4", "G5"], ["Y1", "Y4", "Y5"], ["R1", "R4", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["Y8", "B6"],
        dos_open=[0],
    )
    play(state, "dos", "draw")
    assert open_obligations(state) == []
    play(state, "lay Y8")
    assert open_obligations(state) == [0]


def test_a_player_caught_during_own_turn_cannot_go_out_by_placing_bonus_cards() -> None:
    # R7 and B3 are Single Color Matches: Y1 Y5 are left (two cards) with two placements.
    state = load(
        hands=[["R7", "B3", "Y1", "Y5"], ["G1", "G4", "G5"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1", "1: catch 0", "place Y1", "place Y5")
    # G6 refilled the row; the penalty is Y6 R6, and two cards open a new obligation.
    assert state.hands[0] == cards("Y6", "R6")
    assert state.round_results == []
    assert state.turn == 1
    assert open_obligations(state) == [0]
