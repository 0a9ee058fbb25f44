"""The classic ``sage`` bot (``dos.bots.classic.sage``): legal answers, the reaction test, no
peeking at hidden cards, determinism, and the mechanics of its search (the inference from the
public history, the dealing of samples, the greedy prior, the single choice)."""

from __future__ import annotations

import random

import pytest

from dos.bots.base import Budget
from dos.bots.classic.base import ReactionReflex
from dos.bots.classic.greedy import ClassicGreedyBot
from dos.bots.classic.mcts import dealt_state, unseen_cards
from dos.bots.classic.sage import (
    ClassicSageBot,
    _take_out,
    deal_hidden,
    greedy_consistent,
    hand_constraints,
    infer,
)
from dos.rules.classic import (
    Kind,
    Options,
    Phase,
    SeatView,
    State,
    apply,
    from_position,
    new_game,
    view,
)
from dos.rules.classic.cards import full_deck, parse_card
from support import hidden_shuffled


def _states(players: int, seed: int, limit: int = 400, randomness: float = 0.2) -> list[State]:
    """The states along a game of greedy players with a random move now and then."""
    state = new_game(Options(players=players), seed)
    chooser = random.Random(seed)
    greedy = ClassicGreedyBot()
    found = []
    while state.phase != Phase.OVER and len(found) < limit:
        found.append(state.copy())
        seat_view = view(state, state.turn)
        if state.phase == Phase.PLAY and chooser.random() < randomness:
            action = chooser.choice(seat_view.legal)
        else:
            action = greedy.choose(seat_view, chooser, Budget())
        apply(state, action)
    return found


def _fits(hand: list[int], masks: list[int]) -> bool:
    """Whether the cards of ``hand`` can be given one to each mask, each allowed by it.
    Masks are nested (``hand_constraints``), so Hall's condition is checked on the most
    constrained ``k`` masks for each ``k``."""
    if len(hand) != len(masks):
        return False
    ordered = sorted(masks, key=lambda mask: -mask.bit_count())
    return all(
        sum(1 for card in hand if not mask >> card & 1) >= k + 1 for k, mask in enumerate(ordered)
    )


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_only_legal_actions_and_the_reaction_test_answered(players: int, seed: int) -> None:
    bot = ClassicSageBot()
    rng = random.Random(seed)
    reactions = 0
    for state in _states(players, seed)[::3]:
        seat_view = view(state, state.turn)
        action = bot.choose(seat_view, rng, Budget(iterations=6))
        if seat_view.phase == Phase.REACTION:
            assert action.kind == Kind.REACT
            assert action.hits <= len(seat_view.targets)
            reactions += 1
        else:
            assert action in seat_view.legal
    assert reactions > 0


def test_the_reaction_test_is_the_reflex() -> None:
    state = from_position(
        {
            "players": 2,
            "turn": 0,
            "hands": [["B7", "G3", "Y4"], ["G1", "G2", "G3", "G4"]],
            "draw_pile": ["G9"],
            "discard": ["B5"],
        }
    )
    apply(state, ClassicGreedyBot().choose(view(state, 0), random.Random(0), Budget()))
    bot = ClassicSageBot(reaction=ReactionReflex(seconds_per_target=0.4, spread=0.0))
    assert str(bot.choose(view(state, 0), random.Random(0), Budget())) == "react 2 800ms"
    assert bot.iterations_done == 0


def test_a_single_legal_action_is_returned_at_once() -> None:
    state = from_position(
        {
            "players": 2,
            "turn": 0,
            "hands": [["G1", "Y2", "G3"], ["R1", "R2", "R3"]],
            "draw_pile": ["G9"],
            "discard": ["B5"],
        }
    )
    bot = ClassicSageBot()
    assert str(bot.choose(view(state, 0), random.Random(0), Budget(iterations=50))) == "draw"
    assert bot.iterations_done == 0


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 8)])
def test_hidden_cards_cannot_change_the_decision(players: int, seed: int) -> None:
    """Two games that differ only in what the seat cannot see give it the same view, and so
    the same decision and the same statistics with the same generator."""
    checked = 0
    for state in _states(players, seed)[4::7]:
        if state.phase != Phase.PLAY:
            continue
        seat = state.turn
        other = hidden_shuffled(state, seat, seed)
        assert other != state
        seat_view = view(state, seat)
        assert view(other, seat) == seat_view
        if len(seat_view.legal) < 2:
            continue
        one, two = ClassicSageBot(), ClassicSageBot()
        first = one.choose(seat_view, random.Random(4), Budget(iterations=20))
        second = two.choose(view(other, seat), random.Random(4), Budget(iterations=20))
        assert first == second
        assert one.means == two.means
        checked += 1
    assert checked >= 3


