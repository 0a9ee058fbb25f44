"""Bots by path in a process of their own (``dos.bots.sandbox``): a bot there holds its seat's
view and nothing else, plays the very games it plays in process, and is told what it did wrong
in the same words in both places."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from dos.arena.tournament import run_tournament
from dos.bots.base import BotError, Budget
from dos.bots.registry import make_player
from dos.bots.sandbox.bot import Sandbox, SandboxedBot, stop_all
from dos.rules.official import new_game, view

PEEKER = """
import gc
import random

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView, State


class Peeker:
    name = "peeker"
    budget = Budget(seconds=60.0)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        # type(), not isinstance(): a dead weak proxy among the objects raises on the latter
        states = [o for o in gc.get_objects() if type(o) is State]
        if states:
            raise RuntimeError(f"read the draw pile: {len(states[0].draw_pile)} cards")
        return turn_choices(view)[0]
"""

STRINGER = """
import random

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView


class Stringer:
    name = "stringer"
    budget = Budget(seconds=60.0)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return str(turn_choices(view)[0])  # type: ignore[return-value]
"""

RANDOM = """
import random

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView


class Chance:
    name = "chance"
    budget = Budget(seconds=60.0)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return rng.choice(turn_choices(view))
"""

QUICK = """
import random

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView


class Quick:
    name = "quick"

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return turn_choices(view)[0]
"""

SLOW_CLOCK = Sandbox(move_seconds=120.0)
"""Generous limits, so that a loaded machine never makes an honest answer late."""


def _bot(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_a_bot_that_reads_the_state_by_introspection_finds_none_in_its_sandbox(
    tmp_path: Path,
) -> None:
    peeker = _bot(tmp_path, "peeker", PEEKER)
    # In process it can (and its raising to say so forfeits its game).
    seen = run_tournament([peeker, "greedy"], 2, 2, target_score=30, progress=False, sandbox=None)
    assert all(
        game.forfeit is not None
        and "raised RuntimeError: read the draw pile" in game.forfeit.reason
        for game in seen.games
    )
    result = run_tournament(
        [peeker, "greedy"], 2, 2, target_score=30, progress=False, sandbox=SLOW_CLOCK
    )
    assert [game.forfeit for game in result.games] == [None, None]
    assert all(game.decisions[game.seating.index(peeker)] > 0 for game in result.games)


def test_a_sandboxed_bot_is_never_run_in_the_tournaments_process(tmp_path: Path) -> None:
    quick = _bot(tmp_path, "never_here", QUICK)
    run_tournament([quick, "random"], 2, 2, target_score=30, progress=False, sandbox=SLOW_CLOCK)
    assert not [name for name in sys.modules if name.startswith("dos_user_bot_never_here")]


def test_a_sandboxed_bot_plays_the_games_it_plays_in_process(tmp_path: Path) -> None:
    chance = _bot(tmp_path, "chance", RANDOM)
    runs = [
        run_tournament(
            [chance, "greedy"], 2, 4, seed=5, target_score=60, progress=False,
            sandbox=sandbox, deal_key=b"organiser",
        )
        for sandbox in (None, SLOW_CLOCK)
    ]  # fmt: skip
    inside, sandboxed = ([game.outcome() for game in run.games] for run in runs)
    assert inside == sandboxed


def test_a_bot_returning_a_string_is_told_it_returned_a_str(tmp_path: Path) -> None:
    stringer = _bot(tmp_path, "stringer", STRINGER)
    state = new_game(seed=3)
    seen = view(state, state.turn)
    player = make_player(stringer)
    with pytest.raises(BotError, match=r"^stringer returned a str, expected an Action$"):
        player.bot.choose(seen, random.Random(1), player.budget)
    sandboxed = SandboxedBot(stringer, "official", SLOW_CLOCK)
    try:
        with pytest.raises(BotError, match=r"stringer\.py returned a str, expected an Action$"):
            sandboxed.choose(seen, random.Random(1), Budget(seconds=1.0))
    finally:
        stop_all()


def test_an_answer_later_than_the_limit_by_the_clock_forfeits(tmp_path: Path) -> None:
    quick = _bot(tmp_path, "quick", QUICK)
    ticks = iter([0.0, 100.0])  # the answer is read 100 s after the view was sent
    sandbox = Sandbox(move_seconds=120.0, startup_seconds=600.0)
    state = new_game(seed=3)
    seen = view(state, state.turn)
    try:
        bot = SandboxedBot(quick, "official", sandbox)
        assert bot.choose(seen, random.Random(1), Budget(seconds=1.0)) in seen.legal
        late = SandboxedBot(quick, "official", Sandbox(clock=lambda: next(ticks)))
        with pytest.raises(BotError, match=r"quick\.py took over 3 s for one move"):
            late.choose(seen, random.Random(1), Budget(seconds=1.0))
    finally:
        stop_all()
