"""The differential check: one random game through the Python engine and the fast core at
once, comparing every seat's legal actions (in order) and the whole state after every step.

Used by ``tests/fast`` and ``bench/fast_diff.py``; any difference is a bug of the fast core
(the Python engine is the reference).
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from dos import ruleset
from dos.fast.api import Game


class DivergenceError(AssertionError):
    """The fast core and the engine disagree; the message says where and how."""


def _differences(expected: Any, got: Any) -> list[str]:
    return [
        f"{f.name}: engine {getattr(expected, f.name)!r}, fast {getattr(got, f.name)!r}"
        for f in fields(expected)
        if f.compare and getattr(expected, f.name) != getattr(got, f.name)
    ]


def walk(rules: str, seed: int, options: dict[str, Any] | None = None) -> int:
    """Plays one random game (choices by ``random.Random(seed)``, as ``dos simulate``) in
    both engines, checking every step; returns the decisions made. Raises
    ``DivergenceError``."""
    engine = ruleset.get(rules)
    state = engine.new_game(options, seed)
    return walk_from(rules, state, game=Game(rules, seed, options), seed=seed, options=options)


def walk_from(
    rules: str,
    state: Any,
    *,
    game: Game | None = None,
    seed: int = 0,
    options: Any = None,
    limit: int | None = None,
) -> int:
    """``walk`` from the engine state ``state`` (``game``: the same game on the fast core,
    by default converted from ``state``), for at most ``limit`` decisions."""
    engine = ruleset.get(rules)
    if game is None:
        game = Game.from_python_state(rules, state)
    chooser = random.Random(seed)
    steps = 0
    while True:
        got = game.to_python_state()
        if got != state:
            where = f"{rules} seed {seed} options {options} after {steps} decisions"
            raise DivergenceError(f"{where}: " + "; ".join(_differences(state, got)))
        expected = [str(a) for a in engine.all_legal_actions(state)]
        found = [str(a) for a in game.legal_actions()]
        if expected != found:
            raise DivergenceError(
                f"{rules} seed {seed} options {options} after {steps} decisions: legal "
                f"actions: engine {expected}, fast {found}"
            )
        if engine.is_over(state) or steps == limit:
            return steps
        k = chooser.randrange(len(expected))
        engine.apply(state, engine.all_legal_actions(state)[k])
        game.step(k)
        steps += 1
