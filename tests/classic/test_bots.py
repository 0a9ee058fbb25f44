"""The classic bots: legal answers, the reaction reflex, levels by name, determinism."""

from __future__ import annotations

import random

import pytest

from dos.bots.base import BotError, Budget
from dos.bots.classic.base import ReactionReflex
from dos.bots.classic.greedy import ClassicGreedyBot
from dos.bots.classic.mcts import ClassicMctsBot, sample_state, unseen_cards
from dos.bots.classic.random_bot import ClassicRandomBot
from dos.bots.classic.sage import ClassicSageBot
from dos.bots.registry import make_player, names
from dos.play.classic import ClassicPlayer, play_game
from dos.rules.classic import Action, Kind, Phase, SeatView, apply, new_game, view
from dos.rules.classic.cards import full_deck

from .conftest import load, play


def views_along_a_game(seed: int) -> list[SeatView]:
    """The views of the seat to act along a random game."""
    state = new_game(seed=seed)
    chooser = random.Random(seed)
    seen = []
    while state.phase != Phase.OVER and len(seen) < 150:
        seen.append(view(state, state.turn))
        apply(state, chooser.choice(list(seen[-1].legal)))
    return seen


@pytest.mark.parametrize(
    "bot", [ClassicRandomBot(), ClassicGreedyBot(), ClassicMctsBot(iterations=12)]
)
def test_every_bot_answers_with_a_legal_action(
    bot: ClassicRandomBot | ClassicGreedyBot | ClassicMctsBot,
) -> None:
    for seat_view in views_along_a_game(seed=5)[::3]:
        action = bot.choose(seat_view, random.Random(1), Budget(iterations=12))
        if seat_view.phase == Phase.REACTION:
            assert action.kind == Kind.REACT
            assert action.hits <= len(seat_view.targets)
        else:
            assert action in seat_view.legal


def test_the_reaction_reflex_passes_fast_bots_and_fails_slow_ones() -> None:
    fast = ReactionReflex(seconds_per_target=0.5, spread=0.1)
    slow = ReactionReflex(seconds_per_target=2.5, spread=0.1)
    rng = random.Random(0)
    assert all(fast.answer(2, rng).ms <= 3000 for _ in range(50))
    assert all(slow.answer(2, rng).ms > 3000 for _ in range(50))
    clumsy = ReactionReflex(miss=1.0)
    assert clumsy.answer(2, rng).hits == 0


def test_a_bot_takes_the_reaction_test_with_its_reflex() -> None:
    state = load(hands=[["B7", "G3", "Y4"], ["G1", "G2", "G3", "G4"]])
    play(state, "B7")
    bot = ClassicGreedyBot(reaction=ReactionReflex(seconds_per_target=0.4, spread=0.0))
    action = bot.choose(view(state, 0), random.Random(0), Budget())
    assert str(action) == "react 2 800ms"


def test_greedy_passes_a_pending_draw_on_rather_than_drawing() -> None:
    state = load(hands=[["B+2", "G3", "G4", "G5"], ["R+2", "W+4", "B7", "Y1"]])
    play(state, "B+2")
    assert str(ClassicGreedyBot().choose(view(state, 1), random.Random(0), Budget())) == "R+2"


def test_greedy_keeps_its_wild_while_another_card_fits() -> None:
    state = load(hands=[["W", "B9", "G3", "G4"], ["G1", "G2", "Y3", "Y4"]])
    assert str(ClassicGreedyBot().choose(view(state, 0), random.Random(0), Budget())) == "B9"


def test_greedy_wishes_the_colour_it_holds_most() -> None:
    state = load(hands=[["W", "R9", "R3", "G4"], ["G1", "G2", "Y3", "Y4"]])
    assert str(ClassicGreedyBot().choose(view(state, 0), random.Random(0), Budget())) == "W=R"


def test_greedy_attacks_a_next_player_about_to_go_out() -> None:
    state = load(hands=[["B8", "BS", "G3", "G4"], ["G1", "Y4"], ["Y1", "Y2", "Y3", "R4"]])
    assert str(ClassicGreedyBot().choose(view(state, 0), random.Random(0), Budget())) == "BS"


def test_the_search_samples_only_the_cards_the_seat_has_not_seen() -> None:
    state = new_game(seed=8)
    seat_view = view(state, 1)
    assert len(unseen_cards(seat_view)) == 108 - 7 - 1
    sample = sample_state(seat_view, random.Random(3))
    assert sample.hands[1] == state.hands[1]
    assert sample.discard == state.discard
    assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
    assert sorted(sample.all_cards()) == sorted(full_deck())


def test_the_search_respects_its_iteration_budget_and_is_deterministic() -> None:
    seat_view = next(v for v in views_along_a_game(seed=9) if len(v.legal) > 2)
    bot = ClassicMctsBot()
    first = bot.choose(seat_view, random.Random(4), Budget(iterations=40))
    assert 0 < bot.iterations_done <= 40
    assert bot.choose(seat_view, random.Random(4), Budget(iterations=40)) == first


def test_levels_and_bots_are_made_by_name_for_the_classic_rules() -> None:
    assert names("classic") == [
        *("random", "greedy", "mcts", "sage"),
        *("easy", "medium", "hard", "expert"),
    ]
    for name in names("classic"):
        assert isinstance(make_player(name, "classic"), ClassicPlayer)
    assert type(make_player("easy", "classic").bot) is ClassicRandomBot
    assert type(make_player("hard", "classic").bot) is ClassicMctsBot
    assert type(make_player("expert", "classic").bot) is ClassicSageBot
    with pytest.raises(ValueError, match="unknown classic bot"):
        make_player("nobody", "classic")


def test_a_bot_game_ends_with_a_full_ranking_and_the_same_seed_gives_the_same_game() -> None:
    def players() -> list[ClassicPlayer]:
        return [make_player(n, "classic") for n in ("easy", "medium", "medium")]

    first = play_game(players(), seed=12)
    assert sorted(first.ranking) == [0, 1, 2]
    assert play_game(players(), seed=12).actions == first.actions
    assert sum(first.reactions_passed) + sum(first.reactions_failed) > 0


def test_the_runner_rejects_an_action_that_is_not_legal() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, seat_view: SeatView, rng: random.Random, budget: Budget) -> Action:
            return Action(Kind.DRAW, seat=seat_view.seat)

    with pytest.raises(BotError, match="cheat"):
        play_game([ClassicPlayer(Cheat()), ClassicPlayer(Cheat())], seed=1)
