"""The official DOS rule set (Mattel FRM36, 2018), as RULES.md §1-§8 settles it.

>>> from dos.rules.official import new_game, legal_actions, apply, parse_action
>>> state = new_game(seed=7)
>>> apply(state, parse_action("draw"))
>>> state.drew
True
"""

from __future__ import annotations

from typing import Any

from dos.rules.official.actions import Action, Kind, format_action, parse_action
from dos.rules.official.legal import all_legal_actions, legal_actions
from dos.rules.official.options import Options
from dos.rules.official.positions import from_position, to_position
from dos.rules.official.setup import new_game
from dos.rules.official.state import Phase, RoundResult, State
from dos.rules.official.transitions import apply
from dos.rules.official.views import SeatView, view

__all__ = [
    "RULES",
    "Action",
    "Kind",
    "OfficialRules",
    "Options",
    "Phase",
    "RoundResult",
    "SeatView",
    "State",
    "all_legal_actions",
    "apply",
    "format_action",
    "from_position",
    "legal_actions",
    "new_game",
    "parse_action",
    "to_position",
    "view",
]


class OfficialRules:
    """The official rule set behind the common ``dos.ruleset.RuleSet`` interface."""

    name = "official"

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
        return len(state.round_results)

    def result(self, state: State) -> dict[str, Any]:
        return {
            "winner": state.winner,
            "scores": list(state.scores),
            "rounds": len(state.round_results),
        }

    def to_position(self, state: State) -> dict[str, Any]:
        return to_position(state)

    def from_position(self, data: object) -> State:
        return from_position(data)

    def view_json(self, state: State, seat: int) -> dict[str, Any]:
        return view(state, seat).to_json()


RULES = OfficialRules()
