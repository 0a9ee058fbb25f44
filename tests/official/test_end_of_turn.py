"""The end of the turn, step by step (RULES.md §4)."""

from __future__ import annotations

from collections import Counter

from dos.rules.official import Phase

from .conftest import (
    assert_illegal,
    cards,
    draw_pile_top_first,
    legal,
    load,
    names,
    play,
)

PILE = ["G6", "Y6", "R6", "B6", "G8", "Y8", "R8", "B8"]


def test_played_cards_and_the_cards_they_were_played_on_go_to_the_discard_pile() -> None:
    state = load(
        hands=[["B3", "G4", "Y1", "B5"], ["G1", "G3"], ["Y3", "Y4"], ["R1", "R3"]],
        center=["R7", "G1"],
        discard=["Y6"],
        draw_pile=["G8", "Y8", "R8"],
    )
    play(state, "B3+G4@0", "Y1@1")  # B5 matches nothing left: the matches end
    assert state.turn == 1
    assert Counter(names(state.discard)) == Counter(["Y6", "B3", "G4", "R7", "Y1", "G1"])


def test_the_center_row_is_refilled_to_two_cards_from_the_draw_pile() -> None:
    state = load(
        hands=[["B7", "G3", "Y5", "Y4"], ["G1", "G4"], ["Y1", "Y3"], ["R1", "R4"]],
        center=["R7", "B3"],
        draw_pile=["G8", "Y8", "R8"],
    )
    play(state, "B7@0", "G3@1")
    assert sorted(names(state.center)) == ["G8", "Y8"]
    assert draw_pile_top_first(state) == ["R8"]


