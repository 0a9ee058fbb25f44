"""Tournaments of classic bots (``dos tournament --rules classic``)."""

from __future__ import annotations

import json

import pytest

from dos.arena.played import play
from dos.arena.schedule import TournamentError, make_schedule
from dos.arena.tournament import run_tournament
from dos.cli import main
from dos.rules.classic import Options


def test_a_classic_schedule_carries_the_rule_set_and_its_options() -> None:
    specs = make_schedule(["greedy", "easy"], 3, 6, seed=2, rules="classic")
    assert {spec.rules for spec in specs} == {"classic"}
    assert specs[0].options == Options(players=3)
    with pytest.raises(TournamentError, match="unknown bot"):
        make_schedule(["greedy", "nobody"], 2, 2, rules="classic")


def test_a_classic_game_is_scored_by_places() -> None:
    spec = make_schedule(["greedy", "random"], 3, 3, seed=5, rules="classic")[0]
    game = play(spec)
    assert game.rounds == 1
    assert sorted(game.scores) == [0, 1, 2]  # one point for each player finished behind
    assert game.scores[game.winner] == 2
    assert sum(game.calls) + sum(game.caught) > 0  # reaction tests passed and failed


def test_a_classic_tournament_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_tournament(["greedy", "random"], 2, 8, seed=1, rules="classic", progress=False)
    assert result.settings["rules"] == "classic"
    assert "classic rules" in result.headline()
    assert sum(b.wins for b in result.summary.bots) == 8
    args = ["tournament", "--rules", "classic", "--bots", "greedy,random", "--games", "4"]
    status = main([*args, "--json", "--no-progress"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tournament"]["rules"] == "classic"
