"""The classic fast core against the Python engine (the reference), step by step.

Random games over player counts and options, comparing the legal actions (in order) and the
whole state after every decision; then reactions with their timing (RULES §9: every target
hit within the limit passes, anything else draws the penalty), illegal actions, compiled
random play and ``dos simulate --engine fast --rules classic``.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from dos.errors import IllegalActionError, NotationError
from dos.fast import Batch, Game, core
from dos.fast.check import walk, walk_from
from dos.fast.classic_api import from_python_state, to_python_state
from dos.fast.rng import new_mts
from dos.rules import classic
from dos.simulate import random_game, simulate

OPTION_SETS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3, "stacking": False},
    {"players": 4, "penalty_cards": 3},
    {"players": 7, "reaction_time_ms": 500},
]


def test_ten_thousand_random_decisions_agree() -> None:
    decisions = 0
    for seed in range(30):
        decisions += walk("classic", seed, OPTION_SETS[seed % len(OPTION_SETS)])
    assert decisions >= 10_000


def test_timed_reactions_and_seats_written_out_agree() -> None:
    chooser = random.Random(3)
    for seed in range(8):
        options = classic.Options(players=3, reaction_time_ms=800)
        state = classic.new_game(options, seed)
        game = Game("classic", seed, options.to_json())
        while state.phase != classic.Phase.OVER:
            if state.phase == classic.Phase.REACTION:
                # Any reaction the engine accepts: hits up to the targets shown, any time.
                hits = chooser.randint(0, len(state.targets))
                action = classic.actions.react(hits, chooser.choice([0, 799, 800, 801, 5000]))
            else:
                action = chooser.choice(classic.all_legal_actions(state))
            if chooser.random() < 0.3:
                action = action._replace(seat=state.turn)
            classic.apply(state, action)
            game.apply(0, action if chooser.random() < 0.5 else str(action))
            assert game.to_python_state() == state


@pytest.mark.parametrize("text", ["timeout", "react 1 10ms", "1: draw", "W", "B+2"])
def test_illegal_actions_raise_the_engines_error_and_change_nothing(text: str) -> None:
    game = Game("classic", 2, {"players": 3})
    state = classic.new_game(classic.Options(players=3), 2)
    before = game.state.copy()
    with pytest.raises((IllegalActionError, NotationError)) as expected:
        classic.apply(state, classic.parse_action(text))
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        game.apply(0, text)
    assert np.array_equal(game.state, before)


def test_too_many_hits_is_illegal_in_a_reaction_test() -> None:
    chooser = random.Random(0)
    state = classic.new_game(classic.Options(players=2), 5)
    game = Game("classic", 5, {"players": 2})
    while state.phase != classic.Phase.REACTION:
        k = chooser.randrange(len(classic.all_legal_actions(state)))
        classic.apply(state, classic.all_legal_actions(state)[k])
        game.step(k)
    too_many = classic.actions.react(len(state.targets) + 1, 10)
    with pytest.raises(IllegalActionError, match="cannot have been hit"):
        game.apply(0, too_many)
    assert game.to_python_state() == state


def test_compiled_random_play_is_dos_simulate_random_game() -> None:
    seeds = [0, 1, 2, 3, 4]
    batch = Batch("classic", seeds, {"players": 4})
    made = core("classic").random_games(batch.states, new_mts(seeds), -1)
    total = 0
    for i, seed in enumerate(seeds):
        state = random_game("classic", {"players": 4}, seed)
        total += len(state.history)
        assert to_python_state(batch.states[i], seed, state.history) == state
    assert made == total


@pytest.mark.parametrize(("players", "games", "seed"), [(2, 6, 0), (5, 4, 17)])
def test_simulate_fast_plays_the_same_games(players: int, games: int, seed: int) -> None:
    python = simulate("classic", players, games, seed, "python")
    fast = simulate("classic", players, games, seed, "fast")
    assert (fast.games, fast.rounds, fast.decisions) == (
        python.games,
        python.rounds,
        python.decisions,
    )


def test_states_convert_both_ways() -> None:
    state = classic.new_game(classic.Options(players=4), 9)
    chooser = random.Random(2)
    while state.phase != classic.Phase.OVER:
        classic.apply(state, chooser.choice(classic.all_legal_actions(state)))
        assert to_python_state(from_python_state(state), 9, state.history) == state


def test_empty_piles_agree() -> None:
    """RULES §9 Decision: an empty draw pile is refilled with the discard pile but its top
    card; with nothing to refill, a draw gives nothing."""
    checked = 0
    for seed in range(10):
        position = classic.to_position(classic.new_game(classic.Options(players=3), seed))
        position["draw_pile"] = position["draw_pile"][: seed % 3]
        state = classic.from_position(position)
        checked += walk_from("classic", state, seed=seed, limit=300)
    assert checked > 500


def test_the_random_play_buffer_overflow_path_agrees() -> None:
    from dos.fast import classic as fast_classic

    for seed in (1, 2):
        batch = Batch("classic", [seed], {"players": 6})
        mt = new_mts([seed])[0]
        tiny = np.empty(1, dtype=np.int64)
        while not batch.over()[0]:
            fast_classic.random_step(batch.states[0], mt, tiny)
        state = random_game("classic", {"players": 6}, seed)
        assert to_python_state(batch.states[0], seed, state.history) == state
