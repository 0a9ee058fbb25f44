"""The bot layer's foundation: views only, determinization, reflexes, the game runner."""

from __future__ import annotations

import gc
import random
from collections import Counter
from typing import Any

import pytest

from dos.bots.base import BotError, Budget, turn_choices
from dos.bots.determinize import sample_state, unseen_cards
from dos.bots.random_bot import RandomBot
from dos.bots.reflex import Reflex
from dos.play.official import Player, play_game, settle_dos_race
from dos.rules.official import (
    Action,
    Kind,
    Options,
    SeatView,
    State,
    from_position,
    legal_actions,
    to_position,
    view,
)
from dos.rules.official.cards import full_deck
from support import random_states


def test_a_seat_view_holds_no_reference_to_the_game_state() -> None:
    state = random_states(4, 3, 60)[-1]
    seat_view = view(state, 1)
    reachable = {
        id(o) for o in gc.get_referents(*[getattr(seat_view, f) for f in SeatView.__slots__])
    }
    assert id(state) not in reachable
    for name in SeatView.__slots__:
        value = getattr(seat_view, name)
        assert not isinstance(value, (list, dict, State)), f"{name} is mutable or the state"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (7, 3)])
def test_a_sampled_state_agrees_with_everything_the_seat_sees(players: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in random_states(players, seed, 150)[::7]:
        for seat in range(players):
            seat_view = view(state, seat)
            sample = sample_state(seat_view, rng)
            assert sorted(sample.all_cards()) == sorted(full_deck())
            assert view(sample, seat).to_json() == seat_view.to_json()


def test_the_unseen_cards_are_the_other_hands_and_the_draw_pile() -> None:
    state = random_states(3, 9, 80)[-1]
    expected = Counter(state.draw_pile)
    for seat in (1, 2):
        expected.update(state.hands[seat])
    assert Counter(unseen_cards(view(state, 0))) == expected


def test_samples_vary_the_hidden_cards_but_not_the_seats_own_hand() -> None:
    state = random_states(2, 5, 10)[-1]
    seat_view = view(state, 0)
    samples = [sample_state(seat_view, random.Random(n)) for n in range(5)]
    assert all(s.hands[0] == state.hands[0] for s in samples)
    assert len({tuple(s.hands[1]) for s in samples}) > 1


def test_the_random_bot_chooses_among_the_turn_actions_only() -> None:
    state = from_position(
        {
            "players": 2,
            "dealer": 1,
            "turn": 0,
            "hands": [["B3", "R7"], ["G5", "Y10", "Y#"]],
            "center": ["R4", "B7"],
            "draw_pile": ["G1", "B9", "R3"],
            "discard": [],
            "scores": [0, 0],
            "dos_open": [0],
        }
    )
    seat_view = view(state, 0)
    assert Action(Kind.CALL) in seat_view.legal
    choices = turn_choices(seat_view)
    assert Action(Kind.CALL) not in choices
    picks = {RandomBot().choose(seat_view, random.Random(n), Budget()) for n in range(50)}
    assert picks == set(choices)


def test_a_reflex_that_never_calls_never_calls_and_a_sure_one_always_does() -> None:
    rng = random.Random(1)
    assert all(Reflex(call_reliability=0.0).call_delay(rng) is None for _ in range(100))
    delays = [Reflex(reaction=0.5).call_delay(rng) for _ in range(100)]
    assert all(d is not None and d > 0 for d in delays)
    assert 0.3 < sorted(d for d in delays if d is not None)[50] < 0.8


@pytest.mark.parametrize(
    "field", [{"call_reliability": 1.5}, {"catch_reliability": -0.1}, {"reaction": 0.0}]
)
def test_a_reflex_rejects_impossible_settings(field: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Reflex(**field)


def _two_cards_open(turn: int) -> State:
    return from_position(
        {
            "players": 3,
            "dealer": 2,
            "turn": turn,
            "hands": [["B3", "R7"], ["G5", "Y10", "Y#"], ["B1", "G1", "R1"]],
            "center": ["R4", "B7"],
            "draw_pile": ["G3", "B9", "R3", "Y4"],
            "discard": [],
            "scores": [0, 0, 0],
            "dos_open": [0],
        }
    )


def test_the_dos_race_goes_to_the_owner_when_the_owner_is_faster() -> None:
    state = _two_cards_open(turn=1)
    players = [
        Player(RandomBot(), Reflex(reaction=0.01, spread=0.0)),
        Player(RandomBot(), Reflex(reaction=5.0, spread=0.0)),
        Player(RandomBot(), Reflex(reaction=5.0, spread=0.0)),
    ]
    applied = settle_dos_race(state, players, random.Random(1), seats=0b001)
    assert [str(a) for a in applied] == ["0: dos"]
    assert state.dos_open == 0
    assert len(state.hands[0]) == 2


def test_the_dos_race_goes_to_the_fastest_catcher_when_the_owner_forgets() -> None:
    state = _two_cards_open(turn=0)
    players = [
        Player(RandomBot(), Reflex(call_reliability=0.0)),
        Player(RandomBot(), Reflex(reaction=3.0, spread=0.0)),
        Player(RandomBot(), Reflex(reaction=1.0, spread=0.0)),
    ]
    applied = settle_dos_race(state, players, random.Random(1), seats=0b001)
    assert [str(a) for a in applied] == ["2: catch 0"]
    assert state.penalties[0] == 2  # caught during its own turn: the penalty waits


def test_nobody_acts_when_the_owner_forgets_and_nobody_notices() -> None:
    state = _two_cards_open(turn=1)
    quiet = Reflex(call_reliability=0.0, catch_reliability=0.0)
    players = [Player(RandomBot(), quiet) for _ in range(3)]
    before = to_position(state)
    assert settle_dos_race(state, players, random.Random(1), seats=0b001) == []
    assert to_position(state) == before


def test_a_game_between_bots_is_the_same_game_for_the_same_seed() -> None:
    players = [Player(RandomBot(), Reflex(0.7, 0.5)), Player(RandomBot())]
    first = play_game(players, seed=8, options=Options(players=2, target_score=60))
    again = play_game(players, seed=8, options=Options(players=2, target_score=60))
    assert first.actions == again.actions
    assert (first.winner, first.scores) == (again.winner, again.scores)
    assert first.scores[first.winner] >= 60
    assert sum(first.decisions) == len(first.decision_seconds[0]) + len(first.decision_seconds[1])


def test_forgetful_players_get_caught_and_reliable_ones_call() -> None:
    careless = Player(RandomBot(), Reflex(call_reliability=0.0, reaction=2.0, spread=0.0))
    diligent = Player(RandomBot(), Reflex(call_reliability=1.0, reaction=0.2, spread=0.0))
    result = play_game([careless, diligent], seed=3, options=Options(players=2, target_score=100))
    assert result.calls[0] == 0
    assert result.caught[0] > 0
    assert result.caught[1] == 0
    assert result.calls[1] > 0


class _Cheat:
    name = "cheat"

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return Action(Kind.CALL)


def test_a_bot_that_returns_anything_but_a_legal_turn_action_is_stopped() -> None:
    with pytest.raises(BotError, match="cheat"):
        play_game([Player(_Cheat()), Player(RandomBot())], seed=1)


def test_the_runner_hands_each_bot_the_view_of_its_own_seat() -> None:
    seen: list[tuple[int, int]] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
            seen.append((view.seat, view.turn))
            return turn_choices(view)[0]

    play_game([Player(Recorder()), Player(Recorder())], seed=2, options=Options(2, 40))
    assert seen and all(seat == turn for seat, turn in seen)


def test_legal_actions_of_a_view_equal_the_engines() -> None:
    state = random_states(3, 4, 40)[-1]
    assert list(view(state, state.turn).legal) == legal_actions(state, state.turn)


class _Speaker:
    name = "speaker"

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        return "draw"  # notation, not an Action


def test_a_bot_that_answers_a_string_is_told_it_returned_a_str() -> None:
    with pytest.raises(BotError, match=r"^speaker returned a str, expected an Action$"):
        play_game([Player(_Speaker()), Player(RandomBot())], seed=1)


def test_a_classic_bot_that_answers_a_string_is_told_it_returned_a_str() -> None:
    from dos.bots.classic.random_bot import ClassicRandomBot
    from dos.play.classic import ClassicPlayer
    from dos.play.classic import play_game as play_classic

    players = [ClassicPlayer(_Speaker()), ClassicPlayer(ClassicRandomBot())]
    with pytest.raises(BotError, match=r"^speaker returned a str, expected an Action$"):
        play_classic(players, seed=1)
