"""Helpers for the tests of the classic rule set (RULES.md §9).

Scenarios are positions written by hand (``position(**overrides)``) and actions written in
notation (``play(state, "R7", "W=G")``). Every expected value in the tests is worked out from
RULES.md §9, not read back from the engine.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from dos.errors import IllegalActionError
from dos.rules.classic import (
    State,
    apply,
    from_position,
    legal_actions,
    parse_action,
    to_position,
)
from dos.rules.classic.cards import card_name, parse_card

DEFAULT_TOP = "B5"
DEFAULT_DRAW_PILE = ["G9", "Y9", "R9", "G8", "Y8", "R8", "G7", "Y7"]
"""Top card first."""


def default_hand(seat: int) -> list[str]:
    """Four green and yellow number cards (none fits the default top card, blue 5)."""
    return ["G1", "G2", "Y3", "Y4"] if seat % 2 == 0 else ["G3", "G4", "Y1", "Y2"]


def position(**overrides: Any) -> dict[str, Any]:
    """A valid position with seat 0 to act; any field can be overridden.

    ``players`` defaults to the number of ``hands`` given, else 4.
    """
    if "players" in overrides:
        players = overrides["players"]
    elif "hands" in overrides:
        players = len(overrides["hands"])
    else:
        players = 4
    data: dict[str, Any] = {
        "players": players,
        "turn": 0,
        "hands": [default_hand(seat) for seat in range(players)],
        "draw_pile": list(DEFAULT_DRAW_PILE),
        "discard": [DEFAULT_TOP],
    }
    data.update(overrides)
    return data


def load(**overrides: Any) -> State:
    """The state of ``position(**overrides)``."""
    return from_position(position(**overrides))


def play(state: State, *actions: str) -> State:
    """Applies each action, written in notation, in order; returns the state."""
    for text in actions:
        apply(state, parse_action(text))
    return state


def cards(*names: str) -> list[int]:
    """Card types in the engine's hand order (sorted), from their notation."""
    return sorted(parse_card(name) for name in names)


def names(types: list[int] | tuple[int, ...]) -> list[str]:
    """The notation of each card type."""
    return [card_name(t) for t in types]


def legal(state: State) -> set[str]:
    """The legal actions of the seat to act, in notation."""
    return {str(a) for a in legal_actions(state)}


def draw_pile_top_first(state: State) -> list[str]:
    return to_position(state)["draw_pile"]


def assert_illegal(state: State, action: str, pattern: str = "") -> str:
    """``action`` raises ``IllegalActionError`` naming ``RULES §9`` (and matching the regular
    expression ``pattern``), and leaves the state exactly as it was; returns the message."""
    before = state.copy()
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action(action))
    message = str(info.value)
    assert message.startswith("RULES §9"), message
    assert re.search(pattern, message), message
    assert state == before
    return message
