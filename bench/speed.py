"""Speed benchmark: random legal play of official DOS against two card-game engine peers.

Run ``.venv/bin/python bench/speed.py [--seconds S] [--json FILE]`` after
``make setup && .tools/bin/uv sync --frozen --group bench`` (or simply ``make bench``).

Every engine is driven by the same protocol: at each decision the bench asks the engine for
the legal actions, picks one uniformly with its own seeded ``random.Random`` and applies it,
for a fixed wall time per configuration after a short warm-up. It counts

* decisions: actions chosen by a player (chance events of the peers are not counted);
* rounds: rounds (hands) finished;
* games: full games finished. A DOS game runs until a player reaches the target score
  (200); for the peers one game is one round.

The peers are RLCard's pure-Python UNO (``rlcard.games.uno.game.UnoGame``) and OpenSpiel's
C++ ``crazy_eights`` through ``pyspiel``, both with their default options. A peer that
cannot be imported or fails is reported and skipped; the exit status is non-zero only when
DOS itself fails. This is a benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PLAYER_COUNTS = (2, 4)
DEFAULT_SECONDS = 5.0
DEFAULT_WARMUP = 1.0
DEFAULT_REPEATS = 5
CLOCK_EVERY = 64
"""Decisions between two reads of the clock (keeps the clock out of the measurement)."""

DOS = "DOS (official)"
RLCARD = "RLCard UNO"
OPENSPIEL = "OpenSpiel crazy_eights"


@dataclass(frozen=True, slots=True)
class Counts:
    """What one timed run of random play got through."""

    decisions: int
    rounds: int
    games: int
    seconds: float

    def rate(self, count: int) -> float:
        """``count`` per second of this run."""
        return count / self.seconds if self.seconds > 0 else 0.0


Runner = Callable[[random.Random, float], Counts]
"""Plays random games with the given generator for about the given seconds."""


@dataclass(slots=True)
class Row:
    """One line of the results: an engine at a player count, measured or failed."""

    engine: str
    players: int
    counts: Counts | None = None
    """All the timed slices of this row added up."""
    decision_rate: float = 0.0
    """The median over the slices of decisions per second (robust to a busy neighbour)."""
    error: str | None = None
    ratio: float | None = None
    """DOS decisions/s divided by this engine's decisions/s, same player count."""

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object, with the rates worked out."""
        data: dict[str, Any] = {"engine": self.engine, "players": self.players}
        if self.counts is not None:
            c = self.counts
            data |= {
                "decisions": c.decisions,
                "rounds": c.rounds,
                "games": c.games,
                "seconds": round(c.seconds, 4),
                "decisions_per_s": round(self.decision_rate, 1),
                "rounds_per_s": round(c.rate(c.rounds), 2),
                "games_per_s": round(c.rate(c.games), 3),
                "dos_ratio": None if self.ratio is None else round(self.ratio, 3),
            }
        data["error"] = self.error
        return data


# --- the engines ---------------------------------------------------------------------------


def installed(distribution: str) -> str:
    """The installed version of ``distribution``, or ``?`` where it has no metadata."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def load_dos() -> str:
    """Imports the DOS engine, falling back to this checkout's ``src/`` when the package is
    not installed; returns a line saying which one was found."""
    try:
        import dos
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
        import dos
    import dos.rules.official.transitions

    return f"dos {dos.__version__} from {Path(dos.__file__).parent}"


def load_rlcard() -> str:
    """Imports RLCard's UNO game; returns a line with the versions."""
    import numpy as np
    import rlcard.games.uno.game  # noqa: F401

    return f"rlcard {installed('rlcard')} (numpy {np.__version__})"


def load_openspiel() -> str:
    """Imports ``pyspiel`` and checks it knows ``crazy_eights``; returns a line with the
    version."""
    import pyspiel

    pyspiel.load_game("crazy_eights")
    return f"open_spiel {installed('open_spiel')}"