def test_same_view_same_generator_same_decision() -> None:
    checked = 0
    for state in _states(2, 7)[::5]:
        seat_view = view(state, state.turn)
        if state.phase != Phase.PLAY or len(seat_view.legal) < 2:
            continue
        bot = ClassicSageBot()
        first = bot.choose(seat_view, random.Random(11), Budget(iterations=30))
        means = bot.means
        assert bot.iterations_done == 30
        assert bot.choose(seat_view, random.Random(11), Budget(iterations=30)) == first
        assert bot.means == means
        checked += 1
    assert checked >= 5


def test_without_a_budget_the_bot_runs_its_own_iterations() -> None:
    state = next(
        s for s in _states(2, 9) if s.phase == Phase.PLAY and len(view(s, s.turn).legal) > 1
    )
    bot = ClassicSageBot(iterations=17)
    bot.choose(view(state, state.turn), random.Random(0), Budget())
    assert bot.iterations_done == 17


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (2, 12), (3, 13), (4, 14)])
def test_inference_only_excludes_cards_a_player_provably_does_not_hold(
    players: int, seed: int
) -> None:
    """Along whole games, every other hand can be matched card by card to its exclusion
    masks: nothing a player holds is ever excluded. And the masks do say something."""
    informative = 0
    for state in _states(players, seed):
        for seat in range(players):
            masks = hand_constraints(view(state, seat))
            assert [len(m) for m in masks] == [len(h) for h in state.hands]
            assert not any(masks[seat])
            for other in range(players):
                if other != seat:
                    assert _fits(state.hands[other], masks[other]), (seat, other)
                    informative += any(masks[other])
    assert informative > 0


def test_a_draw_shows_the_player_held_nothing_that_fitted() -> None:
    """Seat 1 draws on a red 5 (RULES §9: if you can play, you must): its seven old cards
    are neither red, nor 5, nor wild; the card it drew may be anything."""
    seed = next(
        seed
        for seed in range(200)
        if (state := new_game(Options(players=2), seed)).turn == 1
        and view(state, 1).legal[0].kind == Kind.DRAW
    )
    state = new_game(Options(players=2), seed)
    top, colour = state.top, state.colour
    apply(state, view(state, 1).legal[0])
    masks = hand_constraints(view(state, 0))[1]
    assert len(masks) == 8
    assert masks.count(0) == 1
    fitted = {card for card in range(54) if masks[0] >> card & 1}
    assert parse_card("W+4") in fitted
    assert parse_card("W") in fitted
    assert {card for card in range(52) if card // 13 == colour} <= fitted
    assert {card for card in range(52) if card % 13 == top % 13} <= fitted
    assert all(mask == masks[0] for mask in masks if mask)
    # and every sample deals seat 1 seven cards that did not fit, plus one card
    seat_view = view(state, 0)
    pool = unseen_cards(seat_view)
    rng = random.Random(1)
    for _ in range(50):
        sample = dealt_state(seat_view, deal_hidden(seat_view, [[], masks], pool, rng), 0)
        assert _fits(sample.hands[1], masks)
        assert sorted(sample.all_cards()) == sorted(full_deck())
        assert len(sample.draw_pile) == len(state.draw_pile)


def test_a_play_takes_out_the_oldest_card_that_could_have_been_it() -> None:
    old, newer = 0b1100, 0b0100
    masks = [old, old, newer, 0]
    _take_out(masks, 1)  # allowed by every mask: the most constrained goes
    assert sorted(masks) == [0, newer, old]
    _take_out(masks, 3)  # excluded by the old mask: the newer one goes
    assert sorted(masks) == [0, old]


def test_no_inference_from_a_history_that_cannot_be_replayed() -> None:
    """A game loaded from a position has no history from the deal: nothing is inferred."""
    state = from_position(
        {
            "players": 2,
            "turn": 1,
            "hands": [["B7", "G5", "R3"], ["R1", "R2", "R3"]],
            "draw_pile": ["G9", "Y1", "Y2"],
            "discard": ["B5"],
        }
    )
    apply(state, view(state, 1).legal[0])  # seat 1 draws
    assert hand_constraints(view(state, 0)) == [[0, 0, 0], [0, 0, 0, 0]]


def test_the_greedy_prior_holds_without_confidence_in_another_action() -> None:
    greedy = ClassicGreedyBot()
    for state in _states(2, 21)[::4]:
        seat_view = view(state, state.turn)
        if state.phase != Phase.PLAY:
            continue
        bot = ClassicSageBot(confidence=float("inf"))
        expected = greedy.choose(seat_view, random.Random(0), Budget())
        assert bot.choose(seat_view, random.Random(3), Budget(iterations=10)) == expected


def test_the_search_finds_the_way_out() -> None:
    """Playing the Skip lets the seat play again and go out (two players: the same player
    moves again): a sure win; the other order hands the turn to an opponent with one card."""
    state = from_position(
        {
            "players": 2,
            "turn": 0,
            "hands": [["BS", "B3"], ["G1"]],
            "draw_pile": ["R9", "R8", "R7", "R6"],
            "discard": ["B5"],
        }
    )
    seat_view: SeatView = view(state, 0)
    assert [str(a) for a in seat_view.legal] == ["B3", "BS"]
    bot = ClassicSageBot(confidence=0.0)
    assert str(bot.choose(seat_view, random.Random(0), Budget(iterations=30))) == "BS"
    assert bot.means[1] == 1.0
    assert bot.means[0] < 1.0


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32)])
def test_the_opponent_model_never_rejects_the_hands_greedy_players_really_hold(
    players: int, seed: int
) -> None:
    """Among greedy players, the true hands always agree with the plays seen since each
    player's last draw, and the recent plays are recorded for the model to check."""
    state = new_game(Options(players=players), seed)
    greedy = ClassicGreedyBot()
    checked = 0
    while state.phase != Phase.OVER:
        seat_view = view(state, state.turn)
        known = infer(seat_view, stackers=True)
        # greedy always stacks when it can: the stacking inference is sound for it
        for other in range(players):
            if other != seat_view.seat:
                assert _fits(state.hands[other], known.masks[other])
        cards = [c for s, hand in enumerate(state.hands) if s != seat_view.seat for c in hand]
        assert greedy_consistent(greedy, seat_view, known.plays, cards + state.draw_pile)
        checked += sum(len(plays) for plays in known.plays)
        apply(state, greedy.choose(seat_view, random.Random(0), Budget()))
    assert checked > 10


