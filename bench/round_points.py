"""The points a round brings its winner in ``greedy`` self-play: the table ``sage`` scores by.

``.venv/bin/python bench/round_points.py [--players 2,3,4] [--games N] [--seed S]``

Plays ``--games`` games of ``greedy`` against itself at each table size (target 200, the
bare bots' reflexes), collects the points of every round and prints their 20 ventiles next
to those in ``dos.bots.sage.ROUND_POINTS`` (the ``sage`` bot's game values assume every
later round brings one of them, alike). Paste a new line there if the rules or ``greedy``
change.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path


def round_points(players: int, games: int, seed: int) -> list[int]:
    """The points of every round of ``games`` greedy self-play games, sorted."""
    from dos.arena.schedule import deal_seeds
    from dos.bots.greedy import GreedyBot
    from dos.play.official import Player, play_game
    from dos.rules.official import Options, apply, new_game, parse_action

    points: list[int] = []
    options = Options(players=players)
    for game_seed in deal_seeds(seed, games):
        result = play_game([Player(GreedyBot()) for _ in range(players)], game_seed, options)
        state = new_game(options, game_seed)
        for text in result.actions:
            apply(state, parse_action(text))
        points.extend(r.points for r in state.round_results)
    return sorted(points)


def ventiles(values: list[int]) -> tuple[int, ...]:
    """The 20 ventiles (the middle of each twentieth) of sorted ``values``."""
    count = len(values)
    return tuple(values[int((i + 0.5) * count / 20)] for i in range(20))


def main(argv: list[str] | None = None) -> int:
    """Measures and prints the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--games", type=int, default=300, help="games per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import dos  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from dos.bots.sage import round_points as in_use

    for players in (int(n) for n in args.players.split(",")):
        points = round_points(players, args.games, args.seed)
        print(
            f"{players} players: {len(points)} rounds of {args.games} games, "
            f"mean {statistics.mean(points):.1f} points"
        )
        print(f"  measured: {ventiles(points)}")
        print(f"  in use:   {in_use(players)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
