"""A ladder (``dos ladder``): every bot and level in one two-player round-robin, rated together
(see ``docs/tournaments.md``, *Ladder*).

Every pair of distinct names plays ``games`` games: ``games / 2`` deals, each played under
both seatings. The deal seeds come from the ladder seed exactly as a tournament's do
(``dos.arena.schedule.deal_seeds``), so every pair meets the same deals, and a pair's games
are the games ``dos tournament --bots A,B --games N`` with the same seed and target plays.

The games run in a fixed order, deal by deal: for each deal, each pair in turn (the pairs in
the order of the names, ``(a, b), (a, c), ..., (b, c), ...``), each under seating ``(a, b)``
then ``(b, a)``. So every pair's games are spread evenly through the ladder, and one openskill
rating per name (``dos.ratings.arena``, as ``dos tournament`` rates) is updated game after game
in that order, on whatever backend the games were played.

>>> [g.seating for g in ladder_schedule(["x", "y", "z"], 2, known="xyz")]  # one deal
[('x', 'y'), ('y', 'x'), ('x', 'z'), ('z', 'x'), ('y', 'z'), ('z', 'y')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from dos import __version__, ruleset
from dos.arena.backends import Backend, Sequential
from dos.arena.ladder_report import (
    Pairwise,
    format_ladder,
    ladder_json,
    pairwise,
    standings,
    write_ladder,
)
from dos.arena.played import PlayedGame
from dos.arena.report import check_out, format_forfeits, run_line
from dos.arena.schedule import (
    GameSpec,
    TournamentError,
    check_games,
    check_names,
    deal_seeds,
    game_options,
    seating,
)
from dos.arena.stats import BotSummary, Summary, summarize
from dos.arena.tournament import arena_settings, check_bots, deal_key_for, play_schedule
from dos.bots.registry import names
from dos.bots.sandbox.bot import SANDBOX, Sandbox, stop_all
from dos.extras import require

PLAYERS = 2
"""Seats at every ladder table: a ladder plays pairs only."""


def default_names(rules: str = ruleset.DEFAULT) -> list[str]:
    """The names a ladder plays when none are given: every bot and level of ``rules``
    (a ``policy:FILE`` only when named).

    >>> default_names("classic")
    ['random', 'greedy', 'mcts', 'sage', 'easy', 'medium', 'hard', 'expert']
    """
    return list(names(rules))


def ladder_schedule(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    target_score: int = 200,
    known: Sequence[str] | None = None,
    rules: str = ruleset.DEFAULT,
    deal_key: bytes | None = None,
    sandbox: Sandbox | None = None,
) -> list[GameSpec]:
    """Every game of a ladder in rating order (see the module); ``games`` per pair, a
    multiple of 2. Checks the input first (``TournamentError``). ``deal_key`` and ``sandbox``
    as for ``dos.arena.schedule.make_schedule``.

    >>> specs = ladder_schedule(["random", "greedy", "medium"], 4, seed=1)
    >>> len(specs), len({spec.seed for spec in specs})
    (12, 2)
    """
    options = game_options(rules, PLAYERS, target_score)
    check_names(bots, names(rules) if known is None else known)
    check_games(games, PLAYERS)
    pairs = list(combinations(bots, 2))
    return [
        GameSpec(
            index=(deal * len(pairs) + number) * PLAYERS + rotation,
            deal=deal,
            rotation=rotation,
            seed=deal_seed,
            seating=seating(pair, rotation),
            options=options,
            rules=rules,
            sandbox=sandbox,
        )
        for deal, deal_seed in enumerate(deal_seeds(seed, games // PLAYERS, deal_key))
        for number, pair in enumerate(pairs)
        for rotation in range(PLAYERS)
    ]


@dataclass(frozen=True, slots=True)
class LadderResult:
    """A finished ladder: its settings, every game in rating order, the figures (``summary``:
    one entry per name, in the order named), who beat whom, the files written and the wall
    time."""

    settings: dict[str, Any]
    games: list[PlayedGame]
    summary: Summary
    pairwise: Pairwise
    files: list[Path]
    seconds: float

    def standings(self) -> list[BotSummary]:
        """The names' figures, best first (see ``dos.arena.ladder_report.standings``)."""
        return standings(self.summary)

    def headline(self) -> str:
        """One line saying what was played, how and in how long."""
        s = self.settings
        pairs = f"{s['pairs']} pair{'' if s['pairs'] == 1 else 's'}"
        deals = f"{s['deals']} deal{'' if s['deals'] == 1 else 's'}"
        return (
            f"{len(self.games)} games: {len(s['bots'])} names, {pairs} x "
            f"{s['games_per_pair']} games ({deals} x 2 seatings), seed {s['seed']}, "
            + run_line(s, self.seconds)
        )

    def table(self) -> str:
        """The headline, the standings and the pairwise matrix, as ``dos ladder`` prints them."""
        figures = format_ladder(self.summary, self.pairwise)
        return self.headline() + "\n\n" + figures + format_forfeits(self.games)

    def to_json(self) -> dict[str, Any]:
        """The settings, the standings and the pairwise figures (``ladder.json`` less the
        games)."""
        return ladder_json(self.settings, self.summary, self.pairwise)


