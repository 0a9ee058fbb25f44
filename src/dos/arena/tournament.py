"""A tournament from start to end: check the input, play the schedule on a backend with a
progress bar, sum it up, write the results (``dos tournament``; see ``docs/tournaments.md``).

Everything that can be wrong with the input (a bot name, a count, the output folder, a Ray
address) is found before the first game, and nothing is written until every game is played.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dos import __version__, ruleset
from dos.arena.backends import Backend, Sequential
from dos.arena.played import PlayedGame
from dos.arena.report import check_out, format_table, run_line, write_results
from dos.arena.schedule import GameSpec, TournamentError, lineup, make_schedule, seating
from dos.arena.stats import Summary, summarize
from dos.bots.registry import make_player
from dos.errors import DosError


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished tournament: its settings, every game in schedule order, the figures, the
    files written (none without an output folder) and the wall time."""

    settings: dict[str, Any]
    games: list[PlayedGame]
    summary: Summary
    files: list[Path]
    seconds: float

    def headline(self) -> str:
        """One line saying what was played, how and in how long."""
        s = self.settings
        deals = f"{s['deals']} deal{'' if s['deals'] == 1 else 's'}"
        return (
            f"{s['games']} games ({deals} x {s['players']} seatings), "
            f"{', '.join(s['lineup'])}, seed {s['seed']}, " + run_line(s, self.seconds)
        )

    def table(self) -> str:
        """The headline and the figures, as printed by ``dos tournament``."""
        return self.headline() + "\n\n" + format_table(self.summary)


def check_bots(
    bots: Sequence[str], rules: str = ruleset.DEFAULT, players: int | None = None
) -> None:
    """Raises ``TournamentError`` if a named bot cannot be built for a table of ``rules`` with
    ``players`` seats (e.g. its module is missing, or a ``policy:FILE`` plays another game),
    so that this shows before the first game rather than in a worker."""
    for name in bots:
        try:
            make_player(name, rules, players=players)
        except DosError as error:  # a refusal that says why (a policy at the wrong table)
            raise TournamentError(f"--bots: {error}") from None
        except Exception as error:
            raise TournamentError(f"--bots: {name!r} cannot be loaded: {error}") from None


def play_schedule(
    specs: Sequence[GameSpec], backend: Backend, progress: bool | None, desc: str
) -> tuple[list[PlayedGame], float]:
    """Plays ``specs`` on ``backend`` with a progress bar on stderr labelled ``desc``
    (``progress`` ``None``: only if stderr is a terminal); returns the games in schedule order
    and the wall time in seconds.
    """
    from tqdm import tqdm

    began = time.perf_counter()
    with tqdm(
        total=len(specs),
        unit="game",
        desc=desc,
        file=sys.stderr,
        disable=None if progress is None else not progress,
        dynamic_ncols=True,
    ) as bar:
        played = backend.run(specs, bar.update)
    return played, time.perf_counter() - began


def run_tournament(
    bots: Sequence[str],
    players: int,
    games: int,
    *,
    seed: int = 0,
    target_score: int = 200,
    backend: Backend | None = None,
    out: Path | None = None,
    progress: bool | None = None,
    rules: str = ruleset.DEFAULT,
) -> TournamentResult:
    """Plays a tournament (``dos.arena.schedule`` says which games) and writes its results
    into ``out`` if given. ``progress``: show a progress bar on stderr (``None``: only if
    stderr is a terminal). Raises ``TournamentError`` on bad input, before any game.
    """
    bots = list(bots)
    specs = make_schedule(bots, players, games, seed=seed, target_score=target_score, rules=rules)
    check_bots(bots, rules, players)
    if out is not None:
        check_out(out)
    backend = backend or Sequential()
    played, seconds = play_schedule(specs, backend, progress, "tournament")
    summary = summarize(played, bots)
    base = lineup(bots, players)
    settings: dict[str, Any] = {
        "bots": bots,
        "lineup": list(base),
        "seatings": [list(seating(base, rotation)) for rotation in range(players)],
        "players": players,
        "games": games,
        "deals": games // players,
        "seed": seed,
        "rules": rules,
        "options": specs[0].options.to_json(),
        "backend": backend.describe(),
        "seconds": round(seconds, 3),
        "dos_version": __version__,
    }
    files: list[Path] = []
    if out is not None:
        try:
            files = write_results(out, settings, summary, played)
        except OSError as error:
            raise TournamentError(f"--out: cannot write the results to {out}: {error}") from None
    return TournamentResult(settings, played, summary, files, seconds)
