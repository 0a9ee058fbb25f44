"""How the environments settle the real-time DOS race (RULES.md §6) between decisions.

In a real game "DOS!" and "Catch!" are shouted at any moment, by any seat. An environment
steps one agent at a time, so it needs a rule for who wins the race. Two are offered:

* ``"reflex"`` (the default, as in ``dos tournament``): every seat has a ``Reflex`` (a
  reliability and a reaction time); after each action, each DOS obligation that has just
  opened is raced at once by the runner's own referee (``dos.play.official.DosReferee``): the
  owner's call against the others' catches, the quickest wins, all of it drawn from the race
  generator seeded one way from the game's seed (``dos.seeds.generator(seed, "race")``: its
  state does not lead back to the game's seed). An obligation nobody acted on stays open, and
  then the ``dos`` / ``catch +r`` indices appear in the mask of the seat to act.
* ``"agents"``: nothing is settled automatically; the seat to act finds its own call and its
  catches in its mask at every decision point, so the race goes to whoever is to act first.

The classic rule set has no out-of-turn actions: its reaction test is an action of the seat
to act (``react`` or ``timeout``), so there is nothing to race.

>>> from dos.rules.official import Options, new_game
>>> race = Race("official", 2, "reflex", seed=1)
>>> race.settle(new_game(Options(players=2), seed=1))
[]

The environments on the compiled core race the same way in compiled code
(``dos.rl.flat.race``), drawing the very numbers this referee draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dos import ruleset, seeds
from dos.play.bot import Budget
from dos.play.official import DosReferee, Player
from dos.play.reflex import Reflex
from dos.rules.official import Action, SeatView

RACES = ("reflex", "agents")


class _RaceOnly:
    """A seat of the referee's: only its reflexes are used, it is never asked to choose."""

    name = "race-only"

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        raise RuntimeError("the DOS referee never asks a seat for a turn action")


class Race:
    """Settles DOS obligations of an official game between decisions (see the module)."""

    def __init__(
        self,
        rules: str,
        players: int,
        mode: str = "reflex",
        seed: int = 0,
        reflexes: Sequence[Reflex] | None = None,
    ) -> None:
        if mode not in RACES:
            raise ValueError(f"unknown race {mode!r} (known: {', '.join(RACES)})")
        reflexes = list(reflexes) if reflexes is not None else [Reflex()] * players
        if len(reflexes) != players:
            raise ValueError(f"{len(reflexes)} reflexes for {players} seats")
        self.active = ruleset.entry(rules).dos_race and mode == "reflex"
        self.players = [Player(_RaceOnly(), reflex) for reflex in reflexes]
        self.random = seeds.generator(seed, "race")
        self._referee: DosReferee | None = None

    def settle(self, state: Any) -> list[Action]:
        """Races the obligations that opened since the last call; returns the calls and
        catches applied to ``state``."""
        if not self.active:
            return []
        if self._referee is None:
            self._referee = DosReferee(state, self.players, self.random)
        return self._referee.settle(state)
