"""What a bot's answer must be before its legality is judged: an action of its rule set.

The runners (``dos.play``) judge whether an action is legal; a bot that answers something that
is no action at all (a notation string, ``None``) is told so in those words, both in process
(``Checked``, which ``dos.bots.loading`` puts round every bot by path) and in the sandbox
(``dos.bots.sandbox``), so that "not a legal turn action" always means a real action that is
not legal here. The runners ask ``dos.play.bot.wrong_type`` too, for every bot.
"""

from __future__ import annotations

import random
from typing import Any

from dos.play.bot import BotError, Budget, wrong_type


class Checked:
    """A bot whose every answer is checked to be an action (``wrong_type``) before the runner
    judges it; anything else raises ``BotError`` naming the type returned, as does an
    exception the bot raises (naming it). ``name`` is the bot's."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name: str = bot.name

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        """The bot's answer, if it is an action; ``BotError`` otherwise."""
        try:
            answer = self.bot.choose(view, rng, budget)
        except BotError:
            raise
        except Exception as error:  # the bot's own failure: its game's forfeit, not a crash
            raise BotError(f"{self.name} raised {type(error).__name__}: {error}") from error
        problem = wrong_type(answer, view)
        if problem is not None:
            raise BotError(f"{self.name} {problem}")
        return answer
