"""The reaction test at two cards and at one (RULES.md §9), in the engine and against a clock.

The engine has no clock: it places the targets and judges the reported reaction. The timing
logic (``ReactionTest``) runs against an injected ``FakeClock``, so no test waits or times.
"""

from __future__ import annotations

import pytest

from dos.rules.classic import FakeClock, Phase, ReactionTest, legal_actions, parse_action, view
from dos.rules.classic.reaction import MARGIN, TARGET_RADIUS

from .conftest import assert_illegal, cards, legal, load, play

FILL = [["G0", "Y0", "R0", "B0"], ["G1", "Y1", "R1", "B1"], ["G2", "Y2", "R2", "B2"]]
PILE = ["G9", "Y9", "R9", "G8", "Y8", "R8"]


def at_three(**overrides: object) -> object:
    """Seat 0 holds three cards, B7 fits the blue 5: playing it leaves two."""
    return load(hands=[["B7", "G3", "Y4"], *FILL], draw_pile=PILE, **overrides)


def test_a_hand_dropping_to_two_cards_starts_the_reaction_test_with_two_targets() -> None:
    state = at_three()
    play(state, "B7")
    assert state.phase == Phase.REACTION
    assert state.turn == 0  # the player who dropped to two takes the test
    assert len(state.targets) == 2
    assert legal(state) == {"react 2 3000ms", "timeout"}


def test_a_hand_dropping_to_one_card_starts_the_reaction_test_with_one_target() -> None:
    state = load(hands=[["B7", "G3"], *FILL])
    play(state, "B7")
    assert state.phase == Phase.REACTION
    assert len(state.targets) == 1


def test_no_reaction_test_above_two_cards_nor_when_the_hand_is_empty() -> None:
    state = load(hands=[["B7", "G3", "Y4", "Y5"], *FILL])
    play(state, "B7")
    assert state.phase == Phase.PLAY
    assert state.turn == 1
    state = load(hands=[["B7"], *FILL])
    play(state, "B7")
    assert state.phase == Phase.PLAY
    assert state.ranking == [0]


def test_targets_lie_inside_the_play_area_and_do_not_overlap() -> None:
    for seed in range(60):
        state = at_three(rng=seed)
        play(state, "B7")
        (x1, y1), (x2, y2) = state.targets
        for value in (x1, y1, x2, y2):
            assert MARGIN <= value <= 1000 - MARGIN
        assert max(abs(x1 - x2), abs(y1 - y2)) >= 2 * TARGET_RADIUS


def test_targets_appear_at_random_places_decided_by_the_game_generator() -> None:
    placed = set()
    for seed in range(20):
        state = at_three(rng=seed)
        play(state, "B7")
        again = at_three(rng=seed)
        play(again, "B7")
        assert again.targets == state.targets  # the same game, the same targets
        placed.add(state.targets)
    assert len(placed) == 20


def test_hitting_every_target_in_time_passes_without_penalty() -> None:
    state = at_three()
    play(state, "B7", "react 2 2999ms")
    assert state.phase == Phase.PLAY
    assert state.hands[0] == cards("G3", "Y4")
    assert state.turn == 1
    assert state.targets == ()


def test_hitting_exactly_at_the_time_limit_still_passes() -> None:
    state = at_three()
    play(state, "B7", "react 2 3000ms")
    assert len(state.hands[0]) == 2


@pytest.mark.parametrize("reaction", ["timeout", "react 2 3001ms", "react 1 800ms", "react 0 0ms"])
def test_failing_the_reaction_test_draws_one_penalty_card(reaction: str) -> None:
    state = at_three()
    play(state, "B7", reaction)
    assert state.hands[0] == cards("G3", "Y4", "G9")
    assert state.phase == Phase.PLAY
    assert state.turn == 1


def test_the_penalty_size_and_the_time_limit_are_options() -> None:
    state = at_three(options={"penalty_cards": 3, "reaction_time_ms": 1000})
    play(state, "B7")
    assert legal(state) == {"react 2 1000ms", "timeout"}
    play(state, "react 2 1200ms")
    assert state.hands[0] == cards("G3", "Y4", "G9", "Y9", "R9")


def test_the_reaction_test_at_one_card_needs_its_one_target() -> None:
    state = load(hands=[["B7", "G3"], *FILL], draw_pile=PILE)
    play(state, "B7", "react 1 450ms")
    assert state.hands[0] == cards("G3")
    state = load(hands=[["B7", "G3"], *FILL], draw_pile=PILE)
    play(state, "B7", "timeout")
    assert state.hands[0] == cards("G3", "G9")


