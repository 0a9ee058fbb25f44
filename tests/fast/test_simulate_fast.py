"""``dos simulate --engine fast`` plays the games of ``--engine python``: same counts."""

from __future__ import annotations

import json

import pytest

from dos.cli import main
from dos.simulate import simulate


@pytest.mark.parametrize(("players", "games", "seed"), [(2, 7, 0), (4, 5, 41), (7, 3, -3)])
def test_fast_engine_plays_the_same_games(players: int, games: int, seed: int) -> None:
    python = simulate("official", players, games, seed, "python")
    fast = simulate("official", players, games, seed, "fast")
    assert (fast.games, fast.rounds, fast.decisions) == (
        python.games,
        python.rounds,
        python.decisions,
    )
    assert (python.engine, fast.engine) == ("python", "fast")


def _figures(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", *args, "--json"]) in (0, None)
    return dict(json.loads(capsys.readouterr().out))


def test_cli_prints_the_same_games_rounds_and_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("--players", "3", "--games", "4", "--seed", "9")
    python = _figures(capsys, *args, "--engine", "python")
    fast = _figures(capsys, *args, "--engine", "fast")
    for key in ("rules", "players", "games", "rounds", "decisions"):
        assert fast[key] == python[key]
    assert fast["engine"] == "fast"


def test_cli_classic_prints_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--rules", "classic", "--players", "4", "--games", "5", "--seed", "2")
    python = _figures(capsys, *args, "--engine", "python")
    fast = _figures(capsys, *args, "--engine", "fast")
    for key in ("rules", "players", "games", "rounds", "decisions"):
        assert fast[key] == python[key]


def test_cli_text_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--players", "2", "--games", "1", "--engine", "fast"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["engine", "fast"]
