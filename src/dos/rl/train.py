"""Training example: a masked policy for official DOS, trained by PPO with JAX and optax on
the CPU (the ``train`` extra).

    python -m dos.rl.train --out policy.npz          # a first try: 2 minutes against random
    python -m dos.rl.train --opponents random:32,greedy:32 --minutes 60 --out policy.npz

A run stops after ``--minutes`` or ``--iterations``, whichever comes first. Without either it
stops after 2 minutes, a first try; with ``--iterations`` alone it has no time limit (so a
seeded run repeats). To train longer, give more minutes or a number of iterations.
Experience comes from
``FastVectorGames`` on the compiled core (``VectorGames`` without numba; one batch per player
count and opponent kind, the learner at seat 0); each episode is one
round (``--round-target``, default 1: the first to score wins, so a round is a game) unless
told otherwise, which gives a reward per round instead of per 200 points. The network is
``dos.rl.policy``'s: a state tower, an action tower over the fixed features of each index
(``dos.rl.features``), logits ``e_i . h + bias_i`` masked to the legal indices, and a value
head. Every ``--save-every`` iterations (default 20), and at the end, the policy file is
written, so a run cut short still leaves a policy. The run is reproducible from ``--seed``
(one CPU thread).

``train(...)`` is the same from Python; it returns the history of the run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dos.bots import registry
from dos.rl.league import LeagueSettings
from dos.rl.policy import PLAYED
from dos.rules.official.options import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    import numpy as np


@dataclass
class Settings:
    """What a training run does."""

    players: tuple[int, ...] = (2,)
    """The player counts trained at: one batch per count and opponent kind (several need the
    padded layout)."""
    layout: str = "padded"
    """The observation layout (``dos.rl.layout``): ``padded`` plays every player count."""
    backend: str = "auto"
    """Where the games are played: ``fast`` (``FastVectorGames``, the compiled core), ``python``
    (``VectorGames``), ``auto`` the fast one when numba is installed."""
    opponents: tuple[tuple[str, int], ...] = (("random", 32),)
    """(bot name, games in the batch) pairs."""
    round_target: int = 1
    reward: str = "round"
    """``round``: +1 for a round won, -1 lost; ``points``: the same sign, times
    ``0.25 + points / 100`` (the points the round's winner scored), so that shedding points
    counts even in a lost round, as it does in a game to 200."""
    steps: int = 32
    """Steps per game per iteration."""
    iterations: int = 1_000_000
    minutes: float | None = 2.0
    """Wall-clock minutes after which the run stops (at the end of an iteration; ``None``: no
    time limit): short, so that a first try ends soon; a real run gives more, or a number of
    ``iterations`` and no time limit."""
    hidden: int = 128
    embed: int = 64
    learning_rate: float = 3e-4
    gamma: float = 0.99
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 3
    minibatch: int = 512
    entropy: float = 0.01
    value: float = 0.5
    seed: int = 0
    save_every: int = 20
    """Write the policy file every this many iterations (and at the end)."""
    league: LeagueSettings | None = None
    """A league (``dos.rl.league``): the policy's snapshots, and bots, drawn as opponents in
    batches of their own beside those of ``opponents``; ``None``: none."""
    league_folder: str | None = None
    """Where the league's snapshots are written; ``None``: beside the policy file, in
    ``<its name>-league/``."""


@dataclass
class History:
    """What happened in a run: per iteration, the learner's finished episodes and wins."""

    episodes: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    league: list[list[str]] = field(default_factory=list)
    """The league's draws, one list per snapshot (empty without a league)."""


def train(
    settings: Settings,
    out: str | None = None,
    initial: dict[str, np.ndarray] | None = None,
    log: Callable[[str], None] | None = None,
) -> tuple[dict[str, np.ndarray], History]:
    """Trains a policy; returns its parameters and the run's history (see the module). JAX
    is imported here, on the first run, not with the module."""
    from dos.rl.ppo import learn

    return learn(settings, out, initial, log)


GAMES_EACH = 32
"""``--opponents``: the games in the batch against an opponent whose entry does not say."""


def parse_opponents(text: str, counted: bool = True) -> tuple[tuple[str, int], ...]:
    """``--opponents``: comma-separated entries ``NAME`` or ``NAME:GAMES``, each a name
    ``make_player`` takes (a bot or level, ``policy:FILE``, ``FILE.py`` or ``FILE.py:CLASS``)
    and the games against it in a batch (``GAMES_EACH`` unless said). ``GAMES`` is a trailing
    ``:N`` whose left side is itself a name; so ``policy:7`` is the policy file ``7``, and a
    name never loses a ``:`` of its own. Raises ``ValueError`` for an empty entry or a count
    below 1, and for any count where the entries are not ``counted`` (``--league-pool``: the
    games against a member are ``--league-games``).

    >>> parse_opponents("greedy,random:16")
    (('greedy', 32), ('random', 16))
    >>> parse_opponents("policy:runs/p.npz:8,bots/mine.py:MyBot")
    (('policy:runs/p.npz', 8), ('bots/mine.py:MyBot', 32))
    """
    found = []
    for part in text.split(","):
        entry = part.strip()
        name, colon, games = entry.rpartition(":")
        if not (colon and games.isdigit() and name in registry.names(PLAYED)):
            name, games = entry, ""
        elif not counted:
            raise ValueError(f"{entry!r}: no count here (the games against it: --league-games)")
        if not name:
            raise ValueError(f"an empty opponent in {text!r}")
        count = int(games) if games else GAMES_EACH
        if count < 1:
            raise ValueError(f"{entry!r}: at least 1 game, not {count}")
        found.append((name, count))
    return tuple(found)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a chance from 0 to 1, not {text}")
    return value


def _names(
    parser: argparse.ArgumentParser, option: str, text: str, counts: Sequence[int]
) -> tuple[tuple[str, int], ...]:
    """The opponents of ``--opponents`` or ``--league-pool``, each made once for every
    player count trained at, so that a name that cannot play is refused (exit status 2)
    before any training."""
    try:
        found = parse_opponents(text, counted=option != "--league-pool") if text.strip() else ()
        for name, _ in found:
            for players in counts:
                registry.make_player(name, PLAYED, players=players)
    except (ValueError, OSError) as error:
        parser.error(f"{option}: {error}")
    return found


def _counts(text: str) -> tuple[int, ...]:
    """``--players``: player counts, comma-separated, each one a table of official DOS."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts like 2 or 2,3,4, not {text}") from None
    wrong = [n for n in counts if not MIN_PLAYERS <= n <= MAX_PLAYERS]
    if wrong or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(
            f"distinct counts from {MIN_PLAYERS} to {MAX_PLAYERS}, not {text}"
        )
    return counts


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m dos.rl.train``; its defaults are ``Settings()``'s."""
    d = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m dos.rl.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players",
        type=_counts,
        default=d.players,
        metavar="N[,N...]",
        help="the player counts to train at, e.g. 2,3,4: one batch per count and opponent "
        f"(default {','.join(map(str, d.players))})",
    )
    parser.add_argument(
        "--layout",
        choices=("padded", "exact"),
        help="the observation layout: padded (the default) plays every player count, exact "
        "only --players (that of an --init policy by default)",
    )
    parser.add_argument(
        "--opponents",
        default="random:32",
        help="NAME[:GAMES],...: the opponents and how many games against each in a batch "
        f"(default random:32; {GAMES_EACH} where not said): a bot or level (greedy, hard), a "
        "checkpoint (policy:FILE.npz), a bot by path (FILE.py:CLASS); none with --opponents ''"
        " and a league",
    )
    league = parser.add_argument_group(
        "league", "the policy's snapshots and bots as a pool of opponents (dos.rl.league)"
    )
    league.add_argument(
        "--league",
        type=_at_least_one,
        metavar="K",
        help="play a league: every K iterations a snapshot of the policy joins the pool and "
        "the league's opponents are drawn again (default: no league)",
    )
    league.add_argument(
        "--league-pool",
        default="",
        metavar="NAME,...",
        help="bots and checkpoints in the pool for the whole run, beside the snapshots",
    )
    league.add_argument(
        "--league-games",
        type=_at_least_one,
        default=LeagueSettings(every=1).games,
        metavar="N",
        help=f"games in the batch against each drawn opponent (default "
        f"{LeagueSettings(every=1).games})",
    )
    league.add_argument(
        "--league-draws",
        type=_at_least_one,
        default=LeagueSettings(every=1).draws,
        metavar="D",
        help=f"opponents drawn at each snapshot (default {LeagueSettings(every=1).draws})",
    )
    league.add_argument(
        "--league-latest",
        type=_chance,
        default=LeagueSettings(every=1).latest,
        metavar="P",
        help="the chance that a draw is the newest snapshot, else any member of the pool "
        f"uniformly (default {LeagueSettings(every=1).latest:g})",
    )
    league.add_argument(
        "--league-keep",
        type=_at_least_one,
        default=LeagueSettings(every=1).keep,
        metavar="N",
        help=f"the newest snapshots kept in the pool (default {LeagueSettings(every=1).keep})",
    )
    league.add_argument(
        "--league-folder",
        metavar="DIR",
        help="where the snapshots are written (default: OUT's name with -league, beside it)",
    )
    parser.add_argument(
        "--minutes",
        type=_positive,
        help=f"stop after this many minutes (default {d.minutes:g}: a first try; none with "
        "--iterations alone; docs/rl.md trains for an hour and more)",
    )
    parser.add_argument(
        "--iterations",
        type=_at_least_one,
        help="stop after this many iterations (alone: no time limit, so that a seeded run "
        "repeats, unlike with --minutes)",
    )
    parser.add_argument(
        "--save-every",
        type=_at_least_one,
        default=d.save_every,
        metavar="N",
        help=f"write the policy file every N iterations, and at the end (default {d.save_every})",
    )
    parser.add_argument(
        "--round-target",
        type=int,
        default=d.round_target,
        help="target score of an episode (default 1: one round)",
    )
    parser.add_argument(
        "--reward",
        choices=("round", "points"),
        default=d.reward,
        help="round: +1/-1 per round; points: the same times 0.25 + points/100 (default round)",
    )
    parser.add_argument(
        "--seed", type=int, default=d.seed, help=f"seed of the run (default {d.seed})"
    )
    parser.add_argument("--init", metavar="FILE", help="start from this policy file")
    parser.add_argument(
        "--out", required=True, metavar="FILE", help="the policy file to write (.npz)"
    )
    return parser


