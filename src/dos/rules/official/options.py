"""The options of the official rule set (RULES.md §2, §4, §7), in one typed object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from dos.jsonfields import check_option_bool, check_option_int, check_option_names

MIN_PLAYERS = 2
MAX_PLAYERS = 10


MAX_TARGET_SCORE = 100_000
"""The highest target score: far past any game's length, and exact as a JSON number anywhere."""


@dataclass(frozen=True, slots=True)
class Options:
    """How a game of official DOS is played.

    >>> Options(players=2).target_score
    200
    """

    players: int = 4
    """Number of seats, 2-10. The box says 2-4; the deck is enough for 10 (RULES.md §2)."""
    target_score: int = 200
    """The first player whose score reaches this wins the game (RULES.md §7)."""
    dealer_starts: bool = False
    """The dealer plays first instead of the player to the dealer's left (house rule, §2)."""
    deal_passes_left: bool = False
    """The deal passes to the left each round instead of going to the round's winner (§7)."""
    bonus_lay_mandatory: bool = False
    """Colour bonus placements must be made instead of being optional (§4.3)."""

    def __post_init__(self) -> None:
        check_option_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        check_option_int("target_score", self.target_score, 1, MAX_TARGET_SCORE)
        for name in ("dealer_starts", "deal_passes_left", "bonus_lay_mandatory"):
            check_option_bool(name, getattr(self, name))

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Options from a JSON object; unknown or mistyped fields are rejected by name."""
        return cls(**check_option_names(data, {f.name for f in fields(cls)}))
