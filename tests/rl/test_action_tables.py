"""The fixed action spaces: every legal action of every position has one index, and back."""

from __future__ import annotations

from typing import Any

import pytest

from dos.perft import perft
from dos.rl.codec import Codec, make_codec
from dos.rl.official_actions import SIZE, OfficialActions
from dos.rules.official import Options, legal_actions, new_game, parse_action
from dos.rules.official.cards import DECK_COUNTS, WILD_DOS, parse_card
from rl.support import positions

CASES = [("official", 2), ("official", 3), ("official", 4), ("classic", 2), ("classic", 4)]


def env_perft(codec: Codec, state: Any, depth: int) -> int:
    """Perft counted through the action table: every seat's mask, each index decoded."""
    total = 0
    for seat in range(codec.players):
        for index in codec.indices(state, seat, codec.legal(state, seat)):
            if depth == 1:
                total += 1
                continue
            child = state.copy()
            codec.apply(child, codec.action(state, seat, index))
            total += env_perft(codec, child, depth - 1)
    return total


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_every_legal_action_has_one_index_and_back(rules: str, players: int) -> None:
    codec = make_codec(rules, players)
    for state in positions(codec, seed=players, limit=1500):
        for seat in range(players):
            legal = codec.legal(state, seat)
            indices = codec.indices(state, seat, legal)
            assert len(set(indices)) == len(legal)
            assert all(0 <= i < codec.size for i in indices)
            assert [codec.action(state, seat, i) for i in indices] == legal


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_counts_through_the_table_agree_with_perft(rules: str, players: int) -> None:
    codec = make_codec(rules, players)
    for number, state in enumerate(positions(codec, seed=10 + players, limit=400)):
        assert env_perft(codec, state, 1) == perft(rules, state, 1)
        if number % 40 == 0:
            assert env_perft(codec, state, 2) == perft(rules, state, 2)


def test_the_official_table_does_not_depend_on_the_player_count() -> None:
    assert make_codec("official", 2).size == make_codec("official", 10).size == SIZE


def test_a_center_row_of_every_wild_dos_gives_each_its_own_slot() -> None:
    state = new_game(Options(players=2), seed=1)
    state.center = [WILD_DOS] * DECK_COUNTS[WILD_DOS]
    state.hands[state.turn] = sorted([parse_card("B1"), parse_card("G1"), WILD_DOS])
    codec = make_codec("official", 2)
    legal = legal_actions(state)
    indices = codec.indices(state, state.turn, legal)
    assert len(set(indices)) == len(legal) == 12 * 2 + 1  # DOS, B1+G1 on each; draw
    assert codec.action(state, state.turn, indices[-2]) == legal[-2]


def test_names_read_like_the_notation() -> None:
    table = OfficialActions()
    state = new_game(Options(players=2), seed=1)
    state.center = [parse_card("B7"), parse_card("R7"), parse_card("B7")]
    index = table.index(parse_action("B3+B4@2"), state.turn, 2, state.center)
    assert table.names[index] == "B3+B4@B7#1"
    assert table.action_in(state, state.turn, index) == parse_action("B3+B4@2")


def test_a_catch_is_written_relative_to_the_catcher() -> None:
    table = OfficialActions()
    state = new_game(Options(players=4), seed=1)
    catch = parse_action("catch 0")
    index = table.index(catch, 3, 4, state.center)
    assert table.names[index] == "catch +1"
    other = 3 if state.turn != 3 else None
    assert table.action(index, 3, state.turn, 4, state.center).seat == other
