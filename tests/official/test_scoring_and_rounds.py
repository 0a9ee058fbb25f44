"""Going out, scoring, the next round and the end of the game (RULES.md §7)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from dos.rules.official import Phase, State, all_legal_actions, legal_actions
from dos.rules.official.cards import full_deck

from .conftest import assert_illegal, cards, load, open_obligations, play

# Seat 0 goes out by playing B7 on G7 (a Single Number Match: no bonus, nothing to place).
# Left in the other hands: G1 Y9 = 10, DOS R# = 20 + 40 = 60, B10 = 10: 80 points.
OTHERS = [["G1", "Y9"], ["DOS", "R#"], ["B10"]]
POINTS = 80


def going_out(**overrides: Any) -> State:
    fields: dict[str, Any] = {"hands": [["B7"], *OTHERS], "center": ["G7", "Y10"]}
    fields.update(overrides)
    return play(load(**fields), "B7@0")


def test_the_player_who_goes_out_scores_the_cards_left_in_all_other_hands() -> None:
    state = going_out()
    assert state.scores == [POINTS, 0, 0, 0]
    result = state.round_results[0]
    assert (result.round, result.winner, result.points) == (1, 0, POINTS)
    assert result.hands == (
        (),
        tuple(cards("G1", "Y9")),
        tuple(cards("DOS", "R#")),
        tuple(cards("B10")),
    )


@pytest.mark.parametrize(
    ("left", "points"),
    [(["B1"], 1), (["Y10"], 10), (["DOS"], 20), (["G#"], 40), (["B#", "DOS", "R4", "G9"], 73)],
)
def test_number_cards_score_face_value_wild_dos_20_and_wild_number_40(
    left: list[str], points: int
) -> None:
    state = going_out(hands=[["B7"], left, ["G1"], ["Y1"]])
    assert state.scores[0] == points + 1 + 1


def test_scores_accumulate_over_rounds() -> None:
    state = going_out(scores=[100, 50, 20, 7])
    assert state.scores == [100 + POINTS, 50, 20, 7]


def test_the_round_can_be_won_by_any_seat() -> None:
    state = going_out(hands=[OTHERS[0], OTHERS[1], ["B7"], OTHERS[2]], turn=2, dealer=1)
    assert state.scores == [0, 0, POINTS, 0]
    assert state.round_results[0].winner == 2


def test_going_out_by_laying_the_last_card_after_an_empty_draw() -> None:
    state = load(hands=[["B1"], *OTHERS], center=["G7", "Y10"], draw_pile=[], discard=[])
    play(state, "draw", "lay B1")
    assert state.round_results[0].winner == 0
    assert state.scores == [POINTS, 0, 0, 0]


def test_a_score_below_the_target_starts_a_new_round() -> None:
    state = going_out(scores=[200 - POINTS - 1, 0, 0, 0])
    assert state.scores[0] == 199
    assert state.phase == Phase.TURN
    assert state.winner is None
    assert state.round == 2


def test_the_first_player_to_reach_200_wins_the_game() -> None:
    state = going_out(scores=[200 - POINTS, 150, 199, 0])
    assert state.scores == [200, 150, 199, 0]
    assert state.phase == Phase.OVER
    assert state.winner == 0
    assert state.round == 1
    assert len(state.round_results) == 1


def test_passing_the_target_wins_the_game_too() -> None:
    state = going_out(scores=[190, 0, 0, 0])
    assert state.scores[0] == 270
    assert state.winner == 0


@pytest.mark.parametrize(
    ("target", "over"), [(POINTS - 1, True), (POINTS, True), (POINTS + 1, False)]
)
def test_option_target_score_sets_the_score_that_wins(target: int, over: bool) -> None:
    state = going_out(options={"players": 4, "target_score": target})
    assert (state.phase == Phase.OVER) is over
    assert state.winner == (0 if over else None)


def test_no_action_is_legal_once_the_game_is_over() -> None:
    state = going_out(options={"players": 4, "target_score": 50})
    assert legal_actions(state) == []
    assert all_legal_actions(state) == []
    for seat in range(4):
        assert legal_actions(state, seat) == []
    assert_illegal(state, "draw", "§7")
    assert_illegal(state, "1: dos", "§7")


def test_round_winner_deals_next_round() -> None:
    state = going_out(hands=[OTHERS[0], OTHERS[1], ["B7"], OTHERS[2]], turn=2, dealer=0)
    assert state.dealer == 2
    assert state.turn == 3  # the new dealer's left


def test_option_deal_passes_left_gives_the_next_deal_to_the_seat_left_of_the_dealer() -> None:
    state = going_out(
        options={"players": 4, "deal_passes_left": True},
        hands=[OTHERS[0], OTHERS[1], ["B7"], OTHERS[2]],
        turn=2,
        dealer=0,
    )
    assert state.dealer == 1
    assert state.turn == 2


def test_option_deal_passes_left_wraps_around() -> None:
    state = going_out(options={"players": 4, "deal_passes_left": True}, dealer=3)
    assert state.dealer == 0
    assert state.turn == 1


def test_option_dealer_starts_holds_in_later_rounds() -> None:
    state = going_out(
        options={"players": 4, "dealer_starts": True},
        hands=[OTHERS[0], OTHERS[1], ["B7"], OTHERS[2]],
        turn=2,
        dealer=2,
    )
    assert state.dealer == 2
    assert state.turn == 2


def test_a_new_round_reshuffles_all_108_cards() -> None:
    # The position holds only a few cards; the new deal uses the whole deck.
    state = going_out()
    assert Counter(state.all_cards()) == Counter(full_deck())
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert len(state.center) == 2
    assert len(state.draw_pile) == 108 - 28 - 2
    assert state.discard == []


def test_a_new_round_starts_clean_and_keeps_the_scores() -> None:
    state = going_out(scores=[10, 20, 30, 40])
    assert state.round == 2
    assert state.scores == [10 + POINTS, 20, 30, 40]
    assert state.phase == Phase.TURN
    assert not state.drew
    assert state.matched == {}
    assert state.penalties == [0, 0, 0, 0]
    assert open_obligations(state) == []


@pytest.mark.parametrize("players", [2, 3, 10])
def test_scoring_and_the_next_deal_work_for_every_player_count(players: int) -> None:
    others = [["G1", "Y9"], ["DOS"], ["B10"], ["Y3"], ["G3"], ["R3"], ["B4"], ["G4"], ["R4"]]
    hands = [["B7"], *others[: players - 1]]
    state = going_out(hands=hands)
    expected = [10, 20, 10, 3, 3, 3, 4, 4, 4][: players - 1]
    assert state.scores[0] == sum(expected)
    assert [len(hand) for hand in state.hands] == [7] * players
    assert len(state.draw_pile) == 108 - 7 * players - 2
    assert state.dealer == 0
