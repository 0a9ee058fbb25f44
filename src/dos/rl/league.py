"""A league for the trainer: the policy's own snapshots, and bots, as a pool of opponents.

``League`` keeps the pool. ``snapshot(params, meta, iteration)`` writes the policy as it
stands to ``folder/snapshot-NNNNNN.npz`` and adds ``policy:<that file>`` to the pool (the
newest ``keep`` snapshots stay in it; older files stay on disk but leave the pool). ``draw()``
picks the opponents of the league's batches until the next snapshot, ``draws`` of them, each
independently: with probability ``latest`` the newest snapshot, otherwise one member of the
whole pool (the bots of ``pool`` and the snapshots kept) uniformly. So the learner keeps
meeting its current self, the self-play that pushes it on, and also its older selves and the
bots, which it must not forget how to beat.

The draws come from a generator of the league's own, seeded from the run's seed: a run of a
number of iterations repeats its pool and its draws exactly. Each opponent is a name as
``dos.bots.registry.make_player`` takes it, so a snapshot plays in the league as it plays in
``dos tournament`` (``policy:FILE``, the policy bot: the highest logit of its seat's view).

>>> from pathlib import Path
>>> league = League(LeagueSettings(every=5, pool=("greedy",)), Path("snapshots"), seed=3)
>>> league.members
['greedy']
>>> league.draw()
['greedy', 'greedy']
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dos.rl.policy import Params, save

LEAGUE_STREAM = 0x1EA6
"""Keeps the league's draws apart from the run's other generators for the same seed."""


@dataclass(frozen=True)
class LeagueSettings:
    """What a league does (``python -m dos.rl.train --league K``)."""

    every: int
    """A snapshot of the policy joins the pool every this many iterations (PPO updates), and
    the league's opponents are drawn again."""
    games: int = 16
    """Games in the batch against each drawn opponent."""
    draws: int = 2
    """Opponents drawn at each snapshot (one batch each, per player count)."""
    latest: float = 0.5
    """The chance that a draw is the newest snapshot rather than any member of the pool."""
    keep: int = 20
    """The newest snapshots kept in the pool."""
    pool: tuple[str, ...] = ()
    """Bots in the pool from the start, and for the whole run (names ``make_player`` takes)."""

    def __post_init__(self) -> None:
        if self.every < 1 or self.games < 1 or self.draws < 1 or self.keep < 1:
            raise ValueError("a league's every, games, draws and keep are at least 1")
        if not 0.0 <= self.latest <= 1.0:
            raise ValueError(f"a league's latest is a chance from 0 to 1, not {self.latest}")


class League:
    """The pool of opponents of a run (see the module docstring)."""

    def __init__(self, settings: LeagueSettings, folder: Path, seed: int) -> None:
        self.settings = settings
        self.folder = folder
        self.snapshots: list[str] = []
        """The snapshots in the pool, oldest first (``policy:FILE`` names)."""
        self._rng = np.random.default_rng([seed, LEAGUE_STREAM])

    @property
    def members(self) -> list[str]:
        """The whole pool: the bots, then the snapshots kept, oldest first."""
        return [*self.settings.pool, *self.snapshots]

    def snapshot(self, params: Params, meta: dict[str, Any], iteration: int) -> str:
        """Writes the policy after ``iteration`` iterations and adds it to the pool; returns
        its name."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"snapshot-{iteration:06d}.npz"
        save(path, params, {**meta, "iterations": iteration})
        name = f"policy:{path}"
        self.snapshots = [*self.snapshots, name][-self.settings.keep :]
        return name

    def draw(self) -> list[str]:
        """The opponents of the league's batches until the next snapshot (``draws`` of them);
        raises ``ValueError`` while the pool is empty."""
        members = self.members
        if not members:
            raise ValueError("the league's pool is empty: take a snapshot or name bots first")
        newest = self.snapshots[-1] if self.snapshots else None
        drawn = []
        for _ in range(self.settings.draws):
            if newest is not None and self._rng.random() < self.settings.latest:
                drawn.append(newest)
            else:
                drawn.append(members[int(self._rng.integers(len(members)))])
        return drawn
