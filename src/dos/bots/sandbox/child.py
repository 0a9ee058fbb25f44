"""The sandboxed bot's process: ``python -m dos.bots.sandbox.child``.

It speaks JSON lines on its standard input and a private copy of its standard output; the
bot's own prints go to standard error (its file descriptor 1 is pointed there), and its
standard input is empty, so nothing the bot does can corrupt the conversation.

The game's process sends, in order:

1. ``{"load": "FILE.py:CLASS", "rules": "official"}``: the child loads and checks the bot
   (``dos.bots.loading.load_for``) and makes one, and answers ``{"ready": {"reflex": ...,
   "budget": ...}}`` (the class's optional attributes, ``null`` where it has none) or
   ``{"refused": "why"}``, and then ends.
2. ``{"game": N, "view": VIEW, "rng": STATE, "budget": [ITERATIONS, SECONDS]}`` for each
   decision of the seat numbered ``N`` (one seat of one game): ``VIEW`` is the seat's view as
   ``SeatView.to_json()`` writes it; ``STATE`` and the budget come with the seat's first
   decision only: the state of the seat's generator (``random.Random.getstate()``), for a
   fresh bot made for that seat. The child answers ``{"action": "NOTATION"}``,
   ``{"raised": "Error: ..."}`` or ``{"wrong": "returned a str, expected an Action"}``.

The child ends when its standard input closes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import sys
from collections.abc import Iterator
from typing import IO, Any

from dos import ruleset
from dos.bots.base import Budget
from dos.bots.loading import FileBot, load_for
from dos.errors import DosError
from dos.play.bot import wrong_type

Message = dict[str, Any]

KEPT = 16
"""Games whose bots a child keeps: more than the seats of one table, so that every seat of a
game in play keeps its own bot and generator."""


def _channel() -> tuple[IO[str], IO[str]]:
    """The conversation's input and output, taken from file descriptors 0 and 1, which are
    then given to the bot as an empty input and standard error."""
    reading = os.fdopen(os.dup(0), "r", encoding="utf-8")
    writing = os.fdopen(os.dup(1), "w", encoding="utf-8")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (the bot's, for its life)
    sys.stdout = sys.stderr
    return reading, writing


def _messages(reading: IO[str]) -> Iterator[Message]:
    for line in reading:
        if line.strip():
            message: Message = json.loads(line)
            yield message


def _reply(writing: IO[str], message: Message) -> None:
    writing.write(json.dumps(message) + "\n")
    writing.flush()


def _error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _ready(own: FileBot) -> Message:
    reflex = None if "reflex" not in vars(own.cls) else dataclasses.asdict(own.reflex)
    budget = None if own.budget is None else [own.budget.iterations, own.budget.seconds]
    return {"ready": {"reflex": reflex, "budget": budget}}


def _rng(state: list[Any]) -> random.Random:
    version, internal, gauss = state
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def answer(bot: Any, rules: str, message: Message, rng: random.Random, budget: Any) -> Message:
    """The reply to one view: the bot's action in notation, the exception it raised, or what
    it returned instead of an action."""
    entry = ruleset.entry(rules)
    assert entry.seat_view is not None
    view = entry.seat_view(message["view"])
    try:
        chosen = bot.choose(view, rng, budget)
    except Exception as error:
        return {"raised": _error(error)}
    problem = wrong_type(chosen, view)
    if problem is not None:
        return {"wrong": problem}
    return {"action": str(chosen)}


def serve(reading: IO[str], writing: IO[str]) -> None:
    """Loads the bot the first message names, then answers every view until the input ends."""
    messages = _messages(reading)
    first = next(messages, None)
    if first is None:
        return
    name, rules = first["load"], first["rules"]
    try:
        own = load_for(name, rules)
        own.instance(name)
    except DosError as error:
        _reply(writing, {"refused": str(error)})
        return
    except Exception as error:
        _reply(writing, {"refused": f"{name!r} cannot be loaded: {_error(error)}"})
        return
    _reply(writing, _ready(own))
    games: dict[int, tuple[Any, random.Random, Budget]] = {}
    for message in messages:
        number = message["game"]
        if message.get("rng") is not None:
            try:
                bot = own.instance(name)
            except DosError as error:
                _reply(writing, {"raised": str(error)})
                continue
            games[number] = (bot, _rng(message["rng"]), Budget(*message["budget"]))
            while len(games) > KEPT:  # the oldest game's seats are done
                del games[min(games)]
        bot, rng, budget = games[number]
        _reply(writing, answer(bot, rules, message, rng, budget))


def main() -> None:
    """The child's entry point."""
    reading, writing = _channel()
    serve(reading, writing)


if __name__ == "__main__":
    main()
