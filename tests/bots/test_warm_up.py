"""A search bot's first decision in a process searches as much as its later ones: compiling
the fast core (or loading it from the disk cache) happens before the decision's clock starts.

Each test runs a fresh copy of the package, whose compiled code has no cache yet (as on a
fresh checkout or a new server), and asks the same question twice with a time budget far
above what the search needs once compiled: both answers must come from the whole iteration
budget, hence be the same. When the compilation counted against the clock, the first search
stopped after a handful of simulations (seconds of compiling against a budget of two).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SOURCE = Path(__file__).parents[2] / "src" / "dos"

_TWICE = """
bot = ExpertBot()
runs = []
for _ in range(2):
    action = bot.choose(seen, random.Random(1), Budget(iterations=200, seconds=2.0))
    runs.append([str(action), bot.iterations_done])
print(json.dumps({"package": dos.__file__, "runs": runs}))
"""
"""The same question asked twice of a new ``bot`` (after a script that sets ``seen``)."""

_OFFICIAL = """
import json, random, dos
from dos.bots.base import Budget
from dos.bots.expert import ExpertBot
from dos.rules.official import Options, new_game, view
state = new_game(Options(players=2), seed=3)
seen = view(state, state.turn)
"""

_CLASSIC = """
import json, random, dos
from dos.bots.base import Budget
from dos.bots.classic.expert import ExpertBot
from dos.rules.classic import Options, new_game, view
seed = 3
seen = view(new_game(Options(players=2), seed), 0)
while len(seen.legal) < 2 or seen.seat != seen.turn:
    seed += 1
    state = new_game(Options(players=2), seed)
    seen = view(state, state.turn)
"""


def _first_and_second(script: str, tmp_path: Path) -> list[list[object]]:
    """The (action, iterations) of the first and second decision of a fresh package copy."""
    copy = tmp_path / "dos"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        timeout=280,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["package"]).is_relative_to(copy)
    runs: list[list[object]] = found["runs"]
    return runs


def test_the_official_sage_searches_its_whole_budget_at_its_first_decision(
    tmp_path: Path,
) -> None:
    first, second = _first_and_second(_OFFICIAL + _TWICE, tmp_path)
    assert first == second
    assert isinstance(first[1], int)
    assert first[1] >= 190  # the whole budget, less what the last halving round leaves


def test_the_classic_sage_searches_its_whole_budget_at_its_first_decision(
    tmp_path: Path,
) -> None:
    first, second = _first_and_second(_CLASSIC + _TWICE, tmp_path)
    assert first == second
    assert first[1] == 200
