"""``policy:FILE``: a trained masked policy (``dos.rl.policy``) playing as a bot.

It sees only its seat's view, like every bot: the observation is built from the view
(``dos.rl.official_observation.observe_view``) and the mask from the view's legal turn
actions; it plays the index with the highest logit. DOS calls and catches are reflexes, as
for the other bots. Needs the ``rl`` extra (NumPy).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView

if TYPE_CHECKING:
    from dos.rl.policy import Policy


@cache
def _load(path: str, modified: int) -> Policy:
    """A policy file, read once per process (a tournament builds a bot for every game)."""
    from dos.rl.policy import load

    return load(path)


class PolicyBot:
    """Plays the trained policy in ``path`` (a ``.npz`` policy file)."""

    def __init__(self, path: str | Path) -> None:
        from dos.rl import official_observation
        from dos.rl.official_actions import OfficialActions

        self.policy = _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)
        self.name = f"policy:{path}"
        self._table = OfficialActions()
        self._observe = official_observation.observe_view

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        choices = turn_choices(view)
        if len(choices) == 1:
            return choices[0]
        indices = self._table.indices(choices, view.seat, view.options.players, list(view.center))
        best = self.policy.choose(self._observe(view), indices)
        return choices[indices.index(best)]
