"""Random legal games, for smoke tests and speed figures (``dos simulate``)."""

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


def simulate(rules_name: str, players: int, games: int, seed: int) -> SimulationResult:
    """Plays ``games`` random games (seeds ``seed``, ``seed + 1``, ...) and counts them."""
    rules = ruleset.get(rules_name)
    rounds = decisions = 0
    began = time.perf_counter()
    for number in range(games):
        state = random_game(rules_name, {"players": players}, seed + number)
        rounds += rules.rounds_played(state)
        decisions += len(state.history)
    seconds = time.perf_counter() - began
    return SimulationResult(rules_name, players, games, rounds, decisions, seconds)
