"""The game controller: bots on a clock, the real-time DOS race, saving and resuming."""

from __future__ import annotations

import pytest

from dos import records
from dos.i18n import text
from dos.play.official import Player
from dos.rules.official import Kind, parse_action
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, EventKind, GameController, Timing

from .conftest import (
    FAST,
    NO_REFLEX,
    HeldExecutor,
    RecordingBot,
    bots,
    controller,
    first_turn_action,
    race_position,
)


def play_until(game: GameController, clock: ManualClock, done: object, limit: int = 400) -> None:
    """The person plays their first legal action each turn; time moves 0.1 s per step."""
    for _ in range(limit):
        if done():  # type: ignore[operator]
            return
        if game.summary is not None:
            game.resume()
        elif game.human_turn:
            assert game.submit(first_turn_action(game)).ok
        clock.advance(0.1)
        game.tick()
    raise AssertionError("the game did not get there")


def test_bots_wait_for_their_time_before_moving() -> None:
    clock = ManualClock()
    game = GameController(players=2, level="easy", seed=4, clock=clock, timing=Timing(1.0))
    if game.human_turn:
        game.submit(parse_action("draw"))
        game.submit(first_turn_action(game))
    assert game.state.turn == 1
    moves = len(game.state.history)
    clock.advance(0.5)
    game.tick()
    assert len(game.state.history) == moves
    clock.advance(0.6)
    game.tick()
    assert len(game.state.history) > moves


def test_a_whole_round_is_played_and_summarised() -> None:
    clock = ManualClock()
    game = controller(players=3, seed=2, clock=clock)
    play_until(game, clock, lambda: game.summary is not None)
    result = game.summary
    assert result is not None and result.round == 1
    assert any(
        line
        == text("en", "game.log_round_won", player=game.names[result.winner], points=result.points)
        for line in game.log
    )
    game.resume()
    assert game.summary is None and game.state.round == 2


def test_an_illegal_action_is_explained_and_changes_nothing() -> None:
    game = controller(seed=3)
    while not game.human_turn:
        game.clock.advance(1)  # type: ignore[attr-defined]
        game.tick()
    before = game.state.copy()
    outcome = game.submit(parse_action("lay B3"))
    assert not outcome.ok
    assert outcome.error in (
        text("en", "game.err_draw_first"),
        text("en", "game.err_not_in_hand", card="blue 3"),
    )
    assert game.state == before
    assert game.message == outcome.error


def test_notation_that_cannot_be_read_is_explained() -> None:
    game = controller(seed=3, lang="fr")
    outcome = game.submit_text("R11@0")
    assert outcome.error is not None and outcome.error.startswith("Impossible de lire « R11@0 »")


def test_acting_out_of_turn_is_refused() -> None:
    clock = ManualClock()
    game = GameController(players=2, level="easy", seed=4, clock=clock, timing=Timing(5.0))
    play_until(game, clock, lambda: game.state.turn != HUMAN)
    assert game.submit(parse_action("draw")).error == text("en", "game.err_not_your_turn")


def test_a_bot_catches_the_person_who_forgets_after_its_reaction_delay() -> None:
    clock = ManualClock()
    game = controller(seed=1, clock=clock, bots=bots(1, call=1.0, catch=1.0, reaction=3.0))
    play_until(game, clock, lambda: HUMAN in game.dos_open() and game.human_turn)
    assert game.dos_open() == [HUMAN]  # a deal where the bot owes no call of its own
    owed = game.state.penalties[HUMAN]
    catch = next(e for e in game.pending() if e.kind == EventKind.CATCH)
    assert (catch.seat, catch.target) == (1, HUMAN)
    clock.advance(catch.due - clock.now() - 0.01)
    game.tick()
    assert HUMAN in game.dos_open()  # not yet: the bot has not reacted
    clock.advance(0.02)
    game.tick()
    assert game.log[-1] == 'Bot 1 caught You, who had not called "DOS!": two penalty cards.'
    assert HUMAN not in game.dos_open()
    assert game.state.penalties[HUMAN] == owed + 2  # added at the end of the person's turn


def test_the_person_who_calls_in_time_is_not_caught() -> None:
    clock = ManualClock()
    game = controller(seed=5, clock=clock, bots=bots(1, call=1.0, catch=1.0, reaction=3.0))
    play_until(game, clock, lambda: HUMAN in game.dos_open() and game.human_turn)
    clock.advance(1.0)
    game.tick()
    assert game.call_dos().ok
    assert game.log[-1] == 'You called "DOS!".'
    clock.advance(5.0)
    game.tick()
    assert not any("caught You" in line for line in game.log)


def test_the_person_catches_a_bot_that_forgot() -> None:
    clock = ManualClock()
    game = controller(seed=6, clock=clock, bots=bots(1, call=0.0, catch=0.0))
    play_until(game, clock, lambda: 1 in game.dos_open())
    assert game.catch().ok
    assert game.log[-1] == 'You caught Bot 1, who had not called "DOS!": two penalty cards.'
    assert 1 not in game.dos_open()


def test_a_bot_calls_before_the_person_can_catch_it() -> None:
    clock = ManualClock()
    game = controller(seed=6, clock=clock, bots=bots(1, call=1.0, catch=0.0, reaction=0.05))
    play_until(game, clock, lambda: any('Bot 1 called "DOS!"' in line for line in game.log))
    assert game.catch().error == text("en", "game.err_no_dos")


