"""A game's result as finishing ranks, per rule set."""

from __future__ import annotations

import pytest

from dos.ratings.ranks import RankError, classic_ranks, official_ranks, ranks, scores_ranks


def test_official_ranks_put_the_winner_first_and_the_others_by_score() -> None:
    result = {"winner": 1, "scores": [80, 205, 130]}
    assert official_ranks(result, 3) == [2, 0, 1]


def test_official_ties_share_a_rank_and_the_next_rank_follows() -> None:
    result = {"winner": 3, "scores": [60, 60, 10, 200]}
    assert official_ranks(result, 4) == [1, 1, 2, 0]


def test_the_official_winner_is_first_even_if_another_seat_has_as_many_points() -> None:
    assert official_ranks({"winner": 0, "scores": [200, 200]}, 2) == [0, 1]


def test_classic_ranks_follow_the_full_ranking() -> None:
    assert classic_ranks({"winner": 2, "ranking": [2, 0, 3, 1]}, 4) == [1, 3, 0, 2]


def test_ranks_choose_the_rule_sets_function() -> None:
    assert ranks("classic", {"ranking": [1, 0]}, 2) == [1, 0]
    assert ranks("official", {"winner": 1, "scores": [3, 9]}, 2) == [1, 0]
    assert scores_ranks(1, [2, 3, 2]) == [1, 0, 1]


@pytest.mark.parametrize(
    ("rules", "result"),
    [
        ("official", {"winner": None, "scores": [0, 0]}),
        ("official", {"winner": 0, "scores": [0]}),
        ("official", {"winner": 5, "scores": [0, 0]}),
        ("classic", {"ranking": [0]}),
        ("classic", {"ranking": [0, 0]}),
        ("draughts", {"winner": 0, "scores": [1, 0]}),
    ],
)
def test_an_incomplete_result_has_no_ranks(rules: str, result: dict[str, object]) -> None:
    with pytest.raises(RankError):
        ranks(rules, result, 2)
