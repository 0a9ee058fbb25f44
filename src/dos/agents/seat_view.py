"""A seat's view rebuilt from the agent API's JSON: the engine's own ``SeatView``, which bots
consume, so a bot plays at a live table from what the server sends (``dos agent-play``).

The agent API's ``view`` is the rule set's ``SeatView.to_json()`` (``docs/protocol.md``,
views), with its ``history`` when asked for (``?history=true``); its rule set's reader (the
registry's ``Entry.seat_view``, beside the rule set's views) is the inverse:
``seat_view("official", view(state, seat).to_json()) == view(state, seat)``, and the same for
every rule set with a reader (``tests/agents/test_seat_view.py`` holds them equal over many
games). A view without its history is rebuilt with an empty one.

>>> from dos.rules.official import new_game, view
>>> seen = view(new_game(seed=3), 1)
>>> seat_view("official", seen.to_json()) == seen
True
"""

from __future__ import annotations

from typing import Any

from dos import ruleset
from dos.errors import DosError


class ViewError(DosError, ValueError):
    """JSON that is not a seat's view of the rule set (a field missing or of the wrong kind),
    or a rule set with no reader of its views."""


def seat_view(rules: str, data: dict[str, Any]) -> Any:
    """The ``SeatView`` of the rule set ``rules`` of this JSON (its registry entry's
    ``seat_view``); ``ViewError`` if it is not one, or for a rule set without a reader."""
    entry = ruleset.find(rules)
    if entry is None or entry.seat_view is None:
        raise ViewError(f"unknown rule set {rules!r}")
    try:
        return entry.seat_view(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ViewError(f"not a {rules} seat view: {type(error).__name__}: {error}") from None
