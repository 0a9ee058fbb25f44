"""No generator the runners hand a bot leads back to the game's seed (``dos.seeds``).

Each test plays a game through a real runner with a bot that keeps the state of the generator
it is handed, then attacks it as a bot could (``seed_recovery``: invert the Mersenne Twister's
seeding, read the seed, deal the game again). The attack recovers the generator's seeding key,
which is the one-way derivation of the game's seed (a BLAKE2b digest), never the seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from dos import seeds
from dos.bots.classic.random_bot import ClassicRandomBot
from dos.bots.random_bot import RandomBot
from dos.play import classic, official
from dos.play.bot import Budget
from dos.play.reflex import Reflex
from dos.rules import official as official_rules
from dos.watch import bot_game
from seed_recovery import game_seed, reveals, seeding_key

SEED = 20261129


@dataclass
class Spy:
    """Plays as ``inner`` and keeps the state of each generator it is handed, as first seen."""

    inner: Any
    name: str = "spy"
    states: list[Any] = field(default_factory=list)

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        if not self.states:
            self.states.append(rng.getstate())
        return self.inner.choose(view, rng, budget)


@dataclass(frozen=True, slots=True)
class SpyReflex(Reflex):
    """A reflex that keeps the state of the race generator it is first handed."""

    seen: list[Any] = field(default_factory=list, compare=False)

    def call_delay(self, rng: random.Random) -> float | None:
        if not self.seen:
            self.seen.append(rng.getstate())
        return Reflex.call_delay(self, rng)


def _deal(rules: Any, options: Any, seed: int) -> tuple[Any, Any]:
    state = rules.new_game(options, seed)
    return [list(hand) for hand in state.hands], list(state.draw_pile)


def test_the_attack_reads_a_str_seeded_generator() -> None:
    """The attack works: from a generator seeded the way the runners used to seed a seat's,
    it reads the game's seed and deals the game again, every hand and the draw pile."""
    options = official_rules.Options(players=3)
    state = random.Random(f"{SEED}/seat1").getstate()
    recovered = game_seed(state)
    assert recovered == SEED
    assert _deal(official_rules, options, recovered) == _deal(official_rules, options, SEED)


@pytest.mark.parametrize("players", [2, 4])
def test_an_official_bot_cannot_read_the_seed_from_its_generator(players: int) -> None:
    spies = [Spy(RandomBot()) for _ in range(players)]
    result = official.play_game([official.Player(spy) for spy in spies], seed=SEED)
    assert result.seed == SEED
    for seat, spy in enumerate(spies):
        (state,) = spy.states
        assert not reveals(state, SEED)
        assert seeding_key(state) == seeds.derive(SEED, "seat", seat)


def test_the_dos_race_generator_does_not_lead_back_to_the_seed() -> None:
    reflex = SpyReflex()
    players = [official.Player(RandomBot(), reflex=reflex) for _ in range(2)]
    official.play_game(players, seed=SEED)
    (state,) = reflex.seen
    assert not reveals(state, SEED)
    assert seeding_key(state) == seeds.derive(SEED, "race")


@pytest.mark.parametrize("players", [2, 4])
def test_a_classic_bot_cannot_read_the_seed_from_its_generator(players: int) -> None:
    spies = [Spy(ClassicRandomBot()) for _ in range(players)]
    classic.play_game([classic.ClassicPlayer(spy) for spy in spies], seed=SEED)
    for seat, spy in enumerate(spies):
        (state,) = spy.states
        assert not reveals(state, SEED)
        assert seeding_key(state) == seeds.derive(SEED, "seat", seat)


def test_a_watched_bot_cannot_read_the_seed_from_its_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spies: list[Spy] = []

    def spy_player(name: str) -> official.Player:
        spies.append(Spy(RandomBot()))
        return official.Player(spies[-1])

    monkeypatch.setattr("dos.watch.make_player", spy_player)
    bot_game(3, SEED, ["random"], target_score=60, out=lambda line: None)
    for seat, spy in enumerate(spies):
        (state,) = spy.states
        assert not reveals(state, SEED)
        assert seeding_key(state) == seeds.derive(SEED, "seat", seat)
