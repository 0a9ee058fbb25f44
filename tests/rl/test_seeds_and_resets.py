"""Seeds derived one way, resets that always leave the agent a decision, observations inside
their declared space."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest

import dos.rl
from dos import seeds
from dos.play.bot import Budget
from dos.play.official import Player
from dos.rl.race import Race
from dos.rules.official import SeatView
from rl.support import DealLog


class Spy:
    """A bot that keeps the state of the generator it is handed at its first decision of each
    game, then plays as ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.first: list[tuple[Any, ...]] = []
        self._history = -1

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Any:
        if len(view.history) < self._history or self._history < 0:
            self.first.append(rng.getstate())
        self._history = len(view.history)
        return self.inner.choose(view, rng, budget)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_an_opponents_generator_is_seeded_one_way_from_the_game_seed(backend: str) -> None:
    game = gymnasium.make(
        "dos/Official-v0", opponents=["greedy"], backend=backend, target_score=1
    ).unwrapped
    old = game.opponents.players[1]
    spy = Spy(old.bot)
    game.opponents.players[1] = Player(spy, old.reflex, old.budget)
    if game.fast is not None:
        game.fast.bots[1] = game.opponents.players[1]
    log = DealLog(game.codec)
    order: list[int] = []
    record = log.record
    log.record = lambda seed: (order.append(seed), record(seed))  # type: ignore[method-assign]
    log.watch_env(game)
    for seed in range(4):
        game.reset(seed=seed)
        for _ in range(3):
            game.step(game._observation()[1]["legal_actions"][0])
            if game.ended:
                break
    assert spy.first
    expected = [seeds.generator(s, "seat", 1).getstate() for s in order]
    assert all(state in expected for state in spy.first)


def test_the_race_generator_is_seeded_one_way_from_the_game_seed() -> None:
    race = Race("official", 2, "reflex", seed=5)
    assert race.random.getstate() == seeds.generator(5, "race").getstate()


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_the_game_seeds_are_derived_one_way_from_the_reset_seed(backend: str) -> None:
    game = gymnasium.make("dos/Official-v0", backend=backend).unwrapped
    log = DealLog(game.codec)
    log.watch_env(game)
    game.reset(seed=3)
    from dos.rl.deals import Deals

    expected = Deals()
    expected.reset(3)
    assert log.seeds == {expected.next()}
    # Gymnasium's public np_random (and its seed) do not deal the game.
    assert not log.rebuilds(int(np.random.default_rng([3, 0xDEA15]).integers(0, 2**63 - 1)))


def test_a_deal_key_makes_other_deals_that_repeat_with_the_same_key() -> None:
    def first_obs(key: bytes | None) -> bytes:
        game = gymnasium.make("dos/Official-v0", deal_key=key)
        obs, _ = game.reset(seed=3)
        return bytes(obs["observation"].tobytes())

    assert first_obs(b"k1") == first_obs(b"k1")
    assert first_obs(b"k1") != first_obs(None)


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_reset_never_returns_a_game_that_is_already_over(backend: str) -> None:
    game = gymnasium.make(
        "dos/Official-v0", players=4, opponents=["greedy"], backend=backend, target_score=1
    )
    for seed in range(150):
        obs, info = game.reset(seed=seed)
        assert info["legal_actions"], seed
        assert obs["action_mask"].any(), seed
        assert obs["observation"][game.unwrapped.codec.layout["phase"]].any(), seed


@pytest.mark.parametrize(
    ("rules", "backend"), [("official", "fast"), ("official", "python"), ("classic", "python")]
)
def test_after_an_illegal_action_the_mask_and_the_legal_actions_are_empty(
    rules: str, backend: str
) -> None:
    game = gymnasium.make(dos.rl.gym_env.env_id(rules), backend=backend)
    obs, _ = game.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = game.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)
    assert info["legal_actions"] == ()
    assert not obs["action_mask"].any()


