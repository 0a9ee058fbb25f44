"""A bot's decision as a job (``dos.server.hosting.jobs``): what a worker process, local or fed by
Redis (``dos bot-worker``), runs for a bot seat.

The payload is JSON and holds only what the seat may know: its view (``SeatView.to_json``, no
other hand, no draw pile), the rule set, the level, the share of the level's budget to think
with (``dos serve --bot-effort``) and a seed drawn from the game's seed, the seat and the
table's version (``bot_seed``). The result is the action in notation. So a decision is a
function of its payload alone: the same payload gives the same action, on any worker, and a
job run twice (its worker died, it was taken over) gives the same answer twice. For that the
search counts its level's iterations only, without the level's wall-clock cap
(``Budget.seconds``), as hints do: a cap on time would make the answer depend on how busy the
worker is. The iterations end a search well within the cap on a machine with room (``hard``
in milliseconds, ``expert`` in about 0.2 s); a small machine spares itself with
``--bot-effort``, which scales the iterations.

>>> from dos.rules.official import new_game, view
>>> payload = bot_payload("official", "medium", view(new_game(seed=4), 1), 1.0, bot_seed(4, 1, 0))
>>> bot_job(payload) == bot_job(payload)
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any, Final

from dos import ruleset, seeds
from dos.bots.registry import make_player
from dos.play.bot import Budget

JOB: Final = "bot"
"""The job's name in ``dos.server.hosting.jobs.JOBS``."""


def bot_seed(game_seed: int, seat: int, version: int) -> str:
    """The seed of the decision of ``seat`` at ``version`` of the game dealt with
    ``game_seed``: derived one way (``dos.seeds``), so neither the payload nor the bot's
    generator leads back to the game's seed.

    >>> bot_seed(42, 1, 17) == bot_seed(42, 1, 17) != bot_seed(42, 1, 18)
    True
    >>> "42" in bot_seed(42, 1, 17).split(":")
    False
    """
    return f"dos-bot:{seeds.derive(game_seed, 'seat', seat, 'version', version):032x}"


def bot_payload(rules: str, level: str, seen: Any, effort: float, seed: str) -> dict[str, Any]:
    """The job's payload: the bot of ``level`` decides for the view ``seen`` (a ``SeatView``
    of the rule set ``rules``) with ``effort`` of its level's budget, its generator seeded
    with ``seed``."""
    return {"rules": rules, "level": level, "view": seen.to_json(), "effort": effort, "seed": seed}


def _view_reader(rules: str) -> Callable[[dict[str, Any]], Any]:
    """How a view of the rule set ``rules`` is read back from its JSON (its registry entry's
    ``seat_view``)."""
    entry = ruleset.find(rules)
    if entry is None or entry.seat_view is None:
        raise ValueError(f"no bot job for the {rules!r} rules")
    return entry.seat_view


@functools.lru_cache(maxsize=32)
def _player(rules: str, level: str) -> Any:
    """The player of ``level`` (kept: a bot holds no memory between decisions)."""
    kit = ruleset.entry(rules).bots
    if kit is None or level not in kit().levels():
        # Levels only: a job never loads a bot file or a policy named in its payload.
        raise ValueError(f"{level!r} is not a bot level of the {rules} rules")
    return make_player(level, rules)


def decide(
    rules: str, level: str, seen: Any, *, effort: float, seed: str, player: Any = None
) -> Any:
    """The action the bot of ``level`` picks for ``seen`` (the job's decision, in this
    process; ``player`` replaces the level's own, as the server's cheap bots are kept)."""
    if not 0 < effort <= 1:
        raise ValueError(f"effort: more than 0 and at most 1, not {effort}")
    chosen = player if player is not None else _player(rules, level)
    budget: Budget = chosen.budget.scaled(effort)
    if budget.iterations is not None:
        budget = Budget(iterations=budget.iterations)  # no clock: see the module
    return chosen.bot.choose(seen, random.Random(seed), budget)


def bot_job(payload: dict[str, Any]) -> str:
    """The ``bot`` job: ``{"rules", "level", "view", "effort", "seed"}`` -> the action in
    notation. Reads nothing but its payload."""
    rules, level = str(payload["rules"]), str(payload["level"])
    seen = _view_reader(rules)(payload["view"])
    effort, seed = float(payload["effort"]), str(payload["seed"])
    return str(decide(rules, level, seen, effort=effort, seed=seed))
