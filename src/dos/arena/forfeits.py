"""Forfeits: a game of a sandboxed tournament that a bot lost by what it did, not by play.

In a sandboxed game (``dos.bots.sandbox``) every seat's bot is watched (``Watched``): the seat
deciding, and the view it decides from, are noted before each decision. Any ``BotError`` out
of the game (a sandboxed bot's ``ForfeitError``: an exception, a crash, a move over its time limit,
an answer that is no action; or the runner's refusal of an action that is not legal) is then
charged to that seat: ``Forfeit`` records who, why and where (the game's actions before that
decision, in notation, and the position they lead to, as ``dos legal`` reads it).

A forfeited game ends there, and the forfeiting seat comes last; the other seats are placed by
the game so far (the official rules: points, more first; the classic rules: the places already
taken), ties and the unplaced in turn order from the seat after the forfeiting one. Its scores
are places, as a classic game's are: seats minus one for first, down to 0 for the forfeiting
seat.

>>> standing({"scores": [10, 40, 40, 0]}, 4, forfeiting=1)
[2, 0, 3, 1]
>>> standing({"ranking": [3]}, 3, forfeiting=0)
[3, 1, 2, 0]
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from dos import ruleset
from dos.bots.base import Budget


@dataclass(slots=True)
class Deciding:
    """The seat deciding now in one game, and its view (``None`` before the first decision)."""

    seat: int | None = None
    view: Any = None


class Watched:
    """A seat's bot that notes, in the game's ``Deciding``, that its seat decides from
    ``view`` before it is asked."""

    def __init__(self, bot: Any, seat: int, deciding: Deciding) -> None:
        self.bot = bot
        self.seat = seat
        self.deciding = deciding
        self.name: str = bot.name

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        """The bot's answer, the seat and view noted first."""
        self.deciding.seat = self.seat
        self.deciding.view = view
        return self.bot.choose(view, rng, budget)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A forfeit: the seat, its bot, what it did, and where."""

    seat: int
    bot: str
    reason: str
    """The refusal, naming the bot (``"bots/mine.py:Mine raised ValueError: ..."``)."""
    actions: tuple[str, ...]
    """The game's actions before the forfeited decision, in notation."""
    position: dict[str, Any]
    """The position of the forfeited decision (``docs/positions.md``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "reason": self.reason,
            "decision": len(self.actions) + 1,
            "actions": list(self.actions),
            "position": self.position,
        }


def standing(result: dict[str, Any], players: int, forfeiting: int) -> list[int]:
    """The seats, first place first, of a game ``forfeiting`` forfeited with ``result`` so far
    (the rule set's ``result``: ``scores`` or ``ranking``)."""
    after = [(forfeiting + step) % players for step in range(1, players)]
    scores = result.get("scores")
    if scores is not None:
        return [*sorted(after, key=lambda seat: -scores[seat]), forfeiting]
    placed = [seat for seat in result.get("ranking", []) if seat != forfeiting]
    return [*placed, *(seat for seat in after if seat not in placed), forfeiting]


def forfeit(
    rules: str, options: dict[str, Any], seed: int, *, bot: str, seat: int, view: Any, reason: str
) -> tuple[Forfeit, dict[str, Any]]:
    """The forfeit of ``seat`` deciding from ``view`` in the game of ``seed`` and the game's
    result so far (the rule set's ``result``), both from its actions replayed."""
    engine = ruleset.get(rules)
    actions = tuple(str(action) for action in view.history)
    state = engine.new_game(options, seed)
    for text in actions:
        engine.apply(state, engine.parse_action(text))
    record = Forfeit(seat, bot, reason, actions, engine.to_position(state))
    return record, engine.result(state)