@pytest.mark.parametrize("backend", ["fast", "python"])
@pytest.mark.parametrize("players", [2, 4])
def test_observations_stay_inside_the_declared_space_at_small_targets(
    backend: str, players: int
) -> None:
    picker = random.Random(players)
    for target in (1, 5, 30):
        game = gymnasium.make(
            "dos/Official-v0", players=players, backend=backend, target_score=target
        )
        space = game.observation_space
        for seed in range(6):
            obs, info = game.reset(seed=seed)
            assert space.contains(obs)
            done = False
            while not done:
                legal = info["legal_actions"]
                obs, _, terminated, truncated, info = game.step(legal[picker.randrange(len(legal))])
                assert space.contains(obs), (target, seed)
                done = terminated or truncated


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_the_aec_observations_stay_inside_the_declared_space_at_small_targets(
    backend: str,
) -> None:
    game = dos.rl.env(players=3, backend=backend, target_score=1)
    picker = random.Random(1)
    for seed in range(6):
        game.reset(seed=seed)
        for _agent in game.agent_iter(max_iter=2000):
            _, _, terminated, truncated, info = game.last()
            for other in game.agents:
                assert game.observation_space(other).contains(game.observe(other))
            legal = info.get("legal_actions")
            game.step(None if terminated or truncated else legal[picker.randrange(len(legal))])


@pytest.mark.parametrize(
    ("rules", "backend"), [("official", "auto"), ("official", "python"), ("classic", "auto")]
)
@pytest.mark.parametrize("opponents", [["random"], None])
def test_make_vec_keeps_one_contract_for_every_rule_set(
    rules: str, backend: str, opponents: list[str] | None
) -> None:
    options: dict[str, Any] = {"target_score": 20} if rules == "official" else {}
    games = gymnasium.make_vec(
        dos.rl.gym_env.env_id(rules),
        num_envs=3,
        opponents=opponents,
        backend=backend,
        **options,
    )
    from dos.rl.vector_env import DosVectorEnv

    assert isinstance(games, DosVectorEnv)
    assert games.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    single = gymnasium.make(dos.rl.gym_env.env_id(rules), **options)
    assert games.single_observation_space == single.observation_space
    assert games.single_action_space == single.action_space
    obs, infos = games.reset(seed=4)
    ended = 0
    for _ in range(300):
        assert games.observation_space.contains(obs)
        assert set(infos) >= {"seat", "legal_actions", "legal_count", "rewards"}
        assert infos["legal_actions"].dtype == np.int64
        assert infos["rewards"].shape == (3, games.players)
        for g in range(3):
            count = infos["legal_count"][g]
            legal = infos["legal_actions"][g]
            assert legal[:count].tolist() == np.flatnonzero(obs["action_mask"][g]).tolist()
            assert (legal[count:] == -1).all()
            assert count > 0
        acted = infos["seat"]
        obs, rewards, terminated, truncated, infos = games.step(games.random_actions())
        assert rewards.shape == terminated.shape == truncated.shape == (3,)
        assert not truncated.any()
        if not terminated.any():
            assert "final_obs" not in infos
            continue
        assert infos["_final_obs"].tolist() == terminated.tolist()
        for g in np.flatnonzero(terminated).tolist():
            ended += 1
            final = infos["final_obs"][g]
            assert games.single_observation_space.contains(final)
            assert not final["action_mask"].any()
            assert rewards[g] == infos["rewards"][g, acted[g]]
    assert ended > 0


@pytest.mark.parametrize(
    ("rules", "backend"), [("official", "fast"), ("official", "python"), ("classic", "python")]
)
def test_after_an_illegal_aec_action_no_agent_has_a_mask_or_legal_actions(
    rules: str, backend: str
) -> None:
    game = dos.rl.env(rules=rules, players=3, backend=backend)
    game.reset(seed=4)
    obs, *_ = game.last()
    game.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    for _agent in game.agent_iter():
        obs, _, terminated, _, info = game.last()
        assert terminated
        assert not obs["action_mask"].any()
        assert "legal_actions" not in info
        game.step(None)
