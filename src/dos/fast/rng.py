"""The two generators of a game, compiled: SplitMix64 (``dos.rng``) and Mersenne Twister.

* ``splitmix_next`` and ``shuffle`` are ``dos.rng.next_u64`` and ``dos.rng.shuffle`` bit for
  bit: the generator state is a ``uint64`` kept, bit-cast, in an ``int64`` slot of the flat
  game state.
* Random play (``dos.simulate.random_game``) chooses with Python's ``random.Random(seed)``
  and ``randrange(n)``. ``mt_seed`` and ``mt_randbelow`` reproduce CPython's MT19937
  (``init_by_array`` on the seed's 32-bit words, then ``_randbelow_with_getrandbits``) so that a
  compiled random game makes the very same choices. An MT state is an ``int64`` array of 625:
  the 624 words, then the index of the next word.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.fast._jit import njit

I64 = npt.NDArray[np.int64]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_HALF = np.uint64(0xFFFFFFFF)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

MT_N = 624
MT_M = 397
MT_SIZE = MT_N + 1
_MASK32 = 0xFFFFFFFF


@njit
def splitmix_next(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One SplitMix64 step: ``(new_state, output)``, as ``dos.rng.next_u64``."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@njit
def shuffle(state: np.uint64, items: I64, start: int, n: int) -> np.uint64:
    """Shuffles ``items[start:start + n]`` in place exactly as ``dos.rng.shuffle`` shuffles a
    list of ``n``; returns the new generator state."""
    i = n - 1
    while i > 0:
        state, z = splitmix_next(state)
        j = int(((z & _HALF) * np.uint64(i + 1)) >> _S32)
        items[start + i], items[start + j] = items[start + j], items[start + i]
        i -= 1
        if i > 0:
            j = int(((z >> _S32) * np.uint64(i + 1)) >> _S32)
            items[start + i], items[start + j] = items[start + j], items[start + i]
            i -= 1
    return state


def seed_key(seed: int) -> I64:
    """The words CPython's ``random.seed(seed)`` feeds ``init_by_array`` for an int seed: the
    absolute value's 32-bit words, least significant first (``[0]`` for zero)."""
    n = abs(seed)
    words = []
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return np.array(words or [0], dtype=np.int64)


@njit
def mt_seed(mt: I64, key: I64) -> None:
    """``mt`` becomes the MT19937 state of ``random.Random(seed)`` (``key = seed_key(seed)``)."""
    mt[0] = 19650218
    for i in range(1, MT_N):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32
    i = 1
    j = 0
    length = key.size
    for _ in range(max(MT_N, length)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _MASK32
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(MT_N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK32
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[MT_N] = MT_N


@njit
def _mt_mix(mt: I64, kk: int, following: int, far: int) -> None:
    y = (mt[kk] & 0x80000000) | (mt[following] & 0x7FFFFFFF)
    value = mt[far] ^ (y >> 1)
    if y & 1:
        value ^= 0x9908B0DF
    mt[kk] = value


@njit
def _mt_twist(mt: I64) -> None:
    """The next 624 words, in CPython's three loops (no modulo in the hot one)."""
    for kk in range(MT_N - MT_M):
        _mt_mix(mt, kk, kk + 1, kk + MT_M)
    for kk in range(MT_N - MT_M, MT_N - 1):
        _mt_mix(mt, kk, kk + 1, kk + MT_M - MT_N)
    _mt_mix(mt, MT_N - 1, 0, MT_M - 1)
    mt[MT_N] = 0


@njit
def mt_next32(mt: I64) -> int:
    """The next 32-bit output of ``mt`` (CPython's ``genrand_uint32``)."""
    if mt[MT_N] >= MT_N:
        _mt_twist(mt)
    y = mt[mt[MT_N]]
    mt[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y)


@njit
def mt_randbelow(mt: I64, n: int) -> int:
    """``random.Random.randrange(n)`` for ``0 < n < 2**32``: the top ``n.bit_length()`` bits of
    one 32-bit output, drawn again until below ``n``."""
    k = 0
    while (n >> k) != 0:
        k += 1
    r = mt_next32(mt) >> (32 - k)
    while r >= n:
        r = mt_next32(mt) >> (32 - k)
    return r


def new_mt(seed: int) -> I64:
    """A fresh MT state equal to ``random.Random(seed)`` (an int seed)."""
    mt = np.zeros(MT_SIZE, dtype=np.int64)
    mt_seed(mt, seed_key(seed))
    return mt


def new_mts(seeds: list[int]) -> I64:
    """One MT state per seed, row ``g`` equal to ``random.Random(seeds[g])``."""
    mts = np.zeros((len(seeds), MT_SIZE), dtype=np.int64)
    for g, seed in enumerate(seeds):
        mt_seed(mts[g], seed_key(seed))
    return mts
