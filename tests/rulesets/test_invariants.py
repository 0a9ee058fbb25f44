"""What every rule set must keep, whatever its rules: tested once, for each registered one.

Each test runs for every name in ``dos.ruleset.names()``, through the ``RuleSet`` interface
and the records API only, so a newly registered rule set is tested too. Games are driven from
hypothesis-drawn seeds, player counts (2-10) and option sets; actions are chosen by a
``random.Random`` seeded from the example (or drawn by hypothesis). What only one rule set
keeps is tested beside it: ``tests/official/test_properties.py``,
``tests/classic/test_properties.py``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dos import records, ruleset
from dos.errors import IllegalActionError, RecordError
from support import player_counts, seeds

from .conftest import Adapter, Rules, adapter, cards_in, failure, walk

RULE_SETS = ruleset.names()


def start(name: str, data: st.DataObject) -> tuple[Rules, Any, int, Adapter]:
    """A new game of ``name`` from a drawn seed, player count and option set; its rules,
    state, seed and adapter."""
    rules, found = ruleset.get(name), adapter(name)
    seed = data.draw(seeds, label="seed")
    players = data.draw(player_counts, label="players")
    options = data.draw(found.options, label="options")
    return rules, rules.new_game({"players": players, **options}, seed), seed, found


def assert_same(rules: Rules, state: Any, expected: Any, action: object, what: str) -> None:
    """The same state: equal as plain data (history and round results included), so with the
    same position, which the message shows when they differ."""
    if state != expected:
        assert rules.to_position(state) == rules.to_position(expected), (
            f"{what}: {failure(rules, expected, action)}"
        )
        raise AssertionError(f"{what} (beyond its position): {failure(rules, expected, action)}")


# --- the deck is conserved; every listed action applies --------------------------------------


@pytest.mark.parametrize("name", RULE_SETS)
@given(data=st.data())
def test_every_reachable_state_holds_the_whole_deck_and_every_legal_action_applies(
    name: str, data: st.DataObject
) -> None:
    """Every state, and every state after a legal action, holds the whole deck (the rule
    set's 108 cards, or for a rule set that does not say its deck, the cards its first
    position lists); every listed action applies to a copy without touching the original,
    and reads back from its notation. (A state's ``history`` is what ``records.record_of``
    writes: one action more each time.)"""
    rules, state, seed, found = start(name, data)
    listed = sorted(cards_in(rules.to_position(state)))
    cards = found.cards or (lambda s: cards_in(rules.to_position(s)))
    deck = sorted(cards(state)) if found.deck is None else list(found.deck)
    if found.deck is not None:
        assert len(deck) == 108
    assert sorted(cards(state)) == deck
    assert len(listed) == len(deck), "the first position does not list every card"
    players = rules.players(state)
    for current in walk(rules, state, random.Random(seed), 250, found.choose):
        assert sorted(cards(current)) == deck
        snapshot = rules.copy(current)
        for action in rules.all_legal_actions(current):
            child = rules.copy(current)
            rules.apply(child, action)  # must not raise
            assert len(child.history) == len(current.history) + 1
            assert sorted(cards(child)) == deck, failure(rules, current, action)
            assert rules.parse_action(str(action)) == action
        assert_same(rules, current, snapshot, None, "applying to a copy changed the original")
        # a caller may change the lists it gets without changing later answers
        rules.all_legal_actions(current).clear()
        rules.legal_actions(current).clear()
        rules.legal_actions(current, (rules.turn(current) + 1) % players).clear()
        assert rules.all_legal_actions(current) == rules.all_legal_actions(snapshot)


# --- a refused action changes nothing ---------------------------------------------------------


@pytest.mark.parametrize("name", RULE_SETS)
@given(data=st.data())
def test_a_refused_action_changes_nothing(name: str, data: st.DataObject) -> None:
    """An action the rules refuse raises (an ``IllegalActionError`` names the rule) and leaves
    the state exactly as it was. Tried in each state: the rule set's own near misses (which
    must be refused), and actions legal earlier in the game (which may apply here)."""
    rules, state, seed, found = start(name, data)
    chooser = random.Random(seed ^ 0x5EED)
    earlier: list[Any] = []  # the actions legal in earlier states
    refused = 0
    game = walk(rules, state, random.Random(seed), found.refusal_steps, found.choose)
    for current in game:
        tries: list[tuple[Any, bool]] = []
        if found.candidates is not None:
            tries += found.candidates(rules, current, chooser)
        tries += [(action, False) for action in chooser.sample(earlier, min(2, len(earlier)))]
        for action, must_refuse in tries:
            trial = rules.copy(current)
            try:
                rules.apply(trial, action)
            except found.refusals as error:
                if isinstance(error, IllegalActionError):
                    assert re.search(found.rule, str(error)), str(error)
                assert_same(rules, trial, current, action, "a refused action changed the state")
                refused += 1
            else:
                assert not must_refuse, f"accepted: illegal {failure(rules, current, action)}"
        earlier += rules.all_legal_actions(current)
    assert refused > 0


# --- a record replays the game state by state -------------------------------------------------


@pytest.mark.parametrize("name", RULE_SETS)
@given(data=st.data(), chooser=st.randoms(use_true_random=False))
def test_replaying_a_record_reproduces_every_state(
    name: str, data: st.DataObject, chooser: random.Random
) -> None:
    """A game's record (``records.record_of``), written and read back, starts from the same
    position and replays action by action through the same positions to the same state; it
    has a result exactly when the game is over."""
    rules, state, seed, found = start(name, data)
    game = walk(rules, state, chooser, found.long_game, found.choose)
    seen = [rules.to_position(s) for s in game]
    assert len(seen) == len(state.history) + 1
    record = records.record_of(name, state, seed=seed)
    assert (record.result is not None) == rules.is_over(state)
    loaded = records.loads(record.dumps())
    assert loaded == record
    assert rules.to_position(records.start(loaded)) == seen[0]
    steps: list[int] = []

    def on_step(number: int, text: str, replayed: Any) -> None:
        assert text == str(state.history[number - 1])
        assert rules.to_position(replayed) == seen[number], f"step {number}: {text}"
        steps.append(number)

    final = records.replay(loaded, on_step=on_step)
    assert steps == list(range(1, len(state.history) + 1))
    assert final == state


@pytest.mark.parametrize("name", RULE_SETS)
def test_replay_rejects_the_actions_of_another_deal(name: str) -> None:
    """Guard for the replay property: the same actions from another seed do not replay."""
    rules = ruleset.get(name)
    state = rules.new_game({"players": 2}, 1)
    for _ in walk(rules, state, random.Random(1), 40):
        pass
    record = records.record_of(name, state, seed=2)
    with pytest.raises(RecordError, match=r"^line \d+: action "):
        records.replay(record)


# --- a position loads back; a view never depends on hidden cards -------------------------


def with_hidden_cards_changed(
    position: dict[str, Any], seat: int, chooser: random.Random
) -> tuple[dict[str, Any], bool]:
    """The same position with the other hands and the draw pile (``hands``, ``draw_pile``:
    the hidden cards of every position) dealt anew from their pooled cards, sizes kept, and
    another generator state (``rng``); and whether the deal differs. The cards are the same,
    moved (a shuffle, and a swap), and ``from_position`` checks them against the deck."""
    hands, draw_pile = position["hands"], position["draw_pile"]
    others = [s for s in range(len(hands)) if s != seat]
    pool = [c for s in others for c in hands[s]] + draw_pile

    def dealt(cards: list[str]) -> tuple[list[list[str]], list[str], bool]:
        new_hands, at = list(hands), 0
        for s in others:
            new_hands[s] = sorted(cards[at : at + len(hands[s])])
            at += len(hands[s])
        new_pile = cards[at:]
        differs = new_pile != draw_pile or any(new_hands[s] != sorted(hands[s]) for s in others)
        return new_hands, new_pile, differs

    mixed = pool[:]
    chooser.shuffle(mixed)
    new_hands, new_pile, differs = dealt(mixed)
    if not differs:  # swap two different cards that are not in the same hand
        places = [s for s in others for _ in hands[s]] + [-1] * len(draw_pile)
        pairs = ((i, j) for i in range(len(mixed)) for j in range(i + 1, len(mixed)))
        for i, j in pairs:
            if mixed[i] != mixed[j] and (places[i] != places[j] or places[i] == -1):
                mixed[i], mixed[j] = mixed[j], mixed[i]
                new_hands, new_pile, differs = dealt(mixed)
                break
    changed = {**position, "hands": new_hands, "draw_pile": new_pile}
    changed["rng"] = position["rng"] ^ 0xDEADBEEF
    return changed, differs


@pytest.mark.parametrize("name", RULE_SETS)
@given(data=st.data())
def test_a_position_loads_back_and_a_view_is_the_same_whatever_the_hidden_cards_are(
    name: str, data: st.DataObject
) -> None:
    """A saved position, through JSON text, loads back to a game that saves as the same
    position and has the same legal actions. A seat's view and its legal actions are the same
    when the other hands and the draw pile are dealt anew: both games are loaded from
    positions (which leave out the history), so that they differ in the hidden cards only.
    The view shows the seat its own hand (and the face-up discard pile, where there is one),
    and has the keys the rule set lists. (The position property shares this test's games, to
    walk them once; tests/official/test_positions.py checks every state of a few official games.)"""
    rules, state, seed, found = start(name, data)
    chooser = random.Random(seed)
    for step, current in enumerate(walk(rules, state, random.Random(seed), 200, found.choose)):
        if step % found.view_every:
            continue
        position = rules.to_position(current)
        loaded = rules.from_position(json.loads(json.dumps(position)))
        assert rules.to_position(loaded) == position, "a position did not load back"
        assert rules.all_legal_actions(loaded) == rules.all_legal_actions(current)
        for seat in range(rules.players(current)):
            seen = rules.view_json(loaded, seat)
            assert seen["hand"] == position["hands"][seat]
            assert seen.get("discard", position.get("discard")) == position.get("discard")
            if found.view_keys is not None:
                assert set(seen) == found.view_keys
            changed, differs = with_hidden_cards_changed(position, seat, chooser)
            if not differs:  # only when no other deal is possible
                hidden = [h for s, h in enumerate(position["hands"]) if s != seat and h]
                pool = {c for h in hidden for c in h} | set(position["draw_pile"])
                assert len(pool) < 2 or (not position["draw_pile"] and len(hidden) < 2), (
                    "the hidden cards were not dealt anew"
                )
            other = rules.from_position(changed)
            assert rules.view_json(other, seat) == seen
            assert rules.legal_actions(other, seat) == rules.legal_actions(loaded, seat)
