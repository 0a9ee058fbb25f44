"""Determinism: the same options, seed and actions give the same game, and the engine never
touches Python's global ``random`` generator (all chance, the reaction targets included,
comes from the state's seed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dos.rules.classic import Options, Phase, all_legal_actions, apply, new_game, to_position

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 4, "stacking": False},
    {"players": 7, "penalty_cards": 2, "reaction_time_ms": 1000},
]


def trajectory(options: dict[str, Any], seed: int, disturb: bool = False) -> list[dict[str, Any]]:
    """Every position of a game played by a policy seeded with ``seed``; with ``disturb``,
    the global generator is reseeded and drawn from before every action."""
    state = new_game(Options(**options), seed)
    chooser = random.Random(seed)
    seen = [to_position(state)]
    while state.phase != Phase.OVER and len(seen) < 400:
        if disturb:
            random.seed(len(seen) * 7919)
            random.random()
        apply(state, chooser.choice(all_legal_actions(state)))
        seen.append(to_position(state))
    return seen


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_global_generator_does_not_change_a_game(options: dict[str, Any]) -> None:
    quiet = trajectory(options, seed=17)
    assert trajectory(options, seed=17, disturb=True) == quiet
    assert any(p["phase"] == "reaction" for p in quiet)


def test_other_seeds_give_other_games() -> None:
    assert trajectory({"players": 3}, seed=1)[0] != trajectory({"players": 3}, seed=2)[0]