def test_catching_nobody_is_refused() -> None:
    game = controller(seed=3)
    assert game.catch().error == text("en", "game.err_no_dos")
    assert game.call_dos().error == text("en", "game.err_no_dos")


def test_a_saved_game_resumes_where_it_was() -> None:
    clock = ManualClock()
    game = controller(players=3, seed=8, clock=clock)
    play_until(game, clock, lambda: len(game.state.history) > 25 and game.human_turn)
    saved = game.record().dumps()
    resumed = GameController.from_record(records.loads(saved), level="easy", clock=clock)
    assert resumed.state == game.state
    # the game so far in words, one sentence an action, then the round going on
    assert len(resumed.log) == len(game.state.history) + 1
    assert resumed.log[0] == game.log[1]  # game.log[0] is "Round 1: … deals."
    assert resumed.log[-1].startswith(f"Round {game.state.round}: ")
    assert resumed.human_turn
    assert resumed.submit(first_turn_action(resumed)).ok


def test_the_same_seed_and_actions_give_the_same_game() -> None:
    def run() -> list[str]:
        clock = ManualClock()
        game = controller(players=3, seed=9, clock=clock)
        play_until(game, clock, lambda: game.summary is not None)
        return [str(a) for a in game.state.history]

    assert run() == run()


def test_only_two_to_four_players() -> None:
    with pytest.raises(ValueError):
        GameController(players=5)


def test_a_draw_shows_the_person_their_card() -> None:
    game = controller(seed=3)
    while not game.human_turn:
        game.clock.advance(1)  # type: ignore[attr-defined]
        game.tick()
    assert game.submit(parse_action("draw")).ok
    assert game.log[-1].startswith("You drew ") and game.log[-1] != "You drew a card."
    assert all(a.kind != Kind.DRAW for a in game.legal())


def test_a_held_game_waits_and_then_runs_as_much_later() -> None:
    clock = ManualClock()
    game = controller(seed=5, clock=clock, bots=bots(1, call=1.0, catch=1.0, reaction=3.0))
    play_until(game, clock, lambda: HUMAN in game.dos_open() and game.human_turn)
    catch = next(e for e in game.pending() if e.kind == EventKind.CATCH)
    game.hold()
    clock.advance(60.0)
    assert game.tick() == 0 and HUMAN in game.dos_open()
    game.release()
    clock.advance(catch.due + 60.0 - clock.now() - 0.01)
    game.tick()
    assert HUMAN in game.dos_open()
    clock.advance(0.02)
    game.tick()
    assert HUMAN not in game.dos_open()


def test_a_draw_from_empty_piles_is_told_as_such() -> None:
    clock = ManualClock()
    game = controller(seed=3, clock=clock)
    while not game.human_turn:
        clock.advance(1)
        game.tick()
    game.state.draw_pile.clear()  # a position with both piles empty (RULES.md §3, Decision)
    game.state.discard.clear()
    assert game.submit(parse_action("draw")).ok
    assert game.log[-1] == text("en", "game.log_draw_empty", player="You")


def test_a_bot_move_waits_for_its_decision_while_the_person_still_acts() -> None:
    thinker = HeldExecutor()
    clock = ManualClock()
    game = GameController(
        seed=3,
        clock=clock,
        timing=FAST,
        state=race_position(),
        bots=[Player(RecordingBot(), NO_REFLEX)],
        thinker=thinker,
    )
    assert len(thinker.queue) == 1  # bot 1 thinks as soon as it is to act
    clock.advance(5.0)
    assert game.tick() == 0  # the move is due, its decision is not: the tick does not wait
    assert game.state.turn == 1 and game.state.history == []
    assert game.call_dos().ok
    thinker.run_all()
    assert game.tick() == 1
    call, move = game.state.history
    assert (call.kind, call.seat) == (Kind.CALL, HUMAN)
    assert move.kind not in (Kind.CALL, Kind.CATCH) and move.seat is None  # bot 1's turn


def test_a_bot_decision_made_before_a_dos_call_is_dropped_and_thought_again() -> None:
    thinker = HeldExecutor()
    bot = RecordingBot()
    game = GameController(
        seed=3,
        clock=ManualClock(),
        timing=FAST,
        state=race_position(),
        bots=[Player(bot, NO_REFLEX)],
        thinker=thinker,
    )
    stale = game.decision
    thinker.run_next()  # decided on the state before the call
    assert stale is not None and stale.done()
    assert game.call_dos().ok  # the state moves on: that decision is stale
    assert game.decision is not stale
    assert game.tick() == 0  # the stale decision is not applied
    assert [a.kind for a in game.state.history] == [Kind.CALL]
    thinker.run_all()
    assert game.tick() == 1
    first, second = bot.views[:2]
    assert Kind.CALL not in [a.kind for a in first.history]
    assert second.history[-1].kind == Kind.CALL
    for _ in range(50):  # the rest of bot 1's turn
        if game.human_turn:
            break
        thinker.run_all()
        game.tick()
    # the dropped decision had a copy of the bot's generator: this is the game in which the
    # bot decided only after the call
    inline = GameController(
        seed=3,
        clock=ManualClock(),
        timing=FAST,
        state=race_position(),
        bots=[Player(RecordingBot(), NO_REFLEX)],
    )
    assert inline.call_dos().ok
    inline.tick()
    assert game.human_turn and inline.human_turn
    assert game.state == inline.state
    assert game.rngs[1].getstate() == inline.rngs[1].getstate()