def test_the_opponent_model_rejects_a_hand_greedy_would_not_have_played_from() -> None:
    """Seat 1 (greedy) has just played a Wild: it wished the colour it holds most, so a hand
    with more cards of another colour than of the wished one would have wished otherwise."""

    def after_a_wild(state: State) -> bool:
        last = state.history[-1] if state.history else None
        return (
            state.phase == Phase.PLAY
            and state.turn == 0
            and last is not None
            and last.card == parse_card("W")
            and len(state.hands[1]) >= 3
        )

    state = next(s for seed in range(100) for s in _states(2, seed, 80, 0.0) if after_a_wild(s))
    seat_view = view(state, 0)
    known = infer(seat_view)
    assert known.plays[1][-1].action == state.history[-1]
    wish = known.plays[1][-1].action.wish
    other = (wish + 1) % 4
    size = seat_view.hand_sizes[1]
    true_hand = state.hands[1]
    assert greedy_consistent(ClassicGreedyBot(), seat_view, known.plays, true_hand)
    # one card of the wished colour, the rest of another colour
    hand = [wish * 13 + 1] + [other * 13 + 2 + i % 8 for i in range(size - 1)]
    assert not greedy_consistent(ClassicGreedyBot(), seat_view, known.plays, hand)


def test_without_the_fast_core_the_bot_searches_on_the_python_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without numba (the optional ``fast`` extra) the bot plays on the Python path; asking
    for the compiled one then is an error."""
    from dos.bots.classic import sage

    monkeypatch.setattr(sage, "fast_installed", lambda: False)
    bot = ClassicSageBot()
    assert not bot.fast
    state = next(
        s for s in _states(2, 5) if s.phase == Phase.PLAY and len(view(s, s.turn).legal) > 1
    )
    seat_view = view(state, state.turn)
    assert bot.choose(seat_view, random.Random(0), Budget(iterations=5)) in seat_view.legal
    assert bot.iterations_done == 5
    with pytest.raises(ValueError, match="fast core"):
        ClassicSageBot(fast=True)
