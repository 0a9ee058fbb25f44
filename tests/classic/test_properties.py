"""Properties of the classic rule set that must hold in every reachable state.

Games are driven from hypothesis-drawn seeds, player counts (2-10) and option sets; actions
are chosen from the legal actions by a ``random.Random`` seeded from the example, and now and
then replaced by a reaction that hypothesis does not list (any hits and time).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dos import records
from dos.errors import IllegalActionError, NotationError
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
    view,
)
from dos.rules.classic.actions import react
from dos.rules.classic.cards import NAMES, full_deck
from support import player_counts, seeds

FULL_DECK = sorted(full_deck())

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


def failure(state: State, action: object) -> str:
    return f"action {action!s} in position {json.dumps(to_position(state))}"


@given(seed=seeds, players=player_counts, options=option_sets)
def test_every_reachable_state_holds_all_108_cards_and_every_legal_action_applies(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=250):
        assert sorted(current.all_cards()) == FULL_DECK
        assert all(hand == sorted(hand) for hand in current.hands)
        assert current.discard, "the discard pile always shows a top card"
        active = current.active()
        if current.phase != Phase.OVER:
            assert current.turn in active
            assert all(current.hands[s] for s in active)
            assert all(not current.hands[s] for s in current.ranking)
        assert (current.phase == Phase.REACTION) == bool(current.targets)
        if current.phase == Phase.REACTION:
            assert len(current.targets) == len(current.hands[current.turn]) in (1, 2)
        snapshot = current.copy()
        for action in all_legal_actions(current):
            child = current.copy()
            apply(child, action)  # must not raise
            assert len(child.history) == len(current.history) + 1
            assert sorted(child.all_cards()) == FULL_DECK, failure(current, action)
            assert parse_action(str(action)) == action
        assert current == snapshot, "applying to a copy changed the original"
        legal_actions(current).clear()
        assert all_legal_actions(current) == all_legal_actions(snapshot)


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


@given(seed=seeds, players=player_counts, options=option_sets)
def test_illegal_actions_are_rejected_naming_the_rule_and_leave_the_state_unchanged(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    words = ["R7", "B0", "GS", "YR", "B+2", "W=R", "W+4=G", "draw", "timeout", "react 2 10ms"]
    words += ["react 1 5000ms", "react 3 1ms", "1: draw", "3: R7", "11: draw", "G9", "Y+2"]
    state = start(players, options, seed)
    chooser = random.Random(seed)
    for current in walk(state, random.Random(seed + 1), max_steps=80):
        legal = set(all_legal_actions(current))
        for text in chooser.sample(words, 5):
            action = parse_action(text)
            if action in legal or action.seat == current.turn:
                continue
            reacting = action.kind == Kind.REACT and current.phase == Phase.REACTION
            if reacting and action.hits <= len(current.targets):
                continue  # any reaction within the targets is accepted and judged
            before = current.copy()
            with pytest.raises(IllegalActionError, match=r"^RULES §9"):
                apply(current, action)
            assert current == before


@given(
    seed=seeds,
    players=player_counts,
    options=option_sets,
    chooser=st.randoms(use_true_random=False),
)
def test_replaying_a_record_reproduces_every_state(
    seed: int, players: int, options: dict[str, Any], chooser: random.Random
) -> None:
    state = start(players, options, seed)
    seen = [to_position(s) for s in walk(state, chooser, max_steps=300)]
    record = records.record_of("classic", state, seed=seed)
    assert (record.result is not None) == (state.phase == Phase.OVER)
    loaded = records.loads(record.dumps())
    assert loaded == record
    steps: list[int] = []

    def on_step(number: int, text: str, replayed: State) -> None:
        assert to_position(replayed) == seen[number], f"step {number}: {text}"
        steps.append(number)

    final = records.replay(loaded, on_step=on_step)
    assert steps == list(range(1, len(state.history) + 1))
    assert final == state


def with_hidden_cards_changed(state: State, seat: int, chooser: random.Random) -> State:
    """The same public facts and the same hand for ``seat``, but the other hands and the draw
    pile redealt from their pooled cards (sizes kept) and another generator state."""
    other = state.copy()
    pool = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    pool += state.draw_pile
    chooser.shuffle(pool)
    position = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            other.hands[s] = sorted(pool[position : position + len(hand)])
            position += len(hand)
    other.draw_pile = pool[position:]
    other.rng = state.rng ^ 0xDEADBEEF
    return other


@given(seed=seeds, players=player_counts, options=option_sets)
def test_a_view_is_the_same_whatever_the_hidden_cards_are(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    chooser = random.Random(seed)
    for step, current in enumerate(walk(state, random.Random(seed), max_steps=200)):
        if step % 5:
            continue
        for seat in range(players):
            seen = view(current, seat).to_json()
            changed = with_hidden_cards_changed(current, seat, chooser)
            assert sorted(changed.all_cards()) == FULL_DECK
            assert view(changed, seat).to_json() == seen
            # the card names a view holds: the seat's own hand and the face-up discard pile
            named = len(seen["hand"]) + len(seen["discard"]) + 1  # the top card, again
            assert named == len(current.hands[seat]) + len(current.discard) + 1


def test_notation_that_is_not_an_action_is_a_notation_error() -> None:
    for text in ("R7@0", "lay B3", "catch 1", "dos"):
        with pytest.raises(NotationError):
            parse_action(text)
