"""The ``greedy`` bot: legal answers, determinism, the play a good human would recognise."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dos.bots.base import Budget, turn_choices
from dos.bots.determinize import sample_state
from dos.bots.greedy import GreedyBot, GreedyWeights
from dos.bots.random_bot import RandomBot
from dos.bots.registry import make_bot
from dos.play.official import Player, play_game
from dos.rules.official import (
    Action,
    Kind,
    Options,
    Phase,
    SeatView,
    apply,
    from_position,
    parse_action,
    view,
)
from dos.rules.official.cards import IS_WILD
from dos.rules.official.matching import MatchKind, match_kind
from support import random_states

BUDGET = Budget()
_KINDS = {
    0: (MatchKind.SINGLE_NUMBER, MatchKind.DOUBLE_NUMBER),
    1: (MatchKind.SINGLE_COLOR,),
    2: (MatchKind.DOUBLE_COLOR,),
}


def _view(**fields: Any) -> SeatView:
    """The view of the seat to act in a position (seat 0 of two unless told otherwise)."""
    data: dict[str, Any] = {
        "players": len(fields["hands"]),
        "dealer": len(fields["hands"]) - 1,
        "turn": 0,
        "draw_pile": ["G6", "Y6", "R6", "B6", "G8", "Y8"],
        "discard": [],
        "scores": [0] * len(fields["hands"]),
    }
    data.update(fields)
    state = from_position(data)
    return view(state, state.turn)


def _choose(seat_view: SeatView, bot: GreedyBot | None = None, seed: int = 0) -> str:
    return str((bot or GreedyBot()).choose(seat_view, random.Random(seed), BUDGET))


def _views(players: int, seed: int, steps: int) -> list[SeatView]:
    """Views of the seat to act, with a real choice, along a seeded random game."""
    found = []
    for state in random_states(players, seed, steps):
        if state.phase == Phase.OVER:
            continue
        seat_view = view(state, state.turn)
        if len(turn_choices(seat_view)) > 1:
            found.append(seat_view)
    return found


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_greedy_returns_a_legal_turn_action_in_random_positions(players: int, seed: int) -> None:
    bot = GreedyBot()
    views = _views(players, seed, 300)
    assert len(views) > 50
    for seat_view in views:
        assert bot.choose(seat_view, random.Random(seed), BUDGET) in turn_choices(seat_view)


def test_greedy_plays_whole_games_with_only_legal_actions() -> None:
    # play_game raises BotError on any action that is not a legal turn action.
    for seed in range(3):
        players = [Player(GreedyBot()) for _ in range(2 + seed)]
        result = play_game(players, seed, Options(players=len(players), target_score=100))
        assert max(result.scores) >= 100


def test_the_same_view_and_seed_give_the_same_action() -> None:
    for seat_view in _views(3, 5, 200)[::3]:
        first = GreedyBot().choose(seat_view, random.Random(11), BUDGET)
        again = GreedyBot().choose(seat_view, random.Random(11), BUDGET)
        assert first == again


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (4, 12)])
def test_a_plan_is_what_the_engine_makes_of_its_matches(players: int, seed: int) -> None:
    """The bot plans from the view alone; the engine, applying the plan to a state sampled
    from the view, accepts every match, agrees on each colour bonus and leaves the hand the
    plan expects."""
    bot = GreedyBot()
    rng = random.Random(seed)
    checked = 0
    for seat_view in _views(players, seed, 400):
        plan = bot.plan(seat_view)
        if plan is None:
            continue
        state = sample_state(seat_view, rng)
        seat = seat_view.seat
        for planned in plan.matches:
            assert state.phase == Phase.TURN
            assert state.turn == seat
            action = planned.action
            assert (
                match_kind(action.cards, (), state.center[action.target]) in _KINDS[planned.bonus]
            )
            hand = list(state.hands[seat])
            apply(state, action)
            for card in action.cards:
                hand.remove(card)
            if state.turn == seat and state.round == seat_view.round:
                assert state.hands[seat] == hand
        checked += 1
    assert checked > 20


def test_greedy_prefers_a_double_color_match_to_a_number_match() -> None:
    # On R7: R3+R4 is a Double Color Match, B7 a Single Number Match; only one can be made.
    seat_view = _view(hands=[["R3", "R4", "B7", "G9"], ["Y1", "Y4", "Y5"]], center=["R7", "B1"])
    assert {"R3+R4@0", "B7@0"} <= {str(a) for a in seat_view.legal}
    assert _choose(seat_view) == "R3+R4@0"
    # With a Wild DOS as the partner too: R5+DOS is a Double Color Match on R7.
    seat_view = _view(hands=[["R5", "DOS", "G7", "B9"], ["Y1", "Y4", "Y5"]], center=["R7", "Y1"])
    assert _choose(seat_view) == "R5+DOS@0"


def test_greedy_prefers_a_colour_bonus_when_the_cards_shed_are_the_same() -> None:
    seat_view = _view(hands=[["B7", "R7", "G3"], ["Y1", "Y4", "Y5"]], center=["R7", "Y1"])
    assert _choose(seat_view) == "R7@0"


def test_greedy_plans_the_whole_turn() -> None:
    # B3 or Y3 can match G3, and B3 can join B4 on B7 (a Double Color Match). The best turn
    # makes B3+B4@0 and Y3@1, and the Double Color Match's placement takes G10: it goes out.
    seat_view = _view(
        hands=[["B3", "B4", "Y3", "G10"], ["Y1", "Y4", "Y5"]], center=["B7", "G3", "R9"]
    )
    plan = GreedyBot().plan(seat_view)
    assert plan is not None
    assert {str(a) for a in plan.actions} == {"B3+B4@0", "Y3@1"}
    assert plan.double_bonuses == 1
    assert _choose(seat_view) == "B3+B4@0"


def test_greedy_keeps_a_wild_number_when_an_ordinary_card_can_match() -> None:
    seat_view = _view(
        hands=[["R#", "B7", "Y9", "G10"], ["Y1", "Y4", "Y5", "G1", "G5", "R1"]], center=["Y7", "B6"]
    )
    plan = GreedyBot().plan(seat_view)
    assert plan is not None
    assert [str(a) for a in plan.actions] == ["B7@0"]
    assert _choose(seat_view) == "B7@0"


def test_greedy_sheds_a_wild_number_when_an_opponent_is_about_to_go_out() -> None:
    # The same hand, but the opponent holds one card: 40 points in hand now matter.
    seat_view = _view(hands=[["R#", "B7", "Y9", "G10"], ["Y1"]], center=["Y7", "B6"])
    plan = GreedyBot().plan(seat_view)
    assert plan is not None
    assert {str(a) for a in plan.actions} == {"B7@0", "R#@1"}


def test_greedy_spends_a_wild_to_go_out() -> None:
    seat_view = _view(hands=[["R#", "B7"], ["Y1", "Y4", "Y5", "G1", "G5"]], center=["Y7", "B6"])
    plan = GreedyBot().plan(seat_view)
    assert plan is not None
    assert {str(a) for a in plan.actions} == {"B7@0", "R#@1"}


def test_greedy_matches_rather_than_draws_when_a_good_match_exists() -> None:
    seat_view = _view(hands=[["B7", "G4", "Y9", "R1"], ["Y1", "Y4", "Y5"]], center=["R7", "B10"])
    assert "draw" in {str(a) for a in seat_view.legal}
    assert _choose(seat_view) == "B7@0"
    # After a draw, a match beats a lay.
    seat_view = _view(
        hands=[["B7", "G4", "Y9", "R1"], ["Y1", "Y4", "Y5"]],
        center=["R7", "B10"],
        phase="drawn",
    )
    assert _choose(seat_view) == "B7@0"


def test_greedy_draws_when_nothing_matches() -> None:
    seat_view = _view(hands=[["B1", "G3"], ["Y1", "Y4", "Y5"]], center=["R7", "Y10"])
    assert _choose(seat_view) == "draw"


@pytest.mark.parametrize(
    "hand",
    [["R#", "B3", "DOS"], ["DOS", "G1", "Y#", "B#"], ["R#", "R#", "B10", "DOS", "DOS"]],
)
def test_greedy_never_lays_a_wild_when_another_card_is_there(hand: list[str]) -> None:
    seat_view = _view(hands=[hand, ["Y1", "Y4", "Y5"]], center=["Y9", "G10"], phase="drawn")
    action = GreedyBot().choose(seat_view, random.Random(0), BUDGET)
    assert any(a.kind == Kind.LAY for a in turn_choices(seat_view))
    assert action.kind == Kind.MATCH or not IS_WILD[action.cards[0]], str(action)


def test_greedy_lays_the_highest_card_it_can_after_a_fruitless_draw() -> None:
    seat_view = _view(
        hands=[["B1", "G3", "R10", "DOS", "Y4"], ["Y1", "Y4", "Y5", "G1", "G5"]],
        center=["B9", "G9"],
        phase="drawn",
    )
    assert all(a.kind == Kind.LAY for a in turn_choices(seat_view))
    assert _choose(seat_view) == "lay R10"


def test_greedy_never_places_a_wild_when_another_card_is_there() -> None:
    seat_view = _view(
        hands=[["R#", "B#", "DOS", "G9"], ["Y1", "Y4", "Y5"]],
        center=["B7", "G10"],
        phase="placing",
        bonuses={"single": 1, "double": 0},
        placements_left=1,
    )
    assert _choose(seat_view) == "place G9"
    # Only wilds left and more than can be placed: keep them.
    seat_view = _view(
        hands=[["R#", "B#", "DOS"], ["Y1", "Y4", "Y5"]],
        center=["B7", "G10"],
        phase="placing",
        bonuses={"single": 1, "double": 0},
        placements_left=1,
    )
    assert _choose(seat_view) == "end"


def test_greedy_places_its_last_cards_to_go_out() -> None:
    seat_view = _view(
        hands=[["R#", "G9"], ["Y1", "Y4", "Y5"]],
        center=["B7", "G10"],
        phase="placing",
        bonuses={"single": 0, "double": 2},
        placements_left=2,
    )
    assert _choose(seat_view) == "place G9"


def test_greedy_never_lays_or_places_a_wild_in_whole_games() -> None:
    class Watched(GreedyBot):
        def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
            action = super().choose(view, rng, budget)
            if action.kind in (Kind.LAY, Kind.PLACE) and IS_WILD[action.cards[0]]:
                going_out = action.kind == Kind.PLACE and view.placements_left >= len(view.hand)
                assert going_out or all(IS_WILD[c] for c in view.hand), str(action)
            return action

    for seed in range(4):
        play_game(
            [Player(Watched()), Player(RandomBot())], seed, Options(players=2, target_score=100)
        )


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(10):
        for seat in (0, 1):
            players = [Player(RandomBot()), Player(RandomBot())]
            players[seat] = Player(GreedyBot())
            result = play_game(players, seed, Options(players=2, target_score=100))
            wins += result.winner == seat
    assert wins >= 18


def test_settings_are_keyword_weights() -> None:
    bot = GreedyBot(keep_wild_number=0.0, card=12.0)
    assert bot.weights == GreedyWeights(keep_wild_number=0.0, card=12.0)
    assert GreedyBot(weights=GreedyWeights(feed=1.0)).weights.feed == 1.0
    with pytest.raises(ValueError, match="unknown setting"):
        GreedyBot(cards=3.0)
    with pytest.raises(ValueError, match="max_leaves"):
        GreedyBot(max_leaves=0)
    assert make_bot("greedy").name == "greedy"


def test_parse_action_round_trip_of_choices() -> None:
    # The actions greedy returns are the engine's own objects, written canonically.
    for seat_view in _views(2, 21, 120)[::5]:
        action = GreedyBot().choose(seat_view, random.Random(0), BUDGET)
        assert parse_action(str(action)) == action
