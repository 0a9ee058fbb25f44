"""Random games for the RL tests: every position along seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from dos.rl.codec import Codec


def positions(codec: Codec, seed: int, limit: int) -> Iterator[Any]:
    """Up to ``limit`` positions of random games (the seat to act picks uniformly among
    its legal actions, calls and catches included), a new game when one ends."""
    rng = random.Random(seed)
    game = 0
    state = codec.new_game(seed)
    for _ in range(limit):
        if codec.is_over(state):
            game += 1
            state = codec.new_game(seed * 1000 + game)
        yield state
        codec.apply(state, rng.choice(codec.legal(state, codec.turn(state))))
