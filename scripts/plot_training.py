"""Plots a training log of ``python -m dos.rl.train`` (its printed lines) as a figure.

    .venv/bin/python scripts/plot_training.py LOG [LOG ...] --out docs/results/policy-training.png

One curve per log, the logs one after the other on the time axis (a run started with
``--init`` from the previous run's policy continues it): the share of rounds the learner won
in each iteration, smoothed over 20 iterations. Needs matplotlib (the ``arena`` extra).
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--labels", help="one label per log, separated by semicolons")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = args.labels.split(";") if args.labels else [p.stem for p in args.logs]
    figure, axes = plt.subplots(figsize=(8, 4))
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
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
