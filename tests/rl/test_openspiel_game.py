"""``python_dos``, DOS as an OpenSpiel game: OpenSpiel's own conformance test, legal actions
that are the engine's, games that replay from their chance outcome, information states that
give nothing hidden away, and OpenSpiel's ISMCTS playing it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from dos.rl import openspiel_game  # noqa: E402
from dos.rules import official  # noqa: E402


def _random_game(game: object, seed: int) -> tuple[object, list[int]]:
    """A game played to the end by uniform random choices; its actions, chance included."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = int(rng.integers(len(state.chance_outcomes())))
        else:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
        actions.append(action)
        state.apply_action(action)
    return state, actions


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_random_simulation_test_passes(players: int) -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players, "deals": 64})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_legal_actions_are_the_engines_over_many_random_games() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2})
    codec = game.codec
    decisions = 0
    lengths = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        state.apply_action(int(rng.integers(game.deals)))
        length = 0
        while not state.is_terminal():
            engine, seat = state.engine, state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(set(legal))
            engine_legal = official.legal_actions(engine, seat)
            assert len(legal) == len(engine_legal)
            assert {codec.action(engine, seat, i) for i in legal} == set(engine_legal)
            assert all(state.legal_actions(s) == [] for s in range(2) if s != seat)
            state.apply_action(int(legal[rng.integers(len(legal))]))
            decisions += 1
            length += 1
        lengths.append(length)
        winner = state.engine.winner
        assert state.returns() == [1.0 if s == winner else -1.0 for s in range(2)]
    assert decisions > 1500
    assert max(lengths) < openspiel_game.MAX_GAME_LENGTH


def test_a_game_replays_from_its_chance_outcome_and_actions() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 3})
    played, actions = _random_game(game, seed=11)
    again = game.new_initial_state()
    for action in actions:
        again.apply_action(action)
    assert again.is_terminal()
    assert again.returns() == played.returns()
    for seat in range(3):
        assert again.observation_string(seat) == played.observation_string(seat)
        assert again.information_state_string(seat) == played.information_state_string(seat)


def test_a_resampled_state_keeps_what_the_seat_knows_and_nothing_of_the_others() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(3)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    seat = state.current_player()
    other = 1 - seat
    uniform = iter(np.random.default_rng(4).random(10).tolist())
    samples = [state.resample_from_infostate(seat, uniform.__next__) for _ in range(4)]
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
        assert np.array_equal(sample.observation_tensor(seat), state.observation_tensor(seat))
        assert sample.legal_actions() == state.legal_actions()
        first_hand = state.information_state_string(other).splitlines()[0]
        assert first_hand not in sample.information_state_string(other).splitlines()
    assert len({tuple(s.engine.hands[other]) for s in samples}) > 1


def test_an_information_state_always_offers_the_same_legal_actions() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2})
    offered: dict[tuple[int, str], list[int]] = {}
    for deal in range(3):
        state = game.new_initial_state()
        state.apply_action(deal)
        rng = np.random.default_rng(deal)
        for _ in range(6):
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
        uniform = iter(rng.random(40).tolist())
        for _ in range(40):  # worlds the seat to act cannot tell apart, played on at random
            world = state.resample_from_infostate(state.current_player(), uniform.__next__)
            for _ in range(25):
                if world.is_terminal():
                    break
                seat = world.current_player()
                legal = world.legal_actions()
                key = (seat, world.information_state_string(seat))
                assert offered.setdefault(key, legal) == legal
                # The choice by position in the legal list, so that the worlds stay alike.
                world.apply_action(legal[len(key[1]) % len(legal)])


def test_openspiel_ismcts_plays_dos_to_the_end() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1)
    )
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    state.apply_action(9)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) == [-1.0, 1.0]
