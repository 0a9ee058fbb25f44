"""The MCP server: tools for AI agents to play DOS, on the official MCP Python SDK.

The tools are defined once (``add_tools``) over a ``Backend``: ``InProcess`` calls the agent
service of the running server (``dos serve`` mounts the MCP server at ``/mcp``, streamable
HTTP), ``OverHttp`` calls a server's HTTP agent API (``dos mcp --server URL``, stdio, for
desktop agents). Either way a tool is a thin call into ``dos.agents.service.Agents``; the
seat comes from the seat token passed to each tool, and a refusal is the server's own,
returned as a tool error that names its code (``refused (stale): ...``).

Every tool answers structured content of a published schema (the HTTP API's shapes:
``AgentView``, ``SeatGrant``, ``TableList``, ``GameRecord``) and a text for the model: the
canonical text of the seat's view, a grant in lines, the record; every parameter has a
description; the server says its package's version.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
from collections.abc import Callable
from typing import Annotated, Any, Protocol

import httpx
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent
from pydantic import AfterValidator, Field
from starlette.types import ASGIApp

from dos import ruleset
from dos.agents.mcp_mount import MCP_BODY_MAX, over_limit
from dos.agents.service import (
    UNTIL,
    AgentJson,
    Agents,
    AgentView,
    GameRecord,
    StaleError,
    rules_text,
)
from dos.agents.text import past_line
from dos.i18n.explain import Words
from dos.server.net.limits import Counters, client_address
from dos.server.protocol.http_bodies import CreateTable, JoinTable, SeatGrant, TableList
from dos.server.protocol.names import NAME_MAX
from dos.server.protocol.refusals import RefusedError
from dos.server.seat_service import MAX_WAIT_SECONDS, Until

INSTRUCTIONS = """\
Play DOS (Mattel's sequel to UNO) at a DOS game server.
1. create_table (you are the host at seat 0, bots in the other seats) or join_table; keep the
   seat token it gives: every other tool takes it. Keep its player_token too and pass it to
   every later create_table and join_table: you stay one player (one rating) across tables.
   A table you create is casual (not rated) unless you ask rated=true. The host calls
   start_game.
2. look shows your seat as text: the Center Row (or discard pile), your hand, the other
   hands' sizes, the game's last actions (who did what), and your legal actions, each with
   what it does. rules explains the game.
3. act plays one legal action in notation with the version you saw (a stale version is
   refused, with the actions that moved the game since: look again). call_dos and catch are
   the DOS race: be quick.
4. wait returns when the game moves on and you have something to do (until="change": at
   any change).
5. When the game is over, game_record gives its record.
Every answer is also structured content (JSON) of a published schema."""

CREATE_TABLE = """\
Creates a table with you, ``name``, as its host at seat 0. ``bots``: the other seats (1-3 of
them), each a bot level or null for a human seat others join; default one medium bot.
The bot levels, easiest first: {levels}.
``target_score`` (official): the points that win (200 by default; 20 makes a short game);
``options``: any other options of the rule set (docs/classic.md: ``reaction_time_ms``, ...).
``rated``: false by default (a casual table: trying things out changes nobody's rating);
true for a table whose games count on the leaderboard. ``player_token``: the one an earlier
grant gave you, to stay the same player. Returns the table code and your seat token (and
your player id and token). Then start_game."""
"""What the agent reads about ``create_table`` (``create_table_description`` fills in the
levels)."""


def create_table_description() -> str:
    """``CREATE_TABLE`` with each rule set's bot levels, as the registry has them now.

    >>> create_table_description().split("easiest first: ")[1].split(".")[0]
    'official easy, medium, hard, expert; classic easy, medium, hard, expert'
    """
    levels = "; ".join(
        f"{entry.name} {', '.join(entry.levels())}" for entry in ruleset.entries() if entry.levels()
    )
    return CREATE_TABLE.format(levels=levels)


def known_rules(name: str) -> str:
    """``name`` if it names a registered rule set; else ``ValueError`` listing them.

    >>> known_rules("classic")
    'classic'
    """
    if ruleset.find(name) is None:
        raise ValueError(f"unknown rule set {name!r} (known: {', '.join(ruleset.names())})")
    return name


def _registered_names(schema: dict[str, Any]) -> None:
    """Lists the registered rule sets as the JSON schema's ``enum`` (when a tool is added)."""
    schema["enum"] = list(ruleset.names())


# --- the tools' parameters, each with what it means (module level: the SDK reads them) -------

SeatToken = Annotated[
    str,
    Field(description="Your seat token, from create_table or join_table: it opens your seat."),
]
Version = Annotated[
    int,
    Field(
        description="The game's version you last saw (`version` of your view): the action is "
        "made on it; if the game has moved on since, it is refused as stale."
    ),
]
Name = Annotated[
    str, Field(description=f"Your display name at the table (1-{NAME_MAX} characters).")
]
PlayerToken = Annotated[
    str | None,
    Field(
        description="The player_token of an earlier grant: you stay the same player (one id, "
        "one rating) across tables. Without it you are a new player."
    ),
]
RuleSet = Annotated[
    str,
    AfterValidator(known_rules),
    Field(
        description="The rule set: official (DOS) or classic (UNO-style).",
        json_schema_extra=_registered_names,
    ),
]
Bots = Annotated[
    list[str | None] | None,
    Field(
        description="The other seats (1-3): a bot level each, or null for a human seat that "
        "someone joins; default: one medium bot."
    ),
]
TargetScore = Annotated[
    int | None,
    Field(description="Official rules: the points that win the game (200 unless given)."),
]
Public = Annotated[
    bool, Field(description="Whether the lobby lists the table (else it is joined by code).")
]
Rated = Annotated[
    bool,
    Field(
        description="Whether the table's games update the players' ratings. Default false: a "
        "casual table, so an agent trying things out leaves the leaderboard alone."
    ),
]
Options = Annotated[
    dict[str, Any] | None,
    Field(description="Other options of the rule set (docs/classic.md: reaction_time_ms, ...)."),
]
Code = Annotated[str, Field(description="The table's code (six letters and digits).")]
WantedSeat = Annotated[
    int | None, Field(description="The open seat you want; default: the first open one.")
]
WithDos = Annotated[
    bool,
    Field(
        description='Official rules: call "DOS!" with this move. If it leaves you two cards, '
        "the call is made with it, before anyone can catch you (two updates: the move, then "
        "dos); otherwise it is ignored.",
    ),
]
Action = Annotated[
    str,
    Field(
        description="One legal action in notation, as your view lists it (R7@0, R5+DOS@1, "
        "draw, lay B3, end, place G7; classic: R7, W=G, draw)."
    ),
]
CaughtSeat = Annotated[int, Field(description="The seat that has not called DOS in time.")]
Change = Annotated[
    int | None,
    Field(
        description="The table's change counter you last saw (`change` of your view): the wait "
        "also ends when it moves (seats, players coming and going)."
    ),
]
Timeout = Annotated[
    float, Field(description="The most seconds to wait, from 0 to 30 (30 unless given).")
]
UntilWhat = Annotated[
    Until,
    Field(
        description="turn (the default): wait until the game moved on and you have something "
        "to do (or the game is over); change: until anything changed."
    ),
]
Offset = Annotated[int, Field(description="How many tables to skip (a page is 50).")]


class Backend(Protocol):
    """Where the tools' calls go: the server in this process, or one over HTTP."""

    async def admit(self, ctx: Context | None) -> None:
        """Counts an action of the calling client (raises ``RefusedError`` past its limit)."""

    async def tables(self, offset: int) -> dict[str, Any]: ...

    async def create(self, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]: ...

    async def join(
        self, code: str, body: dict[str, Any], ctx: Context | None
    ) -> dict[str, Any]: ...

    async def look(self, token: str) -> dict[str, Any]: ...

    async def start(self, token: str) -> dict[str, Any]: ...

    async def leave(self, token: str) -> dict[str, Any]: ...

    async def act(
        self, token: str, action: str, version: int, dos: bool = False
    ) -> dict[str, Any]: ...

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]: ...

    async def record(self, token: str) -> dict[str, Any]: ...

    async def rules(self, name: str) -> str: ...


def _refused(error: RefusedError) -> ToolError:
    why = f" {json.dumps(error.reason.json())}" if error.reason is not None else ""
    moved = ""
    if isinstance(error, StaleError) and error.moved:
        since = error.moved[0]["version"]
        moved = f"\nsince version {since}:\n" + "\n".join(past_line(e) for e in error.moved)
    return ToolError(f"refused ({error.code}): {error.message}{why}{moved}")


def _answer(data: dict[str, Any], text: str | None = None) -> CallToolResult:
    """A tool's answer: ``data`` as structured content, and ``text`` (else ``data`` as JSON)
    for a client that reads text only."""
    if text is None:
        text = json.dumps(data, ensure_ascii=False, indent=2)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _seat_answer(data: dict[str, Any]) -> CallToolResult:
    """A seat's view: ``AgentView`` as structured content, its canonical text as text."""
    return _answer(data, str(data["text"]))


def _grant_answer(grant: dict[str, Any]) -> CallToolResult:
    kind = "rated" if grant["table"]["rated"] else "casual: not rated"
    text = (
        f"table {grant['code']}, seat {grant['seat']} ({kind})\n"
        f"token: {grant['token']}\n"
        f"player_id: {grant['player_id']}\n"
        f"player_token: {grant['player_token']}\n"
        "Pass the token to look, act, wait and the other seat tools; pass the player_token to "
        "create_table and join_table to stay this player."
    )
    return _answer(grant, text)


def add_tools(server: MCPServer, backend: Backend) -> None:
    """Registers the DOS tools on ``server``, each a call into ``backend``."""

    async def call(work: Any) -> Any:
        try:
            return await work
        except RefusedError as error:
            raise _refused(error) from None

    @server.tool()
    async def list_tables(offset: Offset = 0) -> Annotated[CallToolResult, TableList]:
        """The public tables in the lobby or playing, newest first (50 at most from offset)."""
        return _answer(dict(await call(backend.tables(offset))))

    @server.tool(description=create_table_description())
    async def create_table(
        name: Name,
        *,
        rules: RuleSet = ruleset.DEFAULT,
        bots: Bots = None,
        target_score: TargetScore = None,
        public: Public = False,
        rated: Rated = False,
        options: Options = None,
        player_token: PlayerToken = None,
        ctx: Context,
    ) -> Annotated[CallToolResult, SeatGrant]:
        """A new table (the agent reads ``create_table_description()``)."""
        options = dict(options or {})
        if target_score is not None:
            options["target_score"] = target_score
        body = {
            "name": name,
            "rules": rules,
            "seats": [None, *(bots if bots is not None else ["medium"])],
            "options": options,
            "public": public,
            "rated": rated,
            "player_token": player_token,
        }
        return _grant_answer(await call(backend.create(body, ctx)))

    @server.tool()
    async def join_table(
        code: Code,
        name: Name,
        ctx: Context,
        seat: WantedSeat = None,
        player_token: PlayerToken = None,
    ) -> Annotated[CallToolResult, SeatGrant]:
        """Takes an open seat (or ``seat``) of the table ``code`` in the lobby, as ``name``
        (and as the player of ``player_token``). Returns your seat token."""
        body: dict[str, Any] = {"name": name, "seat": seat, "player_token": player_token}
        return _grant_answer(await call(backend.join(code, body, ctx)))

    @server.tool()
    async def start_game(token: SeatToken) -> Annotated[CallToolResult, AgentView]:
        """The host starts the game (open seats get bots), or deals a rematch once it is
        over. Returns your seat's view."""
        return _seat_answer(await call(backend.start(token)))

    @server.tool()
    async def leave_table(token: SeatToken) -> Annotated[CallToolResult, AgentView]:
        """Leaves your table: in the lobby your seat opens again (a host's role passes to
        a player who is here); during a game a stand-in bot plays your seat from now on,
        until you act again, and it opens when the game ends. Returns your seat's view."""
        return _seat_answer(await call(backend.leave(token)))

    @server.tool()
    async def look(token: SeatToken) -> Annotated[CallToolResult, AgentView]:
        """Your seat's view as canonical text: the table, whose turn, the Center Row (or
        discard pile), your hand, the others' hand sizes and scores, open DOS calls, the
        game's last actions, and your legal actions in notation, each with what it does."""
        return _seat_answer(await call(backend.look(token)))

    @server.tool()
    async def look_json(token: SeatToken) -> Annotated[CallToolResult, AgentJson]:
        """Your seat's view as JSON: version, change, table, the rule set's view (hand,
        legal actions, ...), the result once the game is over, ``legal``: each legal action
        with its meaning, and ``last_actions``."""
        answer = dict(await call(backend.look(token)))
        answer.pop("text", None)
        return _answer(answer)

    @server.tool()
    async def act(
        token: SeatToken, action: Action, version: Version, ctx: Context, dos: WithDos = False
    ) -> Annotated[CallToolResult, AgentView]:
        """Plays ``action`` made on ``version`` (the version you last saw); with ``dos``, calls
        "DOS!" with the move that leaves you two cards. Returns your view after it; a refused
        action changes nothing and says why (a stale one, what moved the game since)."""
        await call(backend.admit(ctx))
        return _seat_answer(await call(backend.act(token, action, version, dos)))

    @server.tool()
    async def call_dos(
        token: SeatToken, version: Version, ctx: Context
    ) -> Annotated[CallToolResult, AgentView]:
        """Calls "DOS!" when you have two cards (official rules), before someone catches
        you. Returns your view after it."""
        await call(backend.admit(ctx))
        return _seat_answer(await call(backend.act(token, "dos", version)))

    @server.tool()
    async def catch(
        token: SeatToken, seat: CaughtSeat, version: Version, ctx: Context
    ) -> Annotated[CallToolResult, AgentView]:
        """Catches ``seat``, who has two cards and has not called "DOS!": they draw two
        penalty cards. Returns your view after it."""
        await call(backend.admit(ctx))
        return _seat_answer(await call(backend.act(token, f"catch {seat}", version)))

    @server.tool()
    async def wait(
        token: SeatToken,
        version: Version,
        change: Change = None,
        timeout: Timeout = MAX_WAIT_SECONDS,
        until: UntilWhat = UNTIL,
    ) -> Annotated[CallToolResult, AgentView]:
        """Waits until the game is past ``version`` (or the table past ``change``, both from
        your last view) and then you have a legal action or the game is not going on
        (until="turn", the default, as over HTTP; until="change": at any change) — at most
        ``timeout`` seconds (30). Returns your view."""
        return _seat_answer(await call(backend.wait(token, version, change, timeout, until)))

    @server.tool()
    async def rules(
        rules: Annotated[
            str,
            AfterValidator(known_rules),
            Field(
                description="The rule set to explain: official (DOS) or classic (UNO-style).",
                json_schema_extra=_registered_names,
            ),
        ] = ruleset.DEFAULT,
    ) -> str:
        """The rules of DOS (official) or of its classic UNO-style variant, in short."""
        return str(await call(backend.rules(rules)))

    @server.tool()
    async def game_record(token: SeatToken) -> Annotated[CallToolResult, GameRecord]:
        """The record of your table's last game (JSON Lines: header, then one action a
        line), once it is over, named as your view names it (``game``: its number at the
        table)."""
        record = dict(await call(backend.record(token)))
        text = (
            f"table {record['code']}, game {record['game']}: its record "
            f"(JSON Lines, docs/records.md)\n{record['record']}"
        )
        return _answer(record, text)


def version() -> str:
    """The version of the installed package (what the MCP server says in its info)."""
    try:
        return importlib.metadata.version("dos-game")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "0"


class _Server(MCPServer):
    """The SDK's server, answering a prompt it does not have as a refusal of the request's
    parameters (the SDK raises a bare error for it, logged with its traceback)."""

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> Any:
        if name not in {prompt.name for prompt in await self.list_prompts()}:
            raise MCPError(INVALID_PARAMS, f"unknown prompt {name[:64]!r}: this server has none")
        return await super().get_prompt(name, arguments, context)


def new_server(backend: Backend) -> MCPServer:
    """An MCP server with the DOS tools over ``backend``."""
    server: MCPServer = _Server(
        "dos", version=version(), instructions=INSTRUCTIONS, log_level="WARNING"
    )
    add_tools(server, backend)
    return server


# --- in process (dos serve) -------------------------------------------------------------------


class InProcess:
    """The agent service of this server; a client is counted by its network address."""

    def __init__(self, agents: Agents, counters: Counters) -> None:
        self.agents = agents
        self.counters = counters

    async def admit(self, ctx: Context | None) -> None:
        limited = over_limit(self.counters, "client_messages", _who(ctx))
        if limited is not None:
            raise RefusedError("rate_limited", limited.message)

    async def tables(self, offset: int) -> dict[str, Any]:
        limit = self.agents.seats.table_page
        return await self.agents.tables(max(offset, 0), limit)

    async def create(self, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return await self.agents.create(_model(CreateTable, body), _who(ctx))

    async def join(self, code: str, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return await self.agents.join(code, _model(JoinTable, body), _who(ctx))

    async def look(self, token: str) -> dict[str, Any]:
        return (await self.agents.look(token)).data

    async def start(self, token: str) -> dict[str, Any]:
        return (await self.agents.start(token)).data

    async def leave(self, token: str) -> dict[str, Any]:
        return (await self.agents.leave(token)).data

    async def act(self, token: str, action: str, version: int, dos: bool = False) -> dict[str, Any]:
        return (await self.agents.act(token, action, version, dos)).data

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]:
        kind: Until = "change" if until == "change" else "turn"
        return (await self.agents.wait(token, version, change, timeout, kind)).data

    async def record(self, token: str) -> dict[str, Any]:
        return await self.agents.record(token)

    async def rules(self, name: str) -> str:
        return rules_text(name)


def _who(ctx: Context | None) -> str:
    """The calling client's network address: the key of its limits."""
    request = ctx.request_context.request if ctx is not None else None
    return client_address(getattr(request, "client", None))


def _model(model: type[CreateTable] | type[JoinTable], body: dict[str, Any]) -> Any:
    """``body`` as the server's request model; refused as the HTTP endpoint refuses it."""
    from pydantic import ValidationError

    try:
        return model.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        code = "bad_name" if field == "name" else "bad_request"
        raise RefusedError(code, f"{field or 'body'}: {first['msg']}", field=field) from None


def build(
    agents: Agents, counters: Counters
) -> tuple[ASGIApp, Callable[[], contextlib.AbstractAsyncContextManager[Any]]]:
    """The MCP endpoint of ``dos serve`` over its agent service (streamable HTTP, one JSON
    answer per request, no sessions kept), and what must run around its use: its session
    manager (``dos.agents.mcp_mount`` mounts it)."""
    server = new_server(InProcess(agents, counters))
    # Builds the SDK's session manager; its Starlette app is not used: the endpoint is
    # mounted on the server's own application, behind its limits. (No host is given: the
    # SDK's DNS-rebinding check of loopback servers does not apply to a game server that
    # may listen anywhere; the seat token is the authority, docs/agents.md.)
    server.streamable_http_app(
        json_response=True, stateless_http=True, max_request_body_size=MCP_BODY_MAX, host=""
    )
    manager = server.session_manager
    return StreamableHTTPASGIApp(manager), manager.run


# --- over HTTP (dos mcp --server URL) ---------------------------------------------------------


class OverHttp:
    """A DOS server's HTTP agent API (``docs/agents.md``)."""

    def __init__(self, url: str, client: httpx.AsyncClient | None = None) -> None:
        self.url = url.rstrip("/")
        self.client = client or httpx.AsyncClient(timeout=MAX_WAIT_SECONDS + 15)

    async def admit(self, ctx: Context | None) -> None:
        """The server counts the actions it receives."""

    async def _send(
        self, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token is not None else {}
        try:
            response = await self.client.request(method, self.url + path, headers=headers, **kwargs)
        except httpx.HTTPError as error:
            raise RefusedError("unreachable", f"the server at {self.url}: {error}") from None
        if response.is_error:
            raise _refusal(response)
        return response

    async def _json(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        return (await self._send(method, path, token, **kw)).json()

    async def tables(self, offset: int) -> dict[str, Any]:
        return dict(await self._json("GET", "/api/tables", params={"offset": offset}))

    async def create(self, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return dict(await self._json("POST", "/api/tables", json=body))

    async def join(self, code: str, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return dict(await self._json("POST", f"/api/tables/{code}/join", json=body))

    async def look(self, token: str) -> dict[str, Any]:
        return dict(await self._json("GET", "/api/agent/seat", token))

    async def start(self, token: str) -> dict[str, Any]:
        return dict(await self._json("POST", "/api/agent/seat/start", token))

    async def leave(self, token: str) -> dict[str, Any]:
        return dict(await self._json("POST", "/api/agent/seat/leave", token))

    async def act(self, token: str, action: str, version: int, dos: bool = False) -> dict[str, Any]:
        body = {"action": action, "version": version, "dos": dos}
        return dict(await self._json("POST", "/api/agent/seat/actions", token, json=body))

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"version": version, "timeout": timeout, "until": until}
        if change is not None:
            params["change"] = change
        return dict(await self._json("GET", "/api/agent/seat/wait", token, params=params))

    async def record(self, token: str) -> dict[str, Any]:
        response = await self._send("GET", "/api/agent/seat/record", token)
        headers = response.headers
        try:
            game, game_id = int(headers["dos-game"]), int(headers["dos-game-id"])
        except (KeyError, ValueError):  # a server that does not name it
            game, game_id = 0, 0
        code = headers.get("dos-table", "")
        return {"code": code, "game": game, "game_id": game_id, "record": response.text}

    async def rules(self, name: str) -> str:
        return (await self._send("GET", f"/api/agent/rules/{name}")).text


def _refusal(response: httpx.Response) -> RefusedError:
    """The server's refusal, from its JSON error body."""
    try:
        body = response.json()
        error = RefusedError(str(body["code"]), str(body["message"]), field=body.get("field"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return RefusedError("http", f"HTTP {response.status_code}")
    if isinstance(body.get("key"), str):
        error.reason = Words(body["key"], body.get("params") or {})
    moved = body.get("moved")
    if isinstance(moved, list) and all(isinstance(e, dict) for e in moved):
        return StaleError(error, moved)
    return error


def run_stdio(url: str) -> None:
    """``dos mcp --server URL``: the MCP server on stdio, over that server's agent API."""
    server = new_server(OverHttp(url))
    server.run("stdio")