def test_more_hits_than_targets_are_rejected() -> None:
    state = load(hands=[["B7", "G3"], *FILL])
    play(state, "B7")
    assert_illegal(state, "react 2 500ms", "shows 1 target")


def test_nothing_else_may_be_done_during_the_reaction_test() -> None:
    state = at_three()
    play(state, "B7")
    assert_illegal(state, "draw", "must first take the reaction test")
    assert_illegal(state, "G3", "reaction test")
    assert_illegal(state, "1: timeout", "seat 0's turn")


def test_a_reaction_outside_the_reaction_test_is_rejected() -> None:
    state = at_three()
    assert_illegal(state, "react 2 100ms", "no reaction test")
    assert_illegal(state, "timeout", "no reaction test")


def test_the_played_cards_effect_waits_for_the_reaction_test() -> None:
    # a Skip down to two: after the test the next player is skipped
    state = load(hands=[["BS", "G3", "Y4"], *FILL])
    play(state, "BS", "react 2 1000ms")
    assert state.turn == 2
    # a Draw Two down to one: after the test the next player faces the pending draw
    state = load(hands=[["B+2", "G3"], *FILL])
    play(state, "B+2", "timeout")
    assert state.turn == 1
    assert state.pending == 2


def test_a_view_shows_the_targets_as_fractions_and_the_time_limit_to_every_seat() -> None:
    state = at_three()
    play(state, "B7")
    for seat in range(4):
        reaction = view(state, seat).to_json()["reaction"]
        assert reaction["seat"] == 0
        assert reaction["time_limit_ms"] == 3000
        assert reaction["radius"] == TARGET_RADIUS / 1000
        assert [(t["x"], t["y"]) for t in reaction["targets"]] == [
            (x / 1000, y / 1000) for x, y in state.targets
        ]


# --- the timing logic, against a controllable clock ------------------------------------------


def test_clicks_on_both_targets_within_the_limit_give_a_passing_reaction() -> None:
    clock = FakeClock(100.0)
    test = ReactionTest([(0.2, 0.2), (0.8, 0.6)], time_limit=3.0, clock=clock)
    assert test.remaining() == 3.0
    clock.advance(0.7)
    assert test.click(0.81, 0.59)
    assert not test.done()
    clock.advance(0.55)
    assert test.click(0.19, 0.22)
    assert test.done()
    assert str(test.action()) == "react 2 1250ms"


def test_a_click_beside_the_targets_or_on_a_target_already_hit_counts_for_nothing() -> None:
    clock = FakeClock()
    test = ReactionTest([(0.2, 0.2), (0.8, 0.6)], time_limit=3.0, clock=clock)
    assert not test.click(0.5, 0.5)
    assert test.click(0.2, 0.2)
    assert not test.click(0.2, 0.2)
    assert test.hits == 1


def test_the_countdown_runs_down_and_after_the_deadline_the_test_times_out() -> None:
    clock = FakeClock(10.0)
    test = ReactionTest([(0.2, 0.2), (0.8, 0.6)], time_limit=3.0, clock=clock)
    assert test.deadline == 13.0
    clock.advance(1.0)
    assert test.click(0.2, 0.2)
    assert test.remaining() == 2.0
    with pytest.raises(ValueError, match="still running"):
        test.action()
    clock.advance(2.5)
    assert test.remaining() == 0.0
    assert test.expired() and test.done()
    assert not test.click(0.8, 0.6)  # too late
    assert str(test.action()) == "timeout"


def test_a_click_exactly_at_the_deadline_still_counts() -> None:
    clock = FakeClock()
    test = ReactionTest([(0.5, 0.5)], time_limit=3.0, clock=clock)
    clock.advance(3.0)
    assert test.click(0.5, 0.5)
    assert str(test.action()) == "react 1 3000ms"


def test_a_test_built_from_the_engines_view_answers_the_engine() -> None:
    for clicks_in_time, expected_cards in ((True, 2), (False, 3)):
        state = at_three()
        play(state, "B7")
        clock = FakeClock()
        test = ReactionTest.from_view(view(state, 0).to_json()["reaction"], clock)
        for x, y in test.targets:
            clock.advance(0.4 if clicks_in_time else 2.0)
            test.click(x, y)
        clock.advance(5.0)
        action = test.action()
        assert action in legal_actions(state) or action == parse_action(str(action))
        play(state, str(action))
        assert len(state.hands[0]) == expected_cards


def test_a_running_test_can_be_carried_over_with_its_start_time() -> None:
    clock = FakeClock(50.0)
    test = ReactionTest([(0.5, 0.5)], time_limit=3.0, clock=clock, started=48.0)
    assert test.remaining() == 1.0
    assert test.click(0.5, 0.5)
    assert str(test.action()) == "react 1 2000ms"
