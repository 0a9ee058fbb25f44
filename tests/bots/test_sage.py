"""The ``sage`` bot (the ``expert`` level's play): legal answers, determinism, no peeking at
hidden cards, its game values, and what it reads from a fruitless draw."""

from __future__ import annotations

import random

import pytest

from dos.bots.base import Budget, turn_choices
from dos.bots.determinize import Sampler
from dos.bots.greedy import GreedyBot
from dos.bots.inference import last_turn, read_history
from dos.bots.mcts import _call_all
from dos.bots.registry import make_player
from dos.bots.replay import Reading, read_round
from dos.bots.sage import ROUND_POINTS, SageBot, game_values
from dos.rules.official import (
    Options,
    Phase,
    State,
    apply,
    from_position,
    new_game,
    parse_action,
    view,
)
from dos.rules.official.cards import parse_card
from dos.rules.official.legal import matches
from support import choice_views, hidden_shuffled, random_states


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_bot_returns_only_legal_turn_actions(players: int, seed: int) -> None:
    bot = SageBot()
    rng = random.Random(seed)
    views = choice_views(players, seed, 240, 7)
    assert len(views) > 10
    for seat_view in views:
        action = bot.choose(seat_view, rng, Budget(iterations=24))
        assert action in turn_choices(seat_view)
        assert 0 < bot.iterations_done <= 24


def test_same_view_same_generator_same_action() -> None:
    for seat_view in choice_views(2, 7, 200, 13):
        first = SageBot().choose(seat_view, random.Random(11), Budget(iterations=60))
        second = SageBot().choose(seat_view, random.Random(11), Budget(iterations=60))
        assert first == second


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (2, 5), (4, 8)])
def test_hidden_cards_cannot_change_the_decision(players: int, seed: int) -> None:
    """Two games that differ only in what the seat cannot see give it the same view, and so
    the same decision with the same generator: inference included, the bot reads only the
    view."""
    checked = 0
    for state in random_states(players, seed, 240)[5::13]:
        if state.phase == Phase.OVER:
            continue
        seat = state.turn
        other = hidden_shuffled(state, seat, seed)
        assert view(other, seat) == view(state, seat)
        if len(turn_choices(view(state, seat))) < 2:
            continue
        one = SageBot().choose(view(state, seat), random.Random(4), Budget(iterations=40))
        two = SageBot().choose(view(other, seat), random.Random(4), Budget(iterations=40))
        assert one == two
        checked += 1
    assert checked >= 3


