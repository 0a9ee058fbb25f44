"""Speed-up of the ``mcts`` bot's search decision with its rollouts on the fast core.

``.venv/bin/python bench/fast_mcts.py [--iterations N] [--positions P] [--seed S]``

Plays random official games and, at turns where the seat to act has a choice, asks the
search (``MctsBot``, the flat search of the ``hard`` level, limited by iterations so that
both runs do the same work) for a decision twice from the same generator seed: once with
Python rollouts (``fast=False``) and once on the fast core (``fast=True``). Every pair of
decisions must be equal (exit status 1 otherwise); the figure is the time per decision of
each, and their ratio. The fast core is warmed up (compiled or loaded) before timing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Runs the comparison and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=200, help="iterations a decision")
    parser.add_argument("--positions", type=int, default=150, help="decisions to time")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import dos.fast  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from dos.bots.base import Budget, turn_choices
    from dos.bots.mcts import MctsBot
    from dos.rules.official import Options, all_legal_actions, apply, new_game, view

    python_bot = MctsBot(fast=False)
    fast_bot = MctsBot(fast=True)
    budget = Budget(iterations=args.iterations)
    warm = new_game(Options(players=2), 0)
    fast_bot.choose(view(warm, warm.turn), random.Random(0), budget)
    python_times: list[float] = []
    fast_times: list[float] = []
    game = 0
    print(f"Load average before: {os.getloadavg()[0]:.2f}", flush=True)
    while len(python_times) < args.positions:
        seed = args.seed + game
        players = 2 + game % 3
        state = new_game(Options(players=players), seed)
        chooser = random.Random(seed)
        step = 0
        while state.winner is None and len(python_times) < args.positions:
            seat_view = view(state, state.turn)
            if step % 5 == 0 and len(turn_choices(seat_view)) > 1:
                began = time.perf_counter()
                expected = python_bot.choose(seat_view, random.Random(step), budget)
                python_times.append(time.perf_counter() - began)
                began = time.perf_counter()
                got = fast_bot.choose(seat_view, random.Random(step), budget)
                fast_times.append(time.perf_counter() - began)
                if got != expected:
                    print(f"DIFFERENT decision: game {seed}, step {step}: {got} != {expected}")
                    return 1
            apply(state, chooser.choice(all_legal_actions(state)))
            step += 1
        game += 1
    python_ms = 1000 * statistics.mean(python_times)
    fast_ms = 1000 * statistics.mean(fast_times)
    print(
        f"{len(python_times)} search decisions ({args.iterations} iterations each, 2-4 "
        f"players), all equal\n"
        f"python rollouts: {python_ms:.1f} ms a decision (median "
        f"{1000 * statistics.median(python_times):.1f})\n"
        f"fast rollouts:   {fast_ms:.1f} ms a decision (median "
        f"{1000 * statistics.median(fast_times):.1f})\n"
        f"speed-up: {python_ms / fast_ms:.2f}x (mean time per decision)"
    )
    print(f"Load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