def run_ladder(
    bots: Sequence[str] | None = None,
    games: int = 20,
    *,
    players: int = PLAYERS,
    seed: int = 0,
    target_score: int = 200,
    backend: Backend | None = None,
    out: Path | None = None,
    progress: bool | None = None,
    rules: str = ruleset.DEFAULT,
    sandbox: Sandbox | None = SANDBOX,
    deal_key: bytes | None = None,
) -> LadderResult:
    """Plays a ladder of ``bots`` (by default ``default_names(rules)``), ``games`` per pair,
    and writes its files into ``out`` if given. Raises ``TournamentError`` on bad input (and
    ``MissingExtraError`` for ``out`` without matplotlib), before any game. ``sandbox`` and
    ``deal_key`` as for ``dos.arena.tournament.run_tournament``.

    >>> result = run_ladder(["random", "greedy"], 2, target_score=30, progress=False)
    >>> sorted(bot.name for bot in result.standings()), result.settings["pairs"]
    (['greedy', 'random'], 1)
    """
    if players != PLAYERS:
        raise TournamentError(f"--players: a ladder plays two-player games only, not {players}")
    bots = default_names(rules) if bots is None else list(bots)
    deal_key = deal_key_for(bots, deal_key)
    specs = ladder_schedule(
        bots, games, seed=seed, target_score=target_score, rules=rules, deal_key=deal_key,
        sandbox=sandbox,
    )  # fmt: skip
    if out is not None:
        check_out(out)
        require("matplotlib", "arena", "dos ladder --out (ladder.png)")
    backend = backend or Sequential()
    try:
        check_bots(bots, rules, PLAYERS, sandbox)
        played, seconds = play_schedule(specs, backend, progress, "ladder")
    finally:
        stop_all()
    summary = summarize(played, bots)
    wins = pairwise(played, bots)
    settings: dict[str, Any] = {
        "bots": bots,
        "pairs": len(bots) * (len(bots) - 1) // 2,
        "games_per_pair": games,
        "deals": games // PLAYERS,
        "players": PLAYERS,
        "seed": seed,
        "rules": rules,
        "options": specs[0].options.to_json(),
        **arena_settings(sandbox, deal_key, played),
        "backend": backend.describe(),
        "seconds": round(seconds, 3),
        "dos_version": __version__,
    }
    result = LadderResult(settings, played, summary, wins, [], seconds)
    if out is None:
        return result
    try:
        files = write_ladder(out, settings, summary, wins, games=played, table=result.table())
    except OSError as error:
        raise TournamentError(f"--out: cannot write the results to {out}: {error}") from None
    return LadderResult(settings, played, summary, wins, files, seconds)
