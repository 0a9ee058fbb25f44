"""The deck and the start of a game (RULES.md §9, first two points)."""

from __future__ import annotations

from collections import Counter

from dos.rules.classic import Options, Phase, new_game
from dos.rules.classic.cards import COLOUR, IS_NUMBER, full_deck, parse_card

from .conftest import names


def test_the_deck_is_the_standard_108_card_uno_deck() -> None:
    counts = Counter(names(full_deck()))
    assert sum(counts.values()) == 108
    for colour in "BGRY":
        assert counts[f"{colour}0"] == 1
        for number in range(1, 10):
            assert counts[f"{colour}{number}"] == 2
        for symbol in ("S", "R", "+2"):
            assert counts[f"{colour}{symbol}"] == 2
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert len(counts) == 4 * 13 + 2


def test_each_player_is_dealt_seven_cards_and_one_card_starts_the_discard_pile() -> None:
    for players in (2, 5, 10):
        state = new_game(Options(players=players), seed=players)
        assert [len(hand) for hand in state.hands] == [7] * players
        assert len(state.discard) == 1
        assert len(state.draw_pile) == 108 - 7 * players - 1
        assert sorted(state.all_cards()) == sorted(full_deck())


def test_the_starting_card_is_always_a_number_card_and_sets_the_colour() -> None:
    # Decision: a Skip, Reverse, Draw Two or wild turned first goes back and is redrawn.
    for seed in range(200):
        state = new_game(Options(players=4), seed)
        assert IS_NUMBER[state.top], names(state.discard)
        assert state.colour == COLOUR[state.top]
        assert state.pending == 0


def test_a_random_player_starts_and_play_is_clockwise() -> None:
    starters = Counter(new_game(Options(players=4), seed).turn for seed in range(200))
    assert set(starters) == {0, 1, 2, 3}
    assert min(starters.values()) > 25  # roughly even, not always the same seat
    state = new_game(Options(players=4), seed=3)
    assert state.direction == 1
    assert state.turn == state.starter
    assert state.phase == Phase.PLAY


def test_the_same_seed_and_options_give_the_same_game_and_other_seeds_other_games() -> None:
    assert new_game(Options(players=3), 11) == new_game(Options(players=3), 11)
    assert new_game(Options(players=3), 11).hands != new_game(Options(players=3), 12).hands


def test_card_notation_names_numbers_symbols_and_wilds() -> None:
    assert [parse_card(n) for n in ("b0", "R7", "gs", "YR", "r+2", "w", "W+4")] == [
        parse_card(n) for n in ("B0", "R7", "GS", "YR", "R+2", "W", "W+4")
    ]
    assert names([parse_card("y+2"), parse_card("w+4")]) == ["Y+2", "W+4"]