def test_it_goes_out_when_it_can() -> None:
    state = from_position(
        {
            "players": 2,
            "dealer": 1,
            "turn": 0,
            "hands": [["R7"], ["G5", "Y10", "Y#", "B3", "B4", "G1", "R9"]],
            "center": ["R4", "B7"],
            "draw_pile": ["G1", "B9", "R3", "Y4", "G8"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    action = SageBot().choose(view(state, 0), random.Random(0), Budget(iterations=40))
    assert str(action) == "R7@1"


def test_the_expert_level_is_the_sage_bot_with_quick_reflexes() -> None:
    expert = make_player("expert")
    bare = make_player("sage")
    assert isinstance(expert.bot, SageBot) and isinstance(bare.bot, SageBot)
    assert expert.reflex.reaction < bare.reflex.reaction
    assert expert.budget.seconds is not None and expert.budget.seconds <= 1.0


# --- game values --------------------------------------------------------------------------


def test_game_values_are_a_fair_and_monotone_chance_of_winning() -> None:
    values = game_values(60)
    for a in range(60):
        assert values[a][a] == pytest.approx(0.5)
        for b in range(60):
            assert 0.0 < values[a][b] < 1.0
            assert values[a][b] + values[b][a] == pytest.approx(1.0)
            if a + 1 < 60:
                assert values[a + 1][b] >= values[a][b]


def test_a_game_value_is_the_average_over_the_next_round() -> None:
    target = 80
    values = game_values(target)
    a, b = 30, 55
    expected = 0.0
    for x in ROUND_POINTS[2]:
        expected += 1.0 if a + x >= target else values[a + x][b]
        expected += 0.0 if b + x >= target else values[a][b + x]
    assert values[a][b] == pytest.approx(expected / (2 * len(ROUND_POINTS[2])))


def test_a_simulated_round_is_scored_by_the_game_it_leaves() -> None:
    bot = SageBot()
    bot._values = game_values(200)
    assert bot._round_rewards((150, 190), 200, 0, 60) == [1.0, 0.0]
    assert bot._round_rewards((150, 190), 200, 1, 10) == [0.0, 1.0]
    small, large = bot._round_rewards((0, 0), 200, 0, 5), bot._round_rewards((0, 0), 200, 0, 60)
    assert 0.5 < small[0] < large[0] < 1.0
    assert sum(small) == pytest.approx(1.0)


def test_tables_are_refused_for_targets_out_of_range() -> None:
    with pytest.raises(ValueError, match="target"):
        game_values(0)


@pytest.mark.parametrize("settings", [{"infer": -0.1}, {"model": 1.5}])
def test_shares_of_samples_are_between_0_and_1(settings: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        SageBot(**settings)


# --- inference ------------------------------------------------------------------------------


def _after_a_fruitless_draw() -> State:
    """Seat 1 faces R4 and B7 with no match, draws G1 (still no match: 1 is no 4 or 7, and
    no two of its cards add up to either), and lays its Y10."""
    state = from_position(
        {
            "players": 2,
            "dealer": 0,
            "turn": 1,
            "hands": [["G7", "G10", "B8"], ["Y10", "B9", "G9", "R10", "Y8"]],
            "center": ["R4", "B7"],
            "draw_pile": ["Y5", "B5", "G1"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    for text in ("draw", "lay Y10"):
        apply(state, parse_action(text))
    assert state.turn == 0
    return state


def test_a_fruitless_draw_is_read_from_the_history() -> None:
    found = last_turn(view(_after_a_fruitless_draw(), 0))
    assert found is not None
    assert found.seat == 1 and found.cards == 5
    assert found.faced == (parse_card("R4"), parse_card("B7"))
    assert found.extra == (parse_card("Y10"),)
    assert not found.proven


def test_the_inference_holds_while_the_seat_matches_and_not_after() -> None:
    state = _after_a_fruitless_draw()
    apply(state, parse_action("G7@1"))
    assert last_turn(view(state, 0)) == last_turn(view(_after_a_fruitless_draw(), 0))
    apply(state, parse_action("end"))
    assert last_turn(view(state, state.turn)) is None


def test_a_match_turn_that_ended_by_itself_proves_the_hand_matched_nothing_left() -> None:
    state = from_position(
        {
            "players": 2,
            "dealer": 0,
            "turn": 1,
            "hands": [["R3", "G3", "B8"], ["Y4", "B10", "G10", "R10", "Y8"]],
            "center": ["R4", "B7", "G9", "Y3"],
            "draw_pile": ["Y5", "B5", "G1"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    apply(state, parse_action("Y4@0"))  # nothing left to match on B7, G9, Y3: the turn ends
    assert state.turn == 0
    found = last_turn(view(state, 0))
    assert found is not None and found.proven
    assert found.seat == 1 and found.cards == 4 and found.extra == ()
    assert found.faced == tuple(parse_card(c) for c in ("B7", "G9", "Y3"))
    # A loaded position was not dealt from a full deck: the round cannot be replayed
    # (dos.bots.replay), and the samples fall back on this reading of the last turn.
    assert read_round(view(state, 0)) is None
    assert read_history(view(state, 0)).readings == (Reading(1, found.faced, (), 0, proven=True),)


def test_a_refilled_row_or_a_chosen_end_tells_nothing() -> None:
    state = from_position(
        {
            "players": 2,
            "dealer": 0,
            "turn": 1,
            "hands": [["R3", "G3", "B8"], ["Y4", "B9", "G9", "R10", "Y8"]],
            "center": ["R4", "B7"],
            "draw_pile": ["Y5", "B5", "G1"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    assert last_turn(view(state, 1)) is None  # no history at all
    apply(state, parse_action("Y4@0"))  # nothing else to match: the turn ends (RULES.md §4)
    assert state.turn == 0
    assert last_turn(view(state, 0)) is None  # the row was refilled: which cards were left?


def test_a_sample_deals_the_kept_cards_from_cards_that_match_nothing_there() -> None:
    seat_view = view(_after_a_fruitless_draw(), 0)
    found = last_turn(seat_view)
    assert found is not None
    sampler = Sampler(seat_view, round_only=True, infer=1.0)
    rng = random.Random(3)
    for _ in range(200):
        sample = sampler.sample(rng)
        kept = sample.hands[1]
        assert len(kept) == 5
        assert not matches([*kept, *found.extra], list(found.faced), {})
    # Without the inference, samples often hold such cards.
    plain = Sampler(seat_view, round_only=True)
    assert any(matches(plain.sample(rng).hands[1], list(found.faced), {}) for _ in range(50))


def test_facts_always_hold_and_fruitless_draws_mostly_do() -> None:
    """What the rules prove holds of every true hand; a fruitless draw's reading holds of
    ``greedy``'s hands but now and then (it lays when a lay sheds as much), which is why only
    ``infer`` of the samples follow it."""
    counts = {True: [0, 0], False: [0, 0]}
    bot = GreedyBot()
    for players, seed in [(2, s) for s in range(8)] + [(4, s) for s in range(4)]:
        state = new_game(Options(players=players), seed)
        rng = random.Random(seed)
        for _ in range(800):
            if state.phase == Phase.OVER:
                break
            if state.dos_open:
                _call_all(state)
            seat_view = view(state, state.turn)
            found = last_turn(seat_view)
            if found is not None and found.cards == len(state.hands[found.seat]):
                counts[found.proven][0] += 1
                counts[found.proven][1] += found.allows(list(state.hands[found.seat]))
            apply(state, bot.choose(seat_view, rng, Budget()))
    (facts, facts_held), (likely, likely_held) = counts[True], counts[False]
    assert facts > 30 and facts_held == facts
    assert likely > 30 and likely_held / likely > 0.8
