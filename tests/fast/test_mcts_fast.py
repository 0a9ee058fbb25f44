"""The ``mcts`` bot's rollouts on the fast core play the Python rollouts' actions, so the
search answers the same (``MctsBot(fast=True)`` against ``fast=False``)."""

from __future__ import annotations

import random

import numpy as np

from dos.bots import mcts
from dos.bots.base import Budget, turn_choices
from dos.fast.official_convert import action_of, from_python_state
from dos.fast.official_rollout import policy
from dos.rules.official import Options, all_legal_actions, apply, new_game, view


def test_rollout_policy_is_the_python_policy() -> None:
    buffer = np.empty(512, dtype=np.int64)
    checked = 0
    for seed in range(8):
        state = new_game(Options(players=2 + seed % 4), seed)
        chooser = random.Random(seed)
        while state.winner is None and checked < 200 * (seed + 1):
            expected = mcts._policy(state)
            got = action_of(policy(from_python_state(state), buffer))
            assert got == expected, (seed, str(got), str(expected))
            checked += 1
            apply(state, chooser.choice(all_legal_actions(state)))
    assert checked >= 1000


def test_search_decides_the_same_with_fast_rollouts() -> None:
    slow = mcts.MctsBot(fast=False)
    fast = mcts.MctsBot(fast=True)
    compared = 0
    for seed in range(6):
        state = new_game(Options(players=2 + seed % 3), seed)
        chooser = random.Random(seed)
        for step in range(40):
            if state.winner is not None:
                break
            seat_view = view(state, state.turn)
            if step % 4 == 0 and len(turn_choices(seat_view)) > 1:
                budget = Budget(iterations=60)
                expected = slow.choose(seat_view, random.Random(step), budget)
                assert fast.choose(seat_view, random.Random(step), budget) == expected
                assert fast.iterations_done == slow.iterations_done
                compared += 1
            apply(state, chooser.choice(all_legal_actions(state)))
    assert compared >= 20
