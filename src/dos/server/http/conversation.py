"""One client's conversation: messages read, checked, and handed to their handler.

``hold`` holds one connection's conversation from its start to its end; ``converse`` reads
its messages one at a time (``hello`` first, within ``HELLO_SECONDS``), applies the
per-connection rate limit, parses each into its message model
(``dos.server.protocol.client_messages``), and calls the handler that ``HANDLERS`` names for its
type. A handler's ``RefusedError`` becomes an ``error`` message to that client (with the message's
``id``, and an illegal action's reason in words); a bug in a handler becomes ``internal`` and the
conversation goes on. Nothing here decides a rule: the handlers ask the table.

Each message type has one handler, ``async (Conversation, message) -> bool``, which says
whether the connection is to end (only ``hello`` ends one: a wrong protocol or token).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocketDisconnect

from dos.i18n.explain import Words
from dos.server.logs import TABLE
from dos.server.net.connections import Client
from dos.server.people.admins import standing
from dos.server.people.auth import TokenError
from dos.server.protocol.base import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ProtocolError
from dos.server.protocol.client_messages import (
    ActionMessage,
    AllowHints,
    Back,
    Chat,
    ChatSpectators,
    Continue,
    Hello,
    HintRequest,
    Leave,
    LogRequest,
    MakeHost,
    Ping,
    Rematch,
    Remove,
    Replace,
    SetSeat,
    Start,
    Sync,
    parse_client_message,
)
from dos.server.protocol.refusals import RefusedError
from dos.server.protocol.server_messages import server_message
from dos.server.service import Service
from dos.server.tables import hints, seating
from dos.server.tables.chat import ChatRefusedError
from dos.server.tables.table import Table

log = logging.getLogger(__name__)

HELLO_SECONDS = 10.0
"""How long a new connection has to send ``hello``."""


@dataclass(frozen=True, slots=True)
class Conversation:
    """What a handler works with: the server, the table, and the client's connection."""

    service: Service
    table: Table
    client: Client

    def error(
        self, code: str, message: str, ident: str | None = None, reason: Words | None = None
    ) -> None:
        """Sends the client an ``error`` (``docs/protocol.md``)."""
        send_error(self.client, code, message, ident, reason)

    async def end(self, code: int, reason: str) -> bool:
        """Closes the connection once what was queued for it is sent; the conversation ends."""
        self.client.close(code, reason)
        await self.client.drain()
        return True


Handler = Callable[[Conversation, Any], Awaitable[bool]]


def send_error(
    client: Client, code: str, message: str, ident: str | None = None, reason: Words | None = None
) -> None:
    """Sends ``client`` an ``error`` message (with the refused message's ``id``, and an illegal
    action's reason as a catalog key and its placeholders)."""
    why = reason.json() if reason is not None else {}
    client.send(server_message("error", code=code, message=message, id=ident, **why))


async def hold(service: Service, table: Table, client: Client) -> None:
    """A connection's whole conversation at ``table`` (its writer started): counted in the
    server's connections while it lasts; at its end (the client left, or was closed) detached
    from the table, what was queued for a closed one sent (its close frame last), its writer
    stopped. Every connection goes this way, a process's own and one relayed to it."""
    TABLE.set(table.code)  # this connection's log records name its table
    service.metrics.connections.inc()
    try:
        await converse(service, table, client)
    except WebSocketDisconnect:
        pass
    finally:
        service.metrics.connections.dec()
        seating.detach(table, client)
        if client.closed:
            await client.drain(1.0)
        await client.stop()


