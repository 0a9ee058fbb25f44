"""Are the review's win chances calibrated, and how long does a review take?

``.venv/bin/python bench/review_calibration.py [--games N] [--iterations K] [--seed S]
[--bots A,B] [--out DIR] [--speed M]``

**Calibration.** Plays ``--games`` two-player games (target 200) between ``--bots`` (default
``greedy`` against itself, the bare bots' reflexes) on the deals of ``--seed``. From each game
one decision is drawn (a seeded seat, then a seeded decision of it with a choice): one
position a game, so the positions are independent. The review judges it from the seat's
view (``dos.review.judge``) and the chances *of the action that was played* are compared
with what happened: did the seat win that round, did it win the game. Predictions are cut
into ten bins of 10%; for each, the mean prediction, the share observed, the count, and the
Brier score overall. Writes ``review-calibration-N.txt`` (the table) and, with matplotlib (the
``arena`` extra), ``review-calibration-N.png`` (the reliability plot) into ``--out``.

**Speed** (``--speed M``, default 0): reviews seat 0 of ``M`` whole games (the first ``M``
deals) with the default settings, one process on one core, and prints the median and the
95th percentile of the time a game's review takes (the compiled rollouts readied before the
clock starts, as ``dos review`` does once per process).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from dos.arena.schedule import deal_seeds
from dos.bots.mcts import warm_up
from dos.bots.registry import make_player
from dos.play.official import Player, play_game
from dos.records import Record, replay
from dos.review import SAMPLES, decisions, judge, review_record
from dos.review.review import decision_rng, game_key
from dos.rules.official import Options

BINS = 10


def play(bots: Sequence[str], seed: int, options: Options) -> Record:
    """The record of one game between ``bots`` on the deal ``seed``."""
    players: list[Player] = [make_player(name) for name in bots]
    result = play_game(players, seed, options)
    return Record("official", options.to_json(), seed=seed, actions=list(result.actions))


def one_position(record: Record, seed: int, samples: int) -> tuple[float, float, int, int] | None:
    """For one drawn decision: the predicted round and game chances of the played action, and
    whether the seat won that round and the game (1 or 0); ``None`` if it had no choice."""
    rng = random.Random(f"calibration:{seed}:{record.seed}")
    players = int(record.options.get("players", 2))
    seat = rng.randrange(players)
    found, _, _, _ = decisions(record, seat)
    rng.shuffle(found)
    final = replay(record)
    for decision in found:
        entry = judge(decision, samples=samples, rng=decision_rng(seed, game_key(record), decision))
        if entry is None:
            continue
        won_round = int(final.round_results[entry.round - 1].winner == seat)
        won_game = int(final.winner == seat)
        return entry.round_chosen, entry.game_chosen, won_round, won_game
    return None


def table(pairs: list[tuple[float, int]]) -> tuple[list[str], list[tuple[float, float, int]]]:
    """The reliability table's lines and its points (mean prediction, observed, count)."""
    lines = [f"{'bin':<9} {'predicted':>9} {'observed':>9} {'count':>6}"]
    points = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [(p, o) for p, o in pairs if low <= p < high or (b == BINS - 1 and p == 1.0)]
        if not inside:
            lines.append(f"{low:.1f}-{high:.1f}   {'':>9} {'':>9} {0:>6}")
            continue
        predicted = sum(p for p, _ in inside) / len(inside)
        observed = sum(o for _, o in inside) / len(inside)
        points.append((predicted, observed, len(inside)))
        lines.append(f"{low:.1f}-{high:.1f}   {predicted:9.3f} {observed:9.3f} {len(inside):>6}")
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    base = sum(o for _, o in pairs) / len(pairs)
    lines.append(
        f"Brier {brier:.4f} (always {base:.3f}: {base * (1 - base):.4f}); "
        f"mean predicted {sum(p for p, _ in pairs) / len(pairs):.3f}, observed {base:.3f}"
    )
    return lines, points


def calibrate(args: argparse.Namespace) -> None:
    bots = args.bots.split(",")
    options = Options(players=len(bots))
    rounds: list[tuple[float, int]] = []
    games: list[tuple[float, int]] = []
    began = time.perf_counter()
    for number, game_seed in enumerate(deal_seeds(args.seed, args.games), 1):
        record = play(bots, game_seed, options)
        found = one_position(record, args.seed, args.iterations)
        if found is not None:
            round_p, game_p, round_o, game_o = found
            rounds.append((round_p, round_o))
            games.append((game_p, game_o))
        if number % 100 == 0:
            print(f"{number} games, {time.perf_counter() - began:.0f} s", file=sys.stderr)
    head = [
        f"review calibration: {len(rounds)} positions, one from each of {args.games} games "
        f"({' vs '.join(bots)}, target 200, deals of seed {args.seed}), "
        f"{args.iterations} samples a stage; the chances of the action played",
        "",
    ]
    round_lines, round_points = table(rounds)
    game_lines, game_points = table(games)
    text = "\n".join([*head, "round win chance", *round_lines, "", "game win chance", *game_lines])
    text += f"\n\n({time.perf_counter() - began:.0f} s)\n"
    sys.stdout.write(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"review-calibration-{args.games}.txt").write_text(text, encoding="utf-8")
    _plot(out / f"review-calibration-{args.games}.png", round_points, game_points, len(rounds))


def _plot(
    path: Path,
    round_points: list[tuple[float, float, int]],
    game_points: list[tuple[float, float, int]],
    count: int,
) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed (the arena extra): no plot", file=sys.stderr)
        return
    figure, axes = plt.subplots(figsize=(5, 5))
    axes.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="calibrated")
    for points, label, marker in ((round_points, "round", "o"), (game_points, "game", "s")):
        xs = [p for p, _, _ in points]
        ys = [o for _, o, _ in points]
        errors = [1.96 * math.sqrt(max(o * (1 - o), 1e-9) / n) for _, o, n in points]
        axes.errorbar(xs, ys, yerr=errors, marker=marker, capsize=3, label=f"{label} win chance")
    axes.set_xlabel("predicted by the review")
    axes.set_ylabel("observed")
    axes.set_title(f"review reliability ({count} positions)")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def speed(args: argparse.Namespace) -> None:
    bots = args.bots.split(",")
    options = Options(players=len(bots))
    times = []
    for game_seed in deal_seeds(args.seed, args.speed):
        record = play(bots, game_seed, options)
        began = time.process_time()
        review = review_record(record, 0, samples=SAMPLES)
        spent = time.process_time() - began
        times.append(spent)
        print(
            f"deal {game_seed}: {len(record.actions)} actions, {len(review.entries)} decisions "
            f"judged, {review.forced} forced: {spent:.1f} s"
        )
    times.sort()
    p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
    print(
        f"review of one game, seat 0, {SAMPLES} samples a stage, {len(times)} games "
        f"(CPU time of one process): median {statistics.median(times):.1f} s, "
        f"95th percentile {p95:.1f} s, max {times[-1]:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=SAMPLES, help="samples per stage")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--out", default="docs/results")
    parser.add_argument("--speed", type=int, default=0, help="time the review of M games")
    args = parser.parse_args(argv)
    warm_up()
    if args.speed:
        speed(args)
    else:
        calibrate(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
