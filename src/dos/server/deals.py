"""Where a server's deals come from: at random, or from a seed it was given.

A server deals at random (``RandomDeals``) unless it was started with a deal seed
(``dos serve --deal-seed N``: ``SeededDeals``). A seeded server exists to reproduce games (a
reported game, a test's known deal): every table it makes records its *table seed* (the
server's, or one its creator asked for with ``CreateTable.seed``), game 1 of the table is dealt
with exactly that seed, and game ``n`` with ``game_seed(table_seed, n)``, a keyed hash that no
earlier game's seed predicts. So the same server options, table seed and actions give the same
games, whatever other tables did meanwhile and in whatever order. A seeded table is never
rated (``dos.server.storage.table_store.finish_game``): its deals are known in advance.

Every game, seeded or not, is dealt with a fresh secret salt (``Deals.deal_salt``): everyone at
the table is shown the commitment ``sha256("dos-deal:SEED:SALT")`` from the deal on, and the
game's record reveals the seed and salt once it is over (``dos.records.verify``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Final

from dos.records.commitment import new_salt

SEED_BITS: Final = 62
"""Deal seeds are whole numbers of 0 to 2**62 - 1 (the database stores them in 64 bits)."""
MAX_SEED: Final = (1 << SEED_BITS) - 1


def game_seed(table_seed: int, number: int) -> int:
    """The deal seed of game ``number`` (1, 2, …) of a table seeded with ``table_seed``."""
    if number == 1:
        return table_seed
    digest = hashlib.blake2b(
        f"{table_seed}/{number}".encode(), digest_size=8, key=b"dos-deal"
    ).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


@dataclass(frozen=True, slots=True)
class Deals:
    """A server's source of deals. ``seed``: the server's deal seed; ``None``: at random."""

    seed: int | None = None

    def __post_init__(self) -> None:
        if self.seed is not None and not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"a deal seed is a whole number of 0 to {MAX_SEED}")

    @property
    def seeded(self) -> bool:
        """Whether this server's deals are known in advance (its games are never rated)."""
        return self.seed is not None

    def table_seed(self, asked: int | None) -> int | None:
        """The table seed of a new table whose creator asked for ``asked`` (``None``: asked
        for none); ``None``: the table deals at random. Raises ``ValueError`` when a seed is
        asked of a server that deals at random."""
        if asked is not None and self.seed is None:
            raise ValueError(
                "this server deals at random: a table's seed can be chosen only on a server "
                "started with --deal-seed"
            )
        return asked if asked is not None else self.seed

    @staticmethod
    def deal_seed(table_seed: int | None, number: int) -> int:
        """The seed game ``number`` of a table is dealt with: from its table seed, or at
        random."""
        if table_seed is None:
            return secrets.randbits(SEED_BITS)
        return game_seed(table_seed, number)

    @staticmethod
    def deal_salt() -> str:
        """The secret salt of a new game's commitment to its seed (``dos.records.commitment``),
        drawn at random for every game, on a seeded server too: the commitment hides the seed
        until the game is over, and the salt alone changes nothing in the game."""
        return new_salt()
