"""The messages a client sends on its WebSocket (docs/protocol.md), as typed models: each is
validated with its model (``parse_client_message``) before the server acts on it.

>>> parse_client_message('{"type": "ping", "id": "7"}')
Ping(type='ping', id='7')
>>> try:
...     parse_client_message('{"type": "fly"}')
... except ProtocolError as refused:
...     print(refused)  # doctest: +ELLIPSIS
unknown_type: unknown message type 'fly' (known: action, allow_hints, back, ...)
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, ValidationError

from dos.server.protocol.base import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    ProtocolModel,
    Token,
)


class Hello(ProtocolModel):
    """The first message on a connection: who is speaking. No token: a spectator."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: Token | None = None
    """A seat token: the seat's player."""
    player: Token | None = None
    """A spectator's player token (with no seat token): the chat they read leaves out the
    players they block or mute, and those who block them do not read theirs. One that does
    not verify identifies nobody: an anonymous spectator, whose chat nothing filters."""


class ActionMessage(ProtocolModel):
    """An action in the engine's notation, with the state version the client saw."""

    type: Literal["action"]
    action: str = Field(max_length=200)
    version: int = Field(ge=0)
    id: str | None = Field(default=None, max_length=64)
    """Echoed in the ``update`` (to the sender only) or the ``error`` this action brings."""
    dos: bool = False
    """Call "DOS!" with this move (official rules): if the move leaves the seat with an open
    DOS obligation, the call is applied right after it, under the same lock, so no catch can
    come between (two ``update`` messages, both with ``id``). Ignored when the move leaves no
    obligation open; refused (``bad_message``) at a table without a DOS race (classic)."""


class Start(ProtocolModel):
    """The host starts the game (lobby -> playing); open seats get bots."""

    type: Literal["start"]


class Rematch(ProtocolModel):
    """The host starts a new game with the same seats (finished -> playing)."""

    type: Literal["rematch"]


class Back(ProtocolModel):
    """Take one's seat back from the bot that stood in (after a timeout)."""

    type: Literal["back"]


class Sync(ProtocolModel):
    """Ask for a full ``state`` message."""

    type: Literal["sync"]


class LogRequest(ProtocolModel):
    """Asks for a page of the current game's log: the entries before index ``before`` (the
    latest page without it). Answered with ``log``; an old page costs the client replay work
    (``Limits.work``)."""

    type: Literal["log"]
    before: int | None = Field(default=None, ge=0, le=2**31)


class Ping(ProtocolModel):
    """Answered with ``pong``."""

    type: Literal["ping"]
    id: str | None = Field(default=None, max_length=64)


class Continue(ProtocolModel):
    """The player has read the round summary: the next round may begin (``pause``)."""

    type: Literal["continue"]


class Chat(ProtocolModel):
    """A chat message: a ``text`` (at most 200 characters) or a quick ``reaction``
    (``dos.server.tables.chat.REACTIONS``). The author is the connection's seat."""

    type: Literal["chat"]
    text: str | None = Field(default=None, max_length=1000)
    reaction: str | None = Field(default=None, max_length=20)


class ChatSpectators(ProtocolModel):
    """Host: whether spectators may write in the chat."""

    type: Literal["chat_spectators"]
    allowed: bool


SeatNumber = Annotated[int, Field(ge=0, le=63)]


class Leave(ProtocolModel):
    """The player leaves the table (``dos.server.tables.seating``): between games the seat opens at
    once (a host's role passes on); during a game the stand-in plays it from now on, and it
    opens when the game ends unless the player comes back first."""

    type: Literal["leave"]


class Replace(ProtocolModel):
    """Host, during a game: the stand-in plays the seat of an absent player (no connection)
    at once."""

    type: Literal["replace"]
    seat: SeatNumber


class Remove(ProtocolModel):
    """Host: removes another player from the table. Their seat token opens nothing any more;
    during a game the stand-in plays the seat to the end (it stays a bot's seat)."""

    type: Literal["remove"]
    seat: SeatNumber


class SetSeat(ProtocolModel):
    """Host, between games: an open seat gets a bot of level ``bot``; ``bot`` null opens a
    bot's seat."""

    type: Literal["set_seat"]
    seat: SeatNumber
    bot: str | None = Field(default=None, max_length=20)


class MakeHost(ProtocolModel):
    """Host: hands the host role to the player of ``seat``, who must be here."""

    type: Literal["make_host"]
    seat: SeatNumber


class HintRequest(ProtocolModel):
    """Asks for the ``expert`` level's suggested action for one's own seat (``hint``): at a
    casual table of a rule set with hints (``RuleSetInfo.hints``), on one's own turn, where
    hints are allowed (``dos.server.tables.hints``)."""

    type: Literal["hint"]


class AllowHints(ProtocolModel):
    """Host, at a casual table: whether the seats may ask for hints (``TableInfo.hints``)."""

    type: Literal["allow_hints"]
    allowed: bool


_AnyClient = (
    Hello
    | ActionMessage
    | Start
    | Rematch
    | Back
    | Sync
    | Ping
    | Continue
    | Chat
    | ChatSpectators
    | LogRequest
    | Leave
    | Replace
    | Remove
    | SetSeat
    | MakeHost
    | HintRequest
    | AllowHints
)
ClientMessage = Annotated[_AnyClient, Field(discriminator="type")]
CLIENT_TYPES = (
    "action",
    "allow_hints",
    "back",
    "chat",
    "chat_spectators",
    "continue",
    "hello",
    "hint",
    "leave",
    "log",
    "make_host",
    "ping",
    "rematch",
    "remove",
    "replace",
    "set_seat",
    "start",
    "sync",
)
_CLIENT = TypeAdapter[_AnyClient](ClientMessage)


def message_bytes(text: str | bytes) -> int:
    """The size of a message in bytes (UTF-8 for text; a lone surrogate counts as 3).

    >>> message_bytes("é"), message_bytes(b"ab")
    (2, 2)
    """
    if isinstance(text, bytes):
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def parse_client_message(
    text: str | bytes,
) -> _AnyClient:
    """A client message from its JSON text; raises ``ProtocolError`` saying what is wrong."""
    size = message_bytes(text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    except RecursionError:  # the parser's nesting limit: refused, never a crash
        raise ProtocolError("bad_json", "not JSON this server reads: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r} (known: {', '.join(CLIENT_TYPES)})"
        )
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors()
        )
        raise ProtocolError("bad_message", f"{kind}: {problems}") from None
