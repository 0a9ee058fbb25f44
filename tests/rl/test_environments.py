"""The PettingZoo and Gymnasium environments: their API checks, seeding and the DOS race."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test  # type: ignore[import-untyped]

import dos.rl
from dos.bots.reflex import Reflex
from dos.rules.official import Kind


@pytest.mark.parametrize(("rules", "players"), [("official", 2), ("official", 3), ("classic", 3)])
# PettingZoo's api_test warns for the Dict observation space of any environment outside its own
# list, although a Dict of "observation" and "action_mask" is its classic environments' own
# convention: only these two warnings are silenced.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
def test_the_aec_environment_passes_pettingzoos_api_test(rules: str, players: int) -> None:
    api_test(dos.rl.env(rules=rules, players=players), num_cycles=300)


@pytest.mark.parametrize("env_id", ["dos/Official-v0", "dos/Classic-v0"])
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_gymnasium_environment_passes_check_env(env_id: str, opponent: str) -> None:
    check_env(gymnasium.make(env_id, opponents=[opponent]).unwrapped)


def play_aec(seed: int, **kwargs: Any) -> list[tuple[str, int]]:
    game = dos.rl.env(**kwargs)
    game.reset(seed=seed)
    picker = np.random.default_rng(seed)
    trail = []
    for agent in game.agent_iter(max_iter=3000):
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        action = int(picker.choice(np.flatnonzero(obs["action_mask"])))
        trail.append((agent, action))
        game.step(action)
    return trail


def disturb_global_generators() -> None:
    random.seed(12345)
    np.random.seed(54321)
    random.random()
    np.random.random(10)


@pytest.mark.parametrize("rules", ["official", "classic"])
def test_a_seeded_aec_game_repeats_exactly(rules: str) -> None:
    first = play_aec(9, rules=rules, players=3)
    disturb_global_generators()
    assert play_aec(9, rules=rules, players=3) == first
    assert play_aec(10, rules=rules, players=3) != first


def play_gym(env_id: str, seed: int) -> list[Any]:
    game = gymnasium.make(env_id, opponents=["greedy"])
    obs, info = game.reset(seed=seed)
    picker = np.random.default_rng(seed)
    trail: list[Any] = [info["game_seed"]]
    done = False
    while not done:
        action = int(picker.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = game.step(action)
        trail.append((action, reward, obs["observation"].tobytes()))
        done = terminated or truncated
    return trail


@pytest.mark.parametrize("env_id", ["dos/Official-v0", "dos/Classic-v0"])
def test_a_seeded_gymnasium_episode_repeats_exactly(env_id: str) -> None:
    first = play_gym(env_id, 4)
    disturb_global_generators()
    assert play_gym(env_id, 4) == first
    assert play_gym(env_id, 5) != first


def test_an_illegal_action_ends_the_episode_lost_and_is_never_replaced() -> None:
    game = gymnasium.make("dos/Official-v0")
    obs, _ = game.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = game.unwrapped.state.copy()
    _, reward, terminated, _, info = game.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)
    assert game.unwrapped.state == before


def test_with_reflexes_the_race_is_settled_before_the_agent_decides() -> None:
    game = dos.rl.raw_env(players=2, target_score=60)
    game.reset(seed=2)
    codec = game.codec
    while not codec.is_over(game.state_):
        assert game.state_.dos_open == 0  # sure reflexes: every obligation raced at once
        obs = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert any(a.kind in (Kind.CALL, Kind.CATCH) for a in game.state_.history)


def test_without_reflexes_the_agent_to_act_finds_its_call_in_the_mask() -> None:
    game = dos.rl.raw_env(players=2, race="agents")
    game.reset(seed=2)
    codec = game.codec
    offered = 0
    while not codec.is_over(game.state_) and offered == 0:
        obs = game.observe(game.agent_selection)
        names = [codec.names[i] for i in np.flatnonzero(obs["action_mask"])]
        offered += "dos" in names or any(n.startswith("catch") for n in names)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert offered


def test_forgetful_reflexes_leave_obligations_open_for_the_agents() -> None:
    game = dos.rl.raw_env(players=2, reflexes=[Reflex(0.0, 0.0)] * 2)
    game.reset(seed=3)
    seen_open = False
    while not game.codec.is_over(game.state_) and not seen_open:
        seen_open = game.state_.dos_open != 0
        obs = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert seen_open
