"""Rule-free helpers about seats, shared by the rule sets' views and action notation."""

from __future__ import annotations

import re

from dos.errors import NotationError

_SEAT = re.compile(r"^\s*(\d+)\s*:(.*)$")


def check_seat(seat: object, players: int) -> int:
    """``seat`` as a seat of a ``players``-seat game; raises ``ValueError`` otherwise.

    >>> check_seat(4, 4)
    Traceback (most recent call last):
    ...
    ValueError: seat: there is no seat 4 (seats are 0-3)
    """
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat: there is no seat {seat!r} (seats are 0-{players - 1})")
    return seat


def split_seat(text: object) -> tuple[int | None, str]:
    """The seat prefix ``"N:"`` of an action in notation (``None`` when absent) and the rest,
    stripped; raises ``NotationError`` when ``text`` is not text.

    >>> split_seat(" 2: catch 0"), split_seat("draw ")
    ((2, 'catch 0'), (None, 'draw'))
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    seated = _SEAT.match(text)
    if seated:
        return int(seated.group(1)), seated.group(2).strip()
    return None, text.strip()
