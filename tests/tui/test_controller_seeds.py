"""The terminal game's generators (the bots' and the DOS race's) do not lead back to the game's
seed, in a new game or a resumed one (``dos.seeds``; the attack is ``seed_recovery``)."""

from __future__ import annotations

from dos import seeds
from dos.rules.official import Options, apply, legal_actions, new_game
from dos.tui.classic.controller import ClassicController
from dos.tui.clock import ManualClock
from dos.tui.controller import GameController
from seed_recovery import reveals, seeding_key

SEED = 20261129


def test_the_bots_and_the_race_generators_do_not_give_the_seed_back() -> None:
    game = GameController(players=3, seed=SEED, clock=ManualClock())
    for seat in (1, 2):
        state = game.rngs[seat].getstate()
        assert not reveals(state, SEED)
        assert seeding_key(state) == seeds.derive(SEED, "seat", seat)
    assert not reveals(game.race.getstate(), SEED)
    assert seeding_key(game.race.getstate()) == seeds.derive(SEED, "race")


def test_a_resumed_game_seeds_its_generators_one_way_too() -> None:
    state = new_game(Options(players=2), SEED)
    for _ in range(3):
        apply(state, legal_actions(state, state.turn)[0])
    game = GameController(seed=SEED, clock=ManualClock(), state=state)
    assert not reveals(game.rngs[1].getstate(), SEED)
    assert not reveals(game.race.getstate(), SEED)
    assert seeding_key(game.rngs[1].getstate()) == seeds.derive(SEED, "seat", 1, "resume", 3)
    assert seeding_key(game.race.getstate()) == seeds.derive(SEED, "race", "resume", 3)


def test_a_classic_bot_generator_does_not_give_the_seed_back() -> None:
    game = ClassicController(players=3, seed=SEED, clock=ManualClock())
    for seat in (1, 2):
        state = game.rngs[seat].getstate()
        assert not reveals(state, SEED)
        assert seeding_key(state) == seeds.derive(SEED, "seat", seat)