def dos_runner(players: int) -> Runner:
    """Random play of official DOS: a new game from a fresh seed until someone has 200."""
    from dos.rules.official.legal import all_legal_actions
    from dos.rules.official.options import Options
    from dos.rules.official.setup import new_game
    from dos.rules.official.transitions import apply

    options = Options(players=players)

    def run(rng: random.Random, seconds: float) -> Counts:
        clock = time.perf_counter
        choice = rng.choice
        decisions = rounds = games = 0
        start = clock()
        deadline = start + seconds
        stopped = False
        while not stopped:
            state = new_game(options, seed=rng.getrandbits(63))
            while state.winner is None:
                apply(state, choice(all_legal_actions(state)))
                decisions += 1
                if not decisions % CLOCK_EVERY and clock() >= deadline:
                    stopped = True
                    break
            rounds += len(state.round_results)
            if state.winner is not None:
                games += 1
        return Counts(decisions, rounds, games, clock() - start)

    return run


def rlcard_runner(players: int) -> Runner:
    """Random play of RLCard's UNO game object (no RL environment around it)."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)

    def run(rng: random.Random, seconds: float) -> Counts:
        # RLCard shuffles with the game's numpy RandomState, handed to its dealer, players
        # and round by init_game: seed it from the bench's generator.
        game.np_random = np.random.RandomState(rng.getrandbits(32))
        clock = time.perf_counter
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        stopped = False
        while not stopped:
            game.init_game()
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
                decisions += 1
                if not decisions % CLOCK_EVERY and clock() >= deadline:
                    stopped = True
                    break
            if game.is_over():
                games += 1
        return Counts(decisions, games, games, clock() - start)

    return run


def openspiel_runner(players: int) -> Runner:
    """Random play of OpenSpiel's ``crazy_eights``; chance outcomes (the deal, draws) are
    sampled by the bench's generator with their given probabilities."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})

    def run(rng: random.Random, seconds: float) -> Counts:
        clock = time.perf_counter
        choice = rng.choice
        choices = rng.choices
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        stopped = False
        while not stopped:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(outcomes, probabilities)[0])
                    continue
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
                if not decisions % CLOCK_EVERY and clock() >= deadline:
                    stopped = True
                    break
            if state.is_terminal():
                games += 1
        return Counts(decisions, games, games, clock() - start)

    return run


@dataclass(frozen=True, slots=True)
class Engine:
    """An engine to measure: its name, how to import it (returning a line with its version)
    and how to build a runner for a player count."""

    name: str
    load: Callable[[], str]
    runner: Callable[[int], Runner]


ENGINES = (
    Engine(DOS, load_dos, dos_runner),
    Engine(RLCARD, load_rlcard, rlcard_runner),
    Engine(OPENSPIEL, load_openspiel, openspiel_runner),
)


# --- measuring and reporting ---------------------------------------------------------------


def describe(error: BaseException) -> str:
    """An exception as one line."""
    return f"{type(error).__name__}: {error}"


def load(engine: Engine) -> tuple[str, str | None]:
    """Imports ``engine``: its line for the report, and why it failed or ``None``."""
    try:
        return f"{engine.name}: {engine.load()}", None
    except Exception as error:
        return f"{engine.name}: not available ({describe(error)})", describe(error)


def measure_all(
    engines: list[Engine], seconds: float, warmup: float, repeats: int, seed: int
) -> list[Row]:
    """Measures every engine at every player count: a warm-up each, then ``repeats`` rounds
    in which each configuration plays ``seconds / repeats`` in turn. Interleaving the slices
    spreads any slow spell of the machine over all engines alike."""
    configs: list[tuple[Engine, int, Runner, random.Random]] = []
    rows: dict[tuple[str, int], Row] = {}
    slices: dict[tuple[str, int], list[Counts]] = {}
    for engine in engines:
        for players in PLAYER_COUNTS:
            key = (engine.name, players)
            print(f"  warming up {engine.name}, {players} players ...", file=sys.stderr)
            try:
                run = engine.runner(players)
                rng = random.Random(f"{seed}/{engine.name}/{players}")
                run(rng, warmup)
            except Exception as error:
                rows[key] = Row(engine.name, players, error=describe(error))
                continue
            configs.append((engine, players, run, rng))
            slices[key] = []
    for repeat in range(repeats):
        print(f"  round {repeat + 1} of {repeats} ...", file=sys.stderr, flush=True)
        for engine, players, run, rng in configs:
            key = (engine.name, players)
            if key in rows:
                continue
            try:
                slices[key].append(run(rng, seconds / repeats))
            except Exception as error:
                rows[key] = Row(engine.name, players, error=describe(error))
    for engine, players, _, _ in configs:
        key = (engine.name, players)
        if key in rows:
            continue
        parts = slices[key]
        total = Counts(
            sum(c.decisions for c in parts),
            sum(c.rounds for c in parts),
            sum(c.games for c in parts),
            sum(c.seconds for c in parts),
        )
        rates = [c.rate(c.decisions) for c in parts]
        rows[key] = Row(engine.name, players, counts=total, decision_rate=statistics.median(rates))
    return [rows[(e.name, n)] for e in engines for n in PLAYER_COUNTS if (e.name, n) in rows]


