"""A tournament's ratings: the library's updates game after game, in the figures, the table
and the CSV."""

from __future__ import annotations

import csv
import io

import pytest
from openskill.models import PlackettLuce

from dos.arena.played import PlayedGame
from dos.arena.report import csv_header, csv_row, format_table
from dos.arena.stats import summarize
from dos.ratings.arena import rating_trail, tournament_ratings


def _game(index: int, seating: tuple[str, ...], winner: int, scores: tuple[int, ...]) -> PlayedGame:
    seats = len(seating)
    return PlayedGame(
        index=index,
        deal=index // seats,
        rotation=index % seats,
        seed=index,
        seating=seating,
        winner=winner,
        scores=scores,
        rounds=1,
        decisions=(1,) * seats,
        calls=(0,) * seats,
        caught=(0,) * seats,
        decision_seconds=((0.001,),) * seats,
    )


GAMES = [
    _game(0, ("greedy", "random", "easy"), 0, (200, 40, 60)),
    _game(1, ("random", "easy", "greedy"), 2, (10, 10, 210)),
    _game(2, ("easy", "greedy", "random"), 0, (205, 190, 0)),
]


def test_tournament_ratings_are_the_librarys_updates_in_schedule_order() -> None:
    model = PlackettLuce()
    library = {name: model.rating() for name in ("greedy", "random", "easy")}
    for game, ranks in zip(GAMES, ([0, 2, 1], [1, 1, 0], [0, 1, 2]), strict=True):
        teams = [[library[name]] for name in game.seating]
        for name, team in zip(game.seating, model.rate(teams, ranks=ranks), strict=True):
            library[name] = team[0]
    ours = tournament_ratings(GAMES)
    for name, rating in library.items():
        assert ours[name].mu == pytest.approx(rating.mu)
        assert ours[name].sigma == pytest.approx(rating.sigma)
    assert tournament_ratings([]) == {}


def test_the_summary_the_table_and_the_csv_show_the_ratings() -> None:
    summary = summarize(GAMES)
    ratings = tournament_ratings(GAMES)
    greedy = summary.bot("greedy")
    assert greedy.rating == ratings["greedy"]
    low, high = greedy.outcome()["rating"]["ci95"]
    assert low < greedy.rating.mu < high
    assert high - greedy.rating.mu == pytest.approx(1.959964 * greedy.rating.sigma, rel=1e-5)
    table = format_table(summary)
    assert "rating" in table and f"{greedy.rating.mu:.1f}" in table

    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(csv_header(3))
    trail = rating_trail(GAMES)
    writer.writerows(csv_row(game, after) for game, after in zip(GAMES, trail, strict=True))
    rows = list(csv.DictReader(io.StringIO(text.getvalue())))
    last = rows[-1]
    assert float(last["mu_1"]) == pytest.approx(ratings["greedy"].mu, abs=1e-4)
    assert float(last["sigma_0"]) == pytest.approx(ratings["easy"].sigma, abs=1e-4)
