"""``policy:FILE``: a trained masked policy (``dos.rl.policy``) playing as a bot.

It sees only its seat's view, like every bot: the observation is built from the view
(``dos.rl.official_observation.observe_view``) and the mask from the view's legal turn
actions; it plays the index with the highest logit. DOS calls and catches are reflexes, as
for the other bots. Needs the ``rl`` extra (NumPy).

A policy plays the rule set it was trained for, and, if it reads the exact observation layout
(whose width depends on the player count, ``dos.rl.layout``), the player count it was trained
for, no other; one that reads the padded layout plays every count. The bot is made for a table
(``PolicyBot(path, rules, players)``, which ``dos.bots.registry.make_player`` passes on) and
refuses any other with ``PolicyRefusedError``, naming the file, what it plays and what the
table is; so ``dos tournament``, ``dos ladder`` and ``dos watch`` refuse the table before the
first game (exit status 2). A bot made without saying the table checks the first view it is
shown instead.

The bot registry (``dos.bots.registry``) names this module, ``POLICY_BOT``, and imports it
only when a ``policy:FILE`` is asked for: the bots never import the RL layer.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from dos.bots.base import Budget, turn_choices
from dos.errors import DosError
from dos.rl.official_actions import OfficialActions
from dos.rl.policy import PLAYED, Policy, load
from dos.rules.official import Action, SeatView


class PolicyRefusedError(DosError, ValueError):
    """A policy asked to play at a table it was not trained for (another rule set or another
    player count)."""


@cache
def _load(path: str, modified: int) -> Policy:
    """A policy file, read once per process (a tournament builds a bot for every game)."""
    return load(path)


def _table(rules: str, players: int | None) -> str:
    counted = "" if players is None else f" with {players} players"
    return f"the {rules} rules{counted}"


def load_for(path: str | Path, rules: str = PLAYED, players: int | None = None) -> Policy:
    """The policy in ``path``, checked against a table of ``rules`` with ``players`` seats
    (``None``: not checked); raises ``PolicyRefusedError`` if it plays another game, and
    ``ValueError`` or ``OSError`` for a file that is not a readable policy file."""
    policy = _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)
    if not policy.plays(rules, players):
        raise PolicyRefusedError(
            f"policy:{path} plays {policy.table()}; this table: {_table(rules, players)}"
        )
    return policy


class PolicyBot:
    """Plays the trained policy in ``path`` (a ``.npz`` policy file) at a table of ``rules``
    (default: the rules policies play, ``PLAYED``) with ``players`` seats (``None``: checked
    at the first view instead)."""

    def __init__(self, path: str | Path, rules: str = PLAYED, players: int | None = None) -> None:
        self.policy = load_for(path, rules, players)
        self.name = f"policy:{path}"
        self._table = OfficialActions()

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        players = view.options.players
        if not self.policy.plays(PLAYED, players):
            raise PolicyRefusedError(
                f"{self.name} plays {self.policy.table()}; this table: {_table(PLAYED, players)}"
            )
        choices = turn_choices(view)
        if len(choices) == 1:
            return choices[0]
        indices = self._table.indices(choices, view.seat, players, list(view.center))
        best = self.policy.choose(self.policy.observe_view(view), indices)
        return choices[indices.index(best)]
