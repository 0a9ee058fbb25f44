"""The differential check at length: many random games through the Python engine and the
fast core at once, comparing legal actions (in order) and whole states after every step.

``.venv/bin/python bench/fast_diff.py [--rules official,classic] [--games N] [--seed S]``

Player counts and options rotate over the games. The first difference stops the run and is
printed (exit status 1); otherwise it prints the decisions checked and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "official": [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 4, "dealer_starts": True, "deal_passes_left": True},
        {"players": 5, "bonus_lay_mandatory": True},
        {"players": 6, "target_score": 100},
        {"players": 10, "target_score": 60},
    ],
    "classic": [
        {"players": 2},
        {"players": 3, "stacking": False},
        {"players": 4},
        {"players": 5, "penalty_cards": 3},
        {"players": 7, "reaction_time_ms": 500},
        {"players": 10},
    ],
}


def main(argv: list[str] | None = None) -> int:
    """Runs the check; 0 when every step agreed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="official,classic")
    parser.add_argument("--games", type=int, default=300, help="games per rule set")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first game")
    args = parser.parse_args(argv)
    try:
        from dos.fast.check import DivergenceError, walk
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
        from dos.fast.check import DivergenceError, walk
    for rules in args.rules.split(","):
        began = time.perf_counter()
        decisions = 0
        for number in range(args.games):
            seed = args.seed + number
            options = OPTIONS[rules][number % len(OPTIONS[rules])]
            try:
                decisions += walk(rules, seed, options)
            except DivergenceError as error:
                print(f"{rules}: DIVERGENCE: {error}")
                return 1
        seconds = time.perf_counter() - began
        print(
            f"{rules}: {args.games} games, {decisions:,} decisions checked, no difference "
            f"({seconds:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
