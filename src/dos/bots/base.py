"""The one interface every bot implements, as bot writers import it (``docs/bots.md``).

It is defined beside the runner that calls it (``dos.play.bot``), below the bots, so that the
runner needs nothing of them; this module names the same objects for the bots and for your
own bot's file.

>>> from dos.play.bot import Budget as Defined
>>> Budget is Defined
True
"""

from __future__ import annotations

from dos.play.bot import OUT_OF_TURN, Bot, BotError, Budget, turn_choices

__all__ = ["OUT_OF_TURN", "Bot", "BotError", "Budget", "turn_choices"]
