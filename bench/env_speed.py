"""Environment speed: one step with the next observation and legal-action mask, DOS next to
two peers, in the same run.

Run ``.venv/bin/python bench/env_speed.py [--seconds S] [--repeats R] [--json FILE]`` after
``make setup && .tools/bin/uv sync --frozen --all-extras --group bench`` (the peers).

A *step* is what an agent needs per decision: apply a uniformly chosen legal action, then get
the observation tensor and the legal-action mask of the player who decides next. Measured:

* **DOS AEC (PettingZoo)**: ``dos.rl.env(rules="official", players=2)``, PettingZoo's
  ``step`` then ``last()`` (the observation dict with the tensor and the mask, the info with
  the legal indices the action is drawn from), as returned by ``env()``, on the fast core (the
  default backend) and on the Python engine (``backend="python"``);
* **DOS Gymnasium vs random**: ``gymnasium.make("dos/Official-v0", opponents=["random"])``,
  ``step`` (the agent's action, then the ``random`` bot's until the agent decides again; a
  step is one of the agent's), ``reset`` when an episode ends, on both backends;
* **DOS codec**: the Python engine's work without an environment: ``apply`` an index,
  ``observe`` and ``mask`` into preallocated arrays (what ``VectorGames`` does per game);
* **DOS VectorEnv (64)**: ``dos.rl.vector_env.DosVectorEnv`` on the fast core, 64 games, ``step`` of
  each game's random legal index (``random_actions``), counted as 64 steps: self-play (the
  caller plays every seat), against the ``random`` bot (compiled) and against ``greedy`` (a
  Python bot, shown its view); one core;
* **DOS VectorGames (64) vs greedy**: the same on the Python engine (``dos.rl.vector``), what
  training against bots used before;
* **OpenSpiel crazy_eights** (C++ through ``pyspiel``): ``apply_action``, chance outcomes
  sampled, then the observation and ``legal_actions_mask`` of the player to act, two ways: its
  fastest observation path, the numpy observer (``make_observation(game)``, ``set_from`` then
  ``.tensor``, a view of the C++ buffer, no list), which the ratios are taken against, and the
  list of ``observation_tensor``;
* **RLCard UNO**: ``env.step(action)``, which returns the next state with its observation
  and legal actions.

Two players everywhere; chance events of the peers are not counted as steps. The timed time
is cut into ``--repeats`` slices played in turn across the environments, and the median slice
is reported, so a slow spell of the shared machine weighs on all of them alike. A benchmark,
not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

CLOCK_EVERY = 64
BATCH = 64
"""Games in the vector environments; each of their steps counts ``BATCH`` steps."""

Stepper = Callable[[int], int]
"""Makes about ``n`` steps; returns how many it made."""


def dos_aec(backend: str) -> Callable[[int], Stepper]:
    def make(seed: int) -> Stepper:
        import dos.rl

        game = dos.rl.env(rules="official", players=2, backend=backend)
        game.reset(seed=seed)
        picker = random.Random(seed)

        def run(n: int) -> int:
            for _ in range(n):
                _, _, terminated, truncated, info = game.last()  # the observation is made
                if terminated or truncated:
                    game.reset(seed=picker.getrandbits(32))
                    _, _, _, _, info = game.last()
                legal = info["legal_actions"]
                game.step(legal[picker.randrange(len(legal))])
            return n

        return run

    return make


def dos_gym(backend: str) -> Callable[[int], Stepper]:
    def make(seed: int) -> Stepper:
        import gymnasium

        import dos.rl  # noqa: F401 (registers the environments)

        game = gymnasium.make("dos/Official-v0", opponents=["random"], backend=backend)
        picker = random.Random(seed)
        holder = list(game.reset(seed=seed))

        def run(n: int) -> int:
            _, info = holder
            for _ in range(n):
                legal = info["legal_actions"]
                _, _, terminated, truncated, info = game.step(legal[picker.randrange(len(legal))])
                if terminated or truncated:
                    _, info = game.reset()
            holder[1] = info
            return n

        return run

    return make


def dos_codec(seed: int) -> Stepper:
    from dos.rl.codec import make_codec

    codec = make_codec("official", 2)
    state = codec.new_game(seed)
    picker = random.Random(seed)
    obs = np.zeros(codec.layout.size, np.float32)
    mask = np.zeros(codec.size, np.int8)
    game = [0]

    def run(n: int) -> int:
        nonlocal state
        for _ in range(n):
            seat = codec.turn(state)
            legal = codec.indices(state, seat, codec.legal(state, seat))
            codec.apply(state, codec.action(state, seat, legal[picker.randrange(len(legal))]))
            if codec.is_over(state):
                game[0] += 1
                state = codec.new_game(seed + game[0])
            seat = codec.turn(state)
            codec.observe(state, seat, obs)
            codec.mask(state, seat, mask)
        return n

    return run


def dos_vector_env(opponents: list[str] | None) -> Callable[[int], Stepper]:
    def make(seed: int) -> Stepper:
        from dos.rl.vector_env import DosVectorEnv

        games = DosVectorEnv(BATCH, "official", 2, opponents, backend="fast")
        games.reset(seed=seed)

        def run(n: int) -> int:
            made = 0
            while made < n:
                games.step(games.random_actions())
                made += BATCH
            return made

        return run

    return make


def dos_vector_games_greedy(seed: int) -> Stepper:
    from dos.rl.vector import VectorGames, random_actions

    games = VectorGames("official", 2, BATCH, opponents=["greedy"])
    games.reset(seed=seed)
    picker = random.Random(seed)

    def run(n: int) -> int:
        made = 0
        while made < n:
            games.step(random_actions(games.mask, picker))
            made += BATCH
        return made

    return run


def openspiel(numpy_observer: bool) -> Callable[[int], Stepper]:
    def make(seed: int) -> Stepper:
        return _openspiel(seed, numpy_observer)

    return make


def _openspiel(seed: int, numpy_observer: bool) -> Stepper:
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.observation import make_observation  # type: ignore[import-not-found]

    game = pyspiel.load_game("crazy_eights", {"players": 2})
    observer = make_observation(game)
    picker = random.Random(seed)

    def fresh() -> Any:
        state = game.new_initial_state()
        settle(state)
        return state

    def settle(state: Any) -> None:
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[picker.randrange(len(outcomes))][0])

    holder = [fresh()]

    def run(n: int) -> int:
        state = holder[0]
        for _ in range(n):
            legal = state.legal_actions()
            state.apply_action(legal[picker.randrange(len(legal))])
            settle(state)
            if state.is_terminal():
                state = fresh()
            player = state.current_player()
            if numpy_observer:
                observer.set_from(state, player)
                observer.tensor  # noqa: B018 (the observation, as an agent reads it)
            else:
                np.asarray(state.observation_tensor(player), np.float32)
            np.asarray(state.legal_actions_mask(player), np.int8)
        holder[0] = state
        return n

    return run


def rlcard_uno(seed: int) -> Stepper:
    import rlcard  # type: ignore[import-not-found]

    env = rlcard.make("uno", config={"seed": seed})
    picker = random.Random(seed)
    holder = list(env.reset())

    def run(n: int) -> int:
        state, _ = holder
        for _ in range(n):
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[picker.randrange(len(legal))])
            if env.is_over():
                state, _ = env.reset()
        holder[0] = state
        return n

    return run


ENVIRONMENTS: dict[str, Callable[[int], Stepper]] = {
    "DOS AEC (PettingZoo), fast": dos_aec("fast"),
    "DOS Gymnasium vs random, fast": dos_gym("fast"),
    f"DOS VectorEnv ({BATCH}), self-play": dos_vector_env(None),
    f"DOS VectorEnv ({BATCH}) vs random": dos_vector_env(["random"]),
    f"DOS VectorEnv ({BATCH}) vs greedy": dos_vector_env(["greedy"]),
    "DOS AEC (PettingZoo), Python engine": dos_aec("python"),
    "DOS Gymnasium vs random, Python engine": dos_gym("python"),
    "DOS codec, Python engine": dos_codec,
    f"DOS VectorGames ({BATCH}) vs greedy, Python engine": dos_vector_games_greedy,
    "OpenSpiel crazy_eights, numpy observer": openspiel(True),
    "OpenSpiel crazy_eights, list observation": openspiel(False),
    "RLCard UNO": rlcard_uno,
}
PEERS = ("OpenSpiel crazy_eights, numpy observer", "RLCard UNO")
"""The peers of the ratio columns: OpenSpiel's fastest observation path, RLCard."""


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
"""``cpu``: the process's CPU time (the default: other work on a shared machine weighs less);
``wall``: elapsed time."""


