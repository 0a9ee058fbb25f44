"""The classic rule set (seed 004): UNO-style Dos with a reaction test, as RULES.md §9 settles it.

All of its legality and transitions live in this package; everything else (the ``dos``
command, bots, clients, the server) calls its public API, or the common
``dos.ruleset.RuleSet`` interface through ``RULES``.

>>> from dos.rules.classic import new_game, legal_actions, apply, parse_action
>>> state = new_game(seed=7)
>>> apply(state, legal_actions(state)[0])
>>> len(state.history)
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dos.rules.classic.actions import Action, Kind, format_action, parse_action
from dos.rules.classic.legal import all_legal_actions, legal_actions, playable
from dos.rules.classic.options import Options
from dos.rules.classic.positions import from_position, to_position
from dos.rules.classic.reaction import FakeClock, ReactionTest
from dos.rules.classic.setup import new_game
from dos.rules.classic.state import Phase, State
from dos.rules.classic.transitions import apply
from dos.rules.classic.views import SeatView, view

__all__ = [
    "RULES",
    "Action",
    "ClassicRules",
    "FakeClock",
    "Kind",
    "Options",
    "Phase",
    "ReactionTest",
    "SeatView",
    "State",
    "all_legal_actions",
    "apply",
    "format_action",
    "from_position",
    "legal_actions",
    "new_game",
    "parse_action",
    "playable",
    "result",
    "to_position",
    "view",
]


def result(state: State) -> dict[str, Any]:
    """The outcome so far as JSON: the ranking (seats, first place first; complete once the
    game is over), the winner (first place, once decided) and the rounds played (one game of
    classic is one round).

    >>> result(new_game(seed=1))
    {'winner': None, 'ranking': [], 'rounds': 0}
    """
    return {
        "winner": state.ranking[0] if state.ranking else None,
        "ranking": list(state.ranking),
        "rounds": 1 if state.phase == Phase.OVER else 0,
    }


class ClassicRules:
    """The classic rule set behind the common ``dos.ruleset.RuleSet`` interface.

    >>> state = RULES.new_game({"players": 3, "stacking": False}, seed=1)
    >>> RULES.options_json(state)["stacking"], RULES.players(state)
    (False, 3)
    """

    name = "classic"

    def new_game(self, options: dict[str, Any] | None, seed: int) -> State:
        return new_game(Options.from_json(options or {}), seed)

    def options_json(self, state: State) -> dict[str, Any]:
        return state.options.to_json()

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def by_seat(self, state: State, action: Action, seat: int) -> Action | None:
        if action.seat is not None and action.seat != seat:
            return None
        return action._replace(seat=None if seat == state.turn else seat)

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        return legal_actions(state, seat)

    def all_legal_actions(self, state: State) -> list[Action]:
        return all_legal_actions(state)

    def apply(self, state: State, action: Action) -> None:
        apply(state, action)

    def copy(self, state: State) -> State:
        return state.copy()

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def turn(self, state: State) -> int:
        return state.turn

    def players(self, state: State) -> int:
        return state.options.players

    def rounds_played(self, state: State) -> int:
        return 1 if state.phase == Phase.OVER else 0

    def result(self, state: State) -> dict[str, Any]:
        return result(state)

    def to_position(self, state: State) -> dict[str, Any]:
        return to_position(state)

    def from_position(self, data: object) -> State:
        return from_position(data)

    def view_json(self, state: State, seat: int) -> dict[str, Any]:
        return view(state, seat).to_json()


RULES = ClassicRules()

if TYPE_CHECKING:
    from dos.ruleset import RuleSet

    _CONFORMS: RuleSet[State, Action] = RULES  # mypy checks the common interface
