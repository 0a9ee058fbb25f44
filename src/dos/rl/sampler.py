"""Determinization for ISMCTS-style agents: OpenSpiel's ``ResampleFromInfostate``.

A sample is a full game state that agrees with everything one seat knows (its view) and deals
the cards it has not seen at random into the other hands and the draw pile, keeping their
sizes. The work is done by the bots' own samplers (``dos.bots.determinize.Sampler`` for
official, ``dos.bots.classic.mcts.sample_state`` for classic), through the rule set's RL codec
(``Codec.resample``); this is their RL-side entry.

>>> import random
>>> from dos.rules.official import new_game
>>> state = new_game(seed=4)
>>> sample = resample_from_infostate("official", state, 1, random.Random(0))
>>> sample.hands[1] == state.hands[1], sample.center == state.center
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from dos import ruleset
from dos.rl.codec import make_codec


def resample_from_infostate(rules: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A state of rule set ``rules`` consistent with what ``seat`` knows of ``state``, the
    hidden cards dealt with ``rng``. Everything ``seat`` sees is the same in both, so its
    observation is too."""
    codec = make_codec(rules, ruleset.get(rules).players(state))
    return codec.resample(codec.view(state, seat), rng)
