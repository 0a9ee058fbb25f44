"""Helpers for the terminal client's tests: games on a manual clock with fast bots."""

from __future__ import annotations

from dos.arena.game import Player
from dos.bots.random_bot import RandomBot
from dos.bots.reflex import Reflex
from dos.rules.official import Action, Kind
from dos.tui.clock import ManualClock
from dos.tui.controller import GameController, Timing

FAST = Timing(bot_move=0.0)
"""Bots move as soon as time is looked at: a round needs no waiting."""


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
