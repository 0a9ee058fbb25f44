"""Who sits where, as the people at a table decide it: joining, leaving, and the host's
controls.

Every rule of it is here (docs/protocol.md, "Seats and the host"):

- **Joining.** Before a game and between games a person takes the seat they ask for, or the
  first open one; the same player joining again gets their own seat back. Once a game is under
  way nobody new sits down (they may watch it).
- **Leaving.** Before a game and between games a player who leaves frees the seat at once.
  During a game the stand-in bot plays the seat from then on, as after a closed connection's
  grace; a player who comes back before the end has it again (a new connection, ``back``, or
  an agent's action); otherwise the seat opens when the game ends, so a rematch never deals
  to somebody who has gone.
- **The host's controls.** The host may ``replace`` an absent player (no connection) with the
  stand-in at once; ``remove`` another player (their seat token opens nothing any more; during
  a game the stand-in plays the seat to the end, and it stays a bot's seat); between games,
  ``set_seat`` an open seat to a bot of a level, or a bot's seat to open; ``make_host``
  another player who is here.
- **The host role passes on by itself** when the host leaves, or has been gone longer than
  the grace (``Settings.grace_seconds``): to the next player who is here, in seat order. A
  table whose host seat is empty gets the next player who sits down as its host.
- **A rematch deals only those who chose it.** Staying at the table after a game is choosing
  the rematch; leaving it (the lobby, a closed tab) is not. When the host deals the rematch,
  the seat of every player who has no connection there opens and the stand-in bot is dealt it
  under no one's name, so nobody plays, nor is rated, in a game they were not dealt into. A
  player whose connection closed less than the grace before (a reload, a reconnect through
  another process after a failover) is not known to have gone: they keep the seat and are
  dealt in, and it opens to the stand-in only if the grace ends before they are back.
- **Nobody is dealt in absent.** A first game deals to the players seated; one without a
  connection gets the stand-in after the grace, as if they had just left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dos.server.people.admins import refuse_banned
from dos.server.people.blocks import blocked_set
from dos.server.protocol.base import PROTOCOL_VERSION
from dos.server.protocol.refusals import RefusedError
from dos.server.protocol.server_messages import server_message
from dos.server.storage.table_store import StoredSeat, save_host, save_seat
from dos.server.tables.bots import STAND_IN

if TYPE_CHECKING:
    from dos.server.net.connections import Client
    from dos.server.tables.seat import Seat
    from dos.server.tables.table import Table

MOVED = 1012
"""The close code that sends a client to connect again (docs/protocol.md): the table it asked
for left this process meanwhile."""
LEFT_CLOSE = 4000
"""The WebSocket close code of a connection whose player left the table."""
REMOVED_CLOSE = 4003
"""The WebSocket close code of a connection whose player the host removed."""


def person(place: Seat) -> bool:
    """Whether a person (not a bot) holds the seat."""
    return place.name is not None and place.bot is None


def present(place: Seat) -> bool:
    """Whether the seat's person is here: connected (or an agent), not stood in for."""
    return person(place) and (place.client is not None or place.remote) and not place.away


def opens(table: Table, seat: int, player_id: str) -> bool:
    """Whether a seat token's claim (``seat``, ``player_id``) opens a seat of ``table``."""
    return 0 <= seat < len(table.seats) and table.seats[seat].player_id == player_id


def _refused(code: str, message: str, field: str | None = None) -> Exception:
    return RefusedError(code, message, field=field)


def _host_only(table: Table, by: int | None, what: str) -> None:
    if by is None:
        raise _refused("not_seated", f"{what}: spectators have no say in the seats")
    if by != table.host:
        raise _refused("not_host", f"{what}: only the host can do this")


def _other_person(table: Table, by: int, seat: int, what: str) -> Seat:
    if not 0 <= seat < len(table.seats):
        raise _refused("bad_seat", f"{what}: there is no seat {seat}", "seat")
    if seat == by:
        raise _refused("bad_seat", f"{what}: not your own seat", "seat")
    place = table.seats[seat]
    if not person(place):
        raise _refused("bad_seat", f"{what}: no player sits in seat {seat}", "seat")
    return place


def _playing(table: Table) -> bool:
    from dos.server.tables.table import Status

    return table.status == Status.PLAYING


async def _open(table: Table, place: Seat, bot: str | None = None) -> None:
    """Frees a seat (or gives it to ``bot``), stored first; closes its connection."""
    await table.db.call(save_seat, table.code, StoredSeat(place.index, None, bot, None))
    client = place.client
    place.name = place.player_id = None
    place.bot = bot
    place.client = None
    place.away = place.left = place.remote = place.kept = False
    place.leave_timer.cancel()
    if client is not None:
        client.seat = None
        client.close(LEFT_CLOSE, "left the table")


