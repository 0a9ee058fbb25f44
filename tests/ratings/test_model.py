"""Rating updates agree with openskill's Plackett-Luce model called directly."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from dos.ratings.model import Rating, rate_against, rate_game, rate_seats


def _library(ratings: list[Rating], ranks: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = model.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_seat_updates_are_the_librarys_own(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        ratings = [Rating(rng.uniform(10, 40), rng.uniform(1, 9)) for _ in range(players)]
        ranks = [rng.randrange(players) for _ in range(players)]  # ties included
        ours = rate_seats(ratings, ranks)
        theirs = _library(ratings, ranks)
        for mine, library in zip(ours, theirs, strict=True):
            assert mine.mu == pytest.approx(library[0], rel=1e-12)
            assert mine.sigma == pytest.approx(library[1], rel=1e-12)


def test_a_game_moves_the_winner_up_and_the_loser_down() -> None:
    outcomes = rate_game(["p_ada", "bot:hard"], [0, 1], {})
    ada, hard = outcomes["p_ada"], outcomes["bot:hard"]
    assert ada.before == hard.before == Rating()
    assert ada.after.mu > 25 > hard.after.mu
    assert ada.won and not hard.won
    assert ada.after.sigma < ada.before.sigma


def test_a_player_holding_several_seats_gets_the_mean_of_their_updates() -> None:
    current = {"p_ada": Rating(30.0, 5.0), "bot:hard": Rating(27.0, 4.0)}
    players = ["bot:hard", "p_ada", "bot:hard"]
    outcomes = rate_game(players, [2, 1, 0], current)
    library = _library([current["bot:hard"], current["p_ada"], current["bot:hard"]], [2, 1, 0])
    hard = outcomes["bot:hard"]
    assert hard.after.mu == pytest.approx((library[0][0] + library[2][0]) / 2)
    assert hard.after.sigma == pytest.approx((library[0][1] + library[2][1]) / 2)
    assert hard.rank == 0 and hard.won
    assert outcomes["p_ada"].after.mu == pytest.approx(library[1][0])
    assert set(outcomes) == {"bot:hard", "p_ada"}


@pytest.mark.parametrize("players", [1, 11])
def test_a_rated_game_has_two_to_ten_seats(players: int) -> None:
    with pytest.raises(ValueError, match="2-10 seats"):
        rate_seats([Rating()] * players, [0] * players)


def test_the_ordinal_is_mu_minus_three_sigma() -> None:
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)


def test_rated_against_everyone_a_player_gets_what_the_whole_game_gives() -> None:
    rng = random.Random(4)
    players = ["p_ada", "bot:hard", "p_bea", "bot:hard"]
    current = {p: Rating(rng.uniform(15, 35), rng.uniform(2, 8)) for p in players}
    ranks = [2, 0, 1, 3]
    everyone = {p: set(players) for p in players}
    whole = rate_game(players, ranks, current)
    assert rate_against(players, ranks, current, everyone) == whole


def test_a_player_is_rated_on_the_sub_game_of_its_opponents() -> None:
    current = {"p_old": Rating(30.0, 3.0), "p_new": Rating(20.0, 7.0)}
    players = ["p_new", "p_old", "bot:easy", "p_fresh"]
    ranks = [1, 3, 0, 2]
    opponents = {"p_new": {"bot:easy"}, "p_old": {"bot:easy", "p_new"}, "p_fresh": set()}
    outcomes = rate_against(players, ranks, current, opponents)
    assert set(outcomes) == {"p_new", "p_old"}  # bot:easy and p_fresh: nobody to count
    library = _library([current["p_new"], Rating()], [1, 0])
    assert outcomes["p_new"].after.mu == pytest.approx(library[0][0])
    assert outcomes["p_new"].rank == 1 and not outcomes["p_new"].won
    old = _library([current["p_new"], current["p_old"], Rating()], [1, 2, 0])
    assert outcomes["p_old"].after.sigma == pytest.approx(old[1][1])
    assert outcomes["p_old"].rank == 3  # the place in the whole game


def test_several_seats_of_one_player_are_averaged_in_a_sub_game() -> None:
    current = {"p_ada": Rating(27.0, 4.0)}
    players = ["bot:hard", "p_ada", "bot:hard", "p_bea"]
    outcomes = rate_against(players, [2, 1, 0, 3], current, {"bot:hard": {"p_ada"}})
    library = _library([Rating(), current["p_ada"], Rating()], [2, 1, 0])
    hard = outcomes["bot:hard"]
    assert hard.after.mu == pytest.approx((library[0][0] + library[2][0]) / 2)
    assert hard.won and set(outcomes) == {"bot:hard"}
