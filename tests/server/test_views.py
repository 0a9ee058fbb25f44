"""The views the server sends equal the rule set's own ``view_json``; spectators get no hand."""

from __future__ import annotations

import random

import pytest

from dos import ruleset
from dos.server.tables.views import Views


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_views_sent_are_the_rule_sets_views(seed: int) -> None:
    rules = ruleset.get("official")
    state = rules.new_game({"players": 3, "target_score": 40}, seed)
    rng = random.Random(seed)
    steps = 0
    while not rules.is_over(state) and steps < 400:
        views = Views(rules, state, history=True)
        brief = Views(rules, state)
        for seat in range(3):
            full = rules.view_json(state, seat)
            assert views.data(seat) == full
            assert brief.data(seat) == {k: v for k, v in full.items() if k != "history"}
        spectator = views.data(None)
        assert "hand" not in spectator and "legal" not in spectator
        assert spectator["seat"] is None
        rules.apply(state, rng.choice(rules.all_legal_actions(state)))
        steps += 1
