"""``python -m dos.rl.train --opponents``: every name a tournament takes, with its games.

A name may hold colons of its own (``policy:FILE``, ``FILE.py:CLASS``): the games are a
trailing ``:N`` only where what is left is itself a name. No training runs here: ``train`` is
replaced by a stub that records the settings it is given.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dos.rl import train as train_module
from dos.rl.codec import make_codec
from dos.rl.policy import init_params, save

SHEDDER = Path(__file__).parents[2] / "docs" / "examples" / "shedder.py"


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    path = tmp_path / "checkpoint.npz"
    size = make_codec("official", 2).layout.size
    save(path, init_params(np.random.default_rng(1), size, 8, 4), {"rules": "official"})
    return path


def test_a_checkpoint_and_a_bot_by_path_are_opponents_with_or_without_games(
    tmp_path: Path, runs: list[train_module.Settings], checkpoint: Path
) -> None:
    text = f"policy:{checkpoint}:8,{SHEDDER}:Shedder,greedy:4,policy:{checkpoint},hard"
    train_module.main(["--opponents", text, "--out", str(tmp_path / "p.npz")])
    assert runs[-1].opponents == (
        (f"policy:{checkpoint}", 8),
        (f"{SHEDDER}:Shedder", train_module.GAMES_EACH),
        ("greedy", 4),
        (f"policy:{checkpoint}", train_module.GAMES_EACH),
        ("hard", train_module.GAMES_EACH),
    )


def test_a_bot_by_path_takes_games_after_its_class() -> None:
    assert train_module.parse_opponents("bots/mine.py:MyBot:12,mine.py:3") == (
        ("bots/mine.py:MyBot", 12),
        ("mine.py", 3),
    )


def test_a_policy_file_named_by_a_number_is_not_a_count() -> None:
    assert train_module.parse_opponents("policy:7") == (("policy:7", train_module.GAMES_EACH),)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("nobody:8", "unknown bot"),
        ("greedy:0", "at least 1 game"),
        ("greedy,,random", "empty opponent"),
        ("policy:missing.npz", "missing.npz"),
    ],
)
def test_an_opponent_that_cannot_play_is_refused_before_training(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    runs: list[train_module.Settings],
    text: str,
    said: str,
) -> None:
    with pytest.raises(SystemExit) as exited:
        train_module.main(["--opponents", text, "--out", str(tmp_path / "p.npz")])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--opponents" in err
    assert said in err
    assert runs == []


def test_no_opponents_at_all_is_refused_without_a_league(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runs: list[train_module.Settings]
) -> None:
    with pytest.raises(SystemExit) as exited:
        train_module.main(["--opponents", "", "--out", str(tmp_path / "p.npz")])
    assert exited.value.code == 2
    train_module.main(["--opponents", "", "--league", "5", "--out", str(tmp_path / "p.npz")])
    assert runs[-1].opponents == ()
    assert runs[-1].league is not None
    assert runs[-1].league.every == 5


def test_the_league_options_reach_the_training(
    tmp_path: Path, runs: list[train_module.Settings], checkpoint: Path
) -> None:
    train_module.main(
        [
            "--league",
            "10",
            "--league-pool",
            f"greedy,policy:{checkpoint}",
            "--league-games",
            "4",
            "--league-draws",
            "3",
            "--league-latest",
            "0.25",
            "--league-keep",
            "6",
            "--league-folder",
            str(tmp_path / "pool"),
            "--out",
            str(tmp_path / "p.npz"),
        ]
    )
    league = runs[-1].league
    assert league is not None
    assert (league.every, league.games, league.draws, league.latest, league.keep) == (
        10,
        4,
        3,
        0.25,
        6,
    )
    assert league.pool == ("greedy", f"policy:{checkpoint}")
    assert runs[-1].league_folder == str(tmp_path / "pool")


def test_a_count_in_the_league_pool_is_refused_not_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runs: list[train_module.Settings]
) -> None:
    out = str(tmp_path / "p.npz")
    with pytest.raises(SystemExit) as exited:
        train_module.main(["--league", "5", "--league-pool", "greedy:8", "--out", out])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--league-pool" in err and "'greedy:8'" in err and "--league-games" in err
    assert runs == []
