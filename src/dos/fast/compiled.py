"""What the fast core's API needs of one compiled rule set (``Core``), in a module of its own:
each rule set's core (``dos.fast.official_api``, ``dos.fast.classic_api``) builds one, and the
API (``dos.fast.api``) finds it through the rule-set registry, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Core:
    """What the API needs of one compiled rule set."""

    name: str
    size: int
    """Slots of one flat game."""
    players_slot: int
    turn_slot: int
    rounds_slot: int
    decisions_slot: int
    over: Callable[[I64], bool]
    new_game: Callable[[I64, dict[str, Any] | None, int], None]
    """Deals a new game into a flat array: options as JSON (``None``: defaults), a seed."""
    legal: Callable[[I64, I64, int], int]
    apply: Callable[[I64, int, int], None]
    step: Callable[[I64, int], int]
    step_batch: Callable[[I64, I64], None]
    random_games: Callable[[I64, I64, int], int]
    to_python_state: Callable[..., Any]
    from_python_state: Callable[[Any], I64]
    action_of: Callable[[int], Any]
    prepare: Callable[[I64, Any], tuple[int, int]]
    """An engine action as (code, bonus override) in a flat game, or ``(-1, -1)`` when no
    legal action of the fast core stands for it."""
    last_round: Callable[[I64], Any] | None
