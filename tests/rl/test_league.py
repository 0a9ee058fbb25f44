"""The trainer's league: snapshots join the pool, opponents are drawn from it as documented,
and a seeded run repeats its pool, its draws and its policy exactly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dos.bots.registry import make_player
from dos.play.official import play_game
from dos.rl.codec import make_codec
from dos.rl.league import League, LeagueSettings
from dos.rl.policy import init_params, load
from dos.rl.train import Settings, train
from dos.rules.official import Options


def _params() -> dict[str, np.ndarray]:
    return init_params(np.random.default_rng(0), make_codec("official", 2).layout.size, 8, 4)


def test_a_snapshot_joins_the_pool_as_a_policy_that_plays(tmp_path: Path) -> None:
    league = League(LeagueSettings(every=3, pool=("greedy",)), tmp_path, seed=1)
    name = league.snapshot(_params(), {"rules": "official", "layout": "padded"}, 30)
    assert name == f"policy:{tmp_path / 'snapshot-000030.npz'}"
    assert league.members == ["greedy", name]
    assert load(tmp_path / "snapshot-000030.npz").meta["iterations"] == 30
    players = [make_player(name, players=2), make_player("random")]
    assert play_game(players, seed=4, options=Options(players=2, target_score=1)).winner in (0, 1)


def test_the_pool_keeps_the_newest_snapshots(tmp_path: Path) -> None:
    league = League(LeagueSettings(every=1, keep=2, pool=("random",)), tmp_path, seed=1)
    names = [league.snapshot(_params(), {}, i) for i in range(4)]
    assert league.members == ["random", *names[2:]]
    assert len(list(tmp_path.glob("snapshot-*.npz"))) == 4


def test_latest_one_always_draws_the_newest_snapshot(tmp_path: Path) -> None:
    league = League(LeagueSettings(every=1, draws=5, latest=1.0, pool=("greedy",)), tmp_path, 2)
    league.snapshot(_params(), {}, 0)
    newest = league.snapshot(_params(), {}, 1)
    assert league.draw() == [newest] * 5


def test_latest_zero_draws_every_member_alike(tmp_path: Path) -> None:
    settings = LeagueSettings(every=1, draws=3000, latest=0.0, pool=("greedy", "random"))
    league = League(settings, tmp_path, seed=3)
    league.snapshot(_params(), {}, 0)
    counts = Counter(league.draw())
    assert set(counts) == set(league.members)
    # 1000 expected each; 5 standard deviations (about 26 each) either side.
    assert all(870 < count < 1130 for count in counts.values()), counts


def test_the_draws_repeat_from_the_seed_and_differ_between_seeds(tmp_path: Path) -> None:
    def draws(seed: int) -> list[list[str]]:
        settings = LeagueSettings(every=1, draws=4, pool=("greedy", "random", "easy"))
        league = League(settings, tmp_path / str(seed), seed)
        found = []
        for i in range(6):
            league.snapshot(_params(), {}, i)
            found.append([name.rsplit("/", 1)[-1] for name in league.draw()])
        return found

    assert draws(7) == draws(7)
    assert draws(7) != draws(8)


def test_an_empty_pool_cannot_be_drawn_from(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="empty"):
        League(LeagueSettings(every=1), tmp_path, seed=0).draw()
    with pytest.raises(ValueError, match="latest"):
        LeagueSettings(every=1, latest=1.5)


def test_a_seeded_league_run_repeats_its_pool_its_draws_and_its_policy(tmp_path: Path) -> None:
    def run(folder: str) -> tuple[dict[str, np.ndarray], list[list[str]]]:
        settings = Settings(
            opponents=(),
            league=LeagueSettings(every=2, games=4, draws=2, latest=0.5, pool=("random",)),
            league_folder=str(tmp_path / folder),
            steps=8,
            iterations=5,
            seed=5,
            backend="python",
        )
        params, history = train(settings, str(tmp_path / f"{folder}.npz"))
        drawn = [[name.rsplit("/", 1)[-1] for name in draw] for draw in history.league]
        return params, drawn

    first, first_draws = run("a")
    again, again_draws = run("b")
    assert len(first_draws) == 3  # after 0, 2 and 4 iterations
    assert first_draws == again_draws
    assert all(np.array_equal(first[k], again[k]) for k in first)
    snapshots = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert snapshots == ["snapshot-000000.npz", "snapshot-000002.npz", "snapshot-000004.npz"]
    assert any(name.startswith("snapshot") for draw in first_draws for name in draw)
