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

from dos.arena.game import play_game
from dos.bots.registry import make_player
from dos.rl.codec import make_codec
from dos.rl.policy import init_params, save
from dos.rl.train import Settings, train
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