async def attach(table: Table, client: Client, seat: int | None) -> None:
    """Connects a client to its seat (replacing an older connection: the person is back) or
    as a spectator, and sends ``welcome``, a full ``state``, the pause if there is one, and
    the chat's rules and lines kept (in the same step as it joins the table: each chat line
    reaches it exactly once); the log's latest page follows. A table closed meanwhile (it left
    this process while the client waited for its lock) takes nobody: the client is told to
    connect again (1012), as those it had were. A player's chat leaves out those they block
    or mute (``ChatRoom.learn``)."""
    await table.chat.learn(client.player_id)
    async with table.lock:
        if table.closed:
            client.close(MOVED, "the table moved: connect again")
            return
        if seat is None:
            table.audience.watch(client)
        else:
            table.audience.take_seat(client, seat)
            if table.stand_ins.arrived(seat):
                table.turn_timer.renew()
        client.seat = seat
        welcome = {"protocol": PROTOCOL_VERSION, "seat": seat, "player_id": client.player_id}
        client.send(server_message("welcome", **welcome))
        client.send(table.broadcasts.state_message(seat))
        if table.pause.active:
            client.send(server_message("pause", **table.pause.message()))
        client.send(table.chat.rules_message())
        client.send(table.chat.history_message(client.player_id))
        table.audience.present()
    table.broadcasts.table(spectators=seat is not None)
    table.after_change()
    # The log may need a replay (a table loaded mid-game): it follows in its own task, and
    # the connection's messages are read meanwhile.
    table.spawn(table.log_pages.send_first(client))


def detach(table: Table, client: Client) -> None:
    """Forgets a closed connection; a seated person's stand-in comes after the grace
    (``dos.server.tables.stand_ins``), in every game, until they come back, and the pause between
    rounds waits for them no more; a host's role passes on after the grace."""
    watcher = table.audience.unwatch(client)
    if not watcher:
        seat = table.audience.leave_seat(client)
        if seat is None:
            return  # replaced by a newer connection of its seat, or never attached
        table.pause.proceed(seat)
        # In every game, timed or not: a leaver must not freeze the table, nor keep a losing
        # game from its end (and its rating); nor a gone host the next game.
        table.stand_ins.await_return(seat)
    table.audience.check_idle()
    table.broadcasts.table(spectators=not watcher)


async def join(table: Table, name: str, player_id: str, wanted: int | None) -> int:
    """Seats a person called ``name`` (``wanted``: the seat asked for, else the first open
    one); returns the seat. The same player joining again gets their seat back; a game under
    way seats nobody (``started``: a client offers to watch it instead); nor does a table
    where a player sits whom they block or who blocks them (``blocked``); nor a player an
    admin banned (``banned``)."""
    await refuse_banned(table.db, player_id, table.settings.clock.time())
    apart = await blocked_set(table.db, player_id)
    async with table.lock:
        for place in table.seats:
            if place.player_id == player_id and place.bot is None:
                return place.index
        if _playing(table):
            # Its own code: a client offers to watch the game instead (docs/protocol.md).
            raise _refused("started", "the game has started: watch it, or wait for a new table")
        if any(place.player_id in apart for place in table.seats if person(place)):
            raise _refused(
                "blocked", "a player at this table blocked you, or you blocked them: pick another"
            )
        if wanted is not None:
            if not 0 <= wanted < len(table.seats):
                raise _refused("bad_seat", f"there is no seat {wanted}")
            if not table.seats[wanted].open:
                raise _refused("no_seat", f"seat {wanted} is taken")
            place = table.seats[wanted]
        else:
            free = [s for s in table.seats if s.open]
            if not free:
                raise _refused("no_seat", "every seat is taken")
            place = free[0]
        await table.db.call(save_seat, table.code, StoredSeat(place.index, name, None, player_id))
        place.name, place.player_id = name, player_id
        if not person(table.seats[table.host]):  # an empty host seat: the newcomer hosts
            await _set_host(table, place.index)
    table.broadcasts.table()
    return place.index


async def leave(table: Table, seat: int) -> None:
    """``seat``'s player leaves (see the module's rules); a seat without a person: nothing."""
    place = table.seats[seat]
    if not person(place):
        return
    if _playing(table):
        client, place.client = place.client, None
        if client is not None:
            client.seat = None
            client.close(LEFT_CLOSE, "left the table")
        place.left = True
        place.leave_timer.cancel()
        table.pause.proceed(seat)  # the summary's pause does not wait for who left
        table.stand_ins.stand_in(seat)
        await pass_host(table)
        return
    async with table.lock:
        await _open(table, place)
        await _pass_host(table)
    table.broadcasts.table()
    table.after_change()


async def replace(table: Table, by: int | None, seat: int) -> None:
    """The host has the stand-in play an absent player's seat at once."""
    _host_only(table, by, "replace")
    assert by is not None
    place = _other_person(table, by, seat, "replace")
    if not _playing(table):
        raise _refused("bad_state", "replace: only during a game (between games: remove)")
    if place.client is not None and not place.away:
        raise _refused(
            "bad_state", f"replace: the player of seat {seat} is here (remove them instead)"
        )
    place.leave_timer.cancel()
    table.stand_ins.stand_in(seat)


