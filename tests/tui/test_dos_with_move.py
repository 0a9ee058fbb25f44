"""Calling "DOS!" with the move (key ``w``): the call is applied with the move that leaves two
cards, before any bot's catch is scheduled, so even a bot that catches at once never catches
a person who called with the move; one who forgets is still caught."""

from __future__ import annotations

import pytest

from dos.i18n import text
from dos.rules.official import Action, Kind
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, GameController
from dos.tui.screens.game import GameScreen

from .conftest import (
    bots,
    controller,
    shown,
    started,
    to_a_move_leaving_two,
)
from .test_app import app_for, play_with_keys

CALLED = 'You called "DOS!".'
CAUGHT = 'caught You, who had not called "DOS!"'


def instant_catcher(seed: int) -> tuple[GameController, ManualClock]:
    clock = ManualClock()
    return controller(seed=seed, clock=clock, bots=bots(1, 1.0, 1.0, reaction=0.01)), clock


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_call_with_the_move_is_never_caught(seed: int) -> None:
    game, clock = instant_catcher(seed)
    move = to_a_move_leaving_two(game, clock)
    assert game.submit(move, dos=True).ok
    assert game.log[-1] == CALLED
    assert HUMAN not in game.dos_open() and len(game.state.hands[HUMAN]) == 2
    clock.advance(3.0)
    game.tick()
    assert not any(CAUGHT in line for line in game.log)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_person_who_forgets_is_caught(seed: int) -> None:
    game, clock = instant_catcher(seed)
    move = to_a_move_leaving_two(game, clock)
    assert game.submit(move).ok
    assert HUMAN in game.dos_open()
    clock.advance(0.02)
    game.tick()
    assert any(CAUGHT in line for line in game.log)


def test_the_flag_on_a_move_leaving_more_cards_is_ignored() -> None:
    game, clock = instant_catcher(1)
    while not game.human_turn:
        clock.advance(0.1)
        game.tick()
    history = len(game.state.history)
    assert game.submit(Action(Kind.DRAW), dos=True).ok
    assert len(game.state.history) == history + 1


@pytest.mark.asyncio
async def test_the_w_key_calls_with_the_next_move() -> None:
    app, clock = app_for(seed=10)  # a deal whose early turns bring a move leaving two cards
    c = app.controller
    assert isinstance(c, GameController)
    move = to_a_move_leaving_two(c, clock)  # the turns before it, without the screen
    async with started(app) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("w")
        assert screen.dos_with_move
        assert text("en", "tui.dos_with_move_armed") in shown(app, "#alert")
        before = len(c.log)
        await play_with_keys(pilot, screen, move)
        assert c.log[before + 1] == CALLED, c.log[before:]  # with the move, before any bot
        assert HUMAN not in c.dos_open() and not screen.dos_with_move
        assert text("en", "tui.dos_with_move_armed") not in shown(app, "#alert")
