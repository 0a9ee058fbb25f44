"""A hint's search as a job (``dos.server.hosting.jobs``): what a worker process runs for a
seat that asked for a hint at the table (``dos.server.tables.hints``).

The action the ``expert`` level's bot (``sage``) picks for the seat's view, with the level's
iterations and no clock, seeded one way from the game's seed, its version and the seat: the
same request gives the same hint, and nothing the search is handed leads back to the deal.
The payload carries the seat's view as JSON (``SeatView.to_json``), read back by the rule
set's own reader (``dos.rules.official.views.view_from_json``). This module imports only what
the search needs, not the server: the job workers' fork server loads it
(``dos.server.hosting.job_pool.PRELOAD``).

>>> hint_seed(42, 17, 1) == hint_seed(42, 17, 1) != hint_seed(42, 18, 1)
True
>>> "42" in hint_seed(42, 17, 1).split(":")
False
"""

from __future__ import annotations

import random
from typing import Any, Final

from dos import seeds
from dos.bots.registry import LEVELS, make_player
from dos.i18n.advice import reason
from dos.play.bot import Budget
from dos.rules.official import Action, Kind, SeatView
from dos.rules.official.cards import NAMES
from dos.rules.official.views import view_from_json

LEVEL: Final = "expert"
"""The level whose bot gives the hints."""
HINT_ITERATIONS: Final = LEVELS[LEVEL][3].iterations or 800
"""The ``expert`` level's search iterations: a hint's budget (no clock: see the module)."""


def hint_seed(game_seed: int, version: int, seat: int) -> str:
    """The seed of the hint for ``seat`` at ``version`` of the game dealt with ``game_seed``:
    derived one way, so neither the job's payload nor the bot's generator leads back to the
    game's seed."""
    return f"dos-hint:{seeds.derive(game_seed, 'hint', version, seat):032x}"


def choose_hint(seen: SeatView, seed: str, iterations: int = HINT_ITERATIONS) -> Action:
    """The action the ``expert`` level's bot (``sage``) picks for ``seen``: its search with
    ``iterations`` iterations and no clock, its generator seeded with ``seed``."""
    player = make_player(LEVEL)
    action: Action = player.bot.choose(seen, random.Random(seed), Budget(iterations=iterations))
    return action


def hint_json(seen: SeatView, action: Action) -> dict[str, Any]:
    """The hint as the ``hint`` message's fields (without ``version``)."""
    return {
        "action": str(action),
        "move": action.kind.name.lower(),
        "cards": [NAMES[c] for c in action.cards],
        "target": action.target if action.kind == Kind.MATCH else None,
        "reason": reason(seen, action).json(),
    }


def hint_job(payload: dict[str, Any]) -> dict[str, Any]:
    """The ``hint`` job (``dos.server.hosting.jobs``): ``{"view", "seed", "iterations"}`` -> the
    hint's fields (``hint_json``). Reads nothing but the view it is given."""
    seen = view_from_json(payload["view"])
    return hint_json(seen, choose_hint(seen, str(payload["seed"]), int(payload["iterations"])))
