"""A ladder's figures as a table, JSON and a plot, and its files (``dos ladder --out``).

``write_ladder`` writes four files into a folder, all or none (``report.write_atomically``):

* ``games.csv``: one row per game, in rating order, as ``dos tournament`` writes it;
* ``ladder.json``: ``{"ladder": settings, "standings": [...], "pairwise": {...}, "games": [...]}``;
* ``ladder.txt``: the table ``dos ladder`` prints;
* ``ladder.png``: each name's rating with its 95% interval, and the pairwise win rates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dos.arena.played import PlayedGame
from dos.arena.report import (
    align,
    forfeits_json,
    percent,
    write_atomically,
    write_csv,
    write_json,
)
from dos.arena.stats import BotSummary, Summary, wilson_interval

FILES = ("games.csv", "ladder.json", "ladder.txt", "ladder.png")


@dataclass(frozen=True, slots=True)
class Pairwise:
    """Who beat whom: ``wins[(a, b)]`` games ``a`` won against ``b``, ``games[(a, b)]``
    (equal to ``games[(b, a)]``) games they played together."""

    names: tuple[str, ...]
    wins: dict[tuple[str, str], int]
    games: dict[tuple[str, str], int]

    def win_rate(self, row: str, column: str) -> float | None:
        """The share of its games against ``column`` that ``row`` won; ``None`` if none.

        >>> pairwise([], ["a", "b"]).win_rate("a", "b") is None
        True
        """
        games = self.games.get((row, column), 0)
        return self.wins.get((row, column), 0) / games if games else None

    def to_json(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``{row: {column: {"games", "wins", "win_rate", "ci95"}}}`` for every pair that
        played (Wilson 95% interval, as for a tournament's win rate)."""
        return {
            row: {
                column: {
                    "games": self.games[row, column],
                    "wins": self.wins.get((row, column), 0),
                    "win_rate": self.win_rate(row, column),
                    "ci95": list(
                        wilson_interval(self.wins.get((row, column), 0), self.games[row, column])
                    ),
                }
                for column in self.names
                if (row, column) in self.games
            }
            for row in self.names
        }


def pairwise(games: Sequence[PlayedGame], names: Sequence[str]) -> Pairwise:
    """The pairwise counts of two-player ``games`` (games of a name against itself left out).

    >>> pairwise([], ["a", "b"]).games
    {}
    """
    wins: dict[tuple[str, str], int] = {}
    played: dict[tuple[str, str], int] = {}
    for game in games:
        if len(game.seating) != 2 or game.seating[0] == game.seating[1]:
            continue
        first, second = game.seating
        played[first, second] = played.get((first, second), 0) + 1
        played[second, first] = played.get((second, first), 0) + 1
        loser = game.seating[1 - game.winner]
        wins[game.winner_bot, loser] = wins.get((game.winner_bot, loser), 0) + 1
    return Pairwise(tuple(names), wins, played)


def standings(summary: Summary) -> list[BotSummary]:
    """The names best first: by conservative rating (mu - 3 sigma), then mu; ties keep the
    order the names were given in."""
    return sorted(summary.bots, key=lambda bot: (-bot.rating.ordinal, -bot.rating.mu))


def format_ladder(summary: Summary, wins: Pairwise) -> str:
    """The standings, then the pairwise matrix (row beats column), in the standings' order."""
    order = standings(summary)
    rows = [
        [
            "rank, name",
            "rating",
            "± 95%",
            "conservative",
            "games",
            "wins",
            "win rate",
            "95% CI",
        ]
    ]
    for rank, bot in enumerate(order, 1):
        low, high = bot.interval
        rows.append(
            [
                f"{rank}. {bot.name}",
                f"{bot.rating.mu:.1f}",
                f"±{bot.rating_interval[1] - bot.rating.mu:.1f}",
                f"{bot.rating.ordinal:.1f}",
                str(bot.games),
                str(bot.wins),
                percent(bot.win_rate),
                f"{low:.1%} - {high:.1%}",
            ]
        )
    names = [bot.name for bot in order]
    matrix = [["row beats column", *names]]
    for row in names:
        matrix.append(
            [row, *["-" if row == col else percent(wins.win_rate(row, col)) for col in names]]
        )
    return align(rows) + "\n\n" + align(matrix)


