"""The attack of a bot on its generator: from the state of the ``random.Random`` it is handed,
recover what the generator was seeded with, and from that the game's seed.

Python seeds its Mersenne Twister with ``init_by_array(key)``: an int seed's 32-bit words
(least significant first), or, for a str, the words of ``int.from_bytes(s + sha512(s))``, so
the string's bytes stand in the key whole. ``init_by_array`` is invertible: its second loop
is undone word by word from the end state, its first loop then gives ``key[j] + j`` at every
position, periodic in the key's length. ``seeding_key`` returns the key as one int;
``seed_string`` reads a str seed back out of it, ``reveals`` tells whether it names the
game's seed.

>>> import random
>>> seeding_key(random.Random(2**100 + 7).getstate())
1267650600228229401496703205383
>>> seed_string(seeding_key(random.Random("12/seat1").getstate()))
'12/seat1'
>>> seed_string(seeding_key(random.Random(12).getstate())) is None
True
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

N = 624
MASK = 0xFFFFFFFF


def _genrand_init(value: int) -> list[int]:
    """MT19937's ``init_genrand(value)``."""
    mt = [value]
    for i in range(1, N):
        mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK)
    return mt


def _mix(word: int, factor: int) -> int:
    return ((word ^ (word >> 30)) * factor) & MASK


def seeding_key(state: Any) -> int | None:
    """The key ``init_by_array`` was given, as an int (its words, least significant first),
    for the state (``random.Random.getstate()``) of a generator not drawn from since it was
    seeded; ``None`` if the state is not one (drawn from, or a key of N - 5 words or more)."""
    version, internal, _gauss = state
    if version != 3 or internal[N] != N or internal[0] != 0x80000000:
        return None
    final = list(internal[:N])
    # The key has fewer than N words, so the first loop ends at i = 2 after wrapping once,
    # the second loop runs over i = 2..N-1, wraps (mt[0] = mt[N-1]) and ends with i = 1.
    before = [0] * N  # the state between the two loops
    before[1] = ((final[1] + 1) & MASK) ^ _mix(final[N - 1], 1566083941)
    before[2] = ((final[2] + 2) & MASK) ^ _mix(before[1], 1566083941)
    for i in range(3, N):
        before[i] = ((final[i] + i) & MASK) ^ _mix(final[i - 1], 1566083941)
    start = _genrand_init(19650218)
    # the first loop's step t (t = 0, 1, ...) sets mt[t + 1] with key[t % length] + t % length
    added = {
        t: (before[t + 1] - (start[t + 1] ^ _mix(before[t], 1664525))) & MASK
        for t in range(2, N - 1)
    }
    for length in range(1, N - 4):
        if any(added[t] != added[t + length] for t in range(2, N - 1 - length)):
            continue
        words = [0] * length
        for t in range(2, 2 + length):
            words[t % length] = (added[t] - t % length) & MASK
        key = sum(word << (32 * j) for j, word in enumerate(words))
        if random.Random(key).getstate() == state:
            return key
    return None


def seed_string(key: int | None) -> str | None:
    """The str a generator was seeded with, read from its key (``seeding_key``); ``None`` if
    the key is not a str's (no SHA-512 of the rest at its end)."""
    if key is None or key.bit_length() <= 512:
        return None
    raw = key.to_bytes((key.bit_length() + 7) // 8, "big")
    text, digest = raw[:-64], raw[-64:]
    if hashlib.sha512(text).digest() != digest:
        return None
    try:
        return text.decode()
    except UnicodeDecodeError:
        return None


def game_seed(state: Any) -> int | None:
    """What a bot learns of its game's seed from its generator's state: the first number in a
    str seed (``"{seed}/seat1"``, ``"dos-bot:{seed}:1:0"``), or ``None`` if there is none."""
    text = seed_string(seeding_key(state))
    found = None if text is None else re.search(r"\d+", text)
    return None if found is None else int(found.group())


def reveals(state: Any, seed: int) -> bool:
    """Whether a generator's state gives ``seed`` back: its seeding key is the seed, or a str
    seed names it."""
    key = seeding_key(state)
    text = seed_string(key)
    return key == seed or (text is not None and str(seed) in re.findall(r"\d+", text))
