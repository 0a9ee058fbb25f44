"""Tournament results as files and as a table.

``write_results`` writes three files into a folder, all or none:

* ``games.csv``: one row per game (seats, seed, winner, and per seat the bot, final score,
  decisions, DOS calls, times caught and total decision seconds);
* ``tournament.json``: ``{"tournament": settings, "summary": figures, "games": [...]}``;
* ``win_rates.png``: each bot's win rate with its 95% interval, against its fair share.

Each file is first written under a temporary name in the folder, and only when all three are
complete are they renamed into place; a failure removes the temporary files (and the folder,
if it was created here and is empty), so nothing half-written is ever left behind.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dos import ruleset
from dos.arena.played import PlayedGame
from dos.arena.schedule import TournamentError
from dos.arena.stats import Summary
from dos.extras import installed
from dos.ratings.arena import rating_trail
from dos.ratings.model import Rating

FILES = ("games.csv", "tournament.json", "win_rates.png")


def run_line(settings: dict[str, Any], seconds: float) -> str:
    """The end of a run's headline: its target (or its rule set), backend and time.

    >>> run_line({"options": {"target_score": 100}, "backend": "sequential"}, 2.04)
    'target 100, sequential, 2.0 s'
    """
    options = settings["options"]
    if "target_score" in options:
        where = f"target {options['target_score']}"
    else:
        where = f"{settings.get('rules', ruleset.DEFAULT)} rules"
    return f"{where}, {settings['backend']}, {seconds:.1f} s"


def csv_header(players: int) -> list[str]:
    """The columns of ``games.csv`` for a table of ``players`` seats."""
    columns = ["game", "deal", "rotation", "seed", "winner_seat", "winner_bot", "rounds"]
    for seat in range(players):
        columns += [
            f"bot_{seat}",
            f"score_{seat}",
            f"decisions_{seat}",
            f"calls_{seat}",
            f"caught_{seat}",
            f"seconds_{seat}",
            f"mu_{seat}",
            f"sigma_{seat}",
        ]
    return columns


def csv_row(game: PlayedGame, ratings: dict[str, Rating] | None = None) -> list[Any]:
    """One game's row of ``games.csv``; ``ratings``: each bot's rating after the game."""
    row: list[Any] = [
        game.index,
        game.deal,
        game.rotation,
        game.seed,
        game.winner,
        game.winner_bot,
        game.rounds,
    ]
    for seat, bot in enumerate(game.seating):
        row += [
            bot,
            game.scores[seat],
            game.decisions[seat],
            game.calls[seat],
            game.caught[seat],
            f"{sum(game.decision_seconds[seat]):.6f}",
        ]
        rating = (ratings or {}).get(bot)
        row += ["" if rating is None else f"{rating.mu:.4f}"]
        row += ["" if rating is None else f"{rating.sigma:.4f}"]
    return row


def write_csv(path: Path, games: Sequence[PlayedGame], players: int) -> None:
    """``games.csv`` at ``path``."""
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(csv_header(players))
        trail = rating_trail(games)
        writer.writerows(csv_row(game, after) for game, after in zip(games, trail, strict=True))


def results_json(
    settings: dict[str, Any], summary: Summary, games: Sequence[PlayedGame]
) -> dict[str, Any]:
    """The content of ``tournament.json``; ``forfeits``: each forfeited game's ``game``,
    ``seed`` and forfeit (``dos.arena.forfeits.Forfeit``)."""
    return {
        "tournament": settings,
        "summary": summary.to_json(),
        "forfeits": forfeits_json(games),
        "games": [game.to_json() for game in games],
    }


def forfeits_json(games: Sequence[PlayedGame]) -> list[dict[str, Any]]:
    """Every forfeit of ``games``, with its game's number and seed."""
    return [
        {"game": game.index, "seed": game.seed, **game.forfeit.to_json()}
        for game in games
        if game.forfeit is not None
    ]


def format_forfeits(games: Sequence[PlayedGame]) -> str:
    """The forfeits as lines under a heading (empty if there are none): the game, its seed,
    the seat, the decision (the game's actions before it) and what the bot did."""
    lines = [
        f"game {game.index} (seed {game.seed}), seat {game.forfeit.seat}, decision "
        f"{len(game.forfeit.actions) + 1}: {game.forfeit.reason}"
        for game in games
        if game.forfeit is not None
    ]
    if not lines:
        return ""
    return f"\n\nforfeits ({len(lines)}):\n" + "\n".join(lines)


