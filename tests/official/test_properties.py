"""Properties of the official rule set that must hold in every reachable state.

What every rule set must keep (the deck, refused actions, records, views, positions) is tested
once for all of them in ``tests/rulesets/test_invariants.py``; this file keeps what only the
official rules say.

Games are driven from hypothesis-drawn seeds, player counts (2-10) and option sets; actions
are chosen from every seat's legal actions (out-of-turn DOS calls and catches included) by a
``random.Random`` seeded from the example.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dos.rules.official import (
    Action,
    Kind,
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    legal_actions,
    new_game,
    to_position,
    view,
)
from dos.rules.official.cards import DECK_COUNTS, POINTS, full_deck
from support import player_counts, seeds

FULL_DECK = sorted(full_deck())

option_sets = st.fixed_dictionaries(
    {
        "target_score": st.integers(min_value=30, max_value=80),
        "dealer_starts": st.booleans(),
        "deal_passes_left": st.booleans(),
        "bonus_lay_mandatory": st.booleans(),
    }
)


def start(players: int, options: dict[str, Any], seed: int) -> State:
    return new_game(Options(players=players, **options), seed)


def walk(state: State, chooser: random.Random, max_steps: int) -> Iterator[State]:
    """Yields ``state`` before each action, then applies one drawn uniformly from every seat's
    legal actions; stops when the game is over or after ``max_steps`` actions."""
    for _ in range(max_steps):
        yield state
        if state.phase == Phase.OVER:
            return
        actions = all_legal_actions(state)
        assert actions, f"no legal action in a game that is not over: {to_position(state)}"
        apply(state, chooser.choice(actions))
    yield state


def failure(state: State, action: object) -> str:
    return f"action {action!s} in position {json.dumps(to_position(state))}"


# --- what every reachable state keeps -------------------------------------------------------


def check_bookkeeping(state: State) -> None:
    """Hands are kept sorted; an obligation is open only on a hand of two (§6 Decision); only
    the seat to act owes penalty cards (§4.4); a game is over exactly when it has a winner;
    every call and catch does what §6 says. (The deck, and that every legal action applies,
    are tested for every rule set: tests/rulesets/test_invariants.py.)"""
    assert all(hand == sorted(hand) for hand in state.hands)
    for seat in range(state.players):
        if state.dos_open >> seat & 1:
            assert len(state.hands[seat]) == 2
    assert all(owed == 0 for seat, owed in enumerate(state.penalties) if seat != state.turn)
    assert (state.phase == Phase.OVER) == (state.winner is not None)
    for action in all_legal_actions(state):
        if action.kind in (Kind.CALL, Kind.CATCH):
            child = state.copy()
            apply(child, action)
            check_call_or_catch(state, action, child)


def check_call_or_catch(before: State, action: Action, after: State) -> None:
    """§6: a call or a catch closes the obligation; a catch gives two penalty cards, at once,
    or at the end of the caught player's own turn (§4.4). Nothing else changes."""
    seat = before.turn if action.seat is None else action.seat
    closed = seat if action.kind == Kind.CALL else action.target
    assert before.dos_open >> closed & 1
    expected = before.copy()
    expected.history.append(action)
    expected.dos_open &= ~(1 << closed)
    if action.kind == Kind.CATCH:
        if closed == before.turn:
            expected.penalties[closed] += 2
        else:
            drawn = len(after.hands[closed]) - len(before.hands[closed])
            assert drawn == min(2, len(before.draw_pile) + len(before.discard)), failure(
                before, action
            )
            # the cards and the piles are checked by the deck count; compare the rest
            expected.hands[closed] = after.hands[closed]
            expected.draw_pile = after.draw_pile
            expected.discard = after.discard
            expected.rng = after.rng
    assert after == expected, failure(before, action)


@given(seed=seeds, players=player_counts)
def test_the_legal_actions_of_the_seat_to_act_come_first_in_all_legal_actions(
    seed: int, players: int
) -> None:
    state = start(players, {"target_score": 40}, seed)
    for current in walk(state, random.Random(seed), max_steps=150):
        every = all_legal_actions(current)
        own = legal_actions(current)
        assert every[: len(own)] == own
        others = [a for s in range(players) if s != current.turn for a in legal_actions(current, s)]
        assert every[len(own) :] == others


def children(state: State) -> Iterator[tuple[Action, State]]:
    for action in all_legal_actions(state):
        child = state.copy()
        apply(child, action)
        yield action, child


@given(seed=seeds, players=player_counts, options=option_sets)
def test_dos_obligations_open_exactly_when_a_hand_becomes_two(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """§6: a hand that *becomes* exactly two opens an obligation; a change of size closes it
    (Decision); a call or a catch closes it; nothing else touches it."""
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=150):
        for action, child in children(current):
            if len(child.round_results) != len(current.round_results):
                assert child.dos_open == 0  # a new deal (or the end of the game)
                continue
            closed = -1
            if action.kind == Kind.CALL:
                closed = current.turn if action.seat is None else action.seat
            elif action.kind == Kind.CATCH:
                closed = action.target
            for seat in range(players):
                was = current.dos_open >> seat & 1
                now = child.dos_open >> seat & 1
                size, new_size = len(current.hands[seat]), len(child.hands[seat])
                if seat == closed:
                    expected = 0
                elif new_size != size:
                    expected = int(new_size == 2)
                elif seat != current.turn or child.turn == current.turn:
                    expected = was
                else:
                    continue  # the seat whose turn ended may have passed through other sizes
                assert now == expected, f"seat {seat}: {failure(current, action)}"
                if seat == closed:
                    assert was


