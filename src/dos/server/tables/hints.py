"""Hints at the table: the ``expert`` level's suggested action for a seat's own view.

A seated player at a casual table asks with ``{"type": "hint"}`` on their WebSocket
(docs/protocol.md, "Hints") and gets back, on that connection only, the action the ``sage``
bot (the ``expert`` level, docs/bots.md) picks for **the seat's view**
(``dos.rules.official.view``, never the state), and a reason in words: a catalog key and its
placeholders (``dos.i18n.explain.Words``) saying what the action does: the cards it plays and
the points they shed, the draw it makes the others take, the wild cards it keeps.

Where: tables that are not rated (a hint would be an outside help in a rated game) of a rule
set that offers hints (its registry entry's ``hints``: the official rules, whose cards and
matches a hint's words tell), and at a table with more than one person only when its host
allowed hints (``{"type": "allow_hints", "allowed": true}``). Bounded: each request counts
against the client's ``hints`` limit (``dos.server.net.limits``); the search runs as a job of the
server's job runner (``dos.server.hosting.jobs``), never on the event loop, with the ``expert``
level's iterations (``JobSettings.hint_iterations``) and no clock, seeded one way
(``dos.seeds``) from the game's seed, its version and the seat, so that the same request
gives the same hint and nothing the search is handed leads back to the deal. Every request
is answered, on its connection: a hint, or an ``error`` that says why not
(``HintRefusedError``), ``hint_stale`` when the game moved on (or ended, or the seat was left)
before the search was done. Answers are kept per game, version and seat: asking again costs
nothing.

The search itself is the job ``dos.server.tables.hint_job``: what a worker process runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

from dos import ruleset
from dos.i18n.explain import words
from dos.play.bot import turn_choices
from dos.rules.official import view
from dos.server.hosting.jobs import BusyError, JobError
from dos.server.protocol.refusals import RefusedError
from dos.server.protocol.server_messages import server_message
from dos.server.tables.hint_job import hint_seed
from dos.server.tables.seating import person

if TYPE_CHECKING:
    from dos.server.net.connections import Client
    from dos.server.service import Service
    from dos.server.tables.table import Table

log = logging.getLogger(__name__)

KEPT: Final = 64
"""Answers kept (game, version, seat), the least recently asked first out."""


class HintRefusedError(Exception):
    """A hint the server does not give: ``code`` (docs/protocol.md), an English message,
    and the catalog's words for it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reason = words(f"game.hint_refused_{code.removeprefix('hint_')}")


# --- at the table -------------------------------------------------------------------------------


def offered(rules: str) -> bool:
    """Whether the rule set ``rules`` offers hints (its registry entry's ``hints``; an
    unknown name offers none).

    >>> offered("official"), offered("classic"), offered("poker")
    (True, False, False)
    """
    entry = ruleset.find(rules)
    return entry is not None and entry.hints


def hints_open(table: Table) -> bool:
    """Whether the seats of ``table`` may ask for hints now: a casual table of a rule set
    that offers hints, with one person at it, or whose host allowed hints."""
    if table.rated or not offered(table.rules_name):
        return False
    people = sum(1 for place in table.seats if person(place))
    return people <= 1 or table.hints_allowed


def check_hint(table: Table, seat: int | None) -> None:
    """Raises ``HintRefusedError`` unless ``seat`` may have a hint now."""
    if seat is None:
        raise HintRefusedError("not_seated", "spectators get no hints")
    if table.rated:
        raise HintRefusedError("hint_rated", "no hints at a rated table")
    if not offered(table.rules_name):
        raise HintRefusedError("hint_rules", f"no hints at a {table.rules_name} table")
    if not hints_open(table):
        raise HintRefusedError("hint_not_allowed", "the host has not allowed hints here")
    state = table.current.state
    if not table.playing() or table.current.stored is None:
        raise HintRefusedError("hint_not_your_turn", "no game is being played")
    if table.rules.turn(state) != seat or not turn_choices(view(state, seat)):
        raise HintRefusedError("hint_not_your_turn", "hints are for your own turn")


