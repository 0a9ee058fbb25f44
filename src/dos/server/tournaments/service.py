"""Runs the tournaments: created, joined and left, paired into normal tables, fed their
tables' results, finished.

Everything a tournament is lives in the database (``store``): its players, its games and
their table codes, each game's ranks once it ended. ``tick`` brings one tournament up to
date from there, and is safe to run from any process, at any time, any number of times:

1. each game under way is looked up in the database; one that ended stores its ranks (once);
   a table that was paired but never made (its process died in between) is made and dealt;
2. an arena whose window is open seats its waiting players (``dos.tournaments.arena``); a
   Swiss pairs a round only when its organiser starts one (``start_round``);
3. a Swiss whose last round ended, or an arena whose window closed with no game under way,
   is finished.

A pairing is stored in one transaction together with a raise of the tournament's version
(``store.store_pairing``): of two processes that pair the same tournament at once, exactly
one stores its tables; the other finds the version moved and pairs nothing. The tables are
made after the pairing is stored, by the process that stored it, which owns them as it owns
any table it makes (``Service.open_table``). Every process ticks every tournament that is not
finished (``run``); a restarted server resumes from the rows.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from typing import Any

from dos import ruleset
from dos.errors import DosError
from dos.ratings.ranks import RankError, ranks
from dos.server.people.admins import refuse_banned
from dos.server.protocol.refusals import RefusedError
from dos.server.service import DEFAULT_TURN_SECONDS, Service
from dos.server.storage.table_store import StoredSeat, StoredTable, code_exists, new_code
from dos.server.storage.tournament_rows import TournamentRow
from dos.server.tables.bots import bot_support
from dos.server.tables.info import table_info
from dos.server.tables.table import Status
from dos.server.tournaments import store
from dos.server.tournaments.bodies import CreateTournament, Entry, Organised, Signed
from dos.server.tournaments.store import Kept, KeptGame, NewGame
from dos.tournaments.arena import Window, pair_waiting
from dos.tournaments.field import Entrant
from dos.tournaments.scoring import ARENA, ARENA_STREAKS, SWISS, Scoring
from dos.tournaments.standings import standings
from dos.tournaments.swiss import pair_round

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0
"""How often every process brings every unfinished tournament up to date (``run``)."""
TOP_TABLES = 8
"""The tables under way a tournament's view lists (the best placed first)."""
PAGE = 50
"""The most tournaments one page of the list has."""
RECOVER_SECONDS = 30.0
"""Among many processes: how long a table paired but never dealt waits for the process that
paired it before another makes it (``Tournaments._recover``)."""

_ID_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"


def new_id() -> str:
    """A fresh tournament id: 8 letters and digits that cannot be misread.

    >>> len(new_id()), new_id().isalnum()
    (8, True)
    """
    return "".join(secrets.choice(_ID_LETTERS) for _ in range(8))


def scoring_of(kept: Kept) -> Scoring:
    """The points of a tournament's format (``dos.tournaments.scoring``)."""
    if kept.format == "swiss":
        return SWISS
    return ARENA_STREAKS if kept.streaks else ARENA


