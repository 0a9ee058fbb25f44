"""The training example learns: a short seeded run beats its own starting point by far.

Both policies play the same 120 one-round games against ``random`` (every deal from both
seats). The untrained network plays almost as badly as can be (it prefers whatever its random
weights like, drawing and laying instead of matching); a few seconds of training make it win
most rounds. The margin asked for is many times the spread of 120 games, and the run is
seeded, so the test cannot pass by luck.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dos.bots.registry import make_player
from dos.play.official import play_game
from dos.rl.codec import make_codec
from dos.rl.policy import init_params, load, save
from dos.rl.train import Settings, build_parser, main, train
from dos.rules.official import Options

GAMES = 120


def round_win_rate(path: Path) -> float:
    wins = 0
    for game in range(GAMES):
        seat = game % 2
        players = [make_player("random"), make_player("random")]
        players[seat] = make_player(f"policy:{path}")
        result = play_game(players, seed=game // 2, options=Options(players=2, target_score=1))
        wins += result.winner == seat
    return wins / GAMES


def test_a_short_seeded_run_learns_to_beat_random(tmp_path: Path) -> None:
    settings = Settings(opponents=(("random", 16),), steps=32, iterations=8, seed=0)
    before = tmp_path / "before.npz"
    rng = np.random.default_rng(settings.seed)
    size = make_codec("official", 2).layout.size
    save(before, init_params(rng, size, settings.hidden, settings.embed), {"rules": "official"})
    after = tmp_path / "after.npz"
    _, history = train(settings, str(after))
    assert len(history.episodes) == settings.iterations
    start, end = round_win_rate(before), round_win_rate(after)
    print(f"round win rate against random: {start:.1%} untrained, {end:.1%} trained")
    assert start < 0.25
    assert end > start + 0.35


def test_one_run_trains_at_several_player_counts(tmp_path: Path) -> None:
    out = tmp_path / "mixed.npz"
    settings = Settings(
        players=(2, 3, 4),
        opponents=(("random", 4),),
        steps=8,
        iterations=2,
        seed=1,
        reward="points",
    )
    _, history = train(settings, str(out))
    assert sum(history.episodes) > 0
    policy = load(out)
    assert (policy.layout, policy.players, policy.meta["players"]) == ("padded", None, [2, 3, 4])
    for players in (2, 3, 4):
        bot = make_player(f"policy:{out}", "official", players=players)
        opponents = [make_player("random") for _ in range(players - 1)]
        result = play_game([bot, *opponents], seed=players, options=Options(players=players))
        assert result.winner is not None


def test_the_exact_layout_refuses_several_player_counts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one player count"):
        train(Settings(players=(2, 3), layout="exact", iterations=1), None)
    with pytest.raises(SystemExit):
        main(["--players", "2,3", "--layout", "exact", "--out", str(tmp_path / "x.npz")])
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--players", "2,11", "--out", "x.npz"])
    assert build_parser().parse_args(["--players", "2,4", "--out", "x"]).players == (2, 4)
