"""Reinforcement-learning environments for DOS (``docs/rl.md``).

* ``env(rules="official", players=2, ...)``: the PettingZoo AEC environment;
* ``dos/Official-v0`` and ``dos/Classic-v0``: Gymnasium single-agent environments, opponents
  from the bot registry (``gymnasium.make("dos/Official-v0", opponents=["greedy"])``);
* ``VectorGames``: a batch of games stepped together, for training;
* ``make_codec``: the fixed action table and the observer of each rule set;
* ``resample_from_infostate``: a full state dealt consistently with one seat's information.

Needs the ``rl`` extra (``numpy``, ``gymnasium``, ``pettingzoo``).
"""

from __future__ import annotations

from dos.rl.aec import DosAEC, env, raw_env
from dos.rl.codec import Codec, make_codec
from dos.rl.gym_env import DosGym, register
from dos.rl.sampler import resample_from_infostate

register()

__all__ = ["Codec", "DosAEC", "DosGym", "env", "make_codec", "raw_env", "resample_from_infostate"]
