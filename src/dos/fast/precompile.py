"""Compiles the fast core's functions into numba's disk cache ahead of their first use.

numba compiles a function the first time it is called on a machine (the whole core takes
about half a minute of one CPU) and loads it from the cache (``dos.fast._jit``) after that.
``python -m dos.fast.precompile`` calls each of them once on a tiny workload: the search bots'
rollouts, random play and batch steps of every rule set with a compiled core (its registry
entry's ``fast_core``: official and classic), and the RL environments' compiled observer,
masks, DOS race and ``random`` bot. ``make test`` runs it
beside the type check and the linters, in two processes (``python -m dos.fast.precompile
cores`` and ``... rl``), so that the suite's workers load the compiled code instead of each
compiling it on first use.
"""

from __future__ import annotations

import sys
import time

PARTS = ("cores", "rl")
"""What one process compiles: the rule sets' cores, or the RL environments' functions."""


def compile_all(parts: tuple[str, ...] = PARTS) -> None:
    """Calls every compiled function of the fast core in ``parts`` once (see the module
    docstring)."""
    if "cores" in parts:
        _cores()
    if "rl" in parts:
        _rl()


def _cores() -> None:
    import numpy as np

    from dos import ruleset
    from dos.bots import registry
    from dos.fast import Batch
    from dos.fast.rng import new_mts

    registry.warm_up()
    for entry in ruleset.entries():
        if entry.fast_core is None:
            continue
        batch = Batch(entry.name, [1, 2], {"players": 2})
        batch.core.random_games(batch.states, new_mts([1, 2]), 4)
        batch.step(np.zeros(batch.size, np.int64))
        batch.apply(0, batch.legal_actions(0)[0])  # an engine action, checked and applied
        batch.over()


def _rl() -> None:
    import dos.rl
    from dos.rl.fast_vector import FastVectorGames

    for opponents in (None, ["random"], ["greedy"]):
        games = FastVectorGames(2, 2, opponents=opponents)
        games.reset(seed=1)
        games.step(games.random_actions())
    for race in ("reflex", "agents"):
        game = dos.rl.env(players=2, race=race)
        game.reset(seed=1)
        _, _, _, _, info = game.last()
        game.step(info["legal_actions"][0])
        for agent in game.possible_agents:  # every seat's observation, not only the deciding one's
            game.observe(agent)
    game = dos.rl.env(players=2)
    game.reset(seed=1)
    fast = game.unwrapped.fast
    if fast is not None:  # a game set from an engine state
        fast.state = fast.state


def main() -> None:
    """Compiles what is not compiled yet (the parts named on the command line, else all);
    says how long it took."""
    parts = tuple(sys.argv[1:]) or PARTS
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        sys.exit(f"unknown part {unknown[0]!r}: the parts are {', '.join(PARTS)}")
    began = time.perf_counter()
    compile_all(parts)
    took = time.perf_counter() - began
    print(f"fast core ({', '.join(parts)}) compiled or loaded in {took:.1f} s", flush=True)


if __name__ == "__main__":
    main()