async def converse(service: Service, table: Table, client: Client) -> None:
    """Reads and handles ``client``'s messages until the connection ends (the caller detaches
    it from the table); ``WebSocketDisconnect`` when the client left."""
    socket = client.socket
    while not client.closed:
        try:
            raw = await asyncio.wait_for(
                socket.receive(), None if client.greeted else HELLO_SECONDS
            )
        except TimeoutError:
            send_error(client, "hello_required", "no hello in time")
            client.close(4408, "no hello in time")
            await client.drain()
            return
        if not client.allow():
            if client.flooding():
                send_error(client, "rate_limited", "too many messages: closing")
                client.close(4429, "flood: too many messages")
                await client.drain()
                return
            message_id = _message_id(raw)
            send_error(
                client, "rate_limited", "too many messages: this one was dropped", message_id
            )
            continue
        try:
            message = parse_client_message(raw)
        except ProtocolError as error:
            send_error(client, error.code, error.message)
            continue
        try:
            done = await handle(Conversation(service, table, client), message)
        except Exception:  # a bug must not end the connection, nor the server
            log.exception("table %s: message %s failed", table.code, message.type)
            send_error(client, "internal", "the server failed on this message; nothing changed")
            continue
        if done:
            return
    # Closed by the server meanwhile (the seat left, or was removed or replaced): its close
    # frame and what was queued before it are sent before the connection is let go.
    await client.drain()


async def handle(talk: Conversation, message: Any) -> bool:
    """Handles one parsed message; whether the connection is to end."""
    if not talk.client.greeted and not isinstance(message, Hello):
        talk.error("hello_required", "say hello first (with your seat token, or null)")
        return False
    handler = HANDLERS[type(message)]
    try:
        return await handler(talk, message)
    except RefusedError as error:
        talk.error(error.code, error.message, getattr(message, "id", None), error.reason)
        return False


def _message_id(raw: str | bytes) -> str | None:
    """The ``id`` of a message, if it has a readable one (for the error that refuses it)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and len(ident) <= 64 else None


def _seat(talk: Conversation, code: str, message: str) -> int:
    """The client's seat; a spectator is refused with ``code``."""
    if talk.client.seat is None:
        raise RefusedError(code, message)
    return talk.client.seat


# --- the handlers, one per message type ----------------------------------------------------


async def _hello(talk: Conversation, message: Hello) -> bool:
    client, table = talk.client, talk.table
    if client.greeted:
        talk.error("hello_required", "hello was already said on this connection")
        return False
    if message.protocol != PROTOCOL_VERSION:
        talk.error("protocol", f"this server speaks protocol {PROTOCOL_VERSION}")
        return await talk.end(4400, f"protocol {PROTOCOL_VERSION} only")
    seat: int | None = None
    if message.token is not None:
        try:
            claim = talk.service.signer.read_seat(message.token)
        except TokenError as error:
            talk.error(error.code, error.message)
            return await talk.end(4401, error.code)
        if claim.code != table.code or not seating.opens(table, claim.seat, claim.player_id):
            talk.error("bad_token", "this token does not open a seat at this table")
            return await talk.end(4401, "bad_token")
        if await _banned(talk, claim.player_id):
            talk.error("banned", "an admin banned you from this server")
            return await talk.end(4403, "banned")
        seat = claim.seat
        client.player_id = claim.player_id
    elif message.player is not None:
        watcher = _spectator(talk, message.player)
        if watcher is not None and (await _banned(talk, watcher)):
            talk.error("banned", "an admin banned you from this server")
            return await talk.end(4403, "banned")
        client.player_id = watcher
    client.greeted = True
    await seating.attach(table, client, seat)
    return False


def _spectator(talk: Conversation, token: str) -> str | None:
    """The player a spectator's player token proves; ``None`` (an anonymous spectator) for
    one that does not verify: watching needs nobody's identity."""
    try:
        return talk.service.signer.read_player(token)
    except TokenError:
        return None


async def _banned(talk: Conversation, player_id: str) -> bool:
    """Whether an admin has banned ``player_id`` now."""
    held = await talk.service.db.read(standing, player_id, talk.service.clock.time())
    return held.banned


async def _ping(talk: Conversation, message: Ping) -> bool:
    talk.client.send(server_message("pong", id=message.id))
    return False


async def _sync(talk: Conversation, message: Sync) -> bool:
    if not talk.client.allow_sync():
        raise RefusedError("rate_limited", "too many resyncs: use the state you were sent")
    async with talk.table.lock:
        talk.client.send(talk.table.broadcasts.state_message(talk.client.seat))
    return False


