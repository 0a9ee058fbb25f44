"""The game's own seeded generator: SplitMix64, state kept as one integer.

No global ``random`` is ever used. Keeping the whole generator state in one ``int`` makes
copying a game state free and lets a position store it; SplitMix64 is simple enough to be
reproduced bit for bit in any language (a later compiled fast path must give the same deals).
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any integer, negative ones included).

    >>> seed_state(0) == seed_state(0)
    True
    """
    return (seed * _GOLDEN + 0x1234567) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One step: returns ``(new_state, 64-bit output)``."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def shuffle(state: int, items: list[int]) -> int:
    """Shuffles ``items`` in place (Fisher-Yates from the end); returns the new state.

    Each 64-bit output gives two indices, one from each 32-bit half: the index for position
    ``i`` is ``(h * (i + 1)) >> 32`` of the half ``h`` (the multiply-shift map, whose bias,
    below 2**-25 for a deck of 108, no game can notice). Positions ``n-1, n-2`` take the low
    and the high half of the first output, and so on.

    >>> cards = [1, 2, 3, 4]
    >>> _ = shuffle(seed_state(7), cards)
    >>> sorted(cards)
    [1, 2, 3, 4]
    """
    golden = _GOLDEN
    mask = _MASK
    half = 0xFFFFFFFF
    i = len(items) - 1
    while i > 0:
        state = (state + golden) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = ((z & half) * (i + 1)) >> 32
        items[i], items[j] = items[j], items[i]
        i -= 1
        if i > 0:
            j = ((z >> 32) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
            i -= 1
    return state
