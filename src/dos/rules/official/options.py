"""The options of the official rule set (RULES.md §2, §4, §7), in one typed object."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from dos.errors import PositionError

MIN_PLAYERS = 2
MAX_PLAYERS = 10


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
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise PositionError(
                f"options.players: must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                f"not {self.players!r}"
            )
        if type(self.target_score) is not int or self.target_score < 1:
            raise PositionError(
                f"options.target_score: must be a positive integer, not {self.target_score!r}"
            )
        for name in ("dealer_starts", "deal_passes_left", "bonus_lay_mandatory"):
            value = getattr(self, name)
            if type(value) is not bool:
                raise PositionError(f"options.{name}: must be true or false, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Options from a JSON object; unknown or mistyped fields are rejected by name."""
        if not isinstance(data, dict):
            raise PositionError("options: must be a JSON object")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise PositionError(f"options.{key}: unknown option (known: {sorted(known)})")
        return cls(**data)