async def _action(talk: Conversation, message: ActionMessage) -> bool:
    seat = _seat(talk, "not_seated", "spectators cannot play")
    try:
        await talk.table.submit(seat, message.action, message.version, message.id, dos=message.dos)
    except RefusedError as error:
        talk.error(error.code, error.message, message.id, error.reason)
        if error.code == "storage":  # the game as the database has it
            async with talk.table.lock:
                talk.client.send(talk.table.broadcasts.state_message(seat))
    return False


async def _start(talk: Conversation, message: Start) -> bool:
    await talk.table.start(talk.client.seat)
    return False


async def _rematch(talk: Conversation, message: Rematch) -> bool:
    await talk.table.rematch(talk.client.seat)
    return False


async def _back(talk: Conversation, message: Back) -> bool:
    talk.table.stand_ins.back(_seat(talk, "not_seated", "spectators have no seat to take back"))
    return False


async def _log(talk: Conversation, message: LogRequest) -> bool:
    """A page of the log; one the table does not keep costs the client the replay."""
    client, log = talk.client, talk.table.current.log
    if log is None:
        raise RefusedError("not_playing", "no game has been dealt at this table")
    cost = log.cost(message.before)
    if not client.counters.spend("work", cost, client.address):
        wait = client.counters.retry_after("work", client.address)
        raise RefusedError("rate_limited", f"too much replay work: try again in {wait} s")
    await talk.table.log_pages.send(client, message.before)
    return False


async def _continue(talk: Conversation, message: Continue) -> bool:
    if talk.client.seat is not None:  # spectators do not hold the pause up
        talk.table.pause.proceed(talk.client.seat)
    return False


async def _leave(talk: Conversation, message: Leave) -> bool:
    seat = _seat(talk, "not_seated", "leave: spectators have no seat to leave")
    await seating.leave(talk.table, seat)
    return False


async def _replace(talk: Conversation, message: Replace) -> bool:
    await seating.replace(talk.table, talk.client.seat, message.seat)
    return False


async def _remove(talk: Conversation, message: Remove) -> bool:
    await seating.remove(talk.table, talk.client.seat, message.seat)
    return False


async def _set_seat(talk: Conversation, message: SetSeat) -> bool:
    await seating.set_seat(talk.table, talk.client.seat, message.seat, message.bot)
    return False


async def _make_host(talk: Conversation, message: MakeHost) -> bool:
    await seating.make_host(talk.table, talk.client.seat, message.seat)
    return False


async def _chat(talk: Conversation, message: Chat) -> bool:
    try:
        await talk.table.chat.say(talk.table, talk.client, message.text, message.reaction)
    except ChatRefusedError as error:
        talk.error(error.code, error.message)
    return False


async def _chat_spectators(talk: Conversation, message: ChatSpectators) -> bool:
    try:
        talk.table.chat.allow_spectators(talk.table, talk.client, message.allowed)
    except ChatRefusedError as error:
        talk.error(error.code, error.message)
    else:
        talk.table.handover_changed()  # the next owner keeps the host's word
    return False


async def _hint(talk: Conversation, message: HintRequest) -> bool:
    talk.service.hints.ask(talk.table, talk.client)  # answers on this connection, later
    return False


async def _allow_hints(talk: Conversation, message: AllowHints) -> bool:
    await hints.allow(talk.table, talk.client.seat, message.allowed)
    return False


HANDLERS: dict[type[Any], Handler] = {
    Hello: _hello,
    Ping: _ping,
    Sync: _sync,
    ActionMessage: _action,
    Start: _start,
    Rematch: _rematch,
    Back: _back,
    LogRequest: _log,
    Continue: _continue,
    Leave: _leave,
    Replace: _replace,
    Remove: _remove,
    SetSeat: _set_seat,
    MakeHost: _make_host,
    Chat: _chat,
    ChatSpectators: _chat_spectators,
    HintRequest: _hint,
    AllowHints: _allow_hints,
}
"""The handler of each client message type (every type of ``ClientMessage``)."""
