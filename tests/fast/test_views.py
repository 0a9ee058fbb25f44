"""A flat game's seat view (what the fast environments show a bot) is the engine's."""

from __future__ import annotations

import random

import pytest

from dos.fast import Game
from dos.fast.official_convert import view_of
from dos.rules import official


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_view_of_a_flat_game_is_the_engines_view(players: int) -> None:
    for seed in range(3):
        game = Game("official", seed, {"players": players, "target_score": 40})
        rng = random.Random(seed)
        for step in range(400):
            state = game.to_python_state()
            if step % 3 == 0 or state.phase == official.Phase.OVER:
                for seat in range(players):
                    got = view_of(
                        game.state,
                        seat,
                        state.options,
                        history=tuple(state.history),
                        round_results=tuple(state.round_results),
                    )
                    assert got == official.view(state, seat)
            if state.phase == official.Phase.OVER:
                break
            game.step(rng.randrange(game.legal_count(0)))
