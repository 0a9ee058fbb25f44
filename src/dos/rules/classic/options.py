"""The options of the classic rule set (RULES.md §9), in one typed object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from dos.jsonfields import check_option_bool, check_option_int, check_option_names

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MIN_REACTION_MS = 200
MAX_REACTION_MS = 60_000
MAX_PENALTY = 10


@dataclass(frozen=True, slots=True)
class Options:
    """How a game of classic Dos is played.

    >>> Options(players=2).reaction_time_ms
    3000
    >>> Options(penalty_cards=-1)
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: options.penalty_cards: must be an integer from 0 to 10, not -1
    """

    players: int = 4
    """Number of seats, 2-10 (108 cards deal 7 to each of 10 and leave 38)."""
    reaction_time_ms: int = 3000
    """Time limit of the reaction test, in milliseconds (RULES.md §9: default 3 s)."""
    penalty_cards: int = 1
    """Cards drawn for a failed reaction test (RULES.md §9: one)."""
    stacking: bool = True
    """Draw Two and Wild Draw Four can be stacked (RULES.md §9). Off: the next player always
    draws the penalty and loses the turn."""

    def __post_init__(self) -> None:
        check_option_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_option_int(
            "reaction_time_ms", self.reaction_time_ms, MIN_REACTION_MS, MAX_REACTION_MS
        )
        check_option_int("penalty_cards", self.penalty_cards, 0, MAX_PENALTY)
        check_option_bool("stacking", self.stacking)

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object.

        >>> Options().to_json()["stacking"]
        True
        """
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Options from a JSON object; unknown or mistyped fields are rejected by name.

        >>> Options.from_json({"players": 3}).players
        3
        """
        return cls(**check_option_names(data, {f.name for f in fields(cls)}))
