"""Actions as text (docs/classic.md): parsing, canonical form, errors."""

from __future__ import annotations

import pytest

from dos.errors import NotationError
from dos.rules.classic import Action, Kind, parse_action
from dos.rules.classic.cards import parse_card


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r7", "R7"),
        ("B0", "B0"),
        ("gs", "GS"),
        ("yr", "YR"),
        ("b+2", "B+2"),
        ("w=g", "W=G"),
        (" W+4 = b ", "W+4=B"),
        ("DRAW", "draw"),
        ("react 2 1350ms", "react 2 1350ms"),
        ("React 1 0 ms", "react 1 0ms"),
        ("timeout", "timeout"),
        ("2: R7", "2: R7"),
        ("0:draw", "0: draw"),
    ],
)
def test_actions_read_and_write_their_canonical_form(text: str, canonical: str) -> None:
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(canonical) == action


def test_a_play_carries_the_card_and_the_wish() -> None:
    assert parse_action("W+4=R") == Action(Kind.PLAY, parse_card("W+4"), 2)
    assert parse_action("react 2 90ms") == Action(Kind.REACT, hits=2, ms=90)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("W", "wished colour"),
        ("W+4", "wished colour"),
        ("R7=G", "only a Wild"),
        ("W=Q", "unknown colour"),
        ("R10", "unknown card"),
        ("react", "react HITS"),
        ("react 2", "react HITS"),
        ("react -1 5ms", "react HITS"),
        ("react 2 1.5s", "react HITS"),
        ("play R7", "expected a card"),
        ("", "expected a card"),
    ],
)
def test_text_that_is_not_notation_is_rejected_saying_why(text: str, says: str) -> None:
    with pytest.raises(NotationError, match=says):
        parse_action(text)
