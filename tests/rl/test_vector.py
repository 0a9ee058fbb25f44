"""The vector environments: the Python batch, the fast batch (which plays the Python batch's
games bit for bit: ``test_backends``) and the fast batch as a Gymnasium ``VectorEnv``."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import dos.rl
from dos.rl.codec import make_codec
from dos.rl.fast_vector import FastVectorGames
from dos.rl.vector import VectorGames, random_actions
from dos.rl.vector_env import DosVectorEnv
from rl.support import DealLog, Returned


def test_with_reflexes_no_obligation_is_open_when_a_seat_decides() -> None:
    games = FastVectorGames(2, 8)
    obs, mask, _ = games.reset(seed=2)
    dos_open = games.layout["dos_open"]
    for _ in range(400):
        obs, mask, *_ = games.step(games.random_actions())
        assert not obs[:, dos_open].any()
        assert mask.any(axis=1).all()


def test_a_seeded_batch_repeats_exactly() -> None:
    def trail(seed: int) -> list[bytes]:
        games = FastVectorGames(2, 4)
        games.reset(seed=seed)
        found = []
        for _ in range(200):
            obs, _, _, rewards, _ = games.step(games.random_actions())
            found.append(obs.tobytes() + rewards.tobytes())
        return found

    first = trail(5)
    np.random.seed(99)
    random.seed(99)
    assert trail(5) == first
    assert trail(6) != first


def test_an_index_outside_the_mask_is_refused() -> None:
    games = FastVectorGames(2, 2)
    _, mask, _ = games.reset(seed=1)
    wrong = [int(np.flatnonzero(row == 0)[0]) for row in mask]
    with pytest.raises(ValueError, match="not in its mask"):
        games.step(wrong)


@pytest.mark.parametrize("opponents", [None, ["random"]])
@pytest.mark.parametrize("rules", ["official", "classic"])
def test_nothing_the_python_batch_returns_reveals_the_deal(
    rules: str, opponents: list[str] | None
) -> None:
    short: dict[str, Any] = {"target_score": 40} if rules == "official" else {}
    games = VectorGames(rules, 2, 4, opponents=opponents, **short)
    log = DealLog(games.codec)
    log.watch(games.codec)
    returned = Returned()
    returned.add(games.reset(seed=3))
    picker = random.Random(3)
    for _ in range(300):
        returned.add(games.step(random_actions(games.mask, picker)))
    assert len(log.seeds) > 4  # games ended and were dealt anew
    returned.check_reveals_nothing(log)


def test_nothing_the_fast_batch_returns_reveals_the_deal() -> None:
    games = FastVectorGames(2, 4, target_score=40)
    log = DealLog(make_codec("official", 2, target_score=40))
    deal = games._new_game

    def watched(g: int, seed: int) -> None:
        log.record(seed)
        deal(g, seed)

    games._new_game = watched  # type: ignore[method-assign]
    returned = Returned()
    returned.add(games.reset(seed=3))
    for _ in range(300):
        returned.add(games.random_actions(), games.step(games.random_actions()))
    assert len(log.seeds) > 4
    returned.check_reveals_nothing(log)


def fast_trail(
    games: FastVectorGames, picker: random.Random | None, between: Callable[[], Any]
) -> str:
    """A hash of 150 steps of ``games``: random actions from its own ``random_actions`` or
    from ``picker``; ``between`` runs after each step."""
    digest = hashlib.sha256()
    for _ in range(150):
        actions = games.random_actions() if picker is None else random_actions(games.mask, picker)
        for part in games.step(actions):
            digest.update(part.tobytes())
        between()
    return digest.hexdigest()[:12]


@pytest.mark.parametrize("own_actions", [False, True], ids=["random_actions", "caller"])
def test_each_fast_batch_draws_from_generators_of_its_own(own_actions: bool) -> None:
    # The race (and random_actions) once drew from numba's process-wide generator: a second
    # batch stepping beside, or reset unseeded, changed this one's trajectory.
    def run(between: Callable[[FastVectorGames], Any], before: Callable[[], Any]) -> str:
        games = FastVectorGames(2, 4)
        other = FastVectorGames(2, 4)
        other.reset(seed=6)
        games.reset(seed=5)
        before()
        picker = random.Random(5) if own_actions else None
        return fast_trail(games, picker, lambda: between(other))

    alone = run(lambda other: None, lambda: None)
    assert run(lambda other: other.step(other.random_actions()), lambda: None) == alone
    assert run(lambda other: None, lambda: FastVectorGames(2, 3).reset()) == alone
    assert run(lambda other: other.reset(), lambda: None) == alone


def test_the_fast_vector_environment_is_a_gymnasium_vector_env() -> None:
    games = gymnasium.make_vec("dos/Official-v0", num_envs=4, opponents=["greedy"])
    assert isinstance(games, DosVectorEnv)
    assert type(games.games) is FastVectorGames
    assert isinstance(games, VectorEnv)
    assert games.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = gymnasium.make("dos/Official-v0")
    assert games.single_observation_space == single.observation_space
    assert games.single_action_space == single.action_space
    assert games.observation_space["observation"].shape == (4, 313)
    assert games.observation_space["action_mask"].shape == (4, 13326)
    assert games.action_space.shape == (4,)
    obs, infos = games.reset(seed=1)
    assert games.observation_space.contains(obs)
    assert infos["seat"].tolist() == [0, 0, 0, 0]
    for _ in range(30):
        for g in range(4):
            legal = infos["legal_actions"][g, : infos["legal_count"][g]]
            assert legal.tolist() == np.flatnonzero(obs["action_mask"][g]).tolist()
            assert (infos["legal_actions"][g, infos["legal_count"][g] :] == -1).all()
        obs, rewards, terminated, truncated, infos = games.step(games.random_actions())
        assert games.observation_space.contains(obs)
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert not truncated.any()


def test_a_game_that_ends_is_dealt_anew_in_the_same_step() -> None:
    games = DosVectorEnv(6, "official", 2, ["random"], target_score=30)
    obs, infos = games.reset(seed=2)
    layout = games.games.layout
    ended = 0
    for _ in range(400):
        obs, rewards, terminated, _, infos = games.step(games.random_actions())
        if not terminated.any():
            assert "final_obs" not in infos
            assert not rewards.any()
            continue
        assert infos["_final_obs"].tolist() == terminated.tolist()
        for g in range(6):
            final = infos["final_obs"][g]
            if not terminated[g]:
                assert final is None
                continue
            ended += 1
            # The last observation of the game that ended: over, someone reached the target.
            assert not final["observation"][layout["phase"]].any()
            assert not final["action_mask"].any()
            assert final["observation"][layout["scores"]].max() >= 1.0
            # The row itself is already the new game's: nobody has scored, the seat decides.
            assert not obs["observation"][g, layout["scores"]].any()
            assert obs["action_mask"][g].any()
            assert rewards[g] in (1.0, -1.0)
            assert infos["rewards"][g].tolist() == [rewards[g], -rewards[g]]
            assert infos["final_info"]["seat"][g] == 0
    assert ended > 3


def test_self_play_reports_every_seats_rewards() -> None:
    games = DosVectorEnv(4, "official", 3, None, target_score=30)
    _, infos = games.reset(seed=3)
    seen_seats = set()
    ended = 0
    for _ in range(500):
        seen_seats.update(infos["seat"].tolist())
        acted = infos["seat"]
        _, rewards, terminated, _, infos = games.step(games.random_actions())
        for g in np.flatnonzero(terminated).tolist():
            ended += 1
            winner = int(np.argmax(infos["rewards"][g]))
            assert infos["rewards"][g].tolist() == [1.0 if s == winner else -0.5 for s in range(3)]
            assert rewards[g] == infos["rewards"][g, acted[g]]
    assert seen_seats == {0, 1, 2}
    assert ended > 0


def test_nothing_the_fast_vector_environment_returns_reveals_the_deal() -> None:
    games = DosVectorEnv(3, "official", 2, ["random"], target_score=40)
    log = DealLog(make_codec("official", 2, target_score=40))
    deal = games.games._new_game

    def watched(g: int, seed: int) -> None:
        log.record(seed)
        deal(g, seed)

    games.games._new_game = watched  # type: ignore[method-assign]
    returned = Returned()
    returned.add(games.reset(seed=3))
    for _ in range(300):
        returned.add(games.step(games.random_actions()))
    assert len(log.seeds) > 4
    returned.check_reveals_nothing(log)


def test_the_generator_a_vector_environment_exposes_does_not_deal() -> None:
    games = DosVectorEnv(2, "official", 2, ["random"])
    games.reset(seed=3)
    exposed = np.random.default_rng()
    exposed.bit_generator.state = games.np_random.bit_generator.state
    log = DealLog(make_codec("official", 2))
    deal = games.games._new_game

    def watched(g: int, seed: int) -> None:
        log.record(seed)
        deal(g, seed)

    games.games._new_game = watched  # type: ignore[method-assign]
    games.reset()
    assert not log.rebuilds(int(exposed.integers(0, 2**63 - 1)))
    assert not log.rebuilds(int(np.random.default_rng(3).integers(0, 2**63 - 1)))


def test_without_numba_make_vec_runs_the_python_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dos.rl.aec.importlib.util, "find_spec", lambda name: None)
    games = gymnasium.make_vec("dos/Official-v0", num_envs=2)
    assert isinstance(games, DosVectorEnv)
    assert type(games.games) is VectorGames
