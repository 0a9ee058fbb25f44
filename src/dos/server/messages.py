"""The WebSocket protocol and the HTTP bodies of the game server, as typed models.

One module says what every message looks like: the client messages are validated with these
models, and ``docs/protocol.md`` shows their JSON schemas (``schemas()``). Server messages are
built as plain dicts on the hot path (``server_message``), and their models document them and
let tests check every message a client receives.

>>> parse_client_message('{"type": "ping", "id": "7"}')
Ping(type='ping', id='7')
>>> parse_client_message('{"type": "fly"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dos.server.messages.ProtocolError: unknown_type: unknown message type 'fly' (known: action, ...)
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from dos import ruleset
from dos.server.deals import MAX_SEED
from dos.server.names import NAME_MAX, display_name

PROTOCOL_VERSION = 1
"""The protocol version; a client says which it speaks in ``hello``."""

MAX_MESSAGE_BYTES = 4096
"""The largest client message the server reads; a larger one is refused with ``too_big``."""

DisplayName = Annotated[
    str, Field(min_length=1, max_length=4 * NAME_MAX), AfterValidator(display_name)
]
"""A display name: ``dos.server.names.display_name`` normalises it or refuses it."""
Token = Annotated[str, Field(min_length=1, max_length=1024, pattern=r"^[A-Za-z0-9._\-]+$")]
"""A signed token as the server writes it (URL-safe ASCII)."""


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- client -> server -------------------------------------------------------------------------


class Hello(_Message):
    """The first message on a connection: who is speaking. No token: a spectator."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: Token | None = None


class ActionMessage(_Message):
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


class Start(_Message):
    """The host starts the game (lobby -> playing); open seats get bots."""

    type: Literal["start"]


class Rematch(_Message):
    """The host starts a new game with the same seats (finished -> playing)."""

    type: Literal["rematch"]


class Back(_Message):
    """Take one's seat back from the bot that stood in (after a timeout)."""

    type: Literal["back"]


class Sync(_Message):
    """Ask for a full ``state`` message."""

    type: Literal["sync"]


class LogRequest(_Message):
    """Asks for a page of the current game's log: the entries before index ``before`` (the
    latest page without it). Answered with ``log``; an old page costs the client replay work
    (``Limits.work``)."""

    type: Literal["log"]
    before: int | None = Field(default=None, ge=0, le=2**31)


class Ping(_Message):
    """Answered with ``pong``."""

    type: Literal["ping"]
    id: str | None = Field(default=None, max_length=64)


class Continue(_Message):
    """The player has read the round summary: the next round may begin (``pause``)."""

    type: Literal["continue"]


class Chat(_Message):
    """A chat message: a ``text`` (at most 200 characters) or a quick ``reaction``
    (``dos.server.chat.REACTIONS``). The author is the connection's seat."""

    type: Literal["chat"]
    text: str | None = Field(default=None, max_length=1000)
    reaction: str | None = Field(default=None, max_length=20)


class ChatSpectators(_Message):
    """Host: whether spectators may write in the chat."""

    type: Literal["chat_spectators"]
    allowed: bool


SeatNumber = Annotated[int, Field(ge=0, le=63)]


class Leave(_Message):
    """The player leaves the table (``dos.server.seating``): between games the seat opens at
    once (a host's role passes on); during a game the stand-in plays it from now on, and it
    opens when the game ends unless the player comes back first."""

    type: Literal["leave"]


class Replace(_Message):
    """Host, during a game: the stand-in plays the seat of an absent player (no connection)
    at once."""

    type: Literal["replace"]
    seat: SeatNumber


class Remove(_Message):
    """Host: removes another player from the table. Their seat token opens nothing any more;
    during a game the stand-in plays the seat to the end (it stays a bot's seat)."""

    type: Literal["remove"]
    seat: SeatNumber


class SetSeat(_Message):
    """Host, between games: an open seat gets a bot of level ``bot``; ``bot`` null opens a
    bot's seat."""

    type: Literal["set_seat"]
    seat: SeatNumber
    bot: str | None = Field(default=None, max_length=20)


class MakeHost(_Message):
    """Host: hands the host role to the player of ``seat``, who must be here."""

    type: Literal["make_host"]
    seat: SeatNumber


class HintRequest(_Message):
    """Asks for the ``expert`` level's suggested action for one's own seat (``hint``): at a
    casual table of a rule set with hints (``RuleSetInfo.hints``), on one's own turn, where
    hints are allowed (``dos.server.hints``)."""

    type: Literal["hint"]


class AllowHints(_Message):
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


# --- shared shapes ------------------------------------------------------------------------------


