"""A commitment to a game's deals: the SHA-256 of its seed with a secret salt.

A game's seed decides its every deal and reshuffle (``docs/engine.md``), so a hash of the
seed published before the first card is played binds the server to all of them: once the game
is over and the seed and salt are revealed, anyone recomputes the hash, and the deals from the
seed (``dos.records.verify``). The salt, 128 random bits drawn for each game, keeps the seed
from being found by hashing every possible one before the reveal.

The hashed text is plain, so a person can check it with any SHA-256 tool::

    printf 'dos-deal:%s:%s' SEED SALT | sha256sum

>>> commitment(42, "00" * 16) == commitment(42, "00" * 16)
True
>>> commitment(42, "00" * 16) == commitment(43, "00" * 16)
False
>>> len(new_salt()), is_salt(new_salt()), is_salt("xyz")
(32, True, False)
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Final

PREFIX: Final = "dos-deal"
"""The hashed text's first word: it sets these hashes apart from any other use of SHA-256."""
SALT_BYTES: Final = 16
"""A salt's size: 128 bits, written as 32 lowercase hexadecimal digits."""

_SALT = re.compile(r"[0-9a-f]{32}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """A fresh salt from the operating system's secure generator (``secrets``)."""
    return secrets.token_hex(SALT_BYTES)


def hashed_text(seed: int, salt: str) -> str:
    """The text whose SHA-256 is the commitment: ``dos-deal:SEED:SALT``."""
    return f"{PREFIX}:{seed}:{salt}"


def commitment(seed: int, salt: str) -> str:
    """The commitment to the deals of a game dealt from ``seed``: 64 hexadecimal digits."""
    return hashlib.sha256(hashed_text(seed, salt).encode("ascii")).hexdigest()


def is_salt(text: object) -> bool:
    """Whether ``text`` is written as a salt is: 32 lowercase hexadecimal digits."""
    return isinstance(text, str) and _SALT.fullmatch(text) is not None


def is_commitment(text: object) -> bool:
    """Whether ``text`` is written as a commitment is: 64 lowercase hexadecimal digits."""
    return isinstance(text, str) and _DIGEST.fullmatch(text) is not None
