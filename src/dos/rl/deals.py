"""The game seeds of a single-game environment, derived one way from the seed of ``reset``.

After ``reset(seed)`` the environment's game number ``k`` (0 for the game that ``reset``
deals, then one more for every game dealt after it, including a deal replaced because the
bots finished it before the agent could act) is dealt from
``dos.seeds.derive(seed, "deal", k, key=key)``. Each game seed is a keyed hash: neither it
nor any generator seeded from it (the bots', the race's, ``dos.seeds``) leads back to the
seed of ``reset`` or to another game's seed. ``key`` is the caller's secret: without one
(``None``) the deals are a function of the seed alone, so whoever knows the seed
(Gymnasium's ``np_random_seed`` is public) can deal them again; with one, only who also
holds the key can. An unseeded first ``reset`` starts from a seed drawn from the operating
system's entropy; a later unseeded ``reset`` goes on with the numbering.

>>> deals = Deals()
>>> deals.reset(7)
>>> first = deals.next()
>>> deals.reset(7)
>>> deals.next() == first, deals.next() == first
(True, False)
"""

from __future__ import annotations

import secrets

from dos import seeds


class Deals:
    """The game seeds of one environment (see the module docstring)."""

    __slots__ = ("_count", "_key", "_root")

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key
        self._root: int | None = None
        self._count = 0

    def reset(self, seed: int | None) -> None:
        """Starts the numbering again from ``seed``; ``None`` goes on with the numbering, or
        starts from a seed of the system's entropy when there was none."""
        if seed is not None:
            self._root, self._count = seed, 0
        elif self._root is None:
            self._root, self._count = secrets.randbits(128), 0

    def next(self) -> int:
        """The seed of the next game (hidden information: never shown to an agent)."""
        if self._root is None:
            self.reset(None)
        root, count = self._root or 0, self._count
        self._count += 1
        if self._key is None:
            return seeds.derive(root, "deal", count) % 2**63
        return seeds.derive(root, "deal", count, key=self._key) % 2**63
