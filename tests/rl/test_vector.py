"""The vector environments: the Python one and the one on the fast core agree bit for bit."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from dos.rl.codec import make_codec
from dos.rl.fast_vector import FastVectorGames
from dos.rl.vector import VectorGames, random_actions
from rl.support import DealLog, Returned


@pytest.mark.parametrize("players", [2, 3])
def test_the_fast_core_batch_shows_what_the_python_batch_shows(players: int) -> None:
    python = VectorGames("official", players, 6, race="agents", target_score=40)
    fast = FastVectorGames(players, 6, race="agents", target_score=40)
    first = python.reset(seed=8)
    assert all(np.array_equal(a, b) for a, b in zip(first, fast.reset(seed=8), strict=True))
    picker = random.Random(8)
    ended = 0
    for _ in range(1500):
        actions = random_actions(python.mask, picker)
        expected = python.step(actions)
        got = fast.step(actions)
        for a, b in zip(expected, got, strict=True):
            assert np.array_equal(a, b)
        ended += int(expected[4].sum())
    assert ended > 0  # games ended and were dealt anew on both sides


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
    deal = games.batch.reset

    def watched(g: int, seed: int) -> None:
        log.record(seed)
        deal(g, seed)

    games.batch.reset = watched  # type: ignore[method-assign]
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
