"""The fast backend plays the very games of the Python engine: the same seed and the same
actions give the same observations, masks, legal indices, rewards and states, in the AEC and
Gymnasium environments and in the batches, over many seeds, player counts, races and bots."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest

import dos.rl
from dos.bots.reflex import Reflex
from dos.rl.fast_vector import FastVectorGames
from dos.rl.vector import VectorGames, random_actions

SHORT = {"target_score": 60}
FORGETFUL = Reflex(call_reliability=0.5, catch_reliability=0.4, reaction=0.8)


def aec_trail(backend: str, seed: int, players: int, **kwargs: Any) -> list[Any]:
    """Everything a random player of every seat sees along two games."""
    game = dos.rl.env(players=players, backend=backend, **SHORT, **kwargs)
    picker = random.Random(seed)
    trail: list[Any] = []
    for episode in range(2):
        game.reset(seed=seed if episode == 0 else None)
        for agent in game.agent_iter(max_iter=5000):
            obs, reward, terminated, truncated, info = game.last()
            trail.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            trail.append((reward, terminated, truncated, info))
            trail.append([game.observe(a)["observation"].tobytes() for a in game.agents])
            if terminated or truncated:
                game.step(None)
                continue
            legal = info["legal_actions"]
            assert list(legal) == np.flatnonzero(obs["action_mask"]).tolist()
            game.step(legal[picker.randrange(len(legal))])
        trail.append(game.unwrapped.state_)
    return trail


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "race",
    [{}, {"race": "agents"}, {"reflexes": [FORGETFUL] * 4}],
    ids=["sure", "agents", "forgetful"],
)
def test_the_aec_environment_plays_the_same_games_on_both_backends(
    players: int, race: dict[str, Any]
) -> None:
    if "reflexes" in race:
        race = {"reflexes": race["reflexes"][:players]}
    for seed in range(8):
        fast = aec_trail("fast", seed, players, **race)
        assert fast == aec_trail("python", seed, players, **race)


def gym_trail(backend: str, seed: int, players: int, opponents: list[str], **kwargs: Any) -> Any:
    game = gymnasium.make(
        "dos/Official-v0", players=players, opponents=opponents, backend=backend, **SHORT, **kwargs
    )
    picker = random.Random(seed)
    trail: list[Any] = []
    for episode in range(2):
        obs, info = game.reset(seed=seed if episode == 0 else None)
        trail.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), info))
        done = False
        while not done:
            legal = info["legal_actions"]
            obs, reward, terminated, truncated, info = game.step(
                legal[picker.randrange(len(legal))]
            )
            trail.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            trail.append((reward, terminated, truncated, info))
            done = terminated or truncated
        trail.append(game.unwrapped.state)
    return trail


@pytest.mark.parametrize(
    ("players", "opponents", "seat"),
    [
        (2, ["random"], 0),
        (2, ["greedy"], 1),
        (3, ["easy", "medium"], 2),
        (4, ["random", "greedy", "easy"], 1),
    ],
)
def test_the_gymnasium_environment_plays_the_same_games_on_both_backends(
    players: int, opponents: list[str], seat: int
) -> None:
    for seed in range(6):
        fast = gym_trail("fast", seed, players, opponents, seat=seat)
        assert fast == gym_trail("python", seed, players, opponents, seat=seat)


def test_an_illegal_action_is_the_same_on_both_backends() -> None:
    for backend in ("fast", "python"):
        game = gymnasium.make("dos/Official-v0", backend=backend)
        obs, _ = game.reset(seed=1)
        before = game.unwrapped.state
        for illegal in (int(np.flatnonzero(obs["action_mask"] == 0)[0]), -1, 13326):
            game.reset(seed=1)
            after, reward, terminated, _, info = game.step(illegal)
            assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)
            assert np.array_equal(after["observation"], obs["observation"])
            assert game.unwrapped.state == before


@pytest.mark.parametrize(
    ("players", "opponents"),
    [(2, None), (3, None), (2, ["random"]), (3, ["greedy", "random"]), (4, ["easy"])],
)
def test_the_fast_batch_plays_the_python_batchs_games(
    players: int, opponents: list[str] | None
) -> None:
    # race="agents": the compiled batch races with generators of its own (dos.rl.fast_vector)
    python = VectorGames("official", players, 5, opponents=opponents, race="agents", **SHORT)
    fast = FastVectorGames(players, 5, opponents=opponents, race="agents", **SHORT)
    first = zip(python.reset(seed=8), fast.reset(seed=8), strict=True)
    assert all(np.array_equal(a, b) for a, b in first)
    picker = random.Random(8)
    ended = 0
    for _ in range(400):
        actions = random_actions(python.mask, picker)
        expected = python.step(actions)
        for a, b in zip(expected, fast.step(actions), strict=True):
            assert np.array_equal(a, b)
        assert np.array_equal(python.last_points, fast.last_points)
        assert (python.last_points > 0).sum() == expected[4].sum()
        ended += int(expected[4].sum())
    assert ended > 0


@pytest.mark.parametrize("backend", ["fast", "python"])
def test_both_layouts_on_both_backends(backend: str) -> None:
    exact = dos.rl.env(players=3, backend=backend, layout="exact")
    padded = dos.rl.env(players=3, backend=backend)
    exact.reset(seed=4)
    padded.reset(seed=4)
    assert exact.observation_space("player_0")["observation"].shape == (269,)
    assert padded.observation_space("player_0")["observation"].shape == (313,)
    layout = padded.unwrapped.codec.layout
    for _ in range(40):
        one, _, _, _, info = exact.last()
        other, *_ = padded.last()
        # The exact layout is the padded one without the padding and the player count.
        kept = np.concatenate(
            [
                other["observation"][part.start : part.start + min(part.stop - part.start, 3)]
                if name in {"to_act", "hand_sizes", "dos_open", "penalties", "scores"}
                else other["observation"][part]
                for name, part in ((s.name, layout[s.name]) for s in layout)
                if name != "players"
            ]
        )
        assert np.array_equal(kept, one["observation"])
        assert other["observation"][layout["players"]].tolist() == [0, 1] + [0] * 7
        action = info["legal_actions"][0]
        exact.step(action)
        padded.step(action)
