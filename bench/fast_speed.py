"""Speed of the compiled fast core (``dos.fast``): Python-driven and batch random play.

Run ``.venv/bin/python bench/fast_speed.py [--seconds S] [--json FILE]`` after
``make setup && .tools/bin/uv sync --frozen --all-extras --group bench`` (the peers).

Two measurements, in one run:

1. **Python-driven random play**, the protocol of ``bench/speed.py`` (one decision per call
   from Python, the choice made in Python with the bench's seeded ``random.Random``): the
   fast core next to the Python engine, RLCard UNO and OpenSpiel ``crazy_eights``, measured
   in the same interleaved slices by ``speed.measure_all``. The fast core's call per
   decision is ``n = step(game, k)``: apply legal action number ``k`` (of the engine's
   ``all_legal_actions`` order, which the core generates), return how many legal actions
   follow; the bench chooses ``k = randrange(n)``.
2. **Batch random play**: ``N`` games stepping at once in compiled code
   (``dos.fast.official_api.random_play``, numba ``prange`` over the games), every game
   making the same number of random decisions and being dealt anew when it ends, on all the
   machine's cores and on one (``numba.set_num_threads``). Besides wall-clock rates it
   prints decisions per CPU second of the process (all threads): what one core does while
   it runs, which other jobs on the machine disturb far less than the wall clock.

It is a benchmark, not a test: the figures depend on the machine and on what else runs on it
(the load average before and after is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import speed

FAST = "DOS fast core (official)"
FAST_LIST = "DOS fast core, list + apply"
DEFAULT_BATCH = 1024
DEFAULT_BUDGET = 256
"""Decisions per game in one compiled call of the batch measurement."""


def load_fast() -> str:
    """Imports the fast core and compiles (or loads from the cache) what the bench calls."""
    speed.load_dos()
    import numba

    import dos.fast

    fast_runner(2)(random.Random(0), 0.05)
    return f"dos.fast (numba {numba.__version__}) from {Path(dos.fast.__file__).parent}"


def fast_runner(players: int) -> speed.Runner:
    """Python-driven random play of the fast core: one ``step`` call per decision."""
    import numpy as np

    from dos.fast import core
    from dos.fast.official_layout import ROUNDS, WINNER

    fast = core("official")
    step = fast.step
    options = {"players": players}
    state = np.zeros(fast.size, dtype=np.int64)
    empty = np.empty(0, dtype=np.int64)

    def run(rng: random.Random, seconds: float) -> speed.Counts:
        clock = time.perf_counter
        randrange = rng.randrange
        decisions = rounds = games = 0
        start = clock()
        deadline = start + seconds
        stopped = False
        while not stopped:
            fast.new_game(state, options, rng.getrandbits(63))
            n = fast.legal(state, empty, -1)
            while n:
                n = step(state, randrange(n))
                decisions += 1
                if not decisions % speed.CLOCK_EVERY and clock() >= deadline:
                    stopped = True
                    break
            rounds += int(state[ROUNDS])
            if state[WINNER] >= 0:
                games += 1
        return speed.Counts(decisions, rounds, games, clock() - start)

    return run


def fast_list_runner(players: int) -> speed.Runner:
    """Python-driven random play of the fast core in two calls per decision, as the Python
    engine is driven: the legal actions written out (as codes, into a buffer), one chosen in
    Python, then applied."""
    import numpy as np

    from dos.fast import core
    from dos.fast.official_layout import ROUNDS, WINNER

    fast = core("official")
    legal = fast.legal
    apply = fast.apply
    options = {"players": players}
    state = np.zeros(fast.size, dtype=np.int64)
    codes = np.empty(4096, dtype=np.int64)

    def run(rng: random.Random, seconds: float) -> speed.Counts:
        clock = time.perf_counter
        randrange = rng.randrange
        decisions = rounds = games = 0
        start = clock()
        deadline = start + seconds
        stopped = False
        while not stopped:
            fast.new_game(state, options, rng.getrandbits(63))
            while True:
                n = legal(state, codes, -1)
                if not n:
                    break
                apply(state, int(codes[randrange(n)]), -1)
                decisions += 1
                if not decisions % speed.CLOCK_EVERY and clock() >= deadline:
                    stopped = True
                    break
            rounds += int(state[ROUNDS])
            if state[WINNER] >= 0:
                games += 1
        return speed.Counts(decisions, rounds, games, clock() - start)

    return run


def measure_batch(
    players: int, games: int, threads: int, seconds: float, repeats: int
) -> dict[str, Any]:
    """Batch random play of ``games`` games on ``threads`` threads: decisions/s (median of
    ``repeats`` slices), games and rounds finished per second."""
    import numba
    import numpy as np

    from dos.fast import Batch
    from dos.fast.official_api import random_play
    from dos.fast.rng import new_mts

    numba.set_num_threads(threads)
    # Games are handed to the threads in chunks of 16 as they free up, so that a thread the
    # machine slows down does not leave the other waiting at the end of each call.
    numba.set_parallel_chunksize(16)
    seeds = list(range(games))
    batch = Batch("official", seeds, {"players": players})
    mts = new_mts(seeds)
    following = np.arange(games, 2 * games, dtype=np.int64)
    random_play(batch.states, mts, 8, following)  # warm-up (threads started)
    rates: list[float] = []
    totals = [0, 0, 0]
    spent = 0.0
    cpu = time.process_time()
    for _ in range(repeats):
        began = time.perf_counter()
        end = began + seconds / repeats
        made = [0, 0, 0]
        while True:
            for i, value in enumerate(random_play(batch.states, mts, DEFAULT_BUDGET, following)):
                made[i] += value
            if time.perf_counter() >= end:
                break
        elapsed = time.perf_counter() - began
        rates.append(made[0] / elapsed)
        totals = [t + m for t, m in zip(totals, made, strict=True)]
        spent += elapsed
    cpu = time.process_time() - cpu
    return {
        "players": players,
        "games_in_batch": games,
        "threads": threads,
        "decisions_per_s": round(statistics.median(rates)),
        "games_per_s": round(totals[1] / spent, 1),
        "rounds_per_s": round(totals[2] / spent, 1),
        "decisions": totals[0],
        "decisions_per_cpu_s": round(totals[0] / cpu) if cpu > 0 else 0,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=speed.DEFAULT_SECONDS)
    parser.add_argument("--warmup", type=float, default=speed.DEFAULT_WARMUP)
    parser.add_argument("--repeats", type=int, default=speed.DEFAULT_REPEATS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="games in a batch")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.warmup < 0 or args.repeats < 1 or args.batch < 1:
        parser.error("--seconds, --repeats and --batch must be positive, --warmup not negative")
    return args


def python_driven_table(rows: list[speed.Row]) -> str:
    """The Python-driven rows with the fast core's ratios to each engine (one call per
    decision, and two: list then apply)."""
    rates = {(r.engine, r.players): r.decision_rate for r in rows if r.counts}
    lines = [
        "| engine | players | decisions/s | games/s | fast core ÷ engine | list + apply ÷ engine |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: r.players):
        c = row.counts
        if c is None:
            lines.append(f"| {row.engine} | {row.players} | failed | | | |")
            continue
        ratios = ["", ""]
        if row.engine not in (FAST, FAST_LIST):
            for i, name in enumerate((FAST, FAST_LIST)):
                mine = rates.get((name, row.players))
                if mine:
                    ratios[i] = f"{mine / row.decision_rate:.2f}x"
        lines.append(
            f"| {row.engine} | {row.players} | {row.decision_rate:,.0f} "
            f"| {c.rate(c.games):,.2f} | {ratios[0]} | {ratios[1]} |"
        )
    return "\n".join(lines)


def batch_table(results: list[dict[str, Any]]) -> str:
    """The batch rows."""
    lines = [
        "| players | games at once | threads | decisions/s | per thread | games/s "
        "| decisions per CPU second |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r['players']} | {r['games_in_batch']:,} | {r['threads']} "
            f"| {r['decisions_per_s']:,} | {r['decisions_per_s'] // r['threads']:,} "
            f"| {r['games_per_s']:,.1f} | {r['decisions_per_cpu_s']:,} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Runs both measurements and prints the tables."""
    args = parse_args(argv)
    host = speed.machine()
    print("# DOS fast core speed benchmark\n")
    print(f"Python: {host['python']}; machine: {host['cpu']}, {host['cpu_count']} CPUs")
    print(f"Load average before: {os.getloadavg()[0]:.2f}")
    print(f"Command: python {' '.join(sys.argv)}\n", flush=True)
    engines = [
        speed.Engine(FAST, load_fast, fast_runner),
        speed.Engine(FAST_LIST, load_fast, fast_list_runner),
        *speed.ENGINES,
    ]
    versions: list[str] = []
    loaded: list[speed.Engine] = []
    for engine in engines:
        version, error = speed.load(engine)
        versions.append(version)
        if error is None:
            loaded.append(engine)
    print("measuring Python-driven play:", file=sys.stderr, flush=True)
    rows = speed.measure_all(loaded, args.seconds, args.warmup, args.repeats, args.seed)
    print("measuring batch play:", file=sys.stderr, flush=True)
    cores = os.cpu_count() or 1
    batch = [
        measure_batch(players, args.batch, threads, args.seconds, args.repeats)
        for players in speed.PLAYER_COUNTS
        for threads in sorted({cores, 1}, reverse=True)
    ]
    print("Engines:")
    for version in versions:
        print(f"- {version}")
    print("\n## Python-driven random play (one decision per call, the bench/speed.py protocol)\n")
    print(python_driven_table(rows))
    print("\n## Batch random play (compiled, games stepping at once)\n")
    print(batch_table(batch))
    print(f"\nLoad average after: {os.getloadavg()[0]:.2f}")
    if args.json is not None:
        report = {
            "machine": host,
            "engines": versions,
            "python_driven": [row.to_json() for row in rows],
            "batch": batch,
        }
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"\nWrote {args.json}")
    return 0 if any(r.engine == FAST and r.counts for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
