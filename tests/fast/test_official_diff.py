"""The official fast core against the Python engine (the reference), step by step.

Random games over player counts and options: after every decision the legal actions (in
order) and the whole state (history and round results included) must be equal. Then the
API's other paths: actions given as engine ``Action`` objects (designations, out-of-turn
seats written out, illegal ones), compiled random play, and states converted both ways.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from dos.errors import IllegalActionError, NotationError
from dos.fast import Batch, Game, core
from dos.fast.check import walk, walk_from
from dos.fast.official_convert import from_python_state, to_python_state
from dos.fast.rng import new_mts
from dos.rules import official
from dos.simulate import random_game

OPTION_SETS: list[dict[str, object]] = [
    {"players": 2},
    {"players": 3, "target_score": 120},
    {"players": 4, "dealer_starts": True, "deal_passes_left": True},
    {"players": 5, "bonus_lay_mandatory": True, "target_score": 100},
    {"players": 10, "target_score": 60},
]


def test_ten_thousand_random_decisions_agree() -> None:
    decisions = 0
    for seed in range(34):
        decisions += walk("official", seed, OPTION_SETS[seed % len(OPTION_SETS)])
    assert decisions >= 10_000


def test_compiled_random_play_is_dos_simulate_random_game() -> None:
    seeds = [3, 4, 5, -6]
    batch = Batch("official", seeds, {"players": 3})
    made = core("official").random_games(batch.states, new_mts(seeds), -1)
    assert batch.over().all()
    total = 0
    for i, seed in enumerate(seeds):
        state = random_game("official", {"players": 3}, seed)
        total += len(state.history)
        got = batch.to_python_state(i)
        assert (got.scores, got.winner, got.rng, got.round) == (
            state.scores,
            state.winner,
            state.rng,
            state.round,
        )
        assert batch.decisions(i) == len(state.history)
        assert batch.rounds(i) == len(state.round_results)
    assert made == total


def test_batch_step_matches_one_game_at_a_time() -> None:
    seeds = [11, 12, 13]
    batch = Batch("official", seeds, {"players": 4})
    games = [Game("official", seed, {"players": 4}) for seed in seeds]
    chooser = random.Random(0)
    for _ in range(300):
        counts = [batch.legal_count(i) for i in range(batch.size)]
        picks = np.array([chooser.randrange(n) if n else -1 for n in counts], dtype=np.int64)
        batch.step(picks)
        for game, k in zip(games, picks, strict=True):
            if k >= 0:
                game.step(int(k))
    for i, game in enumerate(games):
        assert np.array_equal(batch.states[i], game.state)


def test_engine_actions_are_applied_as_the_engine_applies_them() -> None:
    chooser = random.Random(5)
    for seed in range(6):
        state = official.new_game(official.Options(players=3), seed)
        game = Game("official", seed, {"players": 3})
        for _ in range(150):
            if state.winner is not None:
                break
            action = chooser.choice(official.all_legal_actions(state))
            if action.seat is None and action.kind in (official.Kind.CALL, official.Kind.CATCH):
                action = action._replace(seat=state.turn)  # written out: the same action
            written = chooser.random() < 0.5  # as notation text, else as the Action
            if action.kind == official.Kind.MATCH:
                action = _designated(action, state)
                if len(action.cards) == 2 and chooser.random() < 0.5:
                    written = False  # notation writes a match's cards in type order
                    # Written in the other order, as an Action may be built: the engine
                    # keeps (and discards) the cards in the order given.
                    action = action._replace(
                        cards=action.cards[::-1], designations=action.designations[::-1]
                    )
            official.apply(state, action)
            game.apply(0, str(action) if written else action)
            assert game.to_python_state() == state


def _designated(action: official.Action, state: official.State) -> official.Action:
    """The match with explicit designations for its wilds, as a player may write them
    (possibly giving up a colour bonus, RULES §3 Decision)."""
    from dos.rules.official.matching import resolve

    resolved = resolve(action.cards, (), state.center[action.target])
    assert resolved is not None
    shown, _ = resolved
    designations = tuple(
        0 if card == 40 else d if d != -1 else -1
        for card, d in zip(action.cards, shown, strict=True)
    )
    return official.actions.match(action.cards, action.target, designations)


@pytest.mark.parametrize("text", ["end", "lay B3", "R7@9", "3: catch 0", "0: dos", "B1+B1@0"])
def test_illegal_actions_raise_the_engines_error_and_change_nothing(text: str) -> None:
    game = Game("official", 1, {"players": 2})
    before = game.state.copy()
    state = official.new_game(official.Options(players=2), 1)
    with pytest.raises((IllegalActionError, NotationError)) as expected:
        official.apply(state, official.parse_action(text))
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        game.apply(0, text)
    assert np.array_equal(game.state, before)


def test_states_convert_both_ways() -> None:
    state = random_game("official", {"players": 4}, 8)
    flat = from_python_state(state)
    back = to_python_state(flat, 8, state.history, state.round_results)
    assert back == state
    mid = official.new_game(official.Options(players=3), 2)
    chooser = random.Random(1)
    for _ in range(40):
        official.apply(mid, chooser.choice(official.all_legal_actions(mid)))
        assert to_python_state(from_python_state(mid), 2, mid.history, mid.round_results) == mid


def test_empty_piles_and_a_short_center_row_agree() -> None:
    """RULES §4 Decisions: an empty draw pile is refilled from the discard pile, and with
    both empty a draw gives nothing and the Center Row may stay short."""
    checked = 0
    for seed in range(12):
        position = official.to_position(official.new_game(official.Options(players=3), seed))
        position["draw_pile"] = position["draw_pile"][: seed % 3]
        position["discard"] = []
        state = official.from_position(position)
        checked += walk_from("official", state, seed=seed, limit=300)
    assert checked > 500


def test_the_random_play_buffer_overflow_path_agrees() -> None:
    """Random play lists up to ``RANDOM_BUFFER`` actions at once and finds a later one
    again: with a buffer of two, every choice takes that path."""
    from dos.fast import official as fast_official

    for seed in (1, 2):
        batch = Batch("official", [seed], {"players": 5})
        mt = new_mts([seed])[0]
        tiny = np.empty(2, dtype=np.int64)
        while not batch.over()[0]:
            fast_official.random_step(batch.states[0], mt, tiny)
        state = random_game("official", {"players": 5}, seed)
        assert batch.decisions(0) == len(state.history)
        assert to_python_state(batch.states[0], seed, state.history, state.round_results) == state
