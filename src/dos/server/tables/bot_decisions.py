"""How the server gets a bot's decision from its job runner (``dos.server.hosting.jobs``), so that a
runner that is busy, failing or away never stalls a table.

A decision is a ``bot`` job (``dos.server.tables.bot_job``) whose payload is the seat's view. The
searching levels always go to the runner (worker processes of this machine, or ``dos
bot-worker`` processes through Redis); the cheap ones (``easy``, ``medium``: microseconds)
run the same job function on the event loop, with the same seed, so they play exactly what a
worker would, at no round trip's cost, and a server with no worker running still has them.

A ``BusyError`` or ``JobError`` is tried again after a growing wait (``RETRY_SECONDS``); after
the last, or at once when the runner has no worker at all (``NoWorkersError``: no ``dos
bot-worker`` running), the lowest level decides on the event loop (logged, and counted in
``dos_bot_fallbacks_total``), so the table goes on. The caller drops an answer that comes
after its table moved on (``dos_bot_stale_answers_total``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

from dos.errors import DosError
from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.hosting.jobs import BusyError, JobError, Jobs, LocalJobs, NoWorkersError
from dos.server.metrics import Metrics
from dos.server.tables.bot_job import JOB, bot_payload, decide

log = logging.getLogger(__name__)

RETRY_SECONDS: Final = (0.05, 0.2, 0.5, 1.0, 2.0)
"""Waits before each new attempt after a busy or failed job; after the last, the fallback."""


class BotDecisions:
    """The decisions of one table's bots, through ``jobs``."""

    def __init__(
        self,
        jobs: Jobs,
        rules: str,
        metrics: Metrics | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.jobs = jobs
        self.clock = clock
        self.rules = rules
        self.metrics = metrics
        self._preparing: set[asyncio.Task[None]] = set()

    def prepare(self) -> None:
        """Starts this machine's bot workers now, if not yet (a game with searching bots
        begins: its first decision need not wait for them to start)."""
        if not isinstance(self.jobs, LocalJobs):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self.jobs.prepare(JOB))
        self._preparing.add(task)
        task.add_done_callback(self._prepared)

    def _prepared(self, task: asyncio.Task[None]) -> None:
        self._preparing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("the bot workers did not start: %s", task.exception())

    async def decide(
        self,
        level: str,
        seen: Any,
        effort: float,
        seed: str,
        *,
        searching: bool,
        lowest: tuple[str, Any],
        parse: Callable[[str], Any],
        current: Callable[[], bool],
    ) -> Any:
        """The action of the bot of ``level`` for the view ``seen``.

        ``searching``: whether the level searches; ``lowest``: the lowest level and its
        player (the fallback); ``parse``: the rule set's ``parse_action``; ``current()``:
        whether the decision is still wanted (else ``None`` is returned at the next retry)."""
        if not searching:  # microseconds: the job's function, here
            return decide(self.rules, level, seen, effort=effort, seed=seed)
        payload = bot_payload(self.rules, level, seen, effort, seed)
        name, player = lowest
        for attempt, wait in enumerate(RETRY_SECONDS, start=1):
            try:
                return parse(await self.jobs.run(JOB, payload))
            except NoWorkersError as error:
                log.error("bot decision, %s: %s; the %s level decides", level, error, name)
                break
            except (BusyError, JobError, DosError) as error:
                log.warning("bot decision, %s, attempt %d: %s", level, attempt, error)
            await self.clock.sleep(wait)
            if not current():
                return None
        else:
            log.error(
                "bot decision, %s: no answer after %d attempts; the %s level decides",
                level,
                len(RETRY_SECONDS),
                name,
            )
        if self.metrics is not None:
            self.metrics.bot_fallbacks.inc()
        return decide(self.rules, name, seen, effort=1.0, seed=seed, player=player)
