"""The game a table is playing: its state, its version, its stored record and its log.

An action is **applied to a copy, committed, then swapped in**: ``prepare`` applies it to a
copy of the state (the engine refuses an illegal one, and nothing changed), ``commit`` writes it
to the database and only then makes the copy the game's state. A failed commit leaves the game
as it was (the database is asked again what it holds: a commit can fail after it was written).
So the state in memory never runs ahead of the database, and every state a client was sent is
one the database can give back: that is what lets another process take a table over by
replaying its committed actions.

The version counts the actions accepted; it is the index of the next one, and every client
message names the version it was made on (``docs/protocol.md``). An action is read for the seat
that sent it (``read``): made on an older version it is ``stale`` unless only "DOS!" calls came
since (``dos.server.tables.stale``), and any seat its text names must be the sender's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from dos.errors import DosError, IllegalActionError
from dos.i18n.explain import error_reason
from dos.ruleset import Entry, RuleSet
from dos.server.clock import Clock
from dos.server.deals import Deals
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.database import Database, NewAction
from dos.server.storage.fencing import StaleEpochError
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    finish_game,
    insert_game,
    load_game,
)
from dos.server.tables.history import GameLog
from dos.server.tables.seat_claims import foreign_seat
from dos.server.tables.stale import only_calls_since, stale
from dos.server.tables.views import Views

log = logging.getLogger(__name__)


def replay_game(rules: RuleSet[Any, Any], game: StoredGame) -> Any:
    """The game's state from its seed and actions (the engine is deterministic). Pure: the
    server runs it on a worker thread, never on the event loop."""
    state = rules.new_game(game.options, game.seed)
    for text in game.actions:
        rules.apply(state, rules.parse_action(text))
    return state


class CurrentGame:
    """The game in play at one table (none before its first deal)."""

    def __init__(
        self,
        entry: Entry,
        rules: RuleSet[Any, Any],
        db: Database,
        code: str,
        clock: Clock,
        *,
        epoch: int | None = None,
        fenced: Callable[[], None] | None = None,
    ) -> None:
        self.entry = entry
        self.rules = rules
        self.db = db
        self.code = code
        self.clock = clock
        """The table's clock: the stored times of its actions and its end."""
        self.state: Any = None
        """The engine's state (``None`` before the first game)."""
        self.version = 0
        self.stored: StoredGame | None = None
        """The game as stored: how it was dealt, and the actions accepted so far."""
        self.log: GameLog | None = None
        """Its log (``dos.server.tables.history``), kept as it is played."""
        self.finish_pending = False
        """Its last action was committed but not its end (``finish``)."""
        self.epoch = epoch
        """The fencing epoch its actions commit under (``dos.server.storage.fencing``), as the
        table's owner claimed it (``None``: one process, unfenced); a new one when the owner takes
        the table again in place."""
        self.fenced = fenced
        """Told when the database refused a commit's epoch: another process owns the table
        now."""
        self._views: tuple[int, Views] | None = None

    def install(self, stored: StoredGame, state: Any) -> None:
        """Takes ``state``, dealt or rebuilt from ``stored``'s seed and actions."""
        self.state = state
        self.version = len(stored.actions)
        self.stored = stored
        self.log = GameLog(self.rules, stored, state)

    def is_over(self) -> bool:
        """Whether a game was dealt and has ended."""
        return self.state is not None and bool(self.rules.is_over(self.state))

    def result(self) -> dict[str, Any] | None:
        """The ended game's result (``None`` while it goes on)."""
        if not self.is_over():
            return None
        result: dict[str, Any] = self.rules.result(self.state)
        return result

    def view(self, seat: int | None, history: bool = True) -> dict[str, Any] | None:
        """The view of ``seat`` (``None``: a spectator's), or ``None`` before the first game."""
        if self.state is None:
            return None
        return Views(self.rules, self.state, history).data(seat)

    def full_views(self) -> Views:
        """The views with history of the current version, built once for every resync."""
        if (
            self._views is None
            or self._views[0] != self.version
            or self._views[1].state is not self.state
        ):
            self._views = (self.version, Views(self.rules, self.state, history=True))
        return self._views[1]

    async def deal(
        self, number: int, options: dict[str, Any], seed: int, seats: list[StoredSeat]
    ) -> None:
        """Deals game ``number`` from ``seed`` to ``seats`` (as they will be stored: a bot in
        every seat without a person) with a fresh salt for its commitment, stores it, then
        takes it as the game in play."""
        state = self.rules.new_game(options, seed)
        game = StoredGame(
            id=0,
            number=number,
            rules=self.entry.name,
            options=self.rules.options_json(state),
            seed=seed,
            players=[s.name if s.name is not None else f"{s.bot} bot" for s in seats],
            status="playing",
            result=None,
            started_at=self.clock.time(),
            salt=Deals.deal_salt(),
        )
        game.id = await self.db.call(insert_game, self.code, game, seats)
        self.install(game, state)

    def read(self, seat: int, text: str, version: int) -> Any:
        """``text`` as ``seat``'s action, made on ``version``; raises ``RefusedError``
        (``stale``, ``not_your_seat``, ``notation``). Not yet checked for legality
        (``prepare``)."""
        if version != self.version and not only_calls_since(self.entry, self.stored, version):
            raise stale(self.version, version)
        if foreign_seat(text, seat) is not None:  # every prefix, before the notation
            raise _not_yours(seat, text)
        try:
            parsed = self.rules.parse_action(text)
        except DosError as error:
            raise RefusedError("notation", str(error)) from None
        # The seat comes from the connection alone: one parse by the engine, then any seat the
        # text names must be the connection's own (RULES §6's "N: " prefix is for tools).
        action = self.rules.by_seat(self.state, parsed, seat)
        if action is None:
            raise _not_yours(seat, text)
        return action

    def prepare(self, action: Any, version: int) -> Any:
        """The state after ``action`` (made on ``version``), applied to a copy: the game
        itself is unchanged. Raises ``RefusedError``: ``illegal``, with the engine's reason in
        words; ``stale`` if it was made on an older version and the calls since made it
        illegal (it lost the DOS race)."""
        state = self.rules.copy(self.state)
        try:
            self.rules.apply(state, action)
        except IllegalActionError as error:
            if version != self.version:  # the calls since made it so: too late
                raise stale(self.version, version) from None
            # The engine's refusal says which it is: the message and its words agree.
            reason = error_reason(self.entry, error, action)
            raise RefusedError("illegal", str(error), reason) from None
        except DosError as error:
            raise RefusedError("notation", str(error)) from None
        return state

    async def commit(self, canonical: str, seat: int, by_bot: bool, after: Any) -> None:
        """Stores ``canonical`` (played by ``seat``) as the next action, then takes ``after``
        (from ``prepare``) as the game's state. A failed commit raises ``RefusedError``
        (``storage``) and leaves the game as the database has it."""
        stored = self.stored
        assert stored is not None and self.log is not None
        index = self.version
        self.log.before_action(self.state, canonical, seat)
        try:
            await self.db.append(
                NewAction(
                    stored.id,
                    index,
                    canonical,
                    seat,
                    by_bot,
                    epoch=self.epoch,
                    at=self.clock.time(),
                )
            )
        except StaleEpochError as error:
            # A paused or cut-off former owner: the next owner has the table.
            log.warning("table %s: action %d not committed: %s", self.code, index, error)
            if self.fenced is not None:
                self.fenced()
            raise RefusedError(
                "storage", "another server process has this table now; nothing changed"
            ) from None
        except Exception:
            log.exception("table %s: could not commit action %d", self.code, index)
            await self.reload()
            raise RefusedError(
                "storage", "the database refused the action; nothing changed"
            ) from None
        self.state = after
        self.version += 1
        self.log.after_action(after)
        stored.actions.append(canonical)
        stored.action_seats.append(seat)
        stored.by_bot.append(by_bot)

    async def reload(self) -> bool:
        """After a failed commit: takes the game as the database has it (rebuilt on a worker
        thread) if it differs; whether it did."""
        assert self.stored is not None
        with contextlib.suppress(Exception):
            stored = await self.db.call(load_game, self.stored.id)
            if stored is not None and len(stored.actions) != self.version:
                state = await asyncio.to_thread(replay_game, self.rules, stored)
                self.install(stored, state)
                return True
        return False

    async def finish(self) -> None:
        """Stores the end of the game if its last action was committed but not its end."""
        if self.finish_pending and self.stored is not None:
            result = self.rules.result(self.state)
            await self.db.call(finish_game, self.code, self.stored.id, result, self.clock.time())
            self.stored.status, self.stored.result = "finished", result
            self.finish_pending = False


def _not_yours(seat: int, text: str) -> RefusedError:
    return RefusedError(
        "not_your_seat", f"you play seat {seat}: {text.strip()!r} is another seat's action"
    )
