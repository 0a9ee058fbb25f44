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
from dos.rl.sampler import resample_from_infostate
from dos.rules.classic.cards import NAMES as CLASSIC_NAMES
from dos.rules.official import Kind
from dos.rules.official.cards import NAMES as OFFICIAL_NAMES
from rl.support import DealLog, Returned

BACKENDS = [("official", "fast"), ("official", "python"), ("classic", "python")]
"""Every rule set on every backend that plays it (the fast core plays the official rules)."""


@pytest.mark.parametrize(
    ("rules", "players", "backend"),
    [
        ("official", 2, "fast"),
        ("official", 3, "fast"),
        ("official", 2, "python"),
        ("official", 3, "python"),
        ("classic", 3, "python"),
    ],
)
# PettingZoo's api_test warns for the Dict observation space of any environment outside its own
# list, although a Dict of "observation" and "action_mask" is its classic environments' own
# convention: only these two warnings are silenced.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
def test_the_aec_environment_passes_pettingzoos_api_test(
    rules: str, players: int, backend: str
) -> None:
    api_test(dos.rl.env(rules=rules, players=players, backend=backend), num_cycles=300)


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_gymnasium_environment_passes_check_env(
    rules: str, backend: str, opponent: str
) -> None:
    env_id = {"official": "dos/Official-v0", "classic": "dos/Classic-v0"}[rules]
    check_env(gymnasium.make(env_id, opponents=[opponent], backend=backend).unwrapped)


def test_the_official_environments_play_on_the_fast_core_by_default() -> None:
    assert dos.rl.env().unwrapped.backend == "fast"
    assert gymnasium.make("dos/Official-v0").unwrapped.backend == "fast"
    assert dos.rl.env(rules="classic").unwrapped.backend == "python"
    with pytest.raises(ValueError, match="official rules only"):
        dos.rl.env(rules="classic", backend="fast")
    with pytest.raises(ValueError, match="unknown backend"):
        dos.rl.env(backend="gpu")


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


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
def test_a_seeded_aec_game_repeats_exactly(rules: str, backend: str) -> None:
    first = play_aec(9, rules=rules, players=3, backend=backend)
    disturb_global_generators()
    assert play_aec(9, rules=rules, players=3, backend=backend) == first
    assert play_aec(10, rules=rules, players=3, backend=backend) != first


def play_gym(env_id: str, seed: int, backend: str) -> list[Any]:
    game = gymnasium.make(env_id, opponents=["greedy"], backend=backend)
    obs, info = game.reset(seed=seed)
    picker = np.random.default_rng(seed)
    trail: list[Any] = [obs["observation"].tobytes(), info["seat"], info["legal_actions"]]
    done = False
    while not done:
        action = int(picker.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = game.step(action)
        trail.append((action, reward, obs["observation"].tobytes()))
        done = terminated or truncated
    return trail


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
def test_a_seeded_gymnasium_episode_repeats_exactly(rules: str, backend: str) -> None:
    env_id = {"official": "dos/Official-v0", "classic": "dos/Classic-v0"}[rules]
    first = play_gym(env_id, 4, backend)
    disturb_global_generators()
    assert play_gym(env_id, 4, backend) == first
    assert play_gym(env_id, 5, backend) != first


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_an_illegal_action_ends_the_episode_lost_and_is_never_replaced(backend: str) -> None:
    game = gymnasium.make("dos/Official-v0", backend=backend)
    obs, _ = game.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = game.unwrapped.state.copy()
    _, reward, terminated, _, info = game.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)
    assert game.unwrapped.state == before


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_with_reflexes_the_race_is_settled_before_the_agent_decides(backend: str) -> None:
    game = dos.rl.raw_env(players=2, backend=backend, target_score=60)
    game.reset(seed=2)
    codec = game.codec
    while not codec.is_over(game.state_):
        assert game.state_.dos_open == 0  # sure reflexes: every obligation raced at once
        obs = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert any(a.kind in (Kind.CALL, Kind.CATCH) for a in game.state_.history)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_without_reflexes_the_agent_to_act_finds_its_call_in_the_mask(backend: str) -> None:
    game = dos.rl.raw_env(players=2, backend=backend, race="agents")
    game.reset(seed=2)
    codec = game.codec
    offered = 0
    while not codec.is_over(game.state_) and offered == 0:
        obs = game.observe(game.agent_selection)
        names = [codec.names[i] for i in np.flatnonzero(obs["action_mask"])]
        offered += "dos" in names or any(n.startswith("catch") for n in names)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert offered


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_forgetful_reflexes_leave_obligations_open_for_the_agents(backend: str) -> None:
    game = dos.rl.raw_env(players=2, backend=backend, reflexes=[Reflex(0.0, 0.0)] * 2)
    game.reset(seed=3)
    seen_open = False
    while not game.codec.is_over(game.state_) and not seen_open:
        seen_open = game.state_.dos_open != 0
        obs = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert seen_open


SHORT: dict[str, dict[str, Any]] = {"official": {"target_score": 40}, "classic": {}}
"""Rule options that keep the games of the tests short."""


