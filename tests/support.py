"""Helpers shared by several test modules."""

from __future__ import annotations

import random
from typing import Any

from dos.rules.official import Options, Phase, State, all_legal_actions, apply, new_game


def random_states(players: int, seed: int, steps: int, **options: Any) -> list[State]:
    """Copies of every state of a seeded random game, at most ``steps`` actions long."""
    state = new_game(Options(players=players, **options), seed)
    chooser = random.Random(seed)
    seen = [state.copy()]
    for _ in range(steps):
        if state.phase == Phase.OVER:
            break
        apply(state, chooser.choice(all_legal_actions(state)))
        seen.append(state.copy())
    return seen
