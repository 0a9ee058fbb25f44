"""The messages the server sends on a WebSocket (docs/protocol.md), and the table's shapes
that its messages and the HTTP answers share (``SeatInfo``, ``TableInfo``), as typed models.

Server messages are built as plain dicts on the hot path (``server_message``); their models
document them and let tests check every message a client receives (``SERVER_MESSAGE``).

>>> server_message("pong", id="7")
'{"type":"pong","id":"7"}'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from dos.server.protocol.base import ProtocolModel

# --- shared shapes ------------------------------------------------------------------------------


class SeatInfo(ProtocolModel):
    """One seat of a table. Open: ``name`` and ``bot`` both null."""

    seat: int
    name: str | None
    bot: str | None
    """The bot level (``easy``, ``medium``, ``hard``) of a bot seat, else null."""
    connected: bool
    """Whether the seat's player has a connection open (bots: always true)."""
    away: bool
    """A human seat played by a stand-in bot (turn timer ran out, or the player left)."""


class TableInfo(ProtocolModel):
    """What everyone may know about a table."""

    code: str
    rules: str
    options: dict[str, Any]
    public: bool
    rated: bool
    """Whether its games update the players' ratings (docs/ratings.md); else casual."""
    status: Literal["lobby", "playing", "finished"]
    host: int
    turn_seconds: float | None
    game: int
    """How many games were started at this table (0 in the lobby)."""
    game_id: int | None
    """The id of the current or last game (for its record), null before the first."""
    seats: list[SeatInfo]
    spectators: int
    hints: bool = False
    """Whether its seats may ask for hints now (``dos.server.tables.hints``): a casual table of a
    rule set with hints (``RuleSetInfo.hints``) with one person, or whose host allowed them."""
    seeded: bool = False
    """Whether its deals come from a known seed (a server started with ``--deal-seed``, to
    reproduce games): then its games are never rated."""
    commitment: str | None = None
    """The commitment to the deals of the current or last game (``game_id``): the SHA-256 of
    ``dos-deal:SEED:SALT``, its seed and a secret salt, sent from its deal on, before any card
    is played. The game's record reveals the seed and salt once it is over; ``dos verify``
    checks every deal against it (docs/records.md). Null before the first game."""


# --- server -> client ---------------------------------------------------------------------------


class Welcome(ProtocolModel):
    """The answer to ``hello``: the seat this connection plays (null: spectator)."""

    type: Literal["welcome"]
    protocol: int
    seat: int | None
    player_id: str | None


class State(ProtocolModel):
    """A full resync: the table and this connection's view (null in the lobby)."""

    type: Literal["state"]
    version: int
    """The number of actions applied in the current game; an action must name it."""
    table: TableInfo
    view: dict[str, Any] | None
    """The rule set's ``view_json`` for this seat; for spectators without ``hand``/``legal``."""
    result: dict[str, Any] | None
    """The rule set's ``result`` once the game is over, else null."""
    timer: dict[str, Any] | None
    """``{"seat": n, "seconds": s, "phase": "turn"|"grace"}`` while a turn timer runs."""


class Update(ProtocolModel):
    """One accepted action, committed before it is sent: the new view, without ``history``."""

    type: Literal["update"]
    version: int
    action: str
    """The action in canonical notation, as the engine wrote it into the history."""
    seat: int
    """The seat that made it."""
    id: str | None = None
    """The sender's ``id``, in the copy sent to the sender only."""
    view: dict[str, Any]
    result: dict[str, Any] | None
    by_bot: bool
    """Made by a bot (a bot seat, or a stand-in for an away player)."""


class TableMessage(ProtocolModel):
    """The table changed: a seat was taken, a player came or went, the status changed."""

    type: Literal["table"]
    table: TableInfo


class Timer(ProtocolModel):
    """A turn timer started (``seconds`` left) or stopped (``seat`` null)."""

    type: Literal["timer"]
    seat: int | None
    seconds: float | None
    phase: Literal["turn", "grace"] | None


class ErrorMessage(ProtocolModel):
    """A refused message; nothing changed. ``id`` echoes the refused action's ``id``."""

    type: Literal["error"]
    code: str
    message: str
    """In English; for ``illegal``, the engine's reason."""
    id: str | None = None
    key: str | None = None
    """For ``illegal``: the message catalog's key of the reason, in the player's words."""
    params: dict[str, Any] | None = None
    """The placeholders of ``key``: numbers, texts, ``{"key", "params"}`` objects (a card's
    name, to be filled the same way) or lists of them (joined with ``", "``)."""


