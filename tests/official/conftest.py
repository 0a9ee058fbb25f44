"""Helpers for the tests of the official rule set (RULES.md §1-§8).

Scenarios are positions written by hand (``position(**overrides)``) and actions written in
notation (``play(state, "R7@0", "2: catch 0")``). Every expected value in the tests is worked
out from RULES.md, not read back from the engine.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from dos.errors import IllegalActionError
from dos.rules.official import (
    State,
    all_legal_actions,
    apply,
    from_position,
    legal_actions,
    parse_action,
    to_position,
)
from dos.rules.official.cards import card_name, parse_card

_COLOUR_CYCLE = "BGYR"
DEFAULT_CENTER = ["B7", "G10"]
DEFAULT_DRAW_PILE = ["G6", "Y6", "R6", "B6", "G8", "Y8", "R8", "B8"]
"""Top card first. No card of these types appears in the default hands or center."""


def default_hand(seat: int) -> list[str]:
    """Four cards of one colour, 1 3 4 5: seats 0-3 blue, green, yellow, red, then again."""
    colour = _COLOUR_CYCLE[seat % 4]
    return [f"{colour}{n}" for n in (1, 3, 4, 5)]


def position(**overrides: Any) -> dict[str, Any]:
    """A valid start-of-turn position; any field can be overridden.

    ``players`` defaults to the number of ``hands`` given, else 4. Seat ``players - 1`` deals,
    so seat 0, on the dealer's left, is to act.
    """
    if "players" in overrides:
        players = overrides["players"]
    elif "hands" in overrides:
        players = len(overrides["hands"])
    else:
        players = 4
    data: dict[str, Any] = {
        "players": players,
        "dealer": players - 1,
        "turn": 0,
        "hands": [default_hand(seat) for seat in range(players)],
        "center": list(DEFAULT_CENTER),
        "draw_pile": list(DEFAULT_DRAW_PILE),
        "discard": [],
        "scores": [0] * players,
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


def legal(state: State, seat: int | None = None) -> set[str]:
    """The legal actions of ``seat`` (default: the seat to act), in notation."""
    return {str(a) for a in legal_actions(state, seat)}


def every_legal(state: State) -> set[str]:
    """Every legal action of every seat, in notation."""
    return {str(a) for a in all_legal_actions(state)}


def draw_pile_top_first(state: State) -> list[str]:
    """The draw pile as a position writes it: top card first."""
    return to_position(state)["draw_pile"]


def open_obligations(state: State) -> list[int]:
    """The seats with an open DOS obligation, as a position lists them."""
    return to_position(state)["dos_open"]


def assert_illegal(state: State, action: str, section: str) -> str:
    """``action`` raises ``IllegalActionError`` naming ``RULES <section>`` (``section`` is a
    regular expression, e.g. ``"§3"`` or ``"§(3|4)"``) and leaves the state exactly as it was;
    returns the message."""
    before = state.copy()
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action(action))
    message = str(info.value)
    assert re.search(f"RULES {section}", message), message
    assert state == before
    return message
