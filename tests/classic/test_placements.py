"""Placements and the final ranking (RULES.md §9, last point)."""

from __future__ import annotations

from dos.rules.classic import RULES, Phase, legal_actions

from .conftest import assert_illegal, load, play


def test_a_player_who_empties_their_hand_takes_the_next_place_and_play_goes_on() -> None:
    state = load(hands=[["B7"], ["B1", "G1", "Y1", "R1"], ["B2", "G2", "Y2", "R2"]])
    play(state, "B7")
    assert state.ranking == [0]
    assert state.phase == Phase.PLAY
    assert state.turn == 1
    play(state, "B1")
    assert state.turn == 2  # seat 0 is passed over from now on
    play(state, "B2")
    assert state.turn == 1


def test_the_second_player_out_takes_second_place() -> None:
    state = load(
        hands=[[], ["B7"], ["B1", "G1", "Y1", "R1"], ["B2", "G2", "Y2", "R2"]],
        ranking=[0],
        turn=1,
    )
    play(state, "B7")
    assert state.ranking == [0, 1]
    assert state.turn == 2


def test_the_duel_of_the_last_two_decides_last_place_and_ends_the_game() -> None:
    state = load(hands=[[], ["B7"], ["B1", "G1", "Y1", "R1"]], ranking=[0], turn=1)
    play(state, "B7")
    assert state.phase == Phase.OVER
    assert state.ranking == [0, 1, 2]
    assert RULES.result(state) == {"winner": 0, "ranking": [0, 1, 2], "rounds": 1}
    assert legal_actions(state) == []
    assert_illegal(state, "draw", "game is over")


def test_a_two_player_game_ends_when_one_player_goes_out() -> None:
    state = load(hands=[["B7"], ["B1", "G1", "Y1", "R1"]])
    play(state, "B7")
    assert state.phase == Phase.OVER
    assert state.ranking == [0, 1]


def test_the_last_card_may_be_an_action_card_and_its_effect_still_applies() -> None:
    state = load(
        hands=[["B+2"], ["B1", "G1", "Y1", "R1"], ["B2", "G2", "Y2", "R2"]], draw_pile=["G9"] * 1
    )
    play(state, "B+2")
    assert state.ranking == [0]
    assert state.turn == 1
    assert state.pending == 2
    state = load(hands=[["BS"], ["B1", "G1", "Y1", "R1"], ["B2", "G2", "Y2", "R2"]])
    play(state, "BS")
    assert state.turn == 2


def test_the_result_lists_the_places_decided_so_far() -> None:
    state = load(hands=[[], ["B7", "G5"], ["B1", "G1", "Y1", "R1"]], ranking=[0], turn=1)
    assert RULES.result(state) == {"winner": 0, "ranking": [0], "rounds": 0}