def legal_choice(picker: np.random.Generator, mask: np.ndarray) -> int:
    return int(picker.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
def test_nothing_the_gymnasium_environment_returns_reveals_the_deal(
    rules: str, backend: str
) -> None:
    env_id = {"official": "dos/Official-v0", "classic": "dos/Classic-v0"}[rules]
    game = gymnasium.make(
        env_id, opponents=["random"], render_mode="ansi", backend=backend, **SHORT[rules]
    )
    log = DealLog(game.unwrapped.codec)
    log.watch_env(game.unwrapped)
    returned = Returned()
    picker = np.random.default_rng(11)
    for episode in range(4):
        obs, info = game.reset(seed=11 if episode == 0 else None)
        returned.add(obs, info, game.render())
        done = False
        while not done:
            if episode == 3:  # the last episode ends on an illegal action
                action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
            else:
                action = legal_choice(picker, obs["action_mask"])
            obs, reward, terminated, truncated, info = game.step(action)
            returned.add(obs, reward, terminated, truncated, info, game.render())
            done = terminated or truncated
    assert len(log.seeds) == 4
    returned.check_reveals_nothing(log)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_nothing_a_gymnasium_vector_environment_returns_reveals_the_deal(backend: str) -> None:
    games = gymnasium.make_vec(
        "dos/Official-v0",
        num_envs=2,
        vectorization_mode="sync",
        backend=backend,
        **SHORT["official"],
    )
    envs = [game.unwrapped for game in games.unwrapped.envs]
    log = DealLog(envs[0].codec)
    for one in envs:
        log.watch_env(one)
    returned = Returned()
    picker = np.random.default_rng(12)
    obs, infos = games.reset(seed=12)
    returned.add(obs, infos)
    for _ in range(400):
        actions = [legal_choice(picker, m) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, infos = games.step(np.array(actions))
        returned.add(obs, rewards, terminated, truncated, infos)
    assert len(log.seeds) > 2  # games ended and were dealt anew
    returned.check_reveals_nothing(log)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_the_generator_a_gymnasium_environment_exposes_does_not_deal(backend: str) -> None:
    # np_random is public (every wrapper forwards it): a deal drawn from it could be
    # predicted by reading its state before reset().
    game = gymnasium.make("dos/Official-v0", backend=backend)
    game.reset(seed=3)
    exposed = np.random.default_rng()
    exposed.bit_generator.state = game.np_random.bit_generator.state
    log = DealLog(game.unwrapped.codec)
    log.watch_env(game.unwrapped)
    game.reset()
    assert not log.rebuilds(int(exposed.integers(0, 2**63 - 1)))


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
def test_nothing_the_aec_environment_returns_reveals_the_deal(rules: str, backend: str) -> None:
    game = dos.rl.env(rules=rules, players=3, render_mode="ansi", backend=backend, **SHORT[rules])
    log = DealLog(game.unwrapped.codec)
    log.watch_env(game.unwrapped)
    returned = Returned()
    picker = np.random.default_rng(5)
    for episode in range(4):
        game.reset(seed=5 if episode == 0 else None)
        returned.add(game.render(), [game.observe(agent) for agent in game.agents])
        for agent in game.agent_iter(max_iter=20_000):
            obs, reward, terminated, truncated, info = game.last()
            returned.add(agent, obs, reward, terminated, truncated, info, game.infos)
            returned.add(game.rewards, game.terminations, game.truncations, game.agents)
            if terminated or truncated:
                game.step(None)
                continue
            if episode == 3:  # the last game ends on an illegal action
                game.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
            else:
                game.step(legal_choice(picker, obs["action_mask"]))
            returned.add(game.render())
        assert not game.agents
    assert len(log.seeds) == 4
    returned.check_reveals_nothing(log)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_an_illegal_action_ends_the_aec_game_lost_as_in_pettingzoos_classic_games(
    backend: str,
) -> None:
    game = dos.rl.env(players=3, backend=backend)
    game.reset(seed=4)
    offender = game.agent_selection
    obs, *_ = game.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = game.unwrapped.state_.copy()
    game.step(illegal)  # never replaced by a legal action, never applied
    assert game.unwrapped.state_ == before
    assert all(game.terminations.values())
    final = {}
    for agent in game.agent_iter():
        _, reward, terminated, _, _ = game.last()
        assert terminated
        final[agent] = reward
        game.step(None)
    assert final == {a: -1.0 if a == offender else 0.0 for a in game.possible_agents}
    assert not game.agents
    raw = dos.rl.raw_env(players=3, backend=backend)  # unwrapped, as PettingZoo's raw ones
    raw.reset(seed=4)
    with pytest.raises(ValueError, match="not legal"):
        raw.step(illegal)


@pytest.mark.parametrize(("rules", "backend"), BACKENDS)
def test_the_aec_render_shows_the_table_and_the_hand_of_the_seat_to_act_only(
    rules: str, backend: str
) -> None:
    players = 3
    game = dos.rl.raw_env(rules, players, render_mode="ansi", backend=backend, **SHORT[rules])
    game.reset(seed=6)
    codec = game.codec
    names = OFFICIAL_NAMES if rules == "official" else CLASSIC_NAMES
    picker = np.random.default_rng(6)
    rng = random.Random(6)
    for _ in range(80):
        state = game.state_
        if codec.is_over(state):
            break
        seat = codec.turn(state)
        view = codec.view(state, seat)
        text = game.render()
        assert f"player_{seat} to act" in text
        if rules == "official":
            row = next(line for line in text.splitlines() if line.startswith("Center Row:"))
            shown = row.removeprefix("Center Row:").split("|")
            assert [part.split()[0] for part in shown] == [names[c] for c in view.center]
        else:
            assert f"Discard top: {names[view.top]}" in text
        for s in range(players):
            line = f"player_{s}: {view.hand_sizes[s]} cards"
            if rules == "official":
                line += f", score {view.scores[s]}"
            assert line in text
        assert f"Hand of player_{seat}: {' '.join(names[c] for c in view.hand)}" in text
        assert text.count("Hand of") == 1
        # Only what the seat to act knows: its hidden cards dealt anew change nothing.
        for _ in range(3):
            game.state_ = resample_from_infostate(rules, state, seat, rng)
            assert game.render() == text
        game.state_ = state
        game.step(legal_choice(picker, game.observe(game.agent_selection)["action_mask"]))
