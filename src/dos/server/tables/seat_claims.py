"""The seats an action's text claims, read before its notation (docs/protocol.md, Actions).

The seat of an action is the connection's, never the text's. RULES §6 lets notation name the
acting seat first (``2: catch 0``), and the rule sets read one such prefix; a text can write
more (``2: 1: dos``), and the engine, reading the first, takes the rest for notation and
refuses the whole as ``notation``, hiding that the text names another seat. So the server
reads every leading ``N:`` prefix first, however many there are, and refuses an action with
``not_your_seat`` when any of them names a seat other than the connection's. Only then does
the engine read the notation, which allows one prefix: ``2: 2: dos`` from seat 2 names no
other seat, and is refused as ``notation``.

A prefix is what the rule sets' notation reads as one (``dos.seats.split_seat``): decimal
digits of any script, spaces around them, a colon. Seats are compared digit by digit, so no
prefix is too long to read.

>>> seat_claims(" 2: 1 :dos"), seat_claims("R7@0"), seat_claims("0002: draw")
(['2', '1'], [], ['2'])
>>> foreign_seat("2: 1: dos", 2), foreign_seat("2: 2: dos", 2), foreign_seat("dos", 2)
('1', None, None)
"""

from __future__ import annotations

import re
import unicodedata

_PREFIX = re.compile(r"\s*(\d+)\s*:")
"""One seat prefix, as ``dos.seats.split_seat`` reads it (``\\d``: decimal digits of any
script)."""


def _seat(digits: str) -> str:
    """The seat ``digits`` write, in ASCII digits without leading zeros (``"٠٢"``: ``"2"``)."""
    ascii_digits = "".join(str(unicodedata.decimal(digit)) for digit in digits)
    return ascii_digits.lstrip("0") or "0"


def seat_claims(text: str) -> list[str]:
    """The seats ``text`` names in its leading prefixes, in order (ASCII digits, no leading
    zeros); empty when it names none."""
    claims: list[str] = []
    position = 0
    while (prefix := _PREFIX.match(text, position)) is not None:
        claims.append(_seat(prefix.group(1)))
        position = prefix.end()
    return claims


def foreign_seat(text: str, seat: int) -> str | None:
    """The first seat ``text`` claims that is not ``seat`` (``None``: it claims none)."""
    own = str(seat)
    return next((claim for claim in seat_claims(text) if claim != own), None)
