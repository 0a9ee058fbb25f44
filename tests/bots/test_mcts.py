"""The ``mcts`` bot: legal answers, determinism, no peeking at hidden cards, the budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dos.bots.base import Budget, turn_choices
from dos.bots.determinize import Sampler
from dos.bots.mcts import MctsBot
from dos.bots.random_bot import RandomBot
from dos.play.official import Player, play_game
from dos.rules.official import Options, Phase, State, from_position, view
from dos.rules.official.cards import full_deck
from support import choice_views, hidden_shuffled, random_states


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_the_bot_returns_only_legal_turn_actions(players: int, seed: int) -> None:
    bot = MctsBot(search="ismcts", prior=None)
    rng = random.Random(seed)
    views = choice_views(players, seed, 240, 6)
    assert len(views) > 10
    for seat_view in views:
        action = bot.choose(seat_view, rng, Budget(iterations=6))
        assert action in turn_choices(seat_view)
        assert bot.iterations_done == 6


@pytest.mark.parametrize(
    "settings",
    [
        {"determinizations": 3},
        {"rollout": "random"},
        {"horizon": 2, "epsilon": 0.2},
        {"exploration": 0.0, "round_weight": 1.0},
    ],
)
def test_every_setting_gives_legal_actions(settings: dict[str, object]) -> None:
    bot = MctsBot(**settings)  # type: ignore[arg-type]
    rng = random.Random(5)
    for seat_view in choice_views(3, 5, 150, 11):
        assert bot.choose(seat_view, rng, Budget(iterations=8)) in turn_choices(seat_view)


def test_same_view_same_generator_same_action() -> None:
    for seat_view in choice_views(4, 7, 200, 23):
        first = MctsBot(search="ismcts", prior=None).choose(
            seat_view, random.Random(11), Budget(iterations=40)
        )
        second = MctsBot(search="ismcts", prior=None).choose(
            seat_view, random.Random(11), Budget(iterations=40)
        )
        assert first == second


def test_the_search_improves_on_its_first_guesses() -> None:
    """An obvious move: going out now (a match empties the hand) against drawing."""
    state = from_position(
        {
            "players": 2,
            "dealer": 1,
            "turn": 0,
            "hands": [["R7"], ["G5", "Y10", "Y#", "B3", "B4", "G1", "R9"]],
            "center": ["R4", "B7"],
            "draw_pile": ["G1", "B9", "R3", "Y4", "G8"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    seat_view = view(state, 0)
    assert len(turn_choices(seat_view)) == 2
    action = MctsBot(search="ismcts", prior=None).choose(
        seat_view, random.Random(0), Budget(iterations=30)
    )
    assert str(action) == "R7@1"


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8)])
def test_hidden_cards_cannot_change_the_decision(players: int, seed: int) -> None:
    """Two games that differ only in what the seat cannot see give it the same view, and so
    the same decision with the same generator: the bot cannot reach the hidden cards."""
    checked = 0
    for state in random_states(players, seed, 200)[5::17]:
        if state.phase == Phase.OVER:
            continue
        seat = state.turn
        other = hidden_shuffled(state, seat, seed)
        assert other != state
        seat_view = view(state, seat)
        assert view(other, seat) == seat_view
        if len(turn_choices(seat_view)) < 2:
            continue
        one = MctsBot(search="ismcts", prior=None).choose(
            view(state, seat), random.Random(4), Budget(iterations=25)
        )
        two = MctsBot(search="ismcts", prior=None).choose(
            view(other, seat), random.Random(4), Budget(iterations=25)
        )
        assert one == two
        checked += 1
    assert checked >= 3


def test_a_sample_agrees_with_the_view() -> None:
    rng = random.Random(2)
    for seat_view in choice_views(4, 6, 200, 13):
        sample = Sampler(seat_view, round_only=True).sample(rng)
        seat = seat_view.seat
        assert sample.hands[seat] == list(seat_view.hand)
        assert tuple(len(h) for h in sample.hands) == seat_view.hand_sizes
        assert tuple(sample.center) == seat_view.center
        assert len(sample.draw_pile) == seat_view.draw_pile_size
        assert Counter(sample.all_cards()) == Counter(full_deck())
        assert turn_actions_of(sample) == turn_choices(seat_view)


def turn_actions_of(state: State) -> list[object]:
    return turn_choices(view(state, state.turn))


def test_the_iteration_budget_is_respected() -> None:
    seat_view = choice_views(2, 9, 60, 5)[0]
    bot = MctsBot(iterations=17, search="ismcts", prior=None)
    bot.choose(seat_view, random.Random(0), Budget())
    assert bot.iterations_done == 17  # no limit in the budget: the bot's own setting
    bot.choose(seat_view, random.Random(0), Budget(iterations=9, seconds=30.0))
    assert bot.iterations_done == 9


class Ticks:
    """A fake clock: every reading is ``step`` seconds after the one before."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


@pytest.mark.parametrize("search", ["ismcts", "flat"])
def test_the_seconds_budget_is_respected(search: str) -> None:
    seat_view = choice_views(4, 10, 40, 3)[0]
    bot = MctsBot(search=search, prior=None)
    done = []
    for seconds in (0.05, 0.2):
        clock = Ticks(0.01)
        bot.choose(seat_view, random.Random(0), Budget(seconds=seconds, clock=clock))
        done.append(bot.iterations_done)
        assert clock.readings >= 2  # the search looked at the budget's clock, not the wall's
    assert 0 < done[0] < done[1]
    clock = Ticks(0.01)
    bot.choose(seat_view, random.Random(0), Budget(iterations=1_000_000, seconds=0.05, clock=clock))
    assert bot.iterations_done < 1_000_000


def test_a_single_choice_is_returned_without_search() -> None:
    state = from_position(
        {
            "players": 2,
            "dealer": 1,
            "turn": 0,
            "hands": [["R7", "B3"], ["G5", "Y10", "Y#"]],
            "center": ["R4", "B9"],
            "draw_pile": ["G1", "B9", "R3"],
            "discard": [],
            "scores": [0, 0],
        }
    )
    seat_view = view(state, 0)
    assert [str(a) for a in turn_choices(seat_view)] == ["draw"]
    bot = MctsBot(search="ismcts", prior=None)
    assert str(bot.choose(seat_view, random.Random(0), Budget(iterations=1000))) == "draw"
    assert bot.iterations_done == 0


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="rollout"):
        MctsBot(rollout="clever")
    with pytest.raises(ValueError):
        MctsBot(iterations=0)
    with pytest.raises(ValueError):
        MctsBot(horizon=0)
    with pytest.raises(ValueError):
        MctsBot(round_weight=2.0)


def test_a_small_search_beats_the_random_bot() -> None:
    wins = 0
    games = 6
    for game in range(games):
        seat = game % 2
        players = [Player(RandomBot()), Player(RandomBot())]
        players[seat] = Player(MctsBot(search="ismcts", prior=None), budget=Budget(iterations=25))
        result = play_game(players, seed=300 + game // 2, options=Options(2, target_score=60))
        wins += result.winner == seat
    assert wins >= 5


def test_the_bare_bot_is_the_hard_levels_search_flat_with_the_greedy_prior() -> None:
    bot = MctsBot()
    assert (bot.search, bot.prior) == ("flat", "greedy")