def add_ratios(rows: list[Row]) -> None:
    """Sets each row's ratio: DOS decisions/s over its decisions/s at the same player count."""
    dos_rates = {
        row.players: row.decision_rate
        for row in rows
        if row.engine == DOS and row.counts is not None
    }
    for row in rows:
        if row.counts is not None and row.decision_rate and row.players in dos_rates:
            row.ratio = dos_rates[row.players] / row.decision_rate


def table(rows: list[Row]) -> str:
    """The results as a Markdown table, by player count then engine."""
    lines = [
        "| engine | players | decisions/s | rounds/s | games/s | DOS ÷ engine (decisions/s) "
        "| games finished |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    order = {engine.name: index for index, engine in enumerate(ENGINES)}
    for row in sorted(rows, key=lambda r: (r.players, order.get(r.engine, len(order)))):
        c = row.counts
        if c is None:
            lines.append(f"| {row.engine} | {row.players} | failed | | | | |")
            continue
        ratio = "" if row.ratio is None or row.engine == DOS else f"{row.ratio:.2f}x"
        lines.append(
            f"| {row.engine} | {row.players} | {row.decision_rate:,.0f} "
            f"| {c.rate(c.rounds):,.1f} | {c.rate(c.games):,.2f} | {ratio} | {c.games:,} |"
        )
    return "\n".join(lines)


def cpu_model() -> str:
    """The processor's model name where the system tells it, else what ``platform`` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The Python and machine the figures were taken on."""
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "python_build": sys.version.replace("\n", " "),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"timed seconds per engine and player count (default {DEFAULT_SECONDS})",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=DEFAULT_WARMUP,
        help=f"untimed warm-up seconds before each measurement (default {DEFAULT_WARMUP})",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=DEFAULT_REPEATS,
        help=f"interleaved slices per row; decisions/s is their median (default {DEFAULT_REPEATS})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bench's choices")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.warmup < 0 or args.repeats < 1:
        parser.error("--seconds must be positive, --warmup not negative, --repeats at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark; 1 if DOS failed, else 0."""
    args = parse_args(argv)
    host = machine()
    print("# DOS speed benchmark: random legal play\n")
    print(f"Python: {host['python']} ({host['python_build']})")
    print(f"Machine: {host['platform']}, {host['cpu']}, {host['cpu_count']} CPUs")
    print(
        f"Timing: {args.seconds:g} s per row in {args.repeats} interleaved slices, after "
        f"{args.warmup:g} s warm-up; decisions/s is the median slice; seed {args.seed}"
    )
    print(f"Command: python {' '.join(sys.argv)}\n", flush=True)

    # Import every engine before timing any, so that each is found (or not) once, up front.
    versions: list[str] = []
    rows: list[Row] = []
    loaded: list[Engine] = []
    for engine in ENGINES:
        version, error = load(engine)
        versions.append(version)
        if error is None:
            loaded.append(engine)
        else:
            rows.extend(Row(engine.name, n, error=f"not available: {error}") for n in PLAYER_COUNTS)
    print("measuring:", file=sys.stderr, flush=True)
    measured = measure_all(loaded, args.seconds, args.warmup, args.repeats, args.seed)
    rows = measured + rows
    add_ratios(rows)

    print("Engines:")
    for version in versions:
        print(f"- {version}")
    print()
    print(table(rows))
    print(
        "\nA decision is one action chosen uniformly among the legal ones (peers' chance events "
        "not counted).\nA DOS game ends at 200 points; a peer's game is one round. "
        "Ratio > 1: DOS makes more decisions per second."
    )
    problems = [row for row in rows if row.error is not None]
    if problems:
        print("\nProblems:")
        for row in problems:
            print(f"- {row.engine}, {row.players} players: {row.error}")

    if args.json is not None:
        report = {
            "machine": host,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "seed": args.seed,
            "engines": versions,
            "results": [row.to_json() for row in rows],
        }
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"\nWrote {args.json}")
    return 1 if any(row.engine == DOS for row in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