async def remove(table: Table, by: int | None, seat: int) -> None:
    """The host removes another player from the table."""
    _host_only(table, by, "remove")
    assert by is not None
    async with table.lock:
        place = _other_person(table, by, seat, "remove")
        client = place.client
        place.client = None  # closed as removed, not as left
        await _open(table, place, STAND_IN if _playing(table) else None)
    if client is not None:
        client.seat = None
        client.close(REMOVED_CLOSE, "removed by the host")
    table.broadcasts.table()
    table.after_change()


async def set_seat(table: Table, by: int | None, seat: int, bot: str | None) -> None:
    """Between games, the host gives an open seat to a bot of level ``bot``, or opens a bot's
    seat (``bot`` None)."""
    _host_only(table, by, "set_seat")
    if _playing(table):
        raise _refused("bad_state", "set_seat: between games only")
    if not 0 <= seat < len(table.seats):
        raise _refused("bad_seat", f"set_seat: there is no seat {seat}", "seat")
    async with table.lock:
        place = table.seats[seat]
        if bot is None:
            if place.bot is None:
                raise _refused("bad_seat", f"set_seat: seat {seat} is not a bot's", "seat")
        else:
            if not place.open:
                raise _refused("no_seat", f"set_seat: seat {seat} is taken", "seat")
            support = table.bots.support
            levels = support.levels() if support is not None else []
            if bot not in levels:
                raise _refused(
                    "bad_message",
                    f"bot: unknown level {bot!r} (known: {', '.join(levels) or 'none'})",
                    "bot",
                )
        await _open(table, place, bot)
    table.broadcasts.table()
    table.after_change()


async def make_host(table: Table, by: int | None, seat: int) -> None:
    """The host hands the role to another player who is here."""
    _host_only(table, by, "make_host")
    assert by is not None
    async with table.lock:
        place = _other_person(table, by, seat, "make_host")
        if not present(place):
            raise _refused("bad_state", f"make_host: the player of seat {seat} is not here")
        await _set_host(table, seat)
    table.broadcasts.table()


async def _set_host(table: Table, seat: int) -> None:
    if seat != table.host:
        await table.db.call(save_host, table.code, seat)
        table.host = seat


async def _pass_host(table: Table) -> bool:
    """Under the lock: the role goes to the next player who is here, if the host is not.
    Whether it moved."""
    if present(table.seats[table.host]):
        return False
    count = len(table.seats)
    for step in range(1, count):
        seat = (table.host + step) % count
        if present(table.seats[seat]):
            await _set_host(table, seat)
            return True
    return False


async def pass_host(table: Table) -> None:
    """The host role passes on if the host is not here (see the module's rules)."""
    async with table.lock:
        moved = await _pass_host(table)
    if moved:
        table.broadcasts.table()


async def after_game(table: Table) -> None:
    """Under the lock, once a game has ended: the seats of players who left open, and the
    role passes on if the host is not here."""
    for place in table.seats:
        if place.left and person(place):
            await _open(table, place)
    await _pass_host(table)


def at_table(place: Seat) -> bool:
    """Whether the seat's person is at the table: connected, or an agent (whose presence is
    its requests)."""
    return person(place) and (place.client is not None or place.remote)


async def stay_for_rematch(table: Table) -> None:
    """Under the lock, before a rematch is dealt: the seats of the players who are not at the
    table open, but for those within the grace, whose seats are kept (see the module's
    rules)."""
    for place in table.seats:
        if person(place) and not at_table(place):
            if place.leave_timer.running:
                place.kept = True
            else:
                await _open(table, place)


async def grace_over(table: Table, seat: int) -> None:
    """``seat``'s person was not back within the grace: a seat kept through a rematch opens
    now, the stand-in playing it under no one's name as the rematch would have dealt it; the
    host role passes on if the host is not here."""
    async with table.lock:
        place = table.seats[seat]
        if place.kept and person(place) and place.client is None:
            await _open(table, place, STAND_IN)
        await _pass_host(table)
    table.broadcasts.table()
    table.after_change()


def deal_seats(table: Table) -> list[StoredSeat]:
    """The seats as the next deal stores them: the stand-in bot in every open seat. Refused
    (``bad_state``) if bots would play a rule set they cannot."""
    seats = [place.stored() for place in table.seats]
    for seat in seats:
        if seat.name is None and seat.bot is None:
            seat.bot = STAND_IN
    if any(s.bot is not None for s in seats) and table.bots.support is None:
        raise _refused("bad_state", f"bots cannot play {table.rules_name}: fill every seat")
    return seats


def dealt(table: Table, seats: list[StoredSeat]) -> None:
    """Under the lock, once a game was dealt to ``seats`` (``deal_seats``): the bots sit where
    the deal put them, nobody is away, and a person without a connection is awaited (the
    stand-in after the grace: nobody is dealt in absent)."""
    for place, seat in zip(table.seats, seats, strict=True):
        place.bot = seat.bot
        place.away = False
    table.stand_ins.dealt()
