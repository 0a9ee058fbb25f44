"""Plots a training log of ``python -m dos.rl.train`` (its printed lines) as a figure.

    .venv/bin/python scripts/plot_training.py LOG [LOG ...] --out docs/results/policy-training.png

One curve per log, the logs one after the other on the time axis (a run started with
``--init`` from the previous run's policy continues it): the share of rounds the learner won
in each iteration, smoothed over 20 iterations. With ``--checkpoints FILE`` (a JSON list of
``{"minutes": M, "wins": W, "games": G}``: tournament results of checkpoints) a second panel
shows those win rates with 95% Wilson intervals. Needs matplotlib (the ``arena`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path

LINE = re.compile(r"iteration (\d+): (\d+) rounds, won ([\d.]+)%, loss ([-\d.]+), ([\d.]+) min")


def read(path: Path) -> list[tuple[float, float]]:
    """(minutes, round win rate) per iteration."""
    points = []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = LINE.search(line)
        if found:
            points.append((float(found.group(5)), float(found.group(3)) / 100))
    return points


def smooth(values: list[float], width: int = 20) -> list[float]:
    out = []
    for i in range(len(values)):
        window = values[max(0, i - width + 1) : i + 1]
        out.append(sum(window) / len(window))
    return out


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--labels", help="one label per log, separated by semicolons")
    parser.add_argument("--checkpoints", type=Path, help="JSON: tournament results")
    parser.add_argument("--opponent", default="greedy", help="who the checkpoints played")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = args.labels.split(";") if args.labels else [p.stem for p in args.logs]
    panels = 2 if args.checkpoints else 1
    figure, all_axes = plt.subplots(1, panels, figsize=(6 * panels, 4), squeeze=False)
    axes = all_axes[0][0]
    offset = 0.0
    for path, label in zip(args.logs, labels, strict=True):
        points = read(path)
        if not points:
            continue
        minutes = [offset + m for m, _ in points]
        axes.plot(minutes, smooth([w for _, w in points]), label=label)
        offset = minutes[-1]
    axes.set_xlabel("training time (minutes, one CPU thread)")
    axes.set_ylabel("rounds won by the learner (20-iteration mean)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend()
    if args.checkpoints:
        right = all_axes[0][1]
        rows = json.loads(args.checkpoints.read_text(encoding="utf-8"))
        xs = [row["minutes"] for row in rows]
        rates = [row["wins"] / row["games"] for row in rows]
        bounds = [wilson(row["wins"], row["games"]) for row in rows]
        low = [r - b[0] for r, b in zip(rates, bounds, strict=True)]
        high = [b[1] - r for r, b in zip(rates, bounds, strict=True)]
        right.errorbar(xs, rates, yerr=[low, high], fmt="o-", capsize=3)
        right.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        right.set_xlabel("training time (minutes)")
        right.set_ylabel(f"games won against {args.opponent}, target 200")
        right.set_ylim(0, 1)
        right.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
