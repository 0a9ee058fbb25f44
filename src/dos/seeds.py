"""Seeds derived one way from a game's seed.

Every generator handed to a bot, an opponent or a DOS race is seeded from the game's seed
through a keyed hash (BLAKE2b), never from the seed itself: whatever its holder recovers from
the generator's state (Python's ``random.Random`` keeps the bytes of a string seed in it), it
cannot lead back to the game's seed, and so not to the deal or the draw pile.

>>> derive(7, "seat", 1) == derive(7, "seat", 1)
True
>>> derive(7, "seat", 1) == derive(7, "seat", 2)
False
"""

from __future__ import annotations

import hashlib
import random

_KEY = b"dos.seeds/1"
"""The hash's key: it separates these derivations from any other use of BLAKE2b."""


def derive(seed: int | str, *labels: int | str, key: bytes = _KEY) -> int:
    """A 128-bit seed for the use ``labels`` names (``"seat", 2``; ``"race"``) of ``seed``.

    ``key`` makes the derivation secret where the seed is public (a tournament's ``--seed``):
    without the key, the derived seeds are not a function anyone can compute."""
    text = "/".join(str(part) for part in (seed, *labels)).encode()
    digest = hashlib.blake2b(text, key=key, digest_size=16).digest()
    return int.from_bytes(digest, "big")


def generator(seed: int | str, *labels: int | str, key: bytes = _KEY) -> random.Random:
    """A ``random.Random`` for the use ``labels`` names of ``seed`` (see ``derive``)."""
    return random.Random(derive(seed, *labels, key=key))
