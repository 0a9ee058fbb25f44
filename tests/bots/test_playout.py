"""The rollout policy's weights (``dos.bots.playout``): what they change, and the planner
against every plan."""

from __future__ import annotations

import itertools
import random

from dos.bots.playout import PLAIN, Playout, match_value, plan_first, policy
from dos.rules.official import (
    Kind,
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    from_position,
    new_game,
)
from dos.rules.official.legal import matches


def _position(hand: list[str], center: list[str]) -> State:
    return from_position(
        {
            "players": 3,
            "dealer": 2,
            "turn": 0,
            "hands": [hand, ["B4", "Y5", "G10", "Y8"], ["Y1", "Y3"]],
            "center": center,
            "draw_pile": ["G1", "B9", "R3", "Y4", "G8"],
            "discard": [],
            "scores": [0, 0, 0],
        }
    )


def test_a_costly_wild_number_is_kept_for_a_better_use() -> None:
    # The Wild # on Y5 earns a Single Color Match; B3 on R3 is a plain match.
    state = _position(["Y#", "B3", "G6", "R8"], ["R3", "Y5"])
    assert str(policy(state, PLAIN)) == "Y#@1"
    assert str(policy(state, Playout(wild_number=25))) == "B3@0"


def _turn(state: State, playout: Playout) -> int:
    """Cards the seat to act sheds by matching until the policy stops matching."""
    before = len(state.hands[state.turn])
    seat = state.turn
    while state.turn == seat:
        action = policy(state, playout)
        if action.kind != Kind.MATCH:
            break
        apply(state, action)
    return before - len(state.hands[seat])


def test_a_planned_turn_sheds_more_than_one_match_at_a_time() -> None:
    # One match at a time takes B3 + Y6 on B9 first and then sheds 4 cards; the plan
    # DOS + Y6 on R8, G1 + Y8 on B9, G1 on Y1 sheds 5.
    hand = ["B3", "B10", "G1", "G1", "Y6", "Y8", "DOS"]
    center = ["R8", "B9", "Y1"]
    assert str(policy(_position(hand, center), PLAIN)) == "B3+Y6@1"
    assert _turn(_position(hand, center), PLAIN) == 4
    assert _turn(_position(hand, center), Playout(plan=True)) == 5


def _best_plan_value(hand: list[int], found: list, values: list[int]) -> int:
    """The best total over every plan, by brute force."""
    by_row: dict[int, list[int]] = {}
    for i, action in enumerate(found):
        by_row.setdefault(action.target, []).append(i)
    best = 0
    for choice in itertools.product(*[[None, *row] for row in by_row.values()]):
        used = [found[i].cards for i in choice if i is not None]
        cards = [c for pair in used for c in pair]
        if all(cards.count(c) <= hand.count(c) for c in set(cards)):
            best = max(best, sum(values[i] for i in choice if i is not None))
    return best


def test_the_plan_is_the_best_over_every_plan_where_few_options_are_open() -> None:
    playout = Playout(plan=True)
    checked = 0
    for seed in range(40):
        state = new_game(Options(players=2 + seed % 3), seed)
        chooser = random.Random(seed)
        for _ in range(120):
            if state.winner is not None:
                break
            hand = state.hands[state.turn]
            found = matches(hand, state.center, state.matched)
            rows = {a.target for a in found}
            per_row = max((sum(a.target == r for a in found) for r in rows), default=0)
            if state.phase == Phase.TURN and found and per_row <= 4 and len(rows) <= 4:
                values = [match_value(state.center[a.target], a.cards, playout) for a in found]
                first = plan_first(hand, found, values)
                best = _best_plan_value(hand, found, values)
                assert (first is None) == (best <= 0)
                if first is not None:
                    # The first match, then the best plan of what is left, is the best plan.
                    rest = [i for i, a in enumerate(found) if a.target != found[first].target]
                    left = list(hand)
                    for card in found[first].cards:
                        left.remove(card)
                    tail = _best_plan_value(
                        left, [found[i] for i in rest], [values[i] for i in rest]
                    )
                    assert values[first] + tail == best
                    assert found[first] in all_legal_actions(state)
                checked += 1
            apply(state, chooser.choice(all_legal_actions(state)))
    assert checked >= 100
