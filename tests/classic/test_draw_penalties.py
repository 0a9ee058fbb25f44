"""Draw Two and Wild Draw Four: stack, or draw the pending sum and lose the turn (RULES.md §9)."""

from __future__ import annotations

from dos.rules.classic.cards import COLOURS

from .conftest import assert_illegal, cards, draw_pile_top_first, legal, load, play

PILE = ["G9", "Y9", "R9", "G8", "Y8", "R8", "G7", "Y7", "R7", "G6", "Y6", "R6"]


def hands(*first: list[str]) -> list[list[str]]:
    """Hands for seats 0, 1, ...: those given, then four-card fillers up to four seats."""
    fillers = [["G0", "Y0", "R0", "B0"], ["G1", "Y1", "R1", "B1"], ["G2", "Y2", "R2", "B2"]]
    return [*first, *fillers[: 4 - len(first)]]


def test_a_draw_two_makes_the_next_player_stack_or_draw() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["R+2", "W+4", "B7", "W"]))
    play(state, "B+2")
    assert state.turn == 1
    assert state.pending == 2
    # any Draw Two (here red on blue), a Wild Draw Four, or draw; no Wild, no blue 7
    assert legal(state) == {"R+2", "W+4=B", "W+4=G", "W+4=R", "W+4=Y", "draw"}


def test_taking_a_draw_two_draws_the_pending_sum_and_loses_the_turn() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["B7", "B8", "B9", "W"]), draw_pile=PILE)
    play(state, "B+2", "draw")
    assert state.hands[1] == cards("B7", "B8", "B9", "W", "G9", "Y9")
    assert state.pending == 0
    assert state.turn == 2  # seat 1 lost its turn


def test_stacked_draw_twos_add_up_for_the_player_who_finally_draws() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["R+2", "B7", "B8", "B9"]), draw_pile=PILE)
    play(state, "B+2", "R+2")
    assert state.pending == 4
    assert state.turn == 2
    play(state, "draw")
    assert len(state.hands[2]) == 8
    assert draw_pile_top_first(state) == PILE[4:]
    assert state.turn == 3


def test_a_wild_draw_four_stacks_on_a_draw_two() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["W+4", "B7", "B8", "B9"]))
    play(state, "B+2", "W+4=Y")
    assert state.pending == 6
    assert COLOURS[state.colour] == "Y"
    assert state.turn == 2


def test_a_wild_draw_four_makes_the_next_player_stack_or_draw() -> None:
    state = load(hands=hands(["W+4", "G3", "G4", "G5"], ["W+4", "R+2", "G+2", "R5"]))
    play(state, "W+4=R")
    assert state.pending == 4
    # a Wild Draw Four, or a Draw Two in the wished colour (red) only, or draw
    assert legal(state) == {"W+4=B", "W+4=G", "W+4=R", "W+4=Y", "R+2", "draw"}
    assert_illegal(state, "G+2", "wished colour")
    assert_illegal(state, "R5", "Wild Draw Four")


def test_a_draw_two_in_the_wished_colour_on_a_wild_draw_four_adds_two_and_play_goes_on_in_it() -> (
    None
):
    state = load(
        hands=hands(["W+4", "G3", "G4", "G5"], ["R+2", "B7", "B8", "B9"], ["R3", "G7", "W", "Y8"]),
        draw_pile=PILE,
    )
    play(state, "W+4=R", "R+2")
    assert state.pending == 6
    assert state.turn == 2
    play(state, "draw")
    assert len(state.hands[2]) == 10
    assert state.turn == 3
    assert COLOURS[state.colour] == "R"


def test_stacked_wild_draw_fours_add_four_each() -> None:
    state = load(hands=hands(["W+4", "G3", "G4", "G5"], ["W+4", "B7", "B8", "B9"]))
    play(state, "W+4=R", "W+4=G")
    assert state.pending == 8
    assert COLOURS[state.colour] == "G"


def test_a_wild_is_not_allowed_on_a_pending_draw() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["W", "B7", "B8", "B9"]))
    play(state, "B+2")
    assert legal(state) == {"draw"}
    assert_illegal(state, "W=B", "no Wild on a pending draw")


def test_under_a_pending_draw_a_card_of_the_same_colour_does_not_fit() -> None:
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["B7", "B8", "B9", "G1"]))
    play(state, "B+2")
    assert_illegal(state, "B7", "Draw Two")


def test_once_the_penalty_is_drawn_the_draw_two_on_top_is_an_ordinary_card() -> None:
    state = load(
        hands=hands(["B+2", "G3", "G4", "G5"], ["Y6", "Y7", "Y8", "Y9"], ["B6", "R+2", "G6", "R5"]),
        draw_pile=PILE,
    )
    play(state, "B+2", "draw")
    assert state.pending == 0
    # blue follows the colour; a Draw Two of any colour follows the symbol and starts anew
    assert legal(state) == {"B6", "R+2"}
    play(state, "R+2")
    assert state.pending == 2


def test_with_stacking_off_the_next_player_must_draw_the_penalty() -> None:
    options = {"stacking": False}
    state = load(hands=hands(["B+2", "G3", "G4", "G5"], ["R+2", "W+4", "B7", "W"]), options=options)
    play(state, "B+2")
    assert legal(state) == {"draw"}
    assert_illegal(state, "R+2", "stacking is off")
    assert_illegal(state, "W+4=R", "stacking is off")
    play(state, "draw")
    assert len(state.hands[1]) == 6
    assert state.turn == 2
