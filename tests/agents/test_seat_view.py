"""The agent API's JSON view maps back to the engine's own ``SeatView``: for every state of
seeded random games, of both rule sets, the view the server sends a seat (``Views``, with its
history, as ``GET /api/agent/seat?history=true`` sends it) rebuilds into exactly the view the
engine gives that seat, so a bot at a live table decides as it would in a tournament."""

from __future__ import annotations

import pytest

from dos import ruleset
from dos.agents.seat_view import ViewError, seat_view
from dos.rules import classic, official
from dos.server.tables.views import Views
from support import random_states

ENGINE_VIEW = {"official": official.view, "classic": classic.view}


@pytest.mark.parametrize("rules", ["official", "classic"])
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (4, 12)])
def test_the_servers_json_view_rebuilds_the_engines_own_view(
    rules: str, players: int, seed: int
) -> None:
    engine = ruleset.get(rules)
    states = random_states(players, seed, 250, rules)
    phases = set()
    for state in states:
        views = Views(engine, state, history=True)
        for seat in range(players):
            own = ENGINE_VIEW[rules](state, seat)
            assert seat_view(rules, views.data(seat)) == own
            phases.add(own.phase)
    assert len(phases) >= 2  # more than the opening phase: placing, or the reaction test


def test_a_view_without_its_history_rebuilds_with_none() -> None:
    engine = ruleset.get("official")
    state = random_states(2, 3, 30)[-1]
    rebuilt = seat_view("official", Views(engine, state).data(0))
    assert rebuilt.history == () and rebuilt.hand == official.view(state, 0).hand


@pytest.mark.parametrize("rules", ["official", "classic", "poker"])
def test_json_that_is_no_view_is_refused_by_name(rules: str) -> None:
    with pytest.raises(ViewError, match=r"seat view|unknown rule set"):
        seat_view(rules, {"seat": 0})