def timed(step: Stepper, seconds: float, clock: Callable[[], float] = time.process_time) -> float:
    """Steps per second over about ``seconds`` of ``clock``."""
    done = 0
    began = clock()
    while True:
        done += step(CLOCK_EVERY)
        spent = clock() - began
        if spent >= seconds:
            return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per env")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--only", help="time only the environments whose name has this text")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    steppers: dict[str, Stepper] = {}
    for name, make in ENVIRONMENTS.items():
        if args.only and args.only not in name and not name.startswith("OpenSpiel"):
            continue
        try:
            steppers[name] = make(args.seed)
            timed(steppers[name], 0.5)  # warm-up
        except ImportError as error:
            print(f"{name}: skipped ({error})")
            steppers.pop(name, None)
    rates: dict[str, list[float]] = {name: [] for name in steppers}
    for _ in range(args.repeats):
        for name, step in steppers.items():
            rates[name].append(timed(step, args.seconds / args.repeats, clock))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    print(
        f"steps/s with observation and mask, 2 players, {args.clock} time "
        f"({platform.processor() or 'cpu'})"
    )
    print()
    print(table(medians))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"steps_per_second": medians, "samples": rates}, handle, indent=2)


def table(medians: dict[str, float]) -> str:
    """The figures as a Markdown table: steps/s, and each DOS row's ratio to each peer."""
    peers = [peer for peer in PEERS if peer in medians]
    rows = [
        "| environment | steps/s | " + " | ".join(f"vs {peer}" for peer in peers) + " |",
        "|---|---:|" + "---:|" * len(peers),
    ]
    for name, rate in medians.items():
        peer_row = name.startswith(("OpenSpiel", "RLCard"))
        ratios = ["" if peer_row else f"{rate / medians[peer]:.2f}x" for peer in peers]
        rows.append(f"| {name} | {rate:,.0f} | " + " | ".join(ratios) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
