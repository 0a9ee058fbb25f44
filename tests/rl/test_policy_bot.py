"""``policy:FILE`` plays as a bot in tournaments, seeing only its seat's view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dos.arena.tournament import run_tournament
from dos.bots.registry import make_player, names
from dos.rl.codec import make_codec
from dos.rl.policy import init_params, load, save


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "policy.npz"
    size = make_codec("official", 2).layout.size
    save(path, init_params(np.random.default_rng(1), size, 16, 8), {"rules": "official"})
    return path


def test_a_policy_file_is_a_known_bot_name(policy_file: Path) -> None:
    assert f"policy:{policy_file}" in names()
    assert "policy:" not in names()
    assert make_player(f"policy:{policy_file}").bot.name == f"policy:{policy_file}"


def test_a_policy_plays_whole_tournament_games(policy_file: Path) -> None:
    result = run_tournament([f"policy:{policy_file}", "random"], 2, 4, seed=3, target_score=30)
    assert sum(row["games"] for row in result.summary.to_json()["bots"]) == 8


def test_saving_and_loading_keep_every_array(tmp_path: Path, policy_file: Path) -> None:
    policy = load(policy_file)
    again = tmp_path / "again.npz"
    save(again, policy.params, policy.meta)
    reloaded = load(again)
    assert all(np.array_equal(policy.params[k], reloaded.params[k]) for k in policy.params)


def test_a_file_that_is_not_a_policy_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    np.savez(path, w1=np.zeros(3))
    with pytest.raises(ValueError, match="not a DOS policy file"):
        load(path)
