"""Properties of the classic rule set that must hold in every reachable state.

What every rule set must keep (the deck, refused actions, records, views, positions) is tested
once for all of them in ``tests/rulesets/test_invariants.py``; this file keeps what only the
classic rules say.

Games are driven from hypothesis-drawn seeds, player counts (2-10) and option sets; actions
are chosen from the legal actions by a ``random.Random`` seeded from the example, and now and
then replaced by a reaction that hypothesis does not list (any hits and time).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dos.errors import NotationError
from dos.rules.classic import (
    Action,
    Kind,
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    legal_actions,
    new_game,
    parse_action,
    to_position,
)
from dos.rules.classic.actions import react
from dos.rules.classic.cards import NAMES
from support import player_counts, seeds

option_sets = st.fixed_dictionaries(
    {
        "reaction_time_ms": st.integers(min_value=200, max_value=5000),
        "penalty_cards": st.integers(min_value=0, max_value=3),
        "stacking": st.booleans(),
    }
)


def start(players: int, options: dict[str, Any], seed: int) -> State:
    return new_game(Options(players=players, **options), seed)


def choose(state: State, chooser: random.Random) -> Action:
    """A legal action; in a reaction test, sometimes any reaction within the rules."""
    if state.phase == Phase.REACTION and chooser.random() < 0.5:
        return react(chooser.randint(0, len(state.targets)), chooser.randint(0, 6000))
    return chooser.choice(all_legal_actions(state))


def walk(state: State, chooser: random.Random, max_steps: int) -> Iterator[State]:
    """Yields ``state`` before each action, then applies one; stops when the game is over or
    after ``max_steps`` actions."""
    for _ in range(max_steps):
        yield state
        if state.phase == Phase.OVER:
            return
        assert all_legal_actions(state), f"no legal action: {to_position(state)}"
        apply(state, choose(state, chooser))
    yield state


@given(seed=seeds, players=player_counts, options=option_sets)
def test_every_reachable_state_keeps_sorted_hands_a_top_card_and_the_seats_in_play(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """Hands are kept sorted; the discard pile always shows a top card; the seat to act is in
    play, every seat in play holds cards and every ranked seat none; a reaction test is under
    way exactly when it has targets, one per card left in the hand. (The deck, and that every
    legal action applies, are tested for every rule set: tests/rulesets/test_invariants.py.)"""
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=250):
        assert all(hand == sorted(hand) for hand in current.hands)
        assert current.discard, "the discard pile always shows a top card"
        if current.phase != Phase.OVER:
            active = current.active()
            assert current.turn in active
            assert all(current.hands[s] for s in active)
            assert all(not current.hands[s] for s in current.ranking)
        assert (current.phase == Phase.REACTION) == bool(current.targets)
        if current.phase == Phase.REACTION:
            assert len(current.targets) == len(current.hands[current.turn]) in (1, 2)


@given(seed=seeds, players=player_counts, options=option_sets)
def test_random_games_finish_with_a_full_ranking(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    for _ in walk(state, random.Random(seed), max_steps=50_000):
        pass
    assert state.phase == Phase.OVER
    assert sorted(state.ranking) == list(range(players))
    assert [s for s in range(players) if not state.hands[s]] == sorted(state.ranking[:-1])
    assert state.hands[state.ranking[-1]], "the loser of the last duel keeps cards"
    assert all_legal_actions(state) == []


@given(seed=seeds, players=player_counts, options=option_sets)
def test_a_play_never_leaves_an_unplayable_card_on_top(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """Every card played fits the card it was played on (§9), checked from the outside: the
    colour or number/symbol, a wild, or a stack on a pending draw."""
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=200):
        if current.phase != Phase.PLAY:
            continue
        top, colour, pending = NAMES[current.top], "BGRY"[current.colour], current.pending
        for action in legal_actions(current):
            if action.kind != Kind.PLAY:
                assert action.kind == Kind.DRAW
                continue
            card = NAMES[action.card]
            if pending:
                assert options["stacking"]
                assert card == "W+4" or (
                    card.endswith("+2") and (top != "W+4" or card[0] == colour)
                )
            elif card == "W":
                assert top != "W"
            elif card != "W+4":
                assert card[0] == colour or (top not in {"W", "W+4"} and card[1:] == top[1:])
        can_play = any(a.kind == Kind.PLAY for a in legal_actions(current))
        assert (Action(Kind.DRAW) in legal_actions(current)) == (pending > 0 or not can_play)


def test_notation_that_is_not_an_action_is_a_notation_error() -> None:
    for text in ("R7@0", "lay B3", "catch 1", "dos"):
        with pytest.raises(NotationError):
            parse_action(text)
