"""A search bot's first decision in a process searches as much as its later ones: compiling
the fast core, or loading it from the disk cache, happens before the decision's clock starts.

Each test asks a fresh process's first decision of the ``expert`` bot (``sage``) with a budget
whose clock (``Budget.clock``) notes how many compiled functions numba holds when the search
first reads it. The search must not gain one after that reading: whatever it runs was
compiled or loaded before its clock started, so no part of its time budget went to it. When
the compiled rollouts were readied inside the search (the defect this guards against), the
first decision's clock ran through seconds of compiling and it stopped after a handful of
simulations. Counting what numba holds, not timing it, makes the check exact and fast: it
holds whether the disk cache is warm (``make test`` compiles the core first) or cold.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("numba")

_PROBE = """
import json, random, sys
from numba.core.dispatcher import Dispatcher
from dos.bots.base import Budget


def compiled() -> int:
    '''How many compiled versions numba holds for the package's functions.'''
    return sum(
        len(value.overloads)
        for module in list(sys.modules.values())
        if module is not None and module.__name__.startswith("dos.")
        for value in vars(module).values()
        if isinstance(value, Dispatcher)
    )


class Clock:
    '''A clock that notes what numba holds at its first reading.'''

    def __init__(self) -> None:
        self.now = 0.0
        self.first = None

    def __call__(self) -> float:
        if self.first is None:
            self.first = compiled()
        self.now += 1e-6
        return self.now


clock = Clock()
budget = Budget(iterations=60, seconds=1e9, clock=clock)  # the iterations bind
action = bot.choose(seen, random.Random(1), budget)
print(json.dumps({"first": clock.first, "after": compiled(), "iterations": bot.iterations_done}))
"""

_OFFICIAL = """
from dos.bots.sage import SageBot
from dos.rules.official import Options, new_game, view
state = new_game(Options(players=2), seed=3)
seen = view(state, state.turn)
bot = SageBot()
"""

_CLASSIC = """
from dos.bots.classic.sage import ClassicSageBot
from dos.rules.classic import Options, new_game, view
seed = 3
seen = view(new_game(Options(players=2), seed), 0)
while len(seen.legal) < 2 or seen.seat != seen.turn:
    seed += 1
    state = new_game(Options(players=2), seed)
    seen = view(state, state.turn)
bot = ClassicSageBot()
"""


def _first_decision(setup: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", setup + _PROBE],
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, int] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("setup", [_OFFICIAL, _CLASSIC], ids=["official", "classic"])
def test_the_first_decision_compiles_nothing_once_its_clock_runs(setup: str) -> None:
    found = _first_decision(setup)
    assert found["first"] is not None  # the search read its budget's clock
    assert found["first"] > 0  # the compiled rollouts were ready before it did
    assert found["after"] == found["first"]  # and nothing was compiled or loaded after
    assert found["iterations"] >= 50  # the whole budget (a halving round may leave a few)
