"""Determinism: the same options, seed and actions always give the same game, and the engine
never touches Python's global ``random`` generator (all chance comes from the state's seed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dos.rules.official import (
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    new_game,
    to_position,
)
from dos.simulate import random_game

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2, "target_score": 60},
    {"players": 4, "target_score": 80, "dealer_starts": True},
    {"players": 7, "target_score": 50, "deal_passes_left": True, "bonus_lay_mandatory": True},
]


def trajectory(options: dict[str, Any], seed: int, disturb: bool = False) -> list[dict[str, Any]]:
    """Every position of a game played by a policy seeded with ``seed``; with ``disturb``,
    the global generator is reseeded and drawn from before every action."""
    state = new_game(Options(**options), seed)
    chooser = random.Random(seed)
    seen = [to_position(state)]
    while state.phase != Phase.OVER:
        if disturb:
            random.seed(len(seen) * 7919)
            random.random()
            random.shuffle(list(range(10)))
        apply(state, chooser.choice(all_legal_actions(state)))
        seen.append(to_position(state))
    return seen


@pytest.mark.parametrize("options", OPTION_SETS)
def test_same_options_seed_and_actions_give_identical_states(options: dict[str, Any]) -> None:
    first = new_game(Options(**options), 99)
    second = new_game(Options(**options), 99)
    assert first == second
    chooser = random.Random(1)
    while first.phase != Phase.OVER:
        action = chooser.choice(all_legal_actions(first))
        apply(first, action)
        apply(second, action)
        assert first == second


@pytest.mark.parametrize("options", OPTION_SETS)
def test_disturbing_the_global_random_generator_changes_nothing(options: dict[str, Any]) -> None:
    random.seed(12345)
    quiet = trajectory(options, 5)
    random.seed(54321)
    for _ in range(17):
        random.random()
    noisy = trajectory(options, 5, disturb=True)
    assert noisy == quiet
    assert len(quiet) > 10


def test_the_engine_never_calls_the_global_random_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine used Python's global random generator")

    for name in (
        "random",
        "randrange",
        "randint",
        "choice",
        "choices",
        "shuffle",
        "sample",
        "getrandbits",
        "seed",
        "uniform",
    ):
        monkeypatch.setattr(random, name, forbidden)
    # random.Random instances (the test's policy, the simulator's) stay usable
    state = random_game("official", {"players": 5, "target_score": 60}, 3)
    assert state.phase == Phase.OVER
    assert len(state.round_results) >= 1


def test_a_game_replayed_from_its_seed_and_actions_is_identical() -> None:
    state = random_game("official", {"players": 3, "target_score": 50}, 17)
    again = new_game(state.options, 17)
    for action in state.history:
        apply(again, action)
    assert again == state


def deal(seed: int, players: int = 4) -> State:
    return new_game(Options(players=players), seed)


def test_different_seeds_give_different_deals() -> None:
    deals = {tuple(map(tuple, deal(seed).hands)) for seed in range(50)}
    assert len(deals) == 50
    assert deal(1).draw_pile != deal(2).draw_pile
    assert deal(-1).hands != deal(1).hands
    assert deal(0).rng != deal(1).rng


def test_different_seeds_give_different_games() -> None:
    first = random_game("official", {"players": 2, "target_score": 40}, 1)
    second = random_game("official", {"players": 2, "target_score": 40}, 2)
    assert first.history != second.history


def test_every_seed_deals_seven_cards_each_and_two_to_the_center_row() -> None:
    for seed in range(20):
        state = deal(seed, players=2 + seed % 9)
        assert all(len(hand) == 7 for hand in state.hands)
        assert len(state.center) == 2
        assert len(state.draw_pile) == 108 - 7 * state.players - 2
