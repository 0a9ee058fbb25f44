"""Helpers shared by several test modules, for either rule set.

Games are driven through the common ``dos.ruleset.RuleSet`` interface, so one helper serves
the official and the classic rules alike.
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import strategies as st

from dos import ruleset
from dos.bots.base import turn_choices
from dos.cli import main
from dos.rules.official import Phase, SeatView, view

TESTS = Path(__file__).parent
UPDATE_GOLDEN = os.environ.get("DOS_UPDATE_GOLDEN") == "1"

DEAL_SEED = int(os.environ.get("DOS_TEST_DEAL_SEED", "20261129"))
"""The deal seed of the servers the tests start (``dos serve --deal-seed``, and ``Deals`` in
process): every table they make deals its first game from it unless the test names its own
(``CreateTable.seed``). ``DOS_TEST_DEAL_SEED`` changes it: ``make flake-hunt`` runs the suite
under several, and the header of every run names the one in force, so that any failure is
reproduced by running again with it."""

seeds = st.integers(min_value=0, max_value=2**32 - 1)
"""Hypothesis strategy: a game seed."""
player_counts = st.integers(min_value=2, max_value=10)
"""Hypothesis strategy: a number of seats either rule set allows."""

VIEW_KEYS = {
    "seat",
    "options",
    "round",
    "dealer",
    "turn",
    "phase",
    "drew",
    "hand",
    "hand_sizes",
    "center",
    "matched",
    "bonuses",
    "placements_left",
    "draw_pile_size",
    "discard",
    "penalties",
    "dos_open",
    "scores",
    "winner",
    "round_results",
    "history",
    "legal",
}
"""The keys an official seat view may have: none of them holds another seat's hand."""


def random_states(
    players: int, seed: int, steps: int, rules: str = "official", **options: Any
) -> list[Any]:
    """Copies of every state of a seeded random game, at most ``steps`` actions long."""
    engine = ruleset.get(rules)
    state = engine.new_game({"players": players, **options}, seed)
    chooser = random.Random(seed)
    seen = [engine.copy(state)]
    for _ in range(steps):
        if engine.is_over(state):
            break
        engine.apply(state, chooser.choice(engine.all_legal_actions(state)))
        seen.append(engine.copy(state))
    return seen


def play_randomly(rules: str, state: Any, seed: int) -> Any:
    """Plays ``state`` to its end by ``random.Random(seed)`` choosing among every seat's legal
    actions; returns it."""
    engine = ruleset.get(rules)
    chooser = random.Random(seed)
    while not engine.is_over(state):
        engine.apply(state, chooser.choice(engine.all_legal_actions(state)))
    return state


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Runs the ``dos`` command in-process: its exit status, standard output and error."""
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


class Game(NamedTuple):
    """One golden playthrough: its file name, seats, seed, options and length limit."""

    name: str
    players: int
    seed: int
    options: dict[str, Any]
    max_steps: int


def first_differences(expected: str, actual: str, fromfile: str, limit: int = 80) -> str:
    """The start of a unified diff of a golden file and its regenerated text."""
    diff = difflib.unified_diff(
        expected.splitlines(),
        actual.splitlines(),
        fromfile=fromfile,
        tofile="regenerated",
        lineterm="",
        n=4,
    )
    lines = list(diff)
    shown = lines[:limit]
    if len(lines) > limit:
        shown.append(f"... {len(lines) - limit} more diff lines")
    return "\n".join(shown)


def check_golden(path: Path, actual: str, name: str) -> None:
    """Fails unless the golden file ``path`` holds ``actual``; with ``DOS_UPDATE_GOLDEN=1`` it
    first rewrites the file."""
    if UPDATE_GOLDEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} is missing; run with DOS_UPDATE_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        fromfile = f"tests/{path.relative_to(TESTS).as_posix()}"
        pytest.fail(
            f"{name} differs from its golden file (DOS_UPDATE_GOLDEN=1 rewrites it after "
            "an intended change):\n" + first_differences(expected, actual, fromfile)
        )


# --- official views for the search bots' tests ------------------------------------------------


def choice_views(players: int, seed: int, steps: int, every: int) -> list[SeatView]:
    """Views of the seat to act, with a real choice, from a seeded random game."""
    found = []
    for state in random_states(players, seed, steps)[::every]:
        if state.phase == Phase.OVER:
            continue
        seat_view = view(state, state.turn)
        if len(turn_choices(seat_view)) > 1:
            found.append(seat_view)
    return found


def hidden_shuffled(state: Any, seat: int, seed: int) -> Any:
    """The same game as ``seat`` sees it (either rule set), with the other hands and the draw
    pile dealt anew from the same cards, and another generator state."""
    other = state.copy()
    seats = [s for s in range(len(state.hands)) if s != seat]
    pool = [c for s in seats for c in state.hands[s]] + state.draw_pile
    random.Random(seed).shuffle(pool)
    for s in seats:
        size = len(state.hands[s])
        other.hands[s] = sorted(pool[:size])
        del pool[:size]
    other.draw_pile = pool
    other.rng = state.rng ^ 0x5DEECE66D
    return other


def deal_seed_args() -> list[str]:
    """The options that make a test's ``dos serve`` deal from the suite's seed."""
    return ["--deal-seed", str(DEAL_SEED)]


def suite_deals() -> Any:
    """The ``dos.server.deals.Deals`` of a test's server in process: the suite's seed."""
    from dos.server.deals import Deals

    return Deals(DEAL_SEED)
