"""A round's deal as a record shows it, and how two deals differ.

A deal is where every card lies once a round is dealt: taken from the rule set's position
(``docs/positions.md``) just after the deal, its ``round``, ``dealer`` and the card fields the
rule set has (``hands``, ``center``, ``draw_pile`` top first, ``discard``). Any rule set whose
positions name these fields has deals a record can show.

>>> from dos import ruleset
>>> rules = ruleset.get("official")
>>> deal = deal_of(rules, rules.new_game({"players": 2}, 42), 1)
>>> sorted(deal), len(deal["draw_pile"])
(['center', 'dealer', 'discard', 'draw_pile', 'hands', 'round'], 92)
>>> difference(deal, deal) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dos.errors import RecordError

DEAL_FIELDS = ("dealer", "hands", "center", "draw_pile", "discard")
"""The fields of a position that a deal keeps, where the rule set's positions have them."""

_NAMES = {
    "round": "the round's number",
    "dealer": "the dealer",
    "hands": "the hands",
    "center": "the Center Row",
    "draw_pile": "the draw pile",
    "discard": "the discard pile",
}


@dataclass(slots=True)
class Deal:
    """A deal a record shows: ``cards`` (``deal_of``'s fields) after its ``at`` first actions,
    read from line ``line`` (``None``: not read from a text)."""

    at: int
    cards: dict[str, Any]
    line: int | None = field(default=None, compare=False)

    @property
    def round(self) -> Any:
        """The round it deals, as the record says."""
        return self.cards.get("round")


class DealMismatchError(RecordError):
    """A deal a record shows that is not the one the engine deals there: ``round``, the
    record's ``line`` and ``what`` differs first (``difference``)."""

    def __init__(self, round: int, line: int | None, what: str) -> None:
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}deal of round {round}: {what}")
        self.round = round
        self.line = line
        self.what = what


def deal_of(rules: Any, state: Any, number: int) -> dict[str, Any]:
    """Round ``number``'s deal in ``state``, a game just dealt (``rules``: its rule set)."""
    position = rules.to_position(state)
    deal: dict[str, Any] = {"round": number}
    deal.update((key, position[key]) for key in DEAL_FIELDS if key in position)
    return deal


def difference(shown: dict[str, Any], derived: dict[str, Any]) -> str | None:
    """The first way the deal a record ``shown`` differs from the ``derived`` one, in words;
    ``None``: they are the same.

    >>> difference({"round": 1, "hands": [["B1"], ["R2"]]}, {"round": 1, "hands": [["B1"], ["R3"]]})
    "seat 1's hand, card 1: R2 in the record, R3 from the seed"
    >>> difference({"round": 1}, {"round": 1, "center": ["B1"]})
    'the Center Row: missing from the record'
    """
    for key in derived:
        if key not in shown:
            return f"{_NAMES.get(key, key)}: missing from the record"
    for key, cards in shown.items():
        if key not in derived:
            return f"{key}: not part of a deal of this rule set"
        if key == "hands":
            found = _hands_difference(cards, derived[key])
        else:
            found = _difference(_NAMES.get(key, key), cards, derived[key])
        if found is not None:
            return found
    return None


def _hands_difference(shown: Any, derived: list[Any]) -> str | None:
    if not isinstance(shown, list) or len(shown) != len(derived):
        return f"the hands: {len(derived)} hands from the seed, not as the record shows them"
    for seat, (hand, dealt) in enumerate(zip(shown, derived, strict=True)):
        found = _difference(f"seat {seat}'s hand", hand, dealt)
        if found is not None:
            return found
    return None


def _difference(name: str, shown: Any, derived: Any) -> str | None:
    if shown == derived:
        return None
    if isinstance(shown, list) and isinstance(derived, list):
        for index, (card, dealt) in enumerate(zip(shown, derived, strict=False)):
            if card != dealt:
                return f"{name}, card {index + 1}: {card} in the record, {dealt} from the seed"
        return f"{name}: {len(shown)} cards in the record, {len(derived)} from the seed"
    return f"{name}: {shown} in the record, {derived} from the seed"