class SeatInfo(_Message):
    """One seat of a table. Open: ``name`` and ``bot`` both null."""

    seat: int
    name: str | None
    bot: str | None
    """The bot level (``easy``, ``medium``, ``hard``) of a bot seat, else null."""
    connected: bool
    """Whether the seat's player has a connection open (bots: always true)."""
    away: bool
    """A human seat played by a stand-in bot (turn timer ran out, or the player left)."""


class TableInfo(_Message):
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
    """Whether its seats may ask for hints now (``dos.server.hints``): a casual table of a
    rule set with hints (``RuleSetInfo.hints``) with one person, or whose host allowed them."""
    seeded: bool = False
    """Whether its deals come from a known seed (a server started with ``--deal-seed``, to
    reproduce games): then its games are never rated."""


# --- server -> client ---------------------------------------------------------------------------


class Welcome(_Message):
    """The answer to ``hello``: the seat this connection plays (null: spectator)."""

    type: Literal["welcome"]
    protocol: int
    seat: int | None
    player_id: str | None


class State(_Message):
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


class Update(_Message):
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


class TableMessage(_Message):
    """The table changed: a seat was taken, a player came or went, the status changed."""

    type: Literal["table"]
    table: TableInfo


class Timer(_Message):
    """A turn timer started (``seconds`` left) or stopped (``seat`` null)."""

    type: Literal["timer"]
    seat: int | None
    seconds: float | None
    phase: Literal["turn", "grace"] | None


class ErrorMessage(_Message):
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


class Pong(_Message):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: str | None = None


class Pause(_Message):
    """Between two rounds: the table waits until every seat in ``waiting`` has sent
    ``continue``, or ``seconds`` have passed; nobody acts meanwhile. ``waiting`` empty: the
    pause is over and the next round goes on."""

    type: Literal["pause"]
    round: int
    """The round just finished."""
    waiting: list[int]
    seconds: float | None


class LogMessage(_Message):
    """After each ``state`` sent on a connect, and for a ``log`` request: a page of the
    current game's actions (the latest, at most 200), for a log in words that misses nothing
    (``dos.server.history``)."""

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


class ChatLine(_Message):
    """A chat message, to everyone at the table: its author's seat (null: a spectator) and
    name, and either a text (show it as text, never as HTML) or a quick reaction."""

    type: Literal["chat"]
    seat: int | None
    name: str | None
    text: str | None
    reaction: str | None


class ChatRules(_Message):
    """Whether spectators may write in the chat; sent on connect and when the host changes it."""

    type: Literal["chat_rules"]
    spectators: bool


class ChatHistoryLine(_Message):
    """One line of a ``chat_history``: a ``chat`` message without its ``type``."""

    seat: int | None
    name: str | None
    """The author's name when it was said (null: a spectator)."""
    text: str | None
    reaction: str | None


class ChatHistory(_Message):
    """On connect, after ``chat_rules``: the table's chat kept so far, oldest first (its
    latest 200 lines, ``dos.server.chat.HISTORY_MAX``; stored with the table, so a restart
    keeps them). Everyone at the table reads the chat, so every connection gets it. Show
    these lines instead of any held before (after a reconnect), then add each ``chat``: no
    line is in both."""

    type: Literal["chat_history"]
    lines: list[ChatHistoryLine]


class HintMessage(_Message):
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


# --- HTTP bodies --------------------------------------------------------------------------------


class CreateTable(_Message):
    """``POST /api/tables``: a new table, with its creator (the host) at seat 0."""

    name: DisplayName
    """The host's display name."""
    rules: str = ruleset.DEFAULT
    options: dict[str, Any] = Field(default_factory=dict)
    """The rule set's options; ``players`` is set from ``seats``."""
    seats: list[str | None] = Field(default_factory=lambda: [None, "medium"])
    """One entry per seat (2-4): null for a human seat, or a bot level. Seat 0 is the host's."""
    public: bool = False
    """Listed by ``GET /api/tables``; private tables are joined by code only."""
    rated: bool = True
    """Its games update the players' ratings (docs/ratings.md); false: a casual table."""
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    """The seed of its deals, only on a seeded server (``dos serve --deal-seed``; elsewhere
    refused): game 1 is dealt with this seed (``dos.server.deals``). Null: the server's."""
    turn_seconds: float | None = Field(default=None, gt=0, le=3600)
    """The turn timer in seconds; null is off. Left out: 60 at a table with seats for more
    than one person, off for one person against bots (``dos.server.service.turn_seconds``)."""
    player_token: Token | None = None
    """A ``player_token`` from an earlier grant, to keep one player id across tables."""


class JoinTable(_Message):
    """``POST /api/tables/{code}/join``: take an open human seat."""

    name: DisplayName
    seat: int | None = None
    """The seat wanted; null: the first open one."""
    player_token: Token | None = None