def test_one_card_left_in_the_center_row_is_topped_up_with_one_card() -> None:
    state = load(
        hands=[["B7", "G3", "Y5", "Y4"], ["G1", "G4"], ["Y1", "Y3"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=["G8", "Y8", "R8"],
    )
    play(state, "B7@0", "G3@1")  # Y4+Y5 = 9, not 10: no match is left
    assert names(state.center) == ["G10", "G8"]
    assert draw_pile_top_first(state) == ["Y8", "R8"]


def test_the_center_row_is_not_refilled_while_two_cards_remain() -> None:
    state = load(
        hands=[["B7", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G9"],
        draw_pile=PILE,
    )
    play(state, "B7@0")
    assert state.turn == 1
    assert names(state.center) == ["B3", "G9"]
    assert draw_pile_top_first(state) == PILE


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_at_the_end_of_the_turn() -> None:
    state = load(
        hands=[["B7", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3"],
        draw_pile=[],
        discard=["G9"],
    )
    play(state, "B7@0")
    # Step 1 discards B7 and R7, step 2 reshuffles the discard pile to refill the row.
    assert names(state.center)[0] == "B3"
    assert len(state.center) == 2
    assert sorted(names(state.center[1:] + state.draw_pile)) == ["B7", "G9", "R7"]
    assert state.discard == []


def test_the_center_row_is_refilled_before_the_bonus_placements() -> None:
    state = load(
        hands=[["R7", "B6", "Y3", "G1"], ["G3", "G4"], ["Y1", "Y4"], ["R1", "R4"]],
        center=["R7", "Y10"],
        draw_pile=PILE,
    )
    play(state, "R7@0")
    assert state.phase == Phase.PLACING
    assert names(state.center) == ["Y10", "G6"]


def test_each_colour_bonus_earns_one_placement() -> None:
    state = load(
        hands=[["R7", "B3", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1")  # two Single Color Matches; Y1+Y5 = 6 does not match G10
    assert state.phase == Phase.PLACING
    assert state.placements_left == 2
    assert legal(state) >= {"place Y1", "place Y5", "end"}


def test_bonus_placements_are_optional_card_by_card() -> None:
    state = load(
        hands=[["R7", "B3", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1", "place Y1")
    assert state.phase == Phase.PLACING
    assert state.placements_left == 1
    assert names(state.center) == ["G10", "G6", "Y1"]
    play(state, "end")
    assert state.turn == 1
    assert state.hands[0] == cards("Y5")
    assert names(state.center) == ["G10", "G6", "Y1"]


def test_every_bonus_placement_may_be_declined() -> None:
    state = load(
        hands=[["R7", "B3", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1", "end")
    assert state.turn == 1
    assert state.hands[0] == cards("Y1", "Y5")
    assert names(state.center) == ["G10", "G6"]


def test_the_turn_ends_by_itself_when_no_placement_is_left() -> None:
    state = load(
        hands=[["R7", "B3", "Y1", "Y4", "Y5"], ["G1", "G4"], ["Y3", "Y3"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1", "place Y1", "place Y4")
    assert state.turn == 1
    assert state.phase == Phase.TURN
    assert state.hands[0] == cards("Y5")
    assert names(state.center) == ["G10", "G6", "Y1", "Y4"]


def test_option_bonus_lay_mandatory_makes_every_placement_compulsory() -> None:
    state = load(
        options={"players": 4, "bonus_lay_mandatory": True},
        hands=[["R7", "B3", "Y1", "Y4", "Y5"], ["G1", "G4"], ["Y3", "Y3"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1")  # Y1 Y4 Y5: no pair adds up to 10
    assert state.placements_left == 2
    assert "end" not in legal(state)
    assert_illegal(state, "end", "§4")
    play(state, "place Y5")
    assert_illegal(state, "end", "§4")
    play(state, "place Y1")
    assert state.turn == 1
    assert state.hands[0] == cards("Y4")


def test_a_single_color_match_makes_nobody_draw() -> None:
    state = load(
        hands=[["R7", "B3", "Y1", "Y5"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R4"]],
        center=["R7", "B3", "G10"],
        draw_pile=PILE,
    )
    play(state, "R7@0", "B3@1", "end")
    assert [len(hand) for hand in state.hands[1:]] == [2, 2, 2]


def test_double_color_match_makes_every_other_player_draw_after_the_placements() -> None:
    # Seat 1 plays G3+G4 on G7; the other seats draw in order from its left: 2, 3, 0.
    state = load(
        dealer=0,
        turn=1,
        hands=[["B1", "B3"], ["G3", "G4", "B1", "B5"], ["Y1", "Y3"], ["R1", "R3"]],
        center=["G7", "Y10"],
        draw_pile=["R6", "B6", "G8", "Y8", "R8"],
    )
    play(state, "G3+G4@0")  # B1+B5 = 6 does not match Y10: the matches end
    assert state.phase == Phase.PLACING
    assert names(state.center) == ["Y10", "R6"]
    # The placement comes first: nobody has drawn yet.
    assert [len(hand) for hand in state.hands] == [2, 2, 2, 2]
    play(state, "place B1")
    assert names(state.center) == ["Y10", "R6", "B1"]
    assert state.hands[2] == cards("Y1", "Y3", "B6")
    assert state.hands[3] == cards("R1", "R3", "G8")
    assert state.hands[0] == cards("B1", "B3", "Y8")
    assert state.hands[1] == cards("B5")
    assert draw_pile_top_first(state) == ["R8"]
    assert state.turn == 2


def test_double_color_match_makes_the_others_draw_when_its_placement_is_declined() -> None:
    state = load(
        dealer=0,
        turn=1,
        hands=[["B1", "B3"], ["G3", "G4", "B1", "B5"], ["Y1", "Y3"], ["R1", "R3"]],
        center=["G7", "Y10"],
        draw_pile=["R6", "B6", "G8", "Y8", "R8"],
    )
    play(state, "G3+G4@0", "end")
    assert state.hands[2] == cards("Y1", "Y3", "B6")
    assert state.hands[3] == cards("R1", "R3", "G8")
    assert state.hands[0] == cards("B1", "B3", "Y8")
    assert state.hands[1] == cards("B1", "B5")


def test_each_double_color_match_makes_every_other_player_draw_one_card() -> None:
    state = load(
        hands=[["R3", "R4", "B4", "B6", "Y1"], ["G1", "G4"], ["Y3", "Y4"], ["R1", "R5"]],
        center=["R7", "B10", "Y9"],
        draw_pile=PILE,
    )
    play(state, "R3+R4@0", "B4+B6@1")  # Y1 does not match Y9
    assert state.placements_left == 2
    play(state, "end")
    assert [len(hand) for hand in state.hands] == [1, 4, 4, 4]
    # One card refilled the Center Row, then six were drawn.
    assert len(state.draw_pile) == len(PILE) - 1 - 6


def test_a_player_who_goes_out_ends_the_round_after_the_others_draw() -> None:
    # R3+R4 on R7 is a Double Color Match that empties the hand: nothing to place, the others
    # draw one card each (Y6, B8, R8 after G6 refills the row), then the round ends.
    state = load(
        hands=[["R3", "R4"], ["G1", "G3", "G4", "G5"], ["Y1", "Y3", "Y4", "Y5"], ["R1", "R5"]],
        center=["R7", "Y10"],
        draw_pile=["G6", "Y6", "B8", "R8"],
    )
    play(state, "R3+R4@0")
    result = state.round_results[0]
    assert result.winner == 0
    assert result.hands[1] == tuple(cards("G1", "G3", "G4", "G5", "Y6"))
    assert result.hands[2] == tuple(cards("Y1", "Y3", "Y4", "Y5", "B8"))
    assert result.hands[3] == tuple(cards("R1", "R5", "R8"))
    # (1+3+4+5+6) + (1+3+4+5+8) + (1+5+8)
    assert result.points == 19 + 21 + 14
    assert state.scores[0] == 54


def test_going_out_with_a_colour_bonus_leaves_nothing_to_place() -> None:
    state = load(
        hands=[["R7"], ["G1", "G3"], ["Y1", "Y3"], ["R1", "R3"]],
        center=["R7", "Y10"],
    )
    play(state, "R7@0")
    assert len(state.round_results) == 1
    assert state.round_results[0].points == 4 + 4 + 4
    assert state.scores == [12, 0, 0, 0]


def test_placing_the_last_card_as_a_bonus_goes_out() -> None:
    state = load(
        hands=[["R7", "B1"], ["G1", "G3"], ["Y1", "Y3"], ["R1", "R3"]],
        center=["R7", "Y10"],
    )
    play(state, "R7@0")
    assert state.phase == Phase.PLACING
    play(state, "place B1")
    assert state.round_results[0].winner == 0
    assert state.scores == [12, 0, 0, 0]
