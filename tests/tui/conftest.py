"""Helpers for the terminal client's tests: games on a manual clock with fast bots."""

from __future__ import annotations

import random
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from dos.bots.base import Budget
from dos.bots.random_bot import RandomBot
from dos.bots.reflex import Reflex
from dos.i18n import text
from dos.play.official import Player
from dos.rules.official import Action, Kind, Options, SeatView, State, new_game
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, GameController, Timing

FAST = Timing(bot_move=0.0)
"""Bots move as soon as time is looked at: a round needs no waiting."""

SIZE = (140, 48)
"""The terminal the app tests run in."""


@asynccontextmanager
async def started(app: App[Any], size: tuple[int, int] = SIZE) -> AsyncIterator[Pilot[Any]]:
    """``app`` run headless in a terminal of ``size``, once its first screen is drawn."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield pilot


def shown(app: App[Any], selector: str) -> str:
    """The text of the ``Static`` at ``selector`` on the screen on top."""
    return str(app.screen.query_one(selector, Static).content)


async def screenshot_and_help(
    pilot: Pilot[Any],
    app: App[Any],
    path: Path,
    lang: str,
    *,
    table: type[Screen[Any]],
    help_screen: type[Screen[Any]],
    prefix: str,
) -> None:
    """The table saves a screenshot (``{lang}.svg`` in ``path``), and ``?`` opens its help
    (``help_screen``, titled ``{prefix}.help_title``) and Escape closes it again."""
    app.save_screenshot(path=str(path), filename=f"{lang}.svg")
    assert (path / f"{lang}.svg").stat().st_size > 0
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, help_screen)
    assert shown(app, ".title") == text(lang, f"{prefix}.help_title")
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, table)


def bots(count: int, call: float, catch: float, reaction: float = 1.0) -> list[Player]:
    """Random bots with fixed reflexes (no spread, so a reaction takes exactly ``reaction``)."""
    reflex = Reflex(call_reliability=call, catch_reliability=catch, reaction=reaction, spread=0.0)
    return [Player(RandomBot(), reflex) for _ in range(count)]


def controller(
    players: int = 2, seed: int = 1, clock: ManualClock | None = None, **kwargs: object
) -> GameController:
    """A game on a manual clock, fast easy bots unless ``bots=`` says otherwise."""
    return GameController(
        players=players,
        level="easy",
        seed=seed,
        clock=clock or ManualClock(),
        timing=FAST,
        **kwargs,  # type: ignore[arg-type]
    )


def first_turn_action(game: GameController) -> Action:
    """The person's first legal action that is not a call or a catch."""
    return next(a for a in game.legal() if a.kind not in (Kind.CALL, Kind.CATCH))


def leaving_two(game: GameController) -> Action | None:
    """A legal turn action of the person that leaves two cards in hand."""
    size = len(game.state.hands[HUMAN])
    for action in game.legal():
        if action.kind in (Kind.MATCH, Kind.LAY, Kind.PLACE) and size - len(action.cards) == 2:
            return action
    return None


def played_until(
    game: GameController,
    clock: ManualClock,
    done: Callable[[GameController], bool] | None = None,
    *,
    steps: int | None = None,
) -> list[int]:
    """Plays on the controller alone, without a screen, until ``done(game)``: the person makes
    their first legal move and calls "DOS!" when due, a round's summary is closed, and time
    moves on. For the part of a game that only leads to what a test looks at. Without
    ``done``, exactly ``steps`` steps are played. Returns the steps at which the person
    moved."""
    moved: list[int] = []
    for number in range(3000 if steps is None else steps):
        if done is not None and done(game):
            return moved
        if game.summary is not None:
            game.resume()
        elif HUMAN in game.dos_open():
            game.call_dos()
        elif game.human_turn:
            assert game.submit(first_turn_action(game)).ok, game.message
            moved.append(number)
        clock.advance(0.1)
        game.tick()
    if done is not None:
        raise AssertionError("the moment waited for did not come")
    return moved


def to_a_move_leaving_two(game: GameController, clock: ManualClock) -> Action:
    """Plays (``played_until``) until the person can make a move leaving two cards."""
    played_until(
        game,
        clock,
        lambda g: (
            g.summary is None
            and HUMAN not in g.dos_open()
            and g.human_turn
            and leaving_two(g) is not None
        ),
    )
    move = leaving_two(game)
    assert move is not None
    return move


def near_the_round_end(
    make: Callable[[], tuple[GameController, ManualClock]], moves_left: int = 2
) -> tuple[GameController, ManualClock]:
    """A game from ``make`` (which makes the same game each time: seeds and a manual clock),
    played without a screen (``played_until``) up to the person's ``moves_left``-th last move
    of its first round: a twin game is played to the round's end first to find it."""
    twin, twin_clock = make()
    moved = played_until(twin, twin_clock, lambda g: g.summary is not None)
    assert len(moved) >= moves_left, moved
    game, clock = make()
    played_until(game, clock, steps=moved[-moves_left])
    return game, clock


def race_position(seed: int = 3) -> State:
    """Bot 1 to act while the person holds two cards and has not called "DOS!" (RULES.md §6);
    the person's other cards go to the bottom of the draw pile."""
    state = new_game(Options(players=2), seed)
    state.turn, state.dealer = 1, 0
    state.draw_pile[:0] = state.hands[HUMAN][2:]
    del state.hands[HUMAN][2:]
    state.dos_open = 1 << HUMAN
    return state


NO_REFLEX = Reflex(call_reliability=0.0, catch_reliability=0.0, spread=0.0)
"""A bot that never calls or catches: only its moves matter."""


class RecordingBot:
    """A random bot that keeps every view it was asked about; with a ``gate``, it says it
    started (``thinking``) and then waits for the gate before deciding (at most 5 s)."""

    name = "recording"

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.views: list[SeatView] = []
        self.gate = gate
        self.thinking = threading.Event()

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        self.thinking.set()
        if self.gate is not None:
            self.gate.wait(timeout=5.0)
        self.views.append(view)
        return RandomBot().choose(view, rng, budget)


class HeldExecutor(Executor):
    """Runs what it is given only when told, on the test's thread: a bot's decision under
    way, without a thread."""

    def __init__(self) -> None:
        self.queue: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.queue.append((future, partial(fn, *args, **kwargs)))
        return future

    def run_next(self) -> None:
        """Runs the oldest task (unless it was cancelled)."""
        future, task = self.queue.pop(0)
        if future.set_running_or_notify_cancel():
            future.set_result(task())

    def run_all(self) -> None:
        """Runs every task given so far."""
        while self.queue:
            self.run_next()