class Tournaments:
    """Every tournament, over the server's ``service`` (its database, clock, signer, tables)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.db = service.db
        self.clock = service.clock
        self._locks: dict[str, asyncio.Lock] = {}

    # --- what players and organisers ask ----------------------------------------------------

    async def create(self, request: CreateTournament) -> dict[str, Any]:
        """A new tournament organised by the asking player (who enters it unless ``play`` is
        false); its view, with the organiser's ``player_id`` and ``player_token``."""
        entry = ruleset.find(request.rules)
        if entry is None:
            known = ", ".join(ruleset.names())
            raise RefusedError(
                "bad_request",
                f"rules: unknown rule set {request.rules!r} (known: {known})",
                field="rules",
            )
        if bot_support(request.rules) is None:
            # An absent player's seat is played by a stand-in bot: the rule set needs bots.
            raise RefusedError(
                "bad_request", f"rules: bots cannot play {request.rules}", field="rules"
            )
        options = {k: v for k, v in request.options.items() if k != "players"}
        try:
            entry.rules().new_game({**options, "players": request.seats}, 0)
        except (DosError, TypeError, ValueError, ArithmeticError, RecursionError) as error:
            raise RefusedError("bad_request", f"options: {error}", field="options") from None
        now = self.clock.time()
        if request.format == "swiss":
            if request.rounds is None:
                raise RefusedError(
                    "bad_request", "rounds: a Swiss needs its rounds", field="rounds"
                )
            starts_at = ends_at = None
        else:
            if request.minutes is None:
                raise RefusedError(
                    "bad_request", "minutes: an arena needs its length", field="minutes"
                )
            starts_at = now + request.starts_in
            ends_at = starts_at + request.minutes * 60
        player_id, player_token = self.service.player(request.player_token)
        await refuse_banned(self.db, player_id, now)
        tournament_id = new_id()
        while await self.db.read(store.id_exists, tournament_id):
            tournament_id = new_id()
        row = TournamentRow(
            id=tournament_id,
            name=request.title,
            format=request.format,
            rules=request.rules,
            options=options,
            seats=request.seats,
            rated=request.rated and entry.rated and not self.service.settings.deals.seeded,
            streaks=request.streaks and request.format == "arena",
            organiser=player_id,
            rounds=request.rounds if request.format == "swiss" else None,
            round=0,
            starts_at=starts_at,
            ends_at=ends_at,
            status="open",
            created_at=now,
            version=0,
        )
        await self.db.call(store.insert_tournament, row)
        if request.play:
            await self._enter(tournament_id, request.rules, request.seats, player_id, request.name)
        await self.tick(tournament_id)
        return {
            **await self.view(tournament_id),
            "player_id": player_id,
            "player_token": player_token,
        }

    async def join(self, tournament_id: str, request: Entry) -> dict[str, Any]:
        """Enters the asking player (a new guest without a token), or brings them back after
        they left; refused once it is finished, or for a player the organiser dropped."""
        kept = await self._kept(tournament_id)
        if kept.status == "finished":
            raise RefusedError("bad_state", "the tournament is finished")
        player_id, player_token = self.service.player(request.player_token)
        await self._enter(kept.id, kept.rules, kept.seats, player_id, request.name)
        await self.tick(kept.id)
        return {**await self.view(kept.id), "player_id": player_id, "player_token": player_token}

    async def leave(self, tournament_id: str, request: Signed) -> dict[str, Any]:
        """The asking player is paired no more (a game they are playing goes on and counts);
        they may come back (``join``)."""
        kept = await self._kept(tournament_id)
        player_id = self._who(request.player_token)
        if not await self.db.call(store.set_active, kept.id, player_id, False):
            raise RefusedError(
                "not_entered", "you are not in this tournament", field="player_token"
            )
        return await self.view(kept.id)

    async def drop(self, tournament_id: str, request: Organised) -> dict[str, Any]:
        """The organiser drops a player: paired no more."""
        kept = await self._organised(tournament_id, request.player_token)
        if not await self.db.call(store.set_active, kept.id, request.player_id, False):
            raise RefusedError(
                "not_entered", f"{request.player_id} is not in this tournament", field="player_id"
            )
        return await self.view(kept.id)

    async def add(self, tournament_id: str, request: Organised) -> dict[str, Any]:
        """The organiser adds a player (or brings a dropped one back) under ``name``."""
        kept = await self._organised(tournament_id, request.player_token)
        if kept.status == "finished":
            raise RefusedError("bad_state", "the tournament is finished")
        known = kept.player(request.player_id)
        name = request.name or (known.name if known is not None else None)
        if name is None:
            raise RefusedError("bad_request", "name: a new player needs a name", field="name")
        await self._enter(kept.id, kept.rules, kept.seats, request.player_id, name)
        await self.tick(kept.id)
        return await self.view(kept.id)

    async def start_round(self, tournament_id: str, request: Signed) -> dict[str, Any]:
        """The organiser starts a Swiss's next round, once every game of the last ended."""
        kept = await self._organised(tournament_id, request.player_token)
        if kept.format != "swiss":
            raise RefusedError("bad_state", "an arena pairs by itself: it has no rounds to start")
        async with self._lock(kept.id):
            kept = await self._update(kept.id)
            if kept.status == "finished" or kept.round >= (kept.rounds or 0):
                raise RefusedError("bad_state", "every round has been played")
            if kept.under_way():
                raise RefusedError("bad_state", f"round {kept.round} is still being played")
            if sum(p.active for p in kept.players) < kept.seats:
                raise RefusedError("bad_state", f"a round needs at least {kept.seats} players")
            number = kept.round + 1
            paired = pair_round(
                kept.players,
                [g.game() for g in kept.games],
                seats=kept.seats,
                number=number,
                blocked=kept.blocked,
            )
            await self._store_and_open(kept, paired, round=number, status="running")
        return await self.view(kept.id)

    async def seat(self, tournament_id: str, request: Signed) -> dict[str, Any] | None:
        """The asking player's seat at their table under way (a ``SeatGrant``; its ``table``
        only when this process holds the table: among many, another may own it), or ``None``
        when they are waiting."""
        kept = await self._kept(tournament_id)
        player_id = self._who(request.player_token)
        for game in kept.under_way():
            if player_id in game.seats and game.table_code is not None:
                code, seat = game.table_code, game.seats.index(player_id)
                grant: dict[str, Any] = {
                    "code": code,
                    "seat": seat,
                    "token": self.service.signer.seat_token(code, seat, player_id),
                    "player_id": player_id,
                    "player_token": request.player_token,
                }
                held = self.service.tables.get(code)
                if held is not None:
                    grant["table"] = table_info(held)
                return grant
        return None

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """A tournament as its page shows it: settings, standings, the tables under way (the
        best placed first) and every game played."""
        kept = await self._kept(tournament_id)
        rows = standings(kept.players, [g.game() for g in kept.games], scoring_of(kept), kept.seats)
        place = {row.player_id: row.place for row in rows}
        names = {p.player_id: p.name for p in kept.players}
        under_way = sorted(kept.under_way(), key=lambda g: min(place[p] for p in g.seats))
        return {
            "id": kept.id,
            "name": kept.name,
            "format": kept.format,
            "rules": kept.rules,
            "options": kept.options,
            "seats": kept.seats,
            "rated": kept.rated,
            "streaks": kept.streaks,
            "organiser": kept.organiser,
            "status": kept.status,
            "round": kept.round,
            "rounds": kept.rounds,
            "starts_at": kept.starts_at,
            "ends_at": kept.ends_at,
            "now": self.clock.time(),
            "standings": [
                {
                    "place": row.place,
                    "player_id": row.player_id,
                    "name": row.name,
                    "points": row.points,
                    "games": row.games,
                    "firsts": row.firsts,
                    "byes": row.byes,
                    "tie_break": row.opponents_points,
                    "streak": row.streak,
                    "playing": row.playing,
                    "active": row.active,
                    "rating": row.rating,
                }
                for row in rows
            ],
            "tables": [_game_json(g, names) for g in under_way[:TOP_TABLES]],
            "games": [_game_json(g, names) for g in kept.games if g.ended],
        }

    async def page(self, offset: int, limit: int) -> dict[str, Any]:
        """One page of the tournaments, those not finished first, newest first."""
        limit = min(limit, PAGE)
        total, items = await self.db.read(store.page, offset, limit)
        return {"tournaments": items, "total": total, "offset": offset, "limit": limit}

    # --- keeping them up to date ------------------------------------------------------------

    async def tick(self, tournament_id: str) -> None:
        """Brings one tournament up to date (the module's steps 1-3)."""
        async with self._lock(tournament_id):
            kept = await self._update(tournament_id)
            if kept.status == "finished":
                return
            if kept.format == "arena":
                await self._tick_arena(kept)
            elif kept.round >= (kept.rounds or 0) and kept.round > 0 and not kept.under_way():
                await self.db.call(store.set_status, kept.id, "finished")

    async def tick_all(self) -> None:
        """``tick`` of every tournament that may move by itself (``store.to_tick``)."""
        for tournament_id in await self.db.read(store.to_tick):
            try:
                await self.tick(tournament_id)
            except Exception:
                log.exception("tournament %s: bringing it up to date failed", tournament_id)

    async def run(self, every: float = TICK_SECONDS) -> None:
        """``tick_all`` at once, then every ``every`` seconds of the server's clock, for ever."""
        while True:
            await self.tick_all()
            await self.clock.sleep(every)

    async def _tick_arena(self, kept: Kept) -> None:
        assert kept.starts_at is not None and kept.ends_at is not None
        phase = Window(kept.starts_at, kept.ends_at).phase(self.clock.time())
        if phase == "before":
            return
        if phase == "over":
            if not kept.under_way():
                await self.db.call(store.set_status, kept.id, "finished")
            return
        busy = {p for g in kept.under_way() for p in g.seats}
        waiting = {p.player_id for p in kept.players if p.active and p.player_id not in busy}
        number = 1 + max((g.number for g in kept.games), default=0)
        paired = pair_waiting(
            kept.players,
            [g.game() for g in kept.games],
            waiting,
            seats=kept.seats,
            number=number,
            blocked=kept.blocked,
            scoring=scoring_of(kept),
        )
        if paired or kept.status == "open":
            await self._store_and_open(kept, paired, status="running")

    async def _update(self, tournament_id: str) -> Kept:
        """Step 1: the games that ended store their ranks; tables never made are made."""
        kept = await self._kept(tournament_id)
        changed = False
        for game in kept.under_way():
            assert game.table_code is not None
            played = await self.db.read(store.table_game, game.table_code)
            if played is None:
                await self._recover(kept, game)
                continue
            status, result = played
            if status == "playing":
                continue
            seats = len(game.seats)
            try:
                ranked = ranks(kept.rules, result or {}, seats) if status == "finished" else None
            except RankError:
                ranked = None
            # A game abandoned (or without a result) counts as everyone's last place.
            await self.db.call(
                store.store_ranks, game.id, ranked or [seats - 1] * seats, self.clock.time()
            )
            changed = True
        return await self._kept(tournament_id) if changed else kept

    async def _store_and_open(
        self, kept: Kept, paired: list[Any], *, round: int | None = None, status: str | None = None
    ) -> None:
        """Stores a pairing (tables get fresh codes) if nobody paired meanwhile, then makes
        and deals its tables."""
        taken = set(self.service.tables)
        new: list[NewGame] = []
        for game in paired:
            code = None
            if not game.bye:
                code = new_code(taken)
                while await self.db.read(code_exists, code):
                    code = new_code(taken)
                taken.add(code)
            new.append(NewGame(game.round, game.seats, code, game.bye))
        now = self.clock.time()
        pairing = functools.partial(store.store_pairing, round=round, status=status)
        ids = await self.db.call(pairing, kept.id, kept.version, new, now)
        if ids is None:
            return  # another process paired first: its tables stand
        for game_id, game in zip(ids, new, strict=True):
            if not game.bye:
                made = KeptGame(
                    game_id, game.number, game.seats, game.table_code, None, False, now, None
                )
                await self._open(kept, made)

    async def _recover(self, kept: Kept, game: KeptGame) -> None:
        """A game paired whose table has dealt nothing: the process that paired it died
        before it made or dealt the table. Made (or dealt) here: at once on a server of one
        process; among many, only once ``RECOVER_SECONDS`` have passed since the pairing, so
        that the pairing process, alive, is never raced."""
        assert game.table_code is not None
        waited = self.clock.time() - game.paired_at
        if not self.service.ownership.owns_all and waited < RECOVER_SECONDS:
            return
        if await self.db.read(code_exists, game.table_code):
            table = await self.service.table(game.table_code)  # None: another owns it
            if table is not None and table.status == Status.LOBBY:
                await table.start(table.host)
            return
        await self._open(kept, game)

    async def _open(self, kept: Kept, game: KeptGame) -> None:
        """Makes the table of a game paired, seats its players and deals."""
        assert game.table_code is not None
        names = {p.player_id: p.name for p in kept.players}
        deal_seed = self.service.settings.deals.table_seed(None)
        stored = StoredTable(
            code=game.table_code,
            rules=kept.rules,
            options=dict(kept.options),
            public=True,
            status=Status.LOBBY.value,
            host=0,
            turn_seconds=DEFAULT_TURN_SECONDS,
            games=0,
            created_at=self.clock.time(),
            seats=[StoredSeat(i, names[p], None, p) for i, p in enumerate(game.seats)],
            rated=kept.rated and deal_seed is None,
            deal_seed=deal_seed,
        )
        table = await self.service.open_table(stored)
        if table.code != game.table_code:  # its code was taken meanwhile: a fresh one
            await self.db.call(store.set_table, game.id, table.code)
        await table.start(table.host)

    # --- helpers ------------------------------------------------------------------------------

    async def _enter(
        self, tournament_id: str, rules: str, seats: int, player_id: str, name: str
    ) -> None:
        await refuse_banned(self.db, player_id, self.clock.time())  # banned: never seated
        rating = await self.db.read(store.rating_of, player_id, rules, seats)
        await self.db.call(
            store.enter, tournament_id, Entrant(player_id, name, rating), self.clock.time()
        )

    async def _kept(self, tournament_id: str) -> Kept:
        kept = await self.db.read(store.load, tournament_id)
        if kept is None:
            raise RefusedError(
                "no_tournament", f"there is no tournament {tournament_id!r}", field="id"
            )
        return kept

    async def _organised(self, tournament_id: str, token: str) -> Kept:
        kept = await self._kept(tournament_id)
        if self._who(token) != kept.organiser:
            raise RefusedError("not_organiser", "only the tournament's organiser may do this")
        return kept

    def _who(self, token: str) -> str:
        player_id, _ = self.service.player(token)
        return player_id

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())


def _game_json(game: KeptGame, names: dict[str, str]) -> dict[str, Any]:
    return {
        "number": game.number,
        "code": game.table_code,
        "bye": game.bye,
        "players": [{"player_id": p, "name": names.get(p, p)} for p in game.seats],
        "ranks": None if game.ranks is None else list(game.ranks),
    }
