"""Random legal games, for smoke tests and speed figures (``dos simulate``).

Two engines play the very same games: ``python`` (the rules engine, the reference) and
``fast`` (the compiled core, ``dos.fast``), whose random play draws its choices from a
Mersenne Twister equal to ``random.Random(seed)``, so games, rounds and decisions agree.
``auto`` (the command's default) takes ``fast`` when numba is installed (the ``fast`` extra).
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from dos import ruleset


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Counts and time of a batch of random games."""

    rules: str
    engine: str
    players: int
    games: int
    rounds: int
    decisions: int
    seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "decisions_per_second": round(self.decisions_per_second, 1)}


def random_game(rules_name: str, options: dict[str, Any], seed: int) -> Any:
    """One game in which every step is an action drawn uniformly from every seat's legal
    actions by a generator seeded with ``seed`` (the deal uses the same seed)."""
    rules = ruleset.get(rules_name)
    chooser = random.Random(seed)
    state = rules.new_game(options, seed)
    while not rules.is_over(state):
        actions = rules.all_legal_actions(state)
        rules.apply(state, actions[chooser.randrange(len(actions))])
    return state


ENGINES = ("auto", "python", "fast")
FAST_CHUNK = 1024
"""Games the fast engine plays at once (memory: about 12 KB a game)."""


def simulate(
    rules_name: str, players: int, games: int, seed: int, engine: str = "python"
) -> SimulationResult:
    """Plays ``games`` random games (seeds ``seed``, ``seed + 1``, ...) and counts them."""
    if engine == "auto":
        engine = "fast" if fast_available() else "python"
    if engine == "fast":
        return _simulate_fast(rules_name, players, games, seed)
    if engine != "python":
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    rules = ruleset.get(rules_name)
    rounds = decisions = 0
    began = time.perf_counter()
    for number in range(games):
        state = random_game(rules_name, {"players": players}, seed + number)
        rounds += rules.rounds_played(state)
        decisions += len(state.history)
    seconds = time.perf_counter() - began
    return SimulationResult(rules_name, "python", players, games, rounds, decisions, seconds)


def fast_available() -> bool:
    """Whether the compiled fast core can be used (numba and numpy are installed)."""
    try:
        import dos.fast  # noqa: F401
    except ImportError:
        return False
    return True


def _simulate_fast(rules_name: str, players: int, games: int, seed: int) -> SimulationResult:
    """``simulate`` on the compiled core: the games of ``random_game``, played a chunk at a
    time over every core. Loading the compiled code (or compiling it, the first time on a
    machine) happens before the clock starts."""
    from dos.fast import Batch
    from dos.fast.rng import new_mts

    options = {"players": players}
    warm = Batch(rules_name, [seed], options)
    warm.core.random_games(warm.states, new_mts([seed]), 1)
    rounds = decisions = 0
    began = time.perf_counter()
    for first in range(seed, seed + games, FAST_CHUNK):
        seeds = list(range(first, min(first + FAST_CHUNK, seed + games)))
        batch = Batch(rules_name, seeds, options)
        decisions += batch.core.random_games(batch.states, new_mts(seeds), -1)
        rounds += sum(batch.rounds(i) for i in range(batch.size))
    seconds = time.perf_counter() - began
    return SimulationResult(rules_name, "fast", players, games, rounds, decisions, seconds)