class Hints:
    """The hints of one server: refusals, limits, the jobs and the answers kept."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._kept: OrderedDict[tuple[int, int, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[int, int, int], asyncio.Task[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def ask(self, table: Table, client: Client) -> None:
        """Takes ``client``'s ``hint`` request: refused at once with an ``error`` (its code
        and words), or answered when the job is done, in a task of its own (the connection's
        other messages are read meanwhile): by a ``hint`` message, or by an ``error`` with
        ``hint_stale`` when the game moved on before the answer came, or with the job's
        refusal (``hint_busy``, ``hint_failed``). Only the server's stop, which closes the
        connection, leaves it unanswered."""
        try:
            key = self._admit(table, client)
        except HintRefusedError as error:
            _refuse(client, error)
            return
        task = asyncio.get_running_loop().create_task(self._answer(table, client, key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        """Cancels the hints under way (the server's stop)."""
        for task in [*self._tasks, *self._running.values()]:
            task.cancel()

    def _admit(self, table: Table, client: Client) -> tuple[int, int, int]:
        seat = client.seat
        check_hint(table, seat)
        assert seat is not None and table.current.stored is not None
        counters = self.service.counters
        if not counters.allow("hints", client.address):
            wait = counters.retry_after("hints", client.address)
            raise HintRefusedError("rate_limited", f"too many hints: try again in {wait} s")
        return (table.current.stored.id, table.current.version, seat)

    async def _answer(self, table: Table, client: Client, key: tuple[int, int, int]) -> None:
        game_id, version, seat = key
        try:
            answer = self._kept.get(key)
            if answer is None:
                answer = await self._job(table, key)
            self._kept.move_to_end(key)
        except HintRefusedError as error:
            _refuse(client, error)
            return
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # the server stops: its goodbye closes the connection
            # The job alone was cancelled (its runner stopped it): the player still hears.
            _refuse(client, HintRefusedError("hint_failed", "the hint's job was cancelled"))
            return
        except Exception:  # a bug must not go unseen, nor leave the player waiting
            log.exception("table %s: the hint failed", table.code)
            _refuse(client, HintRefusedError("hint_failed", "the hint failed"))
            return
        in_play = table.current
        game = in_play.stored
        if game is None or game.id != game_id or in_play.version != version or client.seat != seat:
            # The game moved on meanwhile (an action, a call out of turn, its end, the table
            # closed, the seat left): this answer is for a position gone. Said, so that the
            # page offers the hint again rather than wait for it.
            _refuse(client, HintRefusedError("hint_stale", "the game moved on: ask again"))
            return
        client.send(server_message("hint", version=version, **answer))

    async def _job(self, table: Table, key: tuple[int, int, int]) -> dict[str, Any]:
        """The hint of ``key``, by a job (one per key however many ask), then kept."""
        task = self._running.get(key)
        if task is None:
            game = table.current.stored
            assert game is not None
            _, version, seat = key
            payload = {
                "view": view(table.current.state, seat).to_json(),
                "seed": hint_seed(game.seed, version, seat),
                "iterations": self.service.job_settings.hint_iterations,
            }
            task = asyncio.get_running_loop().create_task(self.service.jobs.run("hint", payload))
            self._running[key] = task
            task.add_done_callback(lambda _: self._running.pop(key, None))
        try:
            answer: dict[str, Any] = await asyncio.shield(task)
        except BusyError:
            raise HintRefusedError("hint_busy", "the server is busy: ask again soon") from None
        except JobError as error:
            raise HintRefusedError("hint_failed", str(error)) from None
        self._kept[key] = answer
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return answer


def _refuse(client: Client, error: HintRefusedError) -> None:
    client.send(
        server_message(
            "error", code=error.code, message=error.message, id=None, **error.reason.json()
        )
    )


async def allow(table: Table, by: int | None, allowed: bool) -> None:
    """The host allows hints at the table, or not; everyone is told (``table``)."""
    if by is None:
        raise RefusedError("not_seated", "allow_hints: spectators have no say")
    if by != table.host:
        raise RefusedError("not_host", "allow_hints: only the host can do this")
    if table.rated:
        raise RefusedError("hint_rated", "allow_hints: no hints at a rated table")
    if table.hints_allowed != allowed:
        table.hints_allowed = allowed
        table.broadcasts.table()
        table.handover_changed()
