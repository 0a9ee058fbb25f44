"""Bots and difficulty levels by name: what ``dos tournament --bots`` and the clients accept.

A *bot* name gives the bot with diligent reflexes and a default budget; a *level* name
(``easy``, ``medium``, ``hard``) gives the bot, reflexes and budget that level stands for
(``docs/bots.md``).
"""

from __future__ import annotations

import importlib
from typing import Any

from dos.arena.game import Player
from dos.bots.base import Bot, Budget
from dos.bots.reflex import Reflex

BOTS: dict[str, str] = {
    "random": "dos.bots.random_bot:RandomBot",
    "greedy": "dos.bots.greedy:GreedyBot",
    "mcts": "dos.bots.mcts:MctsBot",
}
"""Bot name -> ``module:class``; the class takes keyword settings."""

LEVELS: dict[str, tuple[str, dict[str, Any], Reflex, Budget]] = {
    "easy": (
        "random",
        {},
        Reflex(call_reliability=0.6, catch_reliability=0.3, reaction=2.0),
        Budget(),
    ),
    "medium": (
        "greedy",
        {},
        Reflex(call_reliability=0.9, catch_reliability=0.6, reaction=1.2),
        Budget(),
    ),
    "hard": (
        "mcts",
        {"search": "flat"},
        Reflex(call_reliability=1.0, catch_reliability=0.9, reaction=0.8),
        Budget(iterations=400, seconds=1.0),
    ),
}
"""Level -> (bot name, bot settings, reflexes, budget)."""

DEFAULT_BUDGET = Budget(iterations=400, seconds=1.0)


def names() -> list[str]:
    """Every name ``make_player`` accepts."""
    return [*BOTS, *LEVELS]


def make_bot(name: str, **settings: Any) -> Bot:
    """A bot by name; raises ``ValueError`` listing the known names."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    module, _, cls = BOTS[name].partition(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(**settings)
    return bot


def make_player(name: str) -> Player:
    """A seat's player for a bot or a level name."""
    if name in LEVELS:
        bot, settings, reflex, budget = LEVELS[name]
        return Player(make_bot(bot, **settings), reflex, budget)
    if name in BOTS:
        return Player(make_bot(name), Reflex(), DEFAULT_BUDGET)
    raise ValueError(f"unknown bot or level {name!r} (known: {', '.join(names())})")
