"""What a rated game requires and who has standing (``dos.ratings.policy``)."""

from __future__ import annotations

import pytest

from dos.ratings.policy import (
    ESTABLISHED_GAMES,
    MIN_TARGET,
    established,
    long_enough,
    opponents_with_standing,
    provisional,
)
from dos.rules.official.options import Options


def test_the_constants_are_the_documented_ones() -> None:
    assert MIN_TARGET == 100 and ESTABLISHED_GAMES == 10
    assert Options(players=2).target_score >= MIN_TARGET  # a default game is rated


@pytest.mark.parametrize(
    ("options", "rated"),
    [
        ({"target_score": 1}, False),
        ({"target_score": 20}, False),
        ({"target_score": MIN_TARGET - 1}, False),
        ({"target_score": MIN_TARGET}, True),
        ({"target_score": 500}, True),
        ({"players": 3}, True),  # the default target, 200
        ({"target_score": "200"}, False),  # not a stored game's options
        ({"target_score": True}, False),
    ],
)
def test_an_official_game_is_long_enough_from_the_minimum_target(
    options: dict[str, object], rated: bool
) -> None:
    assert long_enough("official", options) is rated


def test_a_classic_game_is_always_played_out_and_long_enough() -> None:
    assert long_enough("classic", {"players": 4, "reaction_time_ms": 200, "stacking": False})
    assert not long_enough("draughts", {})


def test_standing_comes_with_counted_games_and_bots_always_have_it() -> None:
    assert provisional("p_ada", ESTABLISHED_GAMES - 1)
    assert established("p_ada", ESTABLISHED_GAMES)
    assert established("bot:medium", 0) and not provisional("bot:medium", 0)


def test_whose_games_move_whom() -> None:
    players = ["p_old", "p_new", "bot:easy", "bot:hard", "p_old2"]
    got = opponents_with_standing(players, {"p_old", "p_old2"})
    assert got["p_old"] == {"bot:easy", "bot:hard", "p_old2"}
    assert got["p_new"] == {"p_old", "bot:easy", "bot:hard", "p_old2"}
    assert got["bot:easy"] == {"p_old", "p_old2"}  # never another bot, never p_new
    assert opponents_with_standing(["p_a", "p_b"], set()) == {"p_a": set(), "p_b": set()}
    assert opponents_with_standing(["bot:easy", "p_new"], set())["bot:easy"] == set()
