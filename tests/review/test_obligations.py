"""DOS calls and catches in a review (RULES.md §6): counted apart from the turn decisions,
from the record alone."""

from __future__ import annotations

from typing import Any

from dos.records import Record
from dos.review import decisions

POSITION: dict[str, Any] = {
    "players": 2,
    "dealer": 1,
    "turn": 0,
    "hands": [["B7", "B3", "G6"], ["Y9", "B4", "G10", "R1"]],
    "center": ["R7", "Y8"],
    "draw_pile": ["G1", "B9", "R3", "Y4", "G8", "B6", "R6", "Y6"],
    "discard": [],
    "scores": [0, 0],
}


def _record(*actions: str) -> Record:
    return Record("official", {"players": 2}, position=POSITION, actions=list(actions))


def test_a_call_made_with_the_move_is_no_miss() -> None:
    _, missed, calls, catches = decisions(_record("B7@0", "0: dos", "draw"), 0)
    assert (missed, calls, catches) == ([], 1, 0)


def test_being_caught_is_a_missed_call_and_the_catcher_made_a_catch() -> None:
    record = _record("B7@0", "1: catch 0")
    _, missed, calls, _ = decisions(record, 0)
    assert calls == 0
    assert [(o.kind, o.how, o.by, o.opened, o.closed) for o in missed] == [
        ("call", "catch", 1, 0, 1)
    ]
    _, theirs, _, catches = decisions(record, 1)
    assert (theirs, catches) == ([], 1)


def test_an_obligation_left_open_is_a_missed_catch_for_the_others() -> None:
    record = _record("B7@0", "draw", "lay Y9", "0: dos")
    _, missed, _, _ = decisions(record, 1)
    assert [(o.kind, o.owner, o.how) for o in missed] == [("catch", 0, "call")]
    _, own, calls, _ = decisions(record, 0)
    assert (own, calls) == ([], 1)  # called late, but called: no penalty, no miss


def test_an_obligation_never_called_is_missed_by_its_owner_too() -> None:
    record = _record("B7@0", "draw", "lay Y9")
    _, own, _, _ = decisions(record, 0)
    assert [(o.kind, o.how, o.closed) for o in own] == [("call", "open", None)]
