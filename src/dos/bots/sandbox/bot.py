"""A seat played by a bot in its own process: ``SandboxedBot``, with the sandbox's settings
(``Sandbox``) and the children it keeps, one per bot by path and rule set in each process.

For each decision the game's process sends the seat's view (``SeatView.to_json()``) and waits
for the action, at most ``Sandbox.limit(budget)`` seconds. Whatever goes wrong forfeits the
game: ``ForfeitError`` (a ``BotError``) names the bot and what it did (raised an exception, ended,
answered late, answered something that is no action, or a notation that does not parse). A
child that answered late or ended is stopped, and the next game starts a new one.

>>> Sandbox().limit(Budget(seconds=1.0)), Sandbox(move_seconds=2.0).limit(Budget())
(3.0, 2.0)
"""

from __future__ import annotations

import atexit
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dos import ruleset
from dos.bots.loading import BotFileError
from dos.bots.reflex import Reflex
from dos.bots.sandbox.process import COMMAND, ChildProcess, Ended, Late, Message
from dos.errors import DosError
from dos.play.bot import BotError, Budget


class ForfeitError(BotError):
    """A sandboxed bot forfeits the game: the message names the bot and what it did."""


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How sandboxed bots are run: each move may take the bot's own budget's seconds plus
    ``grace``, and never more than ``move_seconds`` (``limit``), as ``clock`` counts; loading a
    bot may take ``startup_seconds``."""

    move_seconds: float = 10.0
    grace: float = 2.0
    startup_seconds: float = 60.0
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)
    command: tuple[str, ...] = field(default=COMMAND, compare=False, repr=False)
    """The child's command line (``dos.bots.sandbox.child`` run by this interpreter)."""

    def limit(self, budget: Budget) -> float:
        """Seconds one move may take with ``budget``."""
        if budget.seconds is None:
            return self.move_seconds
        return min(self.move_seconds, budget.seconds + self.grace)


SANDBOX = Sandbox()
"""The default sandbox: 10 s a move at most, the bot's budget plus 2 s if less."""


@dataclass(slots=True)
class Child:
    """A running child with the bot it loaded: the class's own ``reflex`` and ``budget``
    (``None`` where the class has none)."""

    process: ChildProcess
    reflex: Reflex | None
    budget: Budget | None


_children: dict[tuple[str, str], Child] = {}
"""The children of this process, by bot name and rule set."""

_games = itertools.count()
"""Numbers the games a child plays, so that one child keeps each seat's bot apart."""


def _start(name: str, rules: str, sandbox: Sandbox) -> Child:
    process = ChildProcess(sandbox.command)
    if not process.send({"load": name, "rules": rules}):
        process.stop()
        raise BotFileError(f"{name}: the bot's process did not start")
    reply = process.reply(sandbox.startup_seconds, sandbox.clock)
    if isinstance(reply, Late):
        process.stop()
        raise BotFileError(f"{name}: not loaded within {sandbox.startup_seconds:g} s")
    if isinstance(reply, Ended) or "ready" not in reply:
        process.stop()
        if isinstance(reply, dict) and "refused" in reply:
            raise BotFileError(str(reply["refused"]))
        status = reply.status if isinstance(reply, Ended) else None
        raise BotFileError(f"{name}: the bot's process ended while loading (exit status {status})")
    ready = reply["ready"]
    reflex = None if ready["reflex"] is None else Reflex(**ready["reflex"])
    budget = None if ready["budget"] is None else Budget(*ready["budget"])
    return Child(process, reflex, budget)


def child(name: str, rules: str, sandbox: Sandbox) -> Child:
    """The child playing the bot ``name`` at tables of ``rules`` in this process, started and
    loaded if need be; ``BotFileError`` if the bot cannot be loaded (the same refusals as in
    process, ``dos.bots.loading``), found in the child."""
    key = (name, rules)
    found = _children.get(key)
    if found is None or found.process.process.poll() is not None:
        if found is not None:
            found.process.stop()
        found = _children[key] = _start(name, rules, sandbox)
    return found


def stop(name: str, rules: str) -> None:
    """Stops the child of ``name`` at ``rules`` tables, if there is one."""
    found = _children.pop((name, rules), None)
    if found is not None:
        found.process.stop()


def stop_all() -> None:
    """Stops every child of this process."""
    for name, rules in list(_children):
        stop(name, rules)


atexit.register(stop_all)


class SandboxedBot:
    """A seat's bot played by the child of ``name`` (``child``), for one game: its first
    decision starts the game in the child (a fresh bot, the seat's generator and budget)."""

    def __init__(self, name: str, rules: str, sandbox: Sandbox) -> None:
        self.name = name
        self.rules = rules
        self.sandbox = sandbox
        self.game: int | None = None

    def choose(self, view: Any, rng: random.Random, budget: Budget) -> Any:
        """The child's action for ``view``; ``ForfeitError`` for anything else."""
        player = child(self.name, self.rules, self.sandbox)
        message: Message = {"view": view.to_json()}
        if self.game is None:
            self.game = next(_games)
            version, internal, gauss = rng.getstate()
            message["rng"] = [version, list(internal), gauss]
            message["budget"] = [budget.iterations, budget.seconds]
        message["game"] = self.game
        limit = self.sandbox.limit(budget)
        sent = player.process.send(message)
        reply = player.process.reply(limit, self.sandbox.clock) if sent else Ended(None)
        if isinstance(reply, (Late, Ended)):
            stop(self.name, self.rules)
            if isinstance(reply, Late):
                raise ForfeitError(f"{self.name} took over {limit:g} s for one move (its limit)")
            raise ForfeitError(
                f"{self.name} crashed: its process ended (exit status {reply.status})"
            )
        return self._action(reply)

    def _action(self, reply: Message) -> Any:
        if "raised" in reply:
            raise ForfeitError(f"{self.name} raised {reply['raised']}")
        if "wrong" in reply:
            raise ForfeitError(f"{self.name} {reply['wrong']}")
        text = reply.get("action")
        if not isinstance(text, str):
            stop(self.name, self.rules)
            raise ForfeitError(f"{self.name} sent {reply!r}, not an action")
        try:
            return ruleset.get(self.rules).parse_action(text)
        except DosError as error:
            raise ForfeitError(f"{self.name} answered {text!r}, not an action: {error}") from None
