"""Random games for the RL tests: every position along seeded random games."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

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


def hidden_deal(state: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """What a deal hides: every hand and the draw pile (both rule sets' ``State``)."""
    return tuple(tuple(hand) for hand in state.hands), tuple(state.draw_pile)


class DealLog:
    """The deals an environment makes: each game seed and the cards it hid.

    ``watch(codec)`` records every ``codec.new_game`` call of the environment that owns
    ``codec``; ``record(seed)`` adds a deal made elsewhere (the fast core's ``Batch`` deals
    as the engine does), dealt again here with ``codec``."""

    def __init__(self, codec: Codec) -> None:
        self.deal = codec.new_game
        self.seeds: set[int] = set()
        self.deals: set[Any] = set()

    def watch(self, codec: Codec) -> None:
        deal = codec.new_game

        def new_game(seed: int) -> Any:
            self.record(seed)
            return deal(seed)

        codec.new_game = new_game  # type: ignore[method-assign]

    def watch_env(self, env: Any) -> None:
        """Records every deal of a single-game environment (``DosGym``, ``DosAEC``), on the
        Python engine or on the fast core."""
        fast = getattr(env, "fast", None)
        if fast is None:
            self.watch(env.codec)
            return
        deal = fast.new

        def new(seed: int) -> None:
            self.record(seed)
            deal(seed)

        fast.new = new

    def record(self, seed: int) -> None:
        self.seeds.add(int(seed))
        self.deals.add(hidden_deal(self.deal(int(seed))))

    def rebuilds(self, value: int) -> bool:
        """Whether ``codec.new_game(value)`` deals the hidden cards of a recorded deal."""
        return hidden_deal(self.deal(value)) in self.deals


class Returned:
    """Every integer and every text found in what an environment returned."""

    def __init__(self) -> None:
        self.ints: set[int] = set()
        self.texts: list[str] = []

    def add(self, *values: Any) -> None:
        for value in values:
            self._add(value)

    def _add(self, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, dict):
            for key, item in value.items():
                self._add(key)
                self._add(item)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                self._add(item)
        elif isinstance(value, str):
            self.texts.append(value)
            self.ints.update(int(x) for x in re.findall(r"\d+", value))
            self.ints.update(int(x, 16) for x in re.findall(r"[0-9a-fA-F]{8,}", value))
        elif isinstance(value, bool | int | np.integer | np.bool_):
            self.ints.add(int(value))
        elif isinstance(value, float | np.floating):
            if math.isfinite(value) and value == int(value):
                self.ints.add(int(value))
        elif isinstance(value, np.ndarray):
            if value.dtype.kind == "O":
                for item in value.ravel():
                    self._add(item)
            elif value.dtype.kind in "fiub":
                for item in np.unique(value).tolist():
                    self._add(item)
            else:
                raise TypeError(f"an environment returned an array of {value.dtype}")
        else:
            raise TypeError(f"an environment returned a {type(value).__name__}: {value!r}")

    def check_reveals_nothing(self, log: DealLog) -> None:
        """No returned value is a game seed or holds one in its text, and none of the
        integers deals the hidden cards of any recorded game (``codec.new_game(value)``)."""
        assert log.seeds, "no deal recorded"
        assert not self.ints & log.seeds, "a game seed was returned"
        for text in self.texts:
            for seed in log.seeds:
                assert str(seed) not in text
                assert f"{seed:x}" not in text.lower()
        rebuilt = [value for value in self.ints if log.rebuilds(value)]
        assert not rebuilt, f"{rebuilt} deal the hidden cards again"
