"""Reverse and Skip, including the case of two players left (RULES.md §9)."""

from __future__ import annotations

from .conftest import legal, load, play

FILL = [["G0", "Y0", "R0", "B0"], ["G1", "Y1", "R1", "B1"], ["G2", "Y2", "R2", "B2"]]


def test_a_reverse_flips_the_direction_of_play() -> None:
    state = load(hands=[["BR", "G3", "G4", "G5"], *FILL])
    play(state, "BR")
    assert state.direction == -1
    assert state.turn == 3  # counter-clockwise from seat 0


def test_a_second_reverse_flips_it_back() -> None:
    state = load(hands=[["BR", "G3", "G4", "G5"], *FILL[:2], ["RR", "G6", "G7", "G8"]])
    play(state, "BR", "RR")
    assert state.direction == 1
    assert state.turn == 0


def test_a_skip_skips_the_next_player() -> None:
    state = load(hands=[["BS", "G3", "G4", "G5"], *FILL])
    play(state, "BS")
    assert state.turn == 2


def test_a_skip_skips_the_next_player_in_the_current_direction() -> None:
    state = load(hands=[["BS", "G3", "G4", "G5"], *FILL], direction=-1)
    play(state, "BS")
    assert state.turn == 2
    state = load(hands=[*FILL[:1], ["BS", "G3", "G4", "G5"], *FILL[1:]], direction=-1, turn=1)
    play(state, "BS")
    assert state.turn == 3


def test_with_two_players_a_reverse_gives_the_same_player_another_turn() -> None:
    state = load(hands=[["BR", "B3", "G4", "G5"], ["Y1", "Y2", "Y3", "Y4"]])
    play(state, "BR")
    assert state.turn == 0
    assert legal(state) == {"B3"}


def test_with_two_players_a_skip_gives_the_same_player_another_turn() -> None:
    state = load(hands=[["BS", "B3", "G4", "G5"], ["Y1", "Y2", "Y3", "Y4"]])
    play(state, "BS")
    assert state.turn == 0


def test_with_two_of_more_players_left_a_reverse_or_skip_gives_the_same_player_another_turn() -> (
    None
):
    # seat 1 is placed: seats 0 and 2 are the two players left
    state = load(
        hands=[["BR", "B3", "G4", "G5"], [], ["Y1", "Y2", "Y3", "Y4"]], ranking=[1], turn=0
    )
    play(state, "BR")
    assert state.turn == 0
    state = load(
        hands=[["BS", "B3", "G4", "G5"], [], ["Y1", "Y2", "Y3", "Y4"]], ranking=[1], turn=0
    )
    play(state, "BS")
    assert state.turn == 0


def test_placed_players_are_passed_over() -> None:
    state = load(hands=[["B3", "B4", "G4", "G5"], [], *FILL[1:]], ranking=[1])
    play(state, "B3")
    assert state.turn == 2