class SeatGrant(_Message):
    """A seat and the signed token that opens it (keep it: it resumes the seat)."""

    code: str
    seat: int
    token: str
    player_id: str
    player_token: str
    table: TableInfo


class TableList(_Message):
    """``GET /api/tables``: the public tables not finished, newest first, one page."""

    tables: list[TableInfo]
    total: int
    """How many public tables there are in all."""
    offset: int
    limit: int


class GameSummary(_Message):
    """One game of a table."""

    game_id: int
    number: int
    status: Literal["playing", "finished", "abandoned"]
    players: list[str]
    result: dict[str, Any] | None


class GameList(_Message):
    """``GET /api/tables/{code}/games``: a page of a table's games, oldest first."""

    total: int
    offset: int
    limit: int
    games: list[GameSummary]


class PlayerGame(_Message):
    """One finished game of a player."""

    game_id: int
    code: str
    seat: int
    name: str
    players: list[str]
    result: dict[str, Any]
    won: bool


class PlayerResults(_Message):
    """``GET /api/players/{player_id}/results``: one page of a player's finished games, newest
    first (by when they finished), and the totals of all of them."""

    player_id: str
    games: int
    """How many finished games the player has (all pages)."""
    wins: int
    """How many of them the player won."""
    offset: int
    """The index of the page's first game, the newest being 0."""
    limit: int
    """The most games a page has (at most 50)."""
    results: list[PlayerGame]


class ReplayFrame(_Message):
    """One step of a finished game: the action that led here (null first) and the position."""

    action: str | None
    position: dict[str, Any]


class Replay(_Message):
    """``GET /api/games/{game_id}/replay``: a page of the positions of a finished game, all
    hands shown."""

    game_id: int
    rules: str
    options: dict[str, Any]
    players: list[str]
    result: dict[str, Any]
    total: int
    """The number of frames: the deal and one after each action."""
    offset: int
    """The index of the page's first frame."""
    limit: int
    """The most frames a page has."""
    frames: list[ReplayFrame]


class RuleSetInfo(_Message):
    """A rule set this server plays, and what it offers (its registry entry,
    ``dos.ruleset.Entry``): a client builds its rules menu, level pickers and switches from
    these, never from the rule set's name."""

    name: str
    """The name tables, records and positions use (``TableInfo.rules``)."""
    summary: str
    """One line that says what it is (English)."""
    levels: list[str]
    """Its bot levels, easiest first (empty where bots cannot play it)."""
    hints: bool
    """Whether its casual tables give hints (``hint``, ``allow_hints``)."""
    reviews: bool
    """Whether its finished games can be reviewed (``POST /api/games/{id}/review``)."""
    rated: bool
    """Whether its games can be rated (a rated table's games update the players' ratings)."""
    reaction: bool
    """Whether it has a real-time reaction test (a view's ``reaction``)."""
    target_score: bool
    """Whether its games are rounds played to a target score (``options.target_score``)."""
    dos_race: bool
    """Whether "DOS!" is called and caught out of turn (the DOS race)."""


class ServerInfo(_Message):
    """``GET /api/info``: what this server offers."""

    protocol: int
    rules: list[str]
    levels: list[str]
    """The official rule set's bot levels, easiest first."""
    levels_by_rules: dict[str, list[str]]
    """Each rule set's bot levels, easiest first (empty where bots cannot play it)."""
    max_message_bytes: int
    seats: list[int]
    seeded: bool = False
    """Whether this server deals from a known seed (``dos serve --deal-seed``): its games are
    reproducible and never rated, and a new table may name its own ``seed``."""
    rulesets: list[RuleSetInfo]
    """Every rule set this server plays, in the order of ``rules``, with what it offers."""


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON schema of every message and body, by name (for ``docs/protocol.md``)."""
    models: list[type[BaseModel]] = [
        Hello,
        ActionMessage,
        Start,
        Rematch,
        Back,
        Sync,
        Ping,
        Continue,
        Chat,
        ChatSpectators,
        HintRequest,
        AllowHints,
        Welcome,
        State,
        Update,
        TableMessage,
        Timer,
        ErrorMessage,
        Pong,
        Pause,
        LogMessage,
        ChatLine,
        ChatRules,
        ChatHistory,
        HintMessage,
        CreateTable,
        JoinTable,
        SeatGrant,
    ]
    return {model.__name__: model.model_json_schema() for model in models}


def schemas_markdown() -> str:
    """The schemas as the Markdown section of ``docs/protocol.md``."""
    parts = []
    for name, schema in schemas().items():
        parts.append(f"### {name}\n\n```json\n{json.dumps(schema, indent=2)}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":  # pragma: no cover
    print(schemas_markdown(), end="")
