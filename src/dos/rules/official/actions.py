"""The one action type of the official rule set and its notation (RULES.md §3, §6).

========================  ==============================================================
``R7@0``                  match: the played cards joined by ``+``, ``@``, the Center Row
                          index (0-based) of the target: ``R5+DOS@1``
``R#=4+B3@0``             designations may be written; the engine otherwise picks the
``DOS=R+R5@1``            ones with the best colour result
``draw``                  draw one card
``lay B3``                after a draw and no match: lay a card in the Center Row
``end``                   finish matching, or decline the remaining bonus placements
``place G7``              one colour-bonus placement
``dos``                   call "DOS!" for yourself
``catch 2``               catch seat 2, who has not called
``2: catch 0``            any action by a seat other than the one to act names it first
========================  ==============================================================

``parse_action(str(a)) == a`` for every action: ``str`` writes the canonical form (cards of a
match in type order, keywords in lower case, cards in upper case).

>>> a = parse_action("r#=4 + b3 @ 0")
>>> str(a), parse_action(str(a)) == a
('B3+R#=4@0', True)
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from dos.errors import NotationError
from dos.rules.official.cards import (
    COLOURS,
    IS_WILD_NUMBER,
    NAMES,
    WILD_DOS,
    parse_card,
    parse_colour,
)
from dos.rules.official.matching import NO_DESIGNATION
from dos.seats import split_seat


class Kind(IntEnum):
    """What an action does."""

    MATCH = 0
    DRAW = 1
    LAY = 2
    END = 3
    PLACE = 4
    CALL = 5
    CATCH = 6


class Action(NamedTuple):
    """One action, frozen and hashable.

    ``seat`` is ``None`` for the seat to act. ``cards`` holds the played card types of a match
    (sorted) or the one card of a lay or placement. ``target`` is the Center Row index of a
    match or the caught seat of a catch, else ``-1``. ``designations`` is empty, or has one
    entry per card: a number 1-10 for a Wild #, a colour 0-3 for a Wild DOS, else
    ``NO_DESIGNATION``.

    >>> str(Action(Kind.CATCH, target=0, seat=2))
    '2: catch 0'
    """

    kind: Kind
    cards: tuple[int, ...] = ()
    target: int = -1
    seat: int | None = None
    designations: tuple[int, ...] = ()

    def __str__(self) -> str:
        return format_action(self)


DRAW = Action(Kind.DRAW)
END = Action(Kind.END)
CALL = Action(Kind.CALL)

_KEYWORD = {Kind.DRAW: "draw", Kind.END: "end", Kind.CALL: "dos"}


def is_call(action: Action) -> bool:
    """Whether ``action`` is a "DOS!" call (RULES.md §6), by whichever seat.

    >>> is_call(parse_action("2: dos")), is_call(parse_action("catch 1"))
    (True, False)
    """
    return action.kind == Kind.CALL


def match(
    cards: tuple[int, ...],
    target: int,
    designations: tuple[int, ...] = (),
    seat: int | None = None,
) -> Action:
    """A match in canonical form: cards sorted, designations kept with their card, and
    dropped altogether when none is given."""
    if not designations or all(d == NO_DESIGNATION for d in designations):
        return Action(Kind.MATCH, tuple(sorted(cards)), target, seat)
    order = sorted(range(len(cards)), key=lambda i: (cards[i], designations[i]))
    return Action(
        Kind.MATCH,
        tuple(cards[i] for i in order),
        target,
        seat,
        tuple(designations[i] for i in order),
    )


def format_card(card: int, designation: int = NO_DESIGNATION) -> str:
    """A card with its designation, if any: ``R#=4``, ``DOS=R``."""
    if designation == NO_DESIGNATION:
        return NAMES[card]
    if card == WILD_DOS:
        return f"DOS={COLOURS[designation]}"
    return f"{NAMES[card]}={designation}"


def format_action(action: Action) -> str:
    """The canonical notation of an action."""
    kind = action.kind
    if kind == Kind.MATCH:
        designations = action.designations or (NO_DESIGNATION,) * len(action.cards)
        body = (
            "+".join(format_card(c, d) for c, d in zip(action.cards, designations, strict=True))
            + f"@{action.target}"
        )
    elif kind in _KEYWORD:
        body = _KEYWORD[kind]
    elif kind == Kind.LAY:
        body = f"lay {NAMES[action.cards[0]]}"
    elif kind == Kind.PLACE:
        body = f"place {NAMES[action.cards[0]]}"
    else:
        body = f"catch {action.target}"
    return body if action.seat is None else f"{action.seat}: {body}"


_MATCH = re.compile(r"^(.+)@\s*(\d+)\s*$")


def parse_action(text: str) -> Action:
    """Reads an action written in notation; raises ``NotationError`` saying what is wrong.

    >>> parse_action("2: catch 0") == Action(Kind.CATCH, target=0, seat=2)
    True
    >>> parse_action("R7@")
    Traceback (most recent call last):
    ...
    dos.errors.NotationError: cannot read action 'R7@': ...
    """
    seat, body = split_seat(text)
    words = body.split()
    keyword = words[0].lower() if words else ""
    if len(words) == 1 and keyword in ("draw", "end", "dos"):
        kind = {"draw": Kind.DRAW, "end": Kind.END, "dos": Kind.CALL}[keyword]
        return Action(kind, seat=seat)
    if len(words) == 2 and keyword in ("lay", "place"):
        card = parse_card(words[1])
        return Action(Kind.LAY if keyword == "lay" else Kind.PLACE, (card,), seat=seat)
    if len(words) == 2 and keyword == "catch":
        if not words[1].isdigit():
            raise NotationError(f"cannot read action {text!r}: 'catch' takes a seat number")
        return Action(Kind.CATCH, target=int(words[1]), seat=seat)
    found = _MATCH.match(body)
    if not found:
        raise NotationError(
            f"cannot read action {text!r}: expected a match like 'R7@0' or 'R5+DOS@1', "
            "or draw, end, dos, 'lay CARD', 'place CARD', 'catch SEAT', optionally after 'SEAT:'"
        )
    parts = [p.strip() for p in found.group(1).split("+")]
    if len(parts) > 2:
        raise NotationError(
            f"cannot read action {text!r}: a match plays one card or two (RULES §3)"
        )
    cards: list[int] = []
    designations: list[int] = []
    for part in parts:
        card, designation = _parse_played(part, text)
        cards.append(card)
        designations.append(designation)
    return match(tuple(cards), int(found.group(2)), tuple(designations), seat)


def _parse_played(part: str, text: str) -> tuple[int, int]:
    name, sep, value = part.partition("=")
    card = parse_card(name)
    if not sep:
        return card, NO_DESIGNATION
    value = value.strip()
    if IS_WILD_NUMBER[card]:
        if not value.isdigit() or not 1 <= int(value) <= 10:
            raise NotationError(
                f"cannot read action {text!r}: a Wild # is designated a number 1-10, "
                f"as in '{NAMES[card]}=4'"
            )
        return card, int(value)
    if card == WILD_DOS:
        return card, parse_colour(value)
    raise NotationError(
        f"cannot read action {text!r}: only a Wild # or a Wild DOS takes a designation, "
        f"not {NAMES[card]}"
    )
