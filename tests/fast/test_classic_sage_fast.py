"""The classic ``sage`` bot's compiled simulations play the Python path's actions: the
compiled greedy policy is ``ClassicGreedyBot`` move for move, and the search answers the same with
``fast=True`` and ``fast=False`` (the same statistics, too)."""

from __future__ import annotations

import random

from dos.bots.base import Budget
from dos.bots.classic.greedy import ClassicGreedyBot, GreedyWeights
from dos.bots.classic.sage import CUT_REWARD, ClassicSageBot, weights_array
from dos.fast import classic_rollout
from dos.fast.classic_api import action_of, from_python_state
from dos.rules.classic import Options, Phase, apply, new_game, view


def test_the_compiled_policy_is_greedy() -> None:
    checked = 0
    for weights in (GreedyWeights(), GreedyWeights(colour_flow=1.5, attack=3.0, calm_hand=6)):
        greedy = ClassicGreedyBot(weights=weights)
        array = weights_array(weights)
        for seed in range(12):
            state = new_game(Options(players=2 + seed % 3), seed)
            chooser = random.Random(seed)
            while state.phase != Phase.OVER:
                seat_view = view(state, state.turn)
                if state.phase == Phase.PLAY:
                    expected = greedy.choose(seat_view, random.Random(0), Budget())
                    got = action_of(classic_rollout.policy(from_python_state(state), array))
                    assert got == expected, (seed, str(got), str(expected))
                    checked += 1
                apply(state, chooser.choice(seat_view.legal))
    assert checked >= 1000
    assert classic_rollout.CUT_REWARD == CUT_REWARD


def test_the_search_decides_the_same_with_compiled_simulations() -> None:
    slow = ClassicSageBot(fast=False)
    fast = ClassicSageBot(fast=True)
    compared = 0
    for seed in range(4):
        state = new_game(Options(players=2 + seed % 2), seed)
        chooser = random.Random(seed)
        for step in range(60):
            if state.phase == Phase.OVER:
                break
            seat_view = view(state, state.turn)
            if step % 4 == 0 and state.phase == Phase.PLAY and len(seat_view.legal) > 1:
                budget = Budget(iterations=12)
                expected = slow.choose(seat_view, random.Random(step), budget)
                assert fast.choose(seat_view, random.Random(step), budget) == expected
                assert fast.means == slow.means
                assert fast.iterations_done == slow.iterations_done == 12
                compared += 1
            apply(state, chooser.choice(seat_view.legal))
    assert compared >= 12