def _minutes(args: argparse.Namespace) -> float | None:
    """The time limit: as given; none for ``--iterations`` alone; else the short default."""
    if args.minutes is not None:
        minutes: float = args.minutes
        return minutes
    return None if args.iterations is not None else Settings().minutes


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    opponents = _names(parser, "--opponents", args.opponents, args.players)
    pool = _names(parser, "--league-pool", args.league_pool, args.players)
    if pool and args.league is None:
        parser.error("--league-pool: a pool for a league: give --league K too")
    if not opponents and args.league is None:
        parser.error("--opponents: none; name some, or play a league (--league K)")
    initial = None
    layout = args.layout
    if args.init:
        from dos.rl.policy import load

        policy = load(args.init)
        if layout is not None and layout != policy.layout:
            raise SystemExit(f"--init {args.init}: a policy of the {policy.layout} layout")
        if not all(policy.plays(PLAYED, players) for players in args.players):
            raise SystemExit(f"--init {args.init}: plays {policy.table()}")
        layout = policy.layout
        initial = policy.params
    if layout == "exact" and len(args.players) != 1:
        raise SystemExit("--layout exact plays one player count: give one --players")
    settings = Settings(
        players=args.players,
        layout=layout or Settings().layout,
        opponents=opponents,
        minutes=_minutes(args),
        iterations=Settings().iterations if args.iterations is None else args.iterations,
        round_target=args.round_target,
        reward=args.reward,
        seed=args.seed,
        save_every=args.save_every,
        league=None
        if args.league is None
        else LeagueSettings(
            every=args.league,
            games=args.league_games,
            draws=args.league_draws,
            latest=args.league_latest,
            keep=args.league_keep,
            pool=tuple(name for name, _ in pool),
        ),
        league_folder=args.league_folder,
    )
    train(settings, args.out, initial, log=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
