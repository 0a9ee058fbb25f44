"""Bot decision latency in one server process: on a thread against the local pool of worker
processes (``dos.server.hosting.jobs.LocalJobs``, the bots' lane, which the one-process server
uses).

Positions come from seeded random games (official and classic), each a turn of a seat with
more than one choice. For each level, the same positions are decided

- ``thread``: on a thread of the server's process (``asyncio.to_thread``), as a table with no
  job runner decides (``dos.server.tables.bots``; the server always gives its tables one);
- ``pool``: the ``bot`` job (``dos.server.tables.bot_job``) through ``LocalJobs.run``, as the
  server decides (the view to JSON, a worker process, the action back in notation).

Both decide with the job's function and budget (the level's iterations, no clock), so the
difference is the way, not the work. ``--tables N`` decides N positions at once (N tables
whose bots think at the same moment): threads share one interpreter lock, the pool's
processes do not. Meanwhile a ticker on the event loop measures how late a 10 ms sleep wakes
(``loop lag``: every table's messages wait that much). The workers are warmed first, as a
running server's are. Prints p50 and p99 in ms.

    .venv/bin/python bench/bot_latency.py --decisions 60 --tables 1
    .venv/bin/python bench/bot_latency.py --decisions 60 --tables 4
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from dos import ruleset
from dos.bots.registry import warm_up
from dos.server.hosting.jobs import LocalJobs
from dos.server.tables.bot_job import bot_payload, bot_seed, decide


def positions(rules: str, count: int, seed: int) -> list[Any]:
    """``count`` views of seats to play with a choice, from random games of ``rules``."""
    kit = ruleset.entry(rules).bots
    assert kit is not None
    engine = ruleset.get(rules)
    rng = random.Random(seed)
    found: list[Any] = []
    game = 0
    while len(found) < count:
        state = engine.new_game({"players": 3}, seed + game)
        game += 1
        while not engine.is_over(state) and len(found) < count:
            seat = engine.turn(state)
            seen = kit().seat_view(state, seat)
            if len(seen.legal) > 2 and rng.random() < 0.3:
                found.append(seen)
            engine.apply(state, rng.choice(engine.all_legal_actions(state)))
    return found


async def timed(
    calls: list[Callable[[], Awaitable[Any]]], tables: int
) -> tuple[list[float], list[float]]:
    """Each call's latency in seconds, ``tables`` of them at a time; and the event loop's
    lag meanwhile (how late each 10 ms sleep woke)."""
    latencies: list[float] = []
    lags: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        while not done.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - began - 0.01)

    ticker = asyncio.create_task(tick())
    for start in range(0, len(calls), tables):

        async def one(call: Callable[[], Awaitable[Any]]) -> None:
            began = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - began)

        await asyncio.gather(*(one(call) for call in calls[start : start + tables]))
    done.set()
    await ticker
    return latencies, lags


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=60, help="positions per level")
    parser.add_argument("--tables", type=int, default=1, help="decisions asked at once")
    parser.add_argument("--levels", default="hard,expert")
    parser.add_argument("--rules", default="official,classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    warm_up()  # the thread's side too: compiled rollouts loaded in this process
    jobs = LocalJobs(bot_workers=max(1, args.tables))
    jobs.start()
    await asyncio.gather(*(jobs.run("echo", {}) for _ in range(2)))
    print(f"{args.decisions} decisions per row, {args.tables} at a time; ms")
    print(
        f"{'rules':9} {'level':7} {'thread p50':>10} {'p99':>7} {'lag p99':>8}"
        f" {'pool p50':>9} {'p99':>7} {'lag p99':>8}"
    )
    try:
        for rules in args.rules.split(","):
            views = positions(rules, args.decisions, args.seed)
            for level in args.levels.split(","):

                def by_thread(seen: Any, n: int, rules: str = rules, level: str = level) -> Any:
                    seed = bot_seed(args.seed, seen.seat, n)
                    return asyncio.to_thread(decide, rules, level, seen, effort=1.0, seed=seed)

                def by_pool(seen: Any, n: int, rules: str = rules, level: str = level) -> Any:
                    seed = bot_seed(args.seed, seen.seat, n)
                    return jobs.run("bot", bot_payload(rules, level, seen, 1.0, seed))

                # The pool's workers warm (compiled rollouts) on their first decisions.
                await timed([lambda s=s: by_pool(s, 0) for s in views[: 4 * args.tables]], 4)
                thread, thread_lag = await timed(
                    [lambda s=s, n=n: by_thread(s, n) for n, s in enumerate(views)], args.tables
                )
                pool, pool_lag = await timed(
                    [lambda s=s, n=n: by_pool(s, n) for n, s in enumerate(views)], args.tables
                )
                t50, t99 = percentiles(thread)
                p50, p99 = percentiles(pool)
                tl, pl = percentiles(thread_lag)[1], percentiles(pool_lag)[1]
                print(
                    f"{rules:9} {level:7} {t50:10.1f} {t99:7.1f} {tl:8.1f}"
                    f" {p50:9.1f} {p99:7.1f} {pl:8.1f}"
                )
    finally:
        await asyncio.to_thread(jobs.stop)


if __name__ == "__main__":
    asyncio.run(main())