@given(seed=seeds, players=player_counts, options=option_sets)
def test_a_turn_ends_with_the_bonus_draws_and_penalties_and_passes_left(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """§4: when a turn ends by a lay, an 'end' or the last placement, every other player draws
    one card per Double Color Match, the player takes any DOS penalty owed, the Center Row
    holds two cards or more, and the turn passes to the left."""
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=200):
        if current.phase == Phase.TURN and not current.matched and not current.drew:
            assert len(current.center) >= 2 or not (current.draw_pile or current.discard)
        for action, child in children(current):
            if action.kind not in (Kind.LAY, Kind.END, Kind.PLACE):
                continue
            if child.turn == current.turn and child.round == current.round:
                continue  # the turn goes on
            if child.round != current.round:
                continue  # the round ended: checked by the scoring property
            turn = current.turn
            plenty = len(current.draw_pile) >= players * (current.double_bonuses + 2)
            assert child.turn == (turn + 1) % players, failure(current, action)
            assert child.phase == Phase.TURN
            assert not child.drew
            assert child.matched == {}
            assert (child.single_bonuses, child.double_bonuses) == (0, 0)
            assert child.penalties == [0] * players
            assert len(child.center) >= 2 or not (child.draw_pile or child.discard)
            if not plenty:
                continue
            for seat in range(players):
                grown = len(child.hands[seat]) - len(current.hands[seat])
                if seat == turn:
                    played = 1 if action.kind != Kind.END else 0
                    assert grown == current.penalties[turn] - played, failure(current, action)
                else:
                    assert grown == current.double_bonuses, failure(current, action)


@given(seed=seeds, players=player_counts, options=option_sets)
def test_each_round_is_dealt_by_the_right_seat_and_starts_at_the_right_seat(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """§2 and §7: the round's winner deals the next round (or the deal passes left, option
    deal_passes_left); the player left of the dealer starts (or the dealer, dealer_starts)."""
    state = start(players, options, seed)
    assert state.turn == (state.dealer + (0 if options["dealer_starts"] else 1)) % players
    dealer = state.dealer
    rounds = 0
    for current in walk(state, random.Random(seed), max_steps=100_000):
        if len(current.round_results) == rounds:
            assert current.dealer == dealer
            continue
        rounds += 1
        if current.phase == Phase.OVER:
            break
        winner = current.round_results[-1].winner
        dealer = (dealer + 1) % players if options["deal_passes_left"] else winner
        assert current.dealer == dealer
        assert current.round == rounds + 1
        assert current.turn == (dealer + (0 if options["dealer_starts"] else 1)) % players
        assert [len(hand) for hand in current.hands] == [7] * players
        assert len(current.center) == 2
        assert current.discard == []
        assert current.dos_open == 0
    assert rounds >= 1


# --- every state keeps its bookkeeping; the game ends with exactly one winner ------------------


@given(seed=seeds, players=player_counts, options=option_sets)
def test_random_games_keep_their_bookkeeping_and_end_with_exactly_one_winner(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    """Every state of a whole random game keeps the bookkeeping of ``check_bookkeeping``; the
    game ends with exactly one winner, at or above the target score."""
    state = start(players, options, seed)
    for current in walk(state, random.Random(seed), max_steps=100_000):
        check_bookkeeping(current)
    target = options["target_score"]
    assert state.phase == Phase.OVER
    assert state.winner is not None
    assert state.scores[state.winner] >= target
    assert [s for s, score in enumerate(state.scores) if score >= target] == [state.winner]
    assert all_legal_actions(state) == []
    # §7: every round's points are the cards left in the other hands; scores accumulate.
    expected = [0] * players
    for result in state.round_results:
        assert result.hands[result.winner] == ()
        assert result.points == sum(
            POINTS[c] for s, hand in enumerate(result.hands) if s != result.winner for c in hand
        )
        expected[result.winner] += result.points
    assert state.scores == expected
    assert state.round_results[-1].winner == state.winner
    assert [r.round for r in state.round_results] == list(range(1, len(state.round_results) + 1))


# --- a view never holds hidden information ---------------------------------------------------


def leaves(value: object) -> Iterator[object]:
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


@given(seed=seeds, players=player_counts)
def test_a_view_lists_no_more_cards_than_the_seat_may_see(seed: int, players: int) -> None:
    """The card names in a view are the seat's hand, the Center Row, the cards matched this
    turn, the face-up discard pile, the revealed hands of finished rounds and the public
    history, and nothing else: never another hand or the draw pile. (That a view is the same
    whatever the hidden cards are is tested for every rule set: tests/rulesets/.)"""
    state = start(players, {"target_score": 40}, seed)
    for current in walk(state, random.Random(seed), max_steps=150):
        seat = current.turn
        seen = view(current, seat).to_json()
        public = dict(seen)
        for key in ("round_results", "history", "legal"):
            public.pop(key)
        names = [v for v in leaves(public) if isinstance(v, str) and v != seen["phase"]]
        count = (
            len(current.hands[seat])
            + len(current.center)
            + sum(len(cards) for cards in current.matched.values())
            + len(current.discard)
        )
        assert len(names) == count
        assert len(json.dumps(seen)) < 200_000


def test_the_deck_holds_the_rulebooks_108_cards() -> None:
    assert len(FULL_DECK) == 108
    assert sum(DECK_COUNTS) == 108