def write_json(path: Path, document: dict[str, Any]) -> None:
    """``document`` as indented JSON at ``path``."""
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def write_plot(path: Path, summary: Summary, title: str) -> None:
    """``win_rates.png`` at ``path``: one row per bot, its win rate as a dot with its Wilson
    95% interval as a bar, and its fair share as a grey tick.
    """
    from matplotlib.figure import Figure  # the Agg canvas, without pyplot's global state

    bots = summary.bots
    figure = Figure(figsize=(7.0, 1.6 + 0.5 * len(bots)), layout="constrained")
    axes = figure.subplots()
    rows = list(range(len(bots)))[::-1]
    rates = [bot.win_rate for bot in bots]
    lows = [max(0.0, bot.win_rate - bot.interval[0]) for bot in bots]
    highs = [max(0.0, bot.interval[1] - bot.win_rate) for bot in bots]
    axes.errorbar(rates, rows, xerr=[lows, highs], fmt="o", capsize=4, label="win rate, 95% CI")
    axes.scatter(
        [bot.fair_share for bot in bots], rows, marker="|", s=300, color="grey", label="fair share"
    )
    for row, bot in zip(rows, bots, strict=True):
        axes.annotate(
            f"{bot.win_rate:.1%}",
            (bot.win_rate, row),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
        )
    names = [bot.name if bot.seats == 1 else f"{bot.name} ({bot.seats} seats)" for bot in bots]
    axes.set_yticks(rows, names)
    axes.set_ylim(-0.6, len(bots) - 0.2)
    axes.set_xlim(-0.06, 1.06)
    axes.set_xticks([i / 10 for i in range(11)])
    axes.set_xlabel("share of games won")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    figure.legend(loc="outside lower center", ncols=2, fontsize="small", frameon=False)
    figure.savefig(path, format="png", dpi=100)


def write_results(
    out: Path,
    settings: dict[str, Any],
    summary: Summary,
    games: Sequence[PlayedGame],
) -> list[Path]:
    """Writes ``FILES`` into ``out`` (created if need be), all or none; returns their paths.
    Without matplotlib (the ``arena`` extra) the plot is left out."""
    title = f"{', '.join(settings['bots'])}: {summary.games} games, {summary.players} players"
    writers: dict[str, Callable[[Path], None]] = {
        "games.csv": lambda path: write_csv(path, games, summary.players),
        "tournament.json": lambda path: write_json(path, results_json(settings, summary, games)),
    }
    if installed("matplotlib"):
        writers["win_rates.png"] = lambda path: write_plot(path, summary, title)
    return write_atomically(out, writers)


def write_atomically(out: Path, writers: dict[str, Callable[[Path], None]]) -> list[Path]:
    """Calls each writer on a temporary path in ``out``, then renames them all to their names;
    on any failure removes what it wrote (and ``out`` if it made it) and raises.
    """
    created = [parent for parent in [out, *out.parents] if not parent.exists()]
    out.mkdir(parents=True, exist_ok=True)
    temporary: list[Path] = []
    try:
        for name, write in writers.items():
            path = out / f".{name}.{os.getpid()}.tmp"
            temporary.append(path)
            write(path)
        finals = [out / name for name in writers]
        for path, final in zip(temporary, finals, strict=True):
            path.replace(final)
        return finals
    except BaseException:
        for path in temporary:
            path.unlink(missing_ok=True)
        for folder in created:  # innermost first
            try:
                folder.rmdir()
            except OSError:
                break
        raise


def check_out(out: Path) -> None:
    """Raises ``TournamentError`` unless results can be written to ``out``: it is a folder, or
    does not exist yet and its nearest existing parent is a writable folder."""
    existing = next(parent for parent in [out, *out.parents] if parent.exists())
    if not existing.is_dir():
        raise TournamentError(f"--out: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise TournamentError(f"--out: {existing} is not writable")


def percent(value: float | None) -> str:
    """A share as a percentage with one decimal; ``-`` for none.

    >>> percent(0.5), percent(None)
    ('50.0%', '-')
    """
    return "-" if value is None else f"{value:.1%}"


def _number(value: float | None, sign: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.1f}" if sign else f"{value:.1f}"


def _millis(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.3f}"


def format_table(summary: Summary) -> str:
    """The summary as a plain-text table: the bots' figures, then their win rate by seat."""
    header = [
        "bot",
        "seats",
        "games",
        "wins",
        "win rate",
        "95% CI",
        "fair",
        "rating",
        "± 95%",
        "points",
        "margin",
        "decisions",
        "median ms",
        "p95 ms",
    ]
    rows = [header]
    for bot in summary.bots:
        low, high = bot.interval
        rows.append(
            [
                bot.name,
                str(bot.seats),
                str(bot.games),
                str(bot.wins),
                percent(bot.win_rate),
                f"{low:.1%} - {high:.1%}",
                percent(bot.fair_share),
                f"{bot.rating.mu:.1f}",
                f"±{bot.rating_interval[1] - bot.rating.mu:.1f}",
                _number(bot.mean_points),
                _number(bot.mean_margin, sign=True),
                str(bot.decisions),
                _millis(bot.decision_median),
                _millis(bot.decision_p95),
            ]
        )
    seat_header = ["win rate by seat", *[f"seat {s}" for s in range(summary.players)]]
    seat_rows = [seat_header]
    for bot in summary.bots:
        seat_rows.append([bot.name, *[percent(seat.win_rate) for seat in bot.per_seat]])
    seat_rows.append(["any bot", *[percent(seat.win_rate) for seat in summary.seats]])
    return align(rows) + "\n\n" + align(seat_rows)


def align(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell: the first to the left, the others to the right.

    >>> print(align([["bot", "wins"], ["greedy", "7"]]))
    bot     wins
    greedy     7
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
