"""Environment speed: one step with the next observation and legal-action mask, DOS next to
two peers, in the same run.

Run ``.venv/bin/python bench/env_speed.py [--seconds S] [--repeats R] [--json FILE]`` after
``make setup && .tools/bin/uv sync --frozen --all-extras --group bench`` (the peers).

A *step* is what an agent needs per decision: apply a uniformly chosen legal action, then get
the observation tensor and the legal-action mask of the player who decides next. Measured:

* **DOS AEC**: ``dos.rl.env(rules="official", players=2)``, PettingZoo's ``step`` then
  ``last()`` (observation dict with the tensor and the mask), with its wrappers;
* **DOS codec**: the same work without PettingZoo: ``apply`` an index, ``observe`` and
  ``mask`` into preallocated arrays (what ``VectorGames`` does per game);
* **DOS fast vector**: ``dos.rl.fast_vector.FastVectorGames`` with 64 games on the compiled
  core, one call per batch step (counted as 64 steps), uniformly random legal indices drawn
  from the masks, one core;
* **OpenSpiel crazy_eights** (C++ through ``pyspiel``): ``apply_action``, chance outcomes
  sampled, then ``observation_tensor`` and ``legal_actions_mask`` of the player to act;
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
"""Games in the fast core's vector environment; each of its steps counts ``BATCH`` steps."""

Stepper = Callable[[int], int]
"""Makes ``n`` steps; returns how many it made (always ``n``)."""


def dos_aec(seed: int) -> Stepper:
    import dos.rl

    game = dos.rl.env(rules="official", players=2)
    game.reset(seed=seed)
    picker = random.Random(seed)

    def run(n: int) -> int:
        for _ in range(n):
            obs, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.reset(seed=picker.getrandbits(32))
                obs, *_ = game.last()
            legal = np.flatnonzero(obs["action_mask"])
            game.step(int(legal[picker.randrange(len(legal))]))
        return n

    return run


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


def dos_fast_vector(seed: int) -> Stepper:
    from dos.rl.fast_vector import FastVectorGames

    games = FastVectorGames(2, BATCH)
    games.reset(seed=seed)

    def run(n: int) -> int:
        made = 0
        while made < n:
            games.step(games.random_actions())
            made += BATCH
        return made

    return run


def openspiel(seed: int) -> Stepper:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("crazy_eights", {"players": 2})
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
    "DOS AEC (PettingZoo)": dos_aec,
    "DOS codec": dos_codec,
    f"DOS fast vector ({BATCH})": dos_fast_vector,
    "OpenSpiel crazy_eights": openspiel,
    "RLCard UNO": rlcard_uno,
}


def timed(step: Stepper, seconds: float) -> float:
    """Steps per second over about ``seconds`` of wall time."""
    done = 0
    began = time.perf_counter()
    while True:
        done += step(CLOCK_EVERY)
        spent = time.perf_counter() - began
        if spent >= seconds:
            return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per env")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    steppers: dict[str, Stepper] = {}
    for name, make in ENVIRONMENTS.items():
        try:
            steppers[name] = make(args.seed)
            timed(steppers[name], 0.5)  # warm-up
        except ImportError as error:
            print(f"{name}: skipped ({error})")
            steppers.pop(name, None)
    rates: dict[str, list[float]] = {name: [] for name in steppers}
    for _ in range(args.repeats):
        for name, step in steppers.items():
            rates[name].append(timed(step, args.seconds / args.repeats))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    print(f"steps/s with observation and mask, 2 players ({platform.processor() or 'cpu'})")
    for name, rate in medians.items():
        print(f"  {name:<24} {rate:>10,.0f}")
    for ours in ("DOS AEC (PettingZoo)", "DOS codec", f"DOS fast vector ({BATCH})"):
        for peer in ("OpenSpiel crazy_eights", "RLCard UNO"):
            if ours in medians and peer in medians:
                print(f"  {ours} / {peer}: {medians[ours] / medians[peer]:.2f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"steps_per_second": medians, "samples": rates}, handle, indent=2)


if __name__ == "__main__":
    main()
