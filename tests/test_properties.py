"""Properties of the official rule set that must hold in every reachable state.

Games are driven from hypothesis-drawn seeds, player counts (2-10) and option sets; actions
are chosen from every seat's legal actions (out-of-turn DOS calls and catches included) by a
``random.Random`` seeded from the example, or by a hypothesis-controlled generator.
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
from dos.cards import DECK_COUNTS, IS_WILD_NUMBER, N_TYPES, POINTS, WILD_DOS, full_deck
from dos.errors import IllegalActionError, NotationError
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
    parse_action,
    to_position,
    view,
)
from dos.rules.official.actions import match
from dos.rules.official.matching import NO_DESIGNATION
from support import VIEW_KEYS, player_counts, seeds

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


def normalised(action: Action, turn: int) -> Action:
    """The action as the legal-action list writes it: the seat to act as ``None``."""
    return action._replace(seat=None) if action.seat == turn else action


def failure(state: State, action: object) -> str:
    return f"action {action!s} in position {json.dumps(to_position(state))}"


# --- the deck is conserved; every listed action applies ---------------------------------------


@given(seed=seeds, players=player_counts, options=option_sets)
def test_every_reachable_state_holds_all_108_cards_and_every_legal_action_applies(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    chooser = random.Random(seed)
    for current in walk(state, chooser, max_steps=250):
        assert sorted(current.all_cards()) == FULL_DECK
        assert all(hand == sorted(hand) for hand in current.hands)
        # §6 Decision: an obligation is open only on a hand of exactly two cards.
        for seat in range(players):
            if current.dos_open >> seat & 1:
                assert len(current.hands[seat]) == 2
        # §4.4: only the seat to act can owe deferred penalty cards.
        assert all(owed == 0 for seat, owed in enumerate(current.penalties) if seat != current.turn)
        assert (current.phase == Phase.OVER) == (current.winner is not None)
        snapshot = current.copy()
        for action in all_legal_actions(current):
            child = current.copy()
            history = len(child.history)
            apply(child, action)  # must not raise
            assert len(child.history) == history + 1
            assert sorted(child.all_cards()) == FULL_DECK, failure(current, action)
            # notation round trip of every legal action
            assert parse_action(str(action)) == action
            if action.kind in (Kind.CALL, Kind.CATCH):
                check_call_or_catch(current, action, child)
        assert current == snapshot, "applying to a copy changed the original"
        # a caller may change the lists it gets without changing later answers
        every = all_legal_actions(current)
        every.clear()
        legal_actions(current, (current.turn + 1) % players).clear()
        assert all_legal_actions(current) == all_legal_actions(snapshot)


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


# --- illegal actions are rejected and change nothing ----------------------------------------


def random_card(chooser: random.Random, state: State) -> int:
    """Mostly cards of the hand to act (near misses), sometimes any card type."""
    hand = state.hands[state.turn]
    if hand and chooser.random() < 0.7:
        return chooser.choice(hand)
    return chooser.randrange(N_TYPES)


def random_designation(chooser: random.Random, card: int) -> int:
    roll = chooser.random()
    if roll < 0.3:
        return NO_DESIGNATION
    if roll < 0.4:  # out of range, or a designation on a card that takes none
        return chooser.choice([0, 11, 4, 99, -5])
    if IS_WILD_NUMBER[card]:
        return chooser.randint(1, 10)
    if card == WILD_DOS:
        return chooser.randrange(4)
    return NO_DESIGNATION


def random_action(chooser: random.Random, state: State) -> Action:
    """A well-formed action with random kind, cards, target, seat and designations."""
    players = state.players
    seat = chooser.choice(
        [None, None, state.turn, chooser.randrange(players), chooser.choice([-1, players, 99])]
    )
    kind = chooser.choice(list(Kind))
    if kind == Kind.MATCH:
        count = chooser.choice([1, 1, 2, 2, 2, 0, 3])
        cards = tuple(random_card(chooser, state) for _ in range(count))
        target = chooser.randrange(-1, len(state.center) + 2)
        designations: tuple[int, ...] = ()
        if chooser.random() < 0.35:
            designations = tuple(random_designation(chooser, c) for c in cards)
        return match(cards, target, designations, seat)
    if kind in (Kind.LAY, Kind.PLACE):
        count = chooser.choice([1, 1, 1, 1, 0, 2])
        return Action(kind, tuple(random_card(chooser, state) for _ in range(count)), seat=seat)
    if kind == Kind.CATCH:
        return Action(kind, target=chooser.randrange(-1, players + 1), seat=seat)
    return Action(kind, seat=seat)


def check_rejected(state: State, action: Action) -> None:
    trial = state.copy()
    try:
        apply(trial, action)
    except (IllegalActionError, NotationError):
        pass
    else:
        raise AssertionError(f"illegal action accepted: {failure(state, action)}")
    assert trial == state, f"a rejected action changed the state: {failure(state, action)}"


@given(seed=seeds, players=player_counts, options=option_sets)
def test_illegal_actions_are_rejected_and_leave_the_state_as_it_was(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    chooser = random.Random(seed ^ 0x5EED)
    checked = 0
    for current in walk(state, random.Random(seed), max_steps=120):
        legal = {normalised(a, current.turn) for a in all_legal_actions(current)}
        for _ in range(25):
            action = random_action(chooser, current)
            plain = normalised(action._replace(designations=()), current.turn)
            if normalised(action, current.turn) in legal:
                continue
            if action.kind == Kind.MATCH and action.designations and plain in legal:
                # Designations only narrow a legal match: it may apply or be rejected, but a
                # rejection must change nothing.
                trial = current.copy()
                try:
                    apply(trial, action)
                except (IllegalActionError, NotationError):
                    assert trial == current, failure(current, action)
                continue
            check_rejected(current, action)
            checked += 1
    assert checked > 0


@given(seed=seeds, players=player_counts)
def test_unreadable_or_illegal_notation_is_rejected_without_change(seed: int, players: int) -> None:
    words = ["draw", "end", "dos", "lay", "place", "catch", "R7", "DOS", "G#=4", "B3+Y4", "@0"]
    words += ["@1", "@9", "R11", "DOS=Q", "1:", "9:", "+", "=", "lay Z9", "catch x", "", " "]
    state = start(players, {"target_score": 40}, seed)
    chooser = random.Random(seed)
    for current in walk(state, random.Random(seed + 1), max_steps=60):
        legal = {normalised(a, current.turn) for a in all_legal_actions(current)}
        for _ in range(10):
            text = " ".join(chooser.choice(words) for _ in range(chooser.randint(1, 3)))
            try:
                action = parse_action(text)
            except NotationError:
                continue
            if normalised(action, current.turn) in legal or action.designations:
                continue
            check_rejected(current, action)


# --- the game ends with exactly one winner ----------------------------------------------------


@given(seed=seeds, players=player_counts, options=option_sets)
def test_random_games_end_with_exactly_one_winner_at_or_above_the_target(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    for _ in walk(state, random.Random(seed), max_steps=100_000):
        pass
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


# --- a record replays the game state by state --------------------------------------------------


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
    seen = [to_position(s) for s in walk(state, chooser, max_steps=400)]
    assert len(seen) == len(state.history) + 1
    record = records.record_of("official", state, seed=seed)
    assert (record.result is not None) == (state.phase == Phase.OVER)
    loaded = records.loads(record.dumps())
    assert loaded == record
    assert to_position(records.start(loaded)) == seen[0]
    steps: list[int] = []

    def on_step(number: int, text: str, replayed: State) -> None:
        assert text == str(state.history[number - 1])
        assert to_position(replayed) == seen[number], f"step {number}: {text}"
        steps.append(number)

    final = records.replay(loaded, on_step=on_step)
    assert steps == list(range(1, len(state.history) + 1))
    assert final == state


# --- a view never holds hidden information ---------------------------------------------------


def with_hidden_cards_changed(state: State, seat: int, chooser: random.Random) -> State:
    """The same public facts and the same hand for ``seat``, but the other hands and the draw
    pile redealt from their pooled cards (sizes kept) and another generator state."""
    other = state.copy()
    pool = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    pool += state.draw_pile
    mixed = pool[:]
    chooser.shuffle(mixed)
    if mixed == pool and len(set(pool)) > 1:
        mixed = mixed[1:] + mixed[:1]
    position = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            other.hands[s] = sorted(mixed[position : position + len(hand)])
            position += len(hand)
    other.draw_pile = mixed[position:]
    other.rng = state.rng ^ 0xDEADBEEF
    return other


@given(seed=seeds, players=player_counts, options=option_sets)
def test_a_view_is_the_same_whatever_the_hidden_cards_are(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = start(players, options, seed)
    chooser = random.Random(seed)
    for step, current in enumerate(walk(state, random.Random(seed), max_steps=200)):
        if step % 7:
            continue
        for seat in range(players):
            seen = view(current, seat).to_json()
            assert set(seen) == VIEW_KEYS
            changed = with_hidden_cards_changed(current, seat, chooser)
            assert sorted(changed.all_cards()) == FULL_DECK
            hidden = [c for s, h in enumerate(current.hands) if s != seat for c in h]
            if len(set(hidden + current.draw_pile)) > 1:
                assert to_position(changed) != to_position(current)
            assert view(changed, seat).to_json() == seen
            assert legal_actions(changed, seat) == legal_actions(current, seat)


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
    history, and nothing else: never another hand or the draw pile."""
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


def test_replay_rejects_the_actions_of_another_deal() -> None:
    """Guard for the replay property: the same actions from another seed do not replay."""
    state = start(2, {"target_score": 30}, 1)
    for _ in walk(state, random.Random(1), max_steps=40):
        pass
    record = records.record_of("official", state, seed=2)
    with pytest.raises(records.RecordError, match=r"^line \d+: action "):
        records.replay(record)


def test_the_deck_holds_the_rulebooks_108_cards() -> None:
    assert len(FULL_DECK) == 108
    assert sum(DECK_COUNTS) == 108