class Pong(ProtocolModel):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: str | None = None


class Pause(ProtocolModel):
    """Between two rounds: the table waits until every seat in ``waiting`` has sent
    ``continue``, or ``seconds`` have passed; nobody acts meanwhile. ``waiting`` empty: the
    pause is over and the next round goes on."""

    type: Literal["pause"]
    round: int
    """The round just finished."""
    waiting: list[int]
    seconds: float | None


class LogMessage(ProtocolModel):
    """After each ``state`` sent on a connect, and for a ``log`` request: a page of the
    current game's actions (the latest, at most 200), for a log in words that misses nothing
    (``dos.server.tables.history``)."""

    type: Literal["log"]
    game: int
    """The table's game number (``TableInfo.game``)."""
    first: int
    """The index of the page's first entry (0: the game's first action)."""
    total: int
    """How many actions the game has had: the latest page ends there."""
    entries: list[dict[str, Any]]
    """``{"action", "seat", "before"}``: an action, its seat, and a brief of the public view
    just before it (``round``, ``dealer``, ``turn``, ``phase``, ``hand_sizes``, ``center``,
    ``bonuses``, ``scores``, ``winner``, ``rounds`` and ``result`` the last round's winner and
    points; classic: ``pending``, ``top``, ``colour``); for the connection's own draws also
    ``drawn``, the cards it drew (only that seat is told)."""
    now: dict[str, Any]
    """The brief of the public view after the page's last action."""


class ChatLine(ProtocolModel):
    """A chat message, to everyone at the table: its author's seat (null: a spectator) and
    name, and either a text (show it as text, never as HTML) or a quick reaction."""

    type: Literal["chat"]
    seat: int | None
    name: str | None
    text: str | None
    reaction: str | None


class ChatRules(ProtocolModel):
    """Whether spectators may write in the chat; sent on connect and when the host changes it."""

    type: Literal["chat_rules"]
    spectators: bool


class ChatHistoryLine(ProtocolModel):
    """One line of a ``chat_history``: a ``chat`` message without its ``type``."""

    seat: int | None
    name: str | None
    """The author's name when it was said (null: a spectator)."""
    text: str | None
    reaction: str | None


class ChatHistory(ProtocolModel):
    """On connect, after ``chat_rules``: the table's chat kept so far, oldest first (its
    latest 200 lines, ``dos.server.tables.chat.HISTORY_MAX``; stored with the table, so a restart
    keeps them). Everyone at the table reads the chat, so every connection gets it. Show
    these lines instead of any held before (after a reconnect), then add each ``chat``: no
    line is in both."""

    type: Literal["chat_history"]
    lines: list[ChatHistoryLine]


class HintMessage(ProtocolModel):
    """The answer to ``hint``, to the asking connection only: the ``expert`` level's action
    for the seat's view at ``version``, and why, in words."""

    type: Literal["hint"]
    version: int
    action: str
    """The action in notation."""
    move: Literal["match", "draw", "lay", "place", "end"]
    """What kind of action it is."""
    cards: list[str]
    """The cards it plays (a match, a lay, a placement), in notation."""
    target: int | None
    """The Center Row index a match plays on, else null."""
    reason: dict[str, Any]
    """Why, as ``{"key", "params"}`` (as an ``error``'s ``key`` and ``params``)."""


_AnyServer = (
    Welcome
    | State
    | Update
    | TableMessage
    | Timer
    | ErrorMessage
    | Pong
    | Pause
    | LogMessage
    | ChatLine
    | ChatRules
    | ChatHistory
    | HintMessage
)
ServerMessage = Annotated[_AnyServer, Field(discriminator="type")]
SERVER_MESSAGE = TypeAdapter[_AnyServer](ServerMessage)
"""Validates a server message (tests check every message a client receives)."""


def server_message(kind: str, **fields: Any) -> str:
    """A server message as JSON text.

    >>> server_message("pong", id=None)
    '{"type":"pong","id":null}'
    """
    return json.dumps({"type": kind, **fields}, separators=(",", ":"))
