"""The test by which a search bot gives up its default action (the prior's) for another.

Both actions were simulated on the same samples (common random numbers), so the rewards pair
up, sample by sample: the other action is taken only if the mean of the paired gains is more
than ``confidence`` standard errors above zero. Acting on a plain difference of means would
follow the noise of a game that swings on the cards drawn.

>>> paired_advantage([1.0, 1.0, 0.5, 1.0], [0.0, 0.5, 0.5, 0.5], confidence=1.0)
True
>>> paired_advantage([1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], confidence=1.0)
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def paired_advantage(other: Sequence[float], default: Sequence[float], confidence: float) -> bool:
    """Whether ``other``'s rewards beat ``default``'s (paired by sample, as many as both
    have) by more than ``confidence`` standard errors; never on fewer than two pairs."""
    paired = min(len(other), len(default))
    if paired < 2:
        return False
    gains = [other[i] - default[i] for i in range(paired)]
    gain = sum(gains) / paired
    spread = math.sqrt(sum((g - gain) ** 2 for g in gains) / (paired - 1))
    return gain > confidence * spread / math.sqrt(paired)
