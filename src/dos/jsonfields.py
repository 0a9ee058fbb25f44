"""Checks of JSON fields shared by the rule sets' position and option loaders.

Rule-free: each helper checks one shape (an object with known fields, an integer in a range,
a list of cards in notation) and raises ``PositionError`` whose message starts with the
field's name. The rules themselves stay in each rule set's package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from dos.errors import NotationError, PositionError


def check_position(
    data: object,
    required: Sequence[str],
    optional: Sequence[str],
    *,
    fmt: str,
    version: int,
    rules: str,
) -> dict[str, Any]:
    """``data`` as a position object: only known fields, every required one, and the right
    format, version and rule set; raises ``PositionError`` naming the first bad field.

    >>> check_position({"players": 2}, ("players",), (), fmt="dos-position", version=1, rules="x")
    {'players': 2}
    >>> check_position({"turn": 0}, ("players",), ("turn",), fmt="", version=1, rules="x")
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: players: missing (a position needs players)
    """
    if not isinstance(data, dict):
        raise PositionError("position: must be a JSON object")
    for key in data:
        if key not in required and key not in optional:
            known = ", ".join((*required, *optional))
            raise PositionError(f"{key}: unknown field (known: {known})")
    for key in required:
        if key not in data:
            raise PositionError(f"{key}: missing (a position needs {', '.join(required)})")
    if data.get("format", fmt) != fmt:
        raise PositionError(f"format: must be {fmt!r}")
    if data.get("version", version) != version:
        raise PositionError(f"version: this program reads version {version}")
    if data.get("rules", rules) != rules:
        raise PositionError(f"rules: this loader reads {rules!r} positions")
    return data


def int_field(
    data: dict[str, Any], key: str, low: int, high: int, default: int | None = None
) -> int:
    """``data[key]`` (or ``default``), an integer from ``low`` to ``high``.

    >>> int_field({"turn": 5}, "turn", 0, 3)
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: turn: must be an integer from 0 to 3, not 5
    """
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise PositionError(f"{key}: must be an integer from {low} to {high}, not {value!r}")
    return value


def cards_field(value: object, name: str, parse: Callable[[str], int], example: str) -> list[int]:
    """A list of cards in notation, each read by ``parse``; ``example`` shows the form.

    >>> cards_field(["R7", 7], "hand", lambda text: 0, '["R7"]')
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: hand[1]: a card is written as text, not 7
    """
    if not isinstance(value, list):
        raise PositionError(f"{name}: must be a list of cards in notation, like {example}")
    cards = []
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise PositionError(f"{name}[{i}]: a card is written as text, not {text!r}")
        try:
            cards.append(parse(text))
        except NotationError as error:
            raise PositionError(f"{name}[{i}]: {error}") from None
    return cards


def check_option_names(data: object, known: set[str]) -> dict[str, Any]:
    """``data`` as an options object whose fields are all in ``known``.

    >>> check_option_names({"players": 2, "speed": 1}, {"players"})
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: options.speed: unknown option (known: ['players'])
    """
    if not isinstance(data, dict):
        raise PositionError("options: must be a JSON object")
    for key in data:
        if key not in known:
            raise PositionError(f"options.{key}: unknown option (known: {sorted(known)})")
    return data


def check_option_int(name: str, value: object, low: int, high: int) -> None:
    """Option ``name`` is an integer from ``low`` to ``high``.

    >>> check_option_int("players", 11, 2, 10)
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: options.players: must be an integer from 2 to 10, not 11
    """
    if type(value) is not int or not low <= value <= high:
        raise PositionError(
            f"options.{name}: must be an integer from {low} to {high}, not {value!r}"
        )


def check_option_bool(name: str, value: object) -> None:
    """Option ``name`` is ``true`` or ``false``.

    >>> check_option_bool("stacking", 1)
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: options.stacking: must be true or false, not 1
    """
    if type(value) is not bool:
        raise PositionError(f"options.{name}: must be true or false, not {value!r}")


def check_card_counts(cards: list[int], deck_counts: Sequence[int], names: Sequence[str]) -> None:
    """No card type of ``cards`` appears more often than the deck holds it.

    >>> check_card_counts([0, 0, 1], [1, 1], ["R1", "R2"])
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: cards: 2 copies of R1 in the position, but the deck holds 1
    """
    for card, count in sorted(Counter(cards).items()):
        if count > deck_counts[card]:
            raise PositionError(
                f"cards: {count} copies of {names[card]} in the position, but the deck holds "
                f"{deck_counts[card]}"
            )