def ladder_json(settings: dict[str, Any], summary: Summary, wins: Pairwise) -> dict[str, Any]:
    """The settings, the standings (best first, each with its ``rank``) and the pairwise
    figures."""
    return {
        "ladder": settings,
        "standings": [
            {"rank": rank, **bot.to_json()} for rank, bot in enumerate(standings(summary), 1)
        ],
        "pairwise": wins.to_json(),
    }


def write_plot(path: Path, summary: Summary, wins: Pairwise, title: str) -> None:
    """``ladder.png`` at ``path``: on the left one row per name, best at the top, its rating
    mu as a dot with its 95% interval (mu ± 1.96 sigma) as a bar and its conservative rating
    (mu - 3 sigma) as a tick; on the right the pairwise win rates, row beats column."""
    from matplotlib.figure import Figure  # the Agg canvas, without pyplot's global state

    order = standings(summary)
    count = len(order)
    figure = Figure(figsize=(7.0 + 0.7 * count, 1.8 + 0.5 * count), layout="constrained")
    left, right = figure.subplots(1, 2, width_ratios=[1.0, 0.15 * count + 0.3])
    rows = list(range(count))[::-1]
    mus = [bot.rating.mu for bot in order]
    half = [bot.rating_interval[1] - bot.rating.mu for bot in order]
    left.errorbar(mus, rows, xerr=half, fmt="o", capsize=4, label="rating (mu), 95% interval")
    left.scatter(
        [bot.rating.ordinal for bot in order],
        rows,
        marker="|",
        s=200,
        color="grey",
        label="conservative (mu - 3 sigma)",
    )
    for row, bot in zip(rows, order, strict=True):
        left.annotate(
            f"{bot.rating.mu:.1f}",
            (bot.rating.mu, row),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
        )
    left.set_yticks(rows, [bot.name for bot in order])
    left.set_ylim(-0.6, count - 0.2)
    left.set_xlabel("openskill rating")
    left.grid(axis="x", alpha=0.3)
    figure.legend(loc="outside lower center", ncols=2, fontsize="small", frameon=False)

    names = [bot.name for bot in order]
    cells = [[wins.win_rate(row, col) for col in names] for row in names]
    shade = [[0.5 if rate is None else rate for rate in line] for line in cells]
    right.imshow(shade, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i, line in enumerate(cells):
        for j, rate in enumerate(line):
            text = "" if i == j else percent(rate).removesuffix("%").removesuffix(".0")
            dark = rate is not None and abs(rate - 0.5) > 0.3
            colour = "white" if dark else "black"
            right.text(j, i, text, ha="center", va="center", fontsize="small", color=colour)
    right.set_xticks(range(count), names, rotation=45, ha="right")
    right.set_yticks(range(count), names)
    right.set_title("row beats column, %", fontsize="medium")
    figure.suptitle(title)
    figure.savefig(path, format="png", dpi=100)


def write_text(path: Path, text: str) -> None:
    """``text`` and a newline at ``path``."""
    path.write_text(text + "\n", encoding="utf-8")


def write_ladder(
    out: Path,
    settings: dict[str, Any],
    summary: Summary,
    wins: Pairwise,
    *,
    games: Sequence[PlayedGame],
    table: str,
) -> list[Path]:
    """Writes ``FILES`` into ``out`` (created if need be), all or none; returns their paths.
    Needs matplotlib (the ``arena`` extra) for the plot."""
    title = (
        f"ladder: {len(settings['bots'])} names, {settings['games_per_pair']} games per pair, "
        f"{settings['rules']} rules"
    )
    document = {
        **ladder_json(settings, summary, wins),
        "forfeits": forfeits_json(games),
        "games": [g.to_json() for g in games],
    }
    writers: dict[str, Callable[[Path], None]] = {
        "games.csv": lambda path: write_csv(path, games, 2),
        "ladder.json": lambda path: write_json(path, document),
        "ladder.txt": lambda path: write_text(path, table),
        "ladder.png": lambda path: write_plot(path, summary, wins, title),
    }
    return write_atomically(out, writers)
