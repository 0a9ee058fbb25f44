"""A tournament from start to end: check the input, play the schedule on a backend with a
progress bar, sum it up, write the results (``dos tournament``; see ``docs/tournaments.md``).

Everything that can be wrong with the input (a bot name, a count, the output folder, a Ray
address) is found before the first game, and nothing is written until every game is played.
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dos import __version__, ruleset
from dos.arena.backends import Backend, Sequential
from dos.arena.played import PlayedGame
from dos.arena.report import check_out, format_forfeits, format_table, run_line, write_results
from dos.arena.schedule import GameSpec, TournamentError, lineup, make_schedule, seating
from dos.arena.stats import Summary, summarize
from dos.bots.loading import is_file_bot
from dos.bots.registry import make_player
from dos.bots.sandbox.bot import SANDBOX, Sandbox, child, stop_all
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
        """The headline, the figures and the forfeits, as printed by ``dos tournament``."""
        return self.headline() + "\n\n" + format_table(self.summary) + format_forfeits(self.games)


def check_bots(
    bots: Sequence[str],
    rules: str = ruleset.DEFAULT,
    players: int | None = None,
    sandbox: Sandbox | None = None,
) -> None:
    """Raises ``TournamentError`` if a named bot cannot be built for a table of ``rules`` with
    ``players`` seats (e.g. its module is missing, or a ``policy:FILE`` plays another game),
    so that this shows before the first game rather than in a worker. With ``sandbox``, a bot
    by path is loaded in its own process only (``dos.bots.sandbox``), never in this one."""
    for name in bots:
        try:
            if sandbox is not None and is_file_bot(name):
                child(name, rules, sandbox)
            else:
                make_player(name, rules, players=players)
        except DosError as error:  # a refusal that says why (a policy at the wrong table)
            raise TournamentError(f"--bots: {error}") from None
        except Exception as error:
            raise TournamentError(f"--bots: {name!r} cannot be loaded: {error}") from None


def deal_key_for(bots: Sequence[str], deal_key: bytes | None) -> bytes | None:
    """The key of a run's deal seeds: ``deal_key`` if given; else, where a bot by path plays,
    a secret of 16 random bytes drawn now (``secrets``), so that no bot can compute the deals
    from the seed; else ``None`` (the deals a public function of the seed)."""
    if deal_key is not None or not any(is_file_bot(name) for name in bots):
        return deal_key
    return secrets.token_bytes(16)


def arena_settings(
    sandbox: Sandbox | None, deal_key: bytes | None, played: Sequence[PlayedGame]
) -> dict[str, Any]:
    """The settings of a run that say how bots by path played and how to deal its games
    again: the sandbox's limits (``null``: in process), the deal key in hex (``null``: none)
    and the number of forfeits."""
    limits = None
    if sandbox is not None:
        limits = {"move_seconds": sandbox.move_seconds, "grace": sandbox.grace}
    return {
        "sandbox": limits,
        "deal_key": None if deal_key is None else deal_key.hex(),
        "forfeits": sum(game.forfeit is not None for game in played),
    }


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
    sandbox: Sandbox | None = SANDBOX,
    deal_key: bytes | None = None,
) -> TournamentResult:
    """Plays a tournament (``dos.arena.schedule`` says which games) and writes its results
    into ``out`` if given. ``progress``: show a progress bar on stderr (``None``: only if
    stderr is a terminal). Raises ``TournamentError`` on bad input, before any game.

    ``sandbox``: how bots by path play, each in a process of its own (``None``: in this
    process, trusted). ``deal_key``: the key of the deal seeds (``deal_key_for``).
    """
    bots = list(bots)
    deal_key = deal_key_for(bots, deal_key)
    specs = make_schedule(
        bots, players, games, seed=seed, target_score=target_score, rules=rules,
        deal_key=deal_key, sandbox=sandbox,
    )  # fmt: skip
    if out is not None:
        check_out(out)
    backend = backend or Sequential()
    try:
        check_bots(bots, rules, players, sandbox)
        played, seconds = play_schedule(specs, backend, progress, "tournament")
    finally:
        stop_all()
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
        **arena_settings(sandbox, deal_key, played),
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
