"""The flake hunt (``make flake-hunt``): the tests that play through servers, several times,
each round under another deal seed and another order of the tests.

A test that passes under one deal seed and fails under another bets on how a deal falls; one
that fails in one order only leans on what another test left behind. Each failure is printed
with the line that reproduces it (the deal seed, the order seed and the test's id); the hunt
exits 1 if any round failed.

    python scripts/flake_hunt.py [--rounds N] [--seed S] [--workers W] [PATH ...]

Round ``r`` deals from ``S + r`` and orders the tests by ``S + r``. ``S`` defaults to one drawn
at random (and printed), so that every hunt tries deals no earlier hunt tried.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

PATHS = ["tests/web", "tests/server", "tests/cluster"]
ROOT = Path(__file__).resolve().parents[1]


def failures(report: Path) -> list[str]:
    """The ids of the tests a JUnit report says failed or errored."""
    if not report.exists():
        return []
    found = []
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname", "").replace(".", "/")
            found.append(f"{module}.py::{case.get('name')}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=PATHS, help="test folders or modules")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--seed", type=int, help="the first round's deal and order seed")
    parser.add_argument("--workers", default=os.environ.get("PYTEST_WORKERS", "3"))
    args = parser.parse_args()
    first = args.seed if args.seed is not None else random.randrange(1, 1 << 30)
    pytest = str(Path(sys.executable).with_name("pytest"))
    print(
        f"flake hunt: {args.rounds} rounds from seed {first} over {' '.join(args.paths)}",
        flush=True,
    )
    found: list[tuple[int, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.rounds):
            seed = first + number
            report = Path(folder) / f"round{number}.xml"
            env = {**os.environ, "DOS_TEST_DEAL_SEED": str(seed), "DOS_TEST_ORDER_SEED": str(seed)}
            started = time.monotonic()
            command = [pytest, "-q", "-p", "no:cacheprovider", "-n", args.workers]
            command += ["--dist", "loadscope", "--no-loadscope-reorder"]  # the shuffled order
            command += [f"--junitxml={report}", *args.paths]
            code = subprocess.run(
                command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False
            ).returncode
            failed = failures(report)
            seconds = time.monotonic() - started
            if code != 0 and not failed:
                failed = [f"(pytest exited {code} with no failed test named)"]
            print(f"round {number + 1}: seed {seed}: {len(failed)} failed ({seconds:.0f} s)")
            for test in failed:
                print(f"  FAILED {test}", flush=True)
            found += [(seed, test) for test in failed]
    for seed, test in found:
        print(
            f"FAILED {test}\n  DOS_TEST_DEAL_SEED={seed} DOS_TEST_ORDER_SEED={seed} pytest '{test}'"
        )
    print(f"flake hunt: {len(found)} failures in {args.rounds} rounds")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
