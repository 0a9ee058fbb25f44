"""What every rule set offers: the interface bots, tools, clients and the server rely on.

A rule set is an object with the methods of ``RuleSet``; ``get(name)`` returns one by name.
Each rule set keeps its own ``State`` and ``Action`` types; everything outside the rule set
handles them only through these methods, and actions as notation text.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class RuleSet(Protocol[StateT, ActionT]):
    """The interface of one rule set."""

    name: str
    """The name used on the command line, in positions and in records: ``"official"``."""

    def new_game(self, options: dict[str, Any] | None, seed: int) -> StateT:
        """A new game from JSON options (``None``: defaults) and a seed."""
        ...

    def options_json(self, state: StateT) -> dict[str, Any]:
        """The options of a game, as JSON."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """An action from notation; raises ``NotationError``."""
        ...

    def by_seat(self, state: StateT, action: ActionT, seat: int) -> ActionT | None:
        """``action`` as made by ``seat``: an action that names no seat becomes ``seat``'s own
        (naming it unless ``seat`` is the seat to act, as the notation writes it); an action
        that names another seat gives ``None``. The server calls this with the seat of the
        authenticated connection, so no text can choose who acts."""
        ...

    def legal_actions(self, state: StateT, seat: int | None = None) -> list[ActionT]:
        """Every legal action of ``seat`` (default: the seat to act), in a fixed order."""
        ...

    def all_legal_actions(self, state: StateT) -> list[ActionT]:
        """Every legal action of every seat, the seat to act first."""
        ...

    def apply(self, state: StateT, action: ActionT) -> None:
        """Applies a legal action in place; raises ``IllegalActionError`` changing nothing."""
        ...

    def copy(self, state: StateT) -> StateT:
        """An independent copy of a state."""
        ...

    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended."""
        ...

    def turn(self, state: StateT) -> int:
        """The seat to act."""
        ...

    def players(self, state: StateT) -> int:
        """The number of seats."""
        ...

    def rounds_played(self, state: StateT) -> int:
        """Rounds finished so far."""
        ...

    def result(self, state: StateT) -> dict[str, Any]:
        """The outcome so far as JSON (winner, scores or ranking, rounds)."""
        ...

    def to_position(self, state: StateT) -> dict[str, Any]:
        """The state as a JSON position."""
        ...

    def from_position(self, data: object) -> StateT:
        """A state from a JSON position; raises ``PositionError`` naming the field."""
        ...

    def view_json(self, state: StateT, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON."""
        ...


NAMES = ("official", "classic")


def get(name: str) -> RuleSet[Any, Any]:
    """The rule set called ``name``; raises ``ValueError`` listing the known names.

    >>> get("official").name, get("classic").name
    ('official', 'classic')
    """
    if name == "official":
        from dos.rules.official import RULES

        return RULES
    if name == "classic":
        from dos.rules.classic import RULES as CLASSIC

        return CLASSIC
    raise ValueError(f"unknown rule set {name!r} (known: {', '.join(NAMES)})")
