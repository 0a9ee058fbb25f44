"""One policy plays two, three and four players: the padded observation has the same size at
every table, and the policies of the exact layout keep playing the one count they know."""

from __future__ import annotations

import random
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import dos.rl
from dos.arena.tournament import run_tournament
from dos.bots.base import Budget
from dos.rl.classic_observation import classic_layout
from dos.rl.codec import make_codec
from dos.rl.official_observation import official_layout
from dos.rl.policy import PADDED_WIDTH, Policy, init_params, load, save
from dos.rl.policy_bot import PolicyBot, PolicyRefusedError
from dos.rules.official import Options, new_game, view

PUBLISHED = Path(__file__).parents[2] / "docs" / "results" / "policy-official-2p.npz"


@pytest.fixture
def padded(tmp_path: Path) -> Path:
    path = tmp_path / "padded.npz"
    params = init_params(np.random.default_rng(5), PADDED_WIDTH, 16, 8)
    save(path, params, {"rules": "official", "layout": "padded", "players": 2})
    return path


def test_the_padded_layout_has_one_size_for_every_player_count() -> None:
    for players in range(2, 11):
        assert official_layout(players).size == PADDED_WIDTH == 313
        assert classic_layout(players).size == classic_layout(2).size
        codec = make_codec("official", players)
        obs = codec.observe(codec.new_game(players), 0)
        assert obs[codec.layout["players"]].tolist() == [float(n == players) for n in range(2, 11)]


def test_one_policy_object_acts_at_two_three_and_four_player_tables(padded: Path) -> None:
    policy = load(padded)
    assert (policy.layout, policy.players) == ("padded", None)
    for players in (2, 3, 4):
        game = dos.rl.env(players=players, target_score=30)
        game.reset(seed=players)
        for _ in game.agent_iter(max_iter=300):
            obs, _, terminated, truncated, info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = list(info["legal_actions"])
            action = policy.choose(obs["observation"], legal)
            assert action in legal
            game.step(action)
        assert game.agents == [] or game.unwrapped.steps == 300
        solo = gymnasium.make("dos/Official-v0", players=players, opponents=["greedy"])
        obs, info = solo.reset(seed=players)
        for _ in range(30):
            obs, _, terminated, _, info = solo.step(
                policy.choose(obs["observation"], list(info["legal_actions"]))
            )
            if terminated:
                break


def test_the_same_policy_file_plays_tournaments_of_every_size(padded: Path) -> None:
    for players in (2, 3, 4):
        bots = [f"policy:{padded}", "random", "greedy"][:players]
        result = run_tournament(bots, players, players, seed=players, target_score=20)
        assert sum(row["games"] for row in result.summary.to_json()["bots"]) > 0
    bot = PolicyBot(padded, "official", 3)
    state = new_game(Options(players=4), 3)
    assert (
        bot.choose(view(state, state.turn), random.Random(0), Budget())
        in view(state, state.turn).legal
    )
    with pytest.raises(PolicyRefusedError, match="plays the official rules with 2-10 players"):
        PolicyBot(padded, "classic", 2)


def test_the_published_policy_still_plays_its_own_table() -> None:
    policy = load(PUBLISHED)
    assert (policy.layout, policy.players) == ("exact", 2)
    assert policy.plays("official", 2)
    assert not policy.plays("official", 3)
    game = dos.rl.env(players=2, layout="exact", target_score=30)
    game.reset(seed=1)
    obs, _, _, _, info = game.last()
    assert policy.choose(obs["observation"], list(info["legal_actions"])) in info["legal_actions"]
    with pytest.raises(PolicyRefusedError, match=r"with 2 players; this table: .* 3 players"):
        PolicyBot(PUBLISHED, "official", 3)


def test_a_padded_file_read_by_its_width_alone(tmp_path: Path) -> None:
    silent = tmp_path / "silent.npz"
    save(silent, init_params(np.random.default_rng(1), PADDED_WIDTH, 8, 4), {})
    assert load(silent).layout == "padded"
    liar = tmp_path / "liar.npz"
    save(liar, init_params(np.random.default_rng(1), 264, 8, 4), {"layout": "padded"})
    with pytest.raises(ValueError, match="padded layout"):
        load(liar)
    assert Policy(load(silent).params, {"layout": "padded"}).table().endswith("2-10 players")
