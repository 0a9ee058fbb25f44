"""The compiled generators are Python's, bit for bit: SplitMix64 and its shuffle
(``dos.rng``), and the Mersenne Twister of ``random.Random(seed).randrange``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dos import rng
from dos.fast.rng import mt_randbelow, new_mts, shuffle, splitmix_next


@pytest.mark.parametrize("seed", [0, 1, -5, 2**32, 2**64 + 7, 12345678901234567890123])
def test_mersenne_twister_randrange_is_pythons(seed: int) -> None:
    mt = new_mts([seed])[0]
    reference = random.Random(seed)
    for n in [1, 2, 3, 7, 100, 108, 1000, 2**31 + 5] * 200:  # more than one twist of 624
        assert mt_randbelow(mt, n) == reference.randrange(n)


@pytest.mark.parametrize("seed", [0, 3, -9])
def test_splitmix_and_shuffle_are_dos_rng(seed: int) -> None:
    state = rng.seed_state(seed)
    assert tuple(int(v) for v in splitmix_next(np.uint64(state))) == rng.next_u64(state)
    for size in (1, 2, 7, 108):
        items = list(range(size))
        array = np.array(items, dtype=np.int64)
        expected = rng.shuffle(state, items)
        assert int(shuffle(np.uint64(state), array, 0, size)) == expected
        assert array.tolist() == items
