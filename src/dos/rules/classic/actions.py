"""The one action type of the classic rule set and its notation (RULES.md §9).

========================  ==============================================================
``R7`` ``GS`` ``YR``      play that card on the discard pile (``S`` Skip, ``R`` Reverse,
``B+2``                   ``+2`` Draw Two)
``W=G`` ``W+4=B``         play a Wild or a Wild Draw Four, wishing a colour (``B G R Y``)
``draw``                  draw one card (no card can be played), or the pending penalty
``react 2 1350ms``        the reaction test: targets hit, and milliseconds until the last hit
``timeout``               the reaction test, failed: the time ran out
``2: R7``                 any action may name its seat first; it must be the seat to act
========================  ==============================================================

``parse_action(str(a)) == a`` for every action: ``str`` writes the canonical form (cards in
upper case, keywords in lower case, ``SEAT: `` only when the seat was given).

>>> a = parse_action(" w+4 = g ")
>>> str(a), parse_action(str(a)) == a
('W+4=G', True)
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple

from dos.errors import NotationError
from dos.rules.classic.cards import COLOURS, IS_WILD, NAMES, parse_card, parse_colour
from dos.seats import split_seat

MAX_REACTION_MS = 3_600_000
"""The longest reaction a ``react`` action may report (an hour): a bound for the notation."""


class Kind(IntEnum):
    """What an action does."""

    PLAY = 0
    DRAW = 1
    REACT = 2
    TIMEOUT = 3


class Action(NamedTuple):
    """One action, frozen and hashable.

    ``card`` is the card type played (``PLAY``), else ``-1``; ``wish`` the colour wished with
    a Wild or Wild Draw Four, else ``-1``; ``hits`` and ``ms`` the targets hit and the
    milliseconds until the last hit (``REACT``); ``seat`` is ``None`` for the seat to act.

    >>> str(Action(Kind.REACT, hits=2, ms=1350))
    'react 2 1350ms'
    """

    kind: Kind
    card: int = -1
    wish: int = -1
    hits: int = 0
    ms: int = 0
    seat: int | None = None

    def __str__(self) -> str:
        return format_action(self)


DRAW = Action(Kind.DRAW)
TIMEOUT = Action(Kind.TIMEOUT)


def play(card: int, wish: int = -1, seat: int | None = None) -> Action:
    """Playing ``card`` (with a wished colour for a wild).

    >>> str(play(52, 2))
    'W=R'
    """
    return Action(Kind.PLAY, card, wish, seat=seat)


def react(hits: int, ms: int, seat: int | None = None) -> Action:
    """A reaction: ``hits`` targets hit, the last after ``ms`` milliseconds.

    >>> str(react(1, 640))
    'react 1 640ms'
    """
    return Action(Kind.REACT, hits=hits, ms=ms, seat=seat)


def format_action(action: Action) -> str:
    """The canonical notation of an action."""
    kind = action.kind
    if kind == Kind.PLAY:
        body = NAMES[action.card]
        if action.wish >= 0:
            body += f"={COLOURS[action.wish]}"
    elif kind == Kind.DRAW:
        body = "draw"
    elif kind == Kind.REACT:
        body = f"react {action.hits} {action.ms}ms"
    else:
        body = "timeout"
    return body if action.seat is None else f"{action.seat}: {body}"


_REACT = re.compile(r"^react\s+(\d+)\s+(\d+)\s*ms$", re.IGNORECASE)


def parse_action(text: str) -> Action:
    """Reads an action written in notation; raises ``NotationError`` saying what is wrong.

    >>> parse_action("1: draw") == Action(Kind.DRAW, seat=1)
    True
    >>> parse_action("W")
    Traceback (most recent call last):
    ...
    dos.errors.NotationError: cannot read action 'W': a Wild is played with a wished colour, ...
    """
    seat, body = split_seat(text)
    lowered = body.lower()
    if lowered == "draw":
        return Action(Kind.DRAW, seat=seat)
    if lowered == "timeout":
        return Action(Kind.TIMEOUT, seat=seat)
    if lowered.startswith("react"):
        found = _REACT.match(body)
        if not found or int(found.group(2)) > MAX_REACTION_MS:
            raise NotationError(
                f"cannot read action {text!r}: a reaction is written 'react HITS MILLISECONDSms', "
                "as in 'react 2 1350ms'"
            )
        return react(int(found.group(1)), int(found.group(2)), seat)
    if not body or (len(body.split()) > 1 and "=" not in body):
        raise NotationError(
            f"cannot read action {text!r}: expected a card like 'R7', 'GS', 'B+2', 'W=R' or "
            "'W+4=B', or draw, 'react HITS MSms', timeout, optionally after 'SEAT:'"
        )
    name, sep, wished = "".join(body.split()).partition("=")
    card = parse_card(name)
    if IS_WILD[card]:
        if not sep:
            raise NotationError(
                f"cannot read action {text!r}: a Wild is played with a wished colour, "
                "as in 'W=R' or 'W+4=B'"
            )
        return play(card, parse_colour(wished), seat)
    if sep:
        raise NotationError(
            f"cannot read action {text!r}: only a Wild or a Wild Draw Four takes a wished "
            f"colour, not {NAMES[card]}"
        )
    return play(card, seat=seat)
