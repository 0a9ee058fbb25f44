"""The MCP server: tools for AI agents to play DOS, on the official MCP Python SDK.

The tools are defined once (``add_tools``) over a ``Backend``: ``InProcess`` calls the agent
service of the running server (``dos serve`` mounts the MCP server at ``/mcp``, streamable
HTTP), ``OverHttp`` calls a server's HTTP agent API (``dos mcp --server URL``, stdio, for
desktop agents). Either way a tool is a thin call into ``dos.agents.service.Agents``; the
seat comes from the seat token passed to each tool, and a refusal is the server's own,
returned as a tool error that names its code (``refused (stale): ...``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal, Protocol

import httpx
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from dos.agents.service import MAX_WAIT_SECONDS, Agents, Until, rules_text
from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from dos.i18n.explain import Words
from dos.server.bodies import JsonErrors
from dos.server.errors import error_response
from dos.server.limits import Counters, client_address
from dos.server.messages import CreateTable, JoinTable
from dos.server.tables import RefusedError

INSTRUCTIONS = """\
Play DOS (Mattel's sequel to UNO) at a DOS game server.
1. create_table (you are the host at seat 0, bots in the other seats) or join_table; keep the
   seat token it gives: every other tool takes it. The host calls start_game.
2. look shows your seat as text: the Center Row (or discard pile), your hand, the other
   hands' sizes, and your legal actions, each with what it does. rules explains the game.
3. act plays one legal action in notation with the version you saw (a stale version is
   refused: look again). call_dos and catch are the DOS race: be quick.
4. wait returns when the game moves on (until="turn": when you have something to do).
5. When the game is over, game_record gives its record."""

CREATE_TABLE = f"""\
Creates a table with you, ``name``, as its host at seat 0. ``bots``: the other seats (1-3 of
them), each a bot level or null for a human seat others join; default one medium bot.
The bot levels, easiest first: official {", ".join(LEVELS)}; classic {", ".join(CLASSIC_LEVELS)}.
``target_score`` (official): the points that win (200 by default; 20 makes a short game);
``options``: any other options of the rule set (docs/classic.md: ``reaction_time_ms``, ...).
Returns the table code and your seat token. Then start_game."""
"""What the agent reads about ``create_table``: the levels are the bot registry's."""

MCP_PATH = "/mcp"
"""Where ``dos serve`` serves the MCP server (streamable HTTP)."""


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

    async def act(self, token: str, action: str, version: int) -> dict[str, Any]: ...

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]: ...

    async def record(self, token: str) -> str: ...

    async def rules(self, name: str) -> str: ...


def _refused(error: RefusedError) -> ToolError:
    why = f" {json.dumps(error.reason.json())}" if error.reason is not None else ""
    return ToolError(f"refused ({error.code}): {error.message}{why}")


def _grant_text(grant: dict[str, Any]) -> str:
    return (
        f"table {grant['code']}, seat {grant['seat']}\n"
        f"token: {grant['token']}\n"
        f"player_token: {grant['player_token']}\n"
        "Pass the token to look, act, wait and the other seat tools."
    )


def add_tools(server: MCPServer, backend: Backend) -> None:
    """Registers the DOS tools on ``server``, each a call into ``backend``."""

    async def call(work: Any) -> Any:
        try:
            return await work
        except RefusedError as error:
            raise _refused(error) from None

    @server.tool()
    async def list_tables(offset: int = 0) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first (50 at most from offset)."""
        return dict(await call(backend.tables(offset)))

    @server.tool(description=CREATE_TABLE)
    async def create_table(
        name: str,
        *,
        rules: Literal["official", "classic"] = "official",
        bots: list[str | None] | None = None,
        target_score: int | None = None,
        public: bool = False,
        options: dict[str, Any] | None = None,
        ctx: Context,
    ) -> str:
        """A new table (the agent reads ``CREATE_TABLE``)."""
        options = dict(options or {})
        if target_score is not None:
            options["target_score"] = target_score
        body = {
            "name": name,
            "rules": rules,
            "seats": [None, *(bots if bots is not None else ["medium"])],
            "options": options,
            "public": public,
        }
        return _grant_text(await call(backend.create(body, ctx)))

    @server.tool()
    async def join_table(code: str, name: str, ctx: Context, seat: int | None = None) -> str:
        """Takes an open seat (or ``seat``) of the table ``code`` in the lobby, as ``name``.
        Returns your seat token."""
        body: dict[str, Any] = {"name": name, "seat": seat}
        return _grant_text(await call(backend.join(code, body, ctx)))

    @server.tool()
    async def start_game(token: str) -> str:
        """The host starts the game (open seats get bots), or deals a rematch once it is
        over. Returns your seat's view as text."""
        return str((await call(backend.start(token)))["text"])

    @server.tool()
    async def look(token: str) -> str:
        """Your seat's view as canonical text: the table, whose turn, the Center Row (or
        discard pile), your hand, the others' hand sizes and scores, open DOS calls, and
        your legal actions in notation, each with what it does."""
        return str((await call(backend.look(token)))["text"])

    @server.tool()
    async def look_json(token: str) -> dict[str, Any]:
        """Your seat's view as JSON: version, change, table, the rule set's view (hand,
        legal actions, ...), the result once the game is over, and ``legal``: each legal
        action with its meaning."""
        answer = dict(await call(backend.look(token)))
        answer.pop("text", None)
        return answer

    @server.tool()
    async def act(token: str, action: str, version: int, ctx: Context) -> str:
        """Plays ``action`` (notation, e.g. R7@0, R5+DOS@1, draw, lay B3, end, place G7;
        classic: R7, W=G, draw) made on ``version`` (the version you last saw). Returns
        your view after it; a refused action changes nothing and says why."""
        await call(backend.admit(ctx))
        return str((await call(backend.act(token, action, version)))["text"])

    @server.tool()
    async def call_dos(token: str, version: int, ctx: Context) -> str:
        """Calls "DOS!" when you have two cards (official rules), before someone catches
        you. Returns your view after it."""
        await call(backend.admit(ctx))
        return str((await call(backend.act(token, "dos", version)))["text"])

    @server.tool()
    async def catch(token: str, seat: int, version: int, ctx: Context) -> str:
        """Catches ``seat``, who has two cards and has not called "DOS!": they draw two
        penalty cards. Returns your view after it."""
        await call(backend.admit(ctx))
        return str((await call(backend.act(token, f"catch {seat}", version)))["text"])

    @server.tool()
    async def wait(
        token: str,
        version: int,
        change: int | None = None,
        timeout: float = MAX_WAIT_SECONDS,
        until: Literal["change", "turn"] = "turn",
    ) -> str:
        """Waits until the game is past ``version`` (or the table past ``change``, both from
        your last view) — with until="turn" (the default) until you then have a legal
        action or the game is not going on — at most ``timeout`` seconds (30). Returns your
        view."""
        answer = await call(backend.wait(token, version, change, timeout, until))
        return str(answer["text"])

    @server.tool()
    async def rules(rules: Literal["official", "classic"] = "official") -> str:
        """The rules of DOS (official) or of its classic UNO-style variant, in short."""
        return str(await call(backend.rules(rules)))

    @server.tool()
    async def game_record(token: str) -> str:
        """The record of your table's last game (JSON Lines: header, then one action a
        line), once it is over."""
        return str(await call(backend.record(token)))


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
    server: MCPServer = _Server("dos", instructions=INSTRUCTIONS, log_level="WARNING")
    add_tools(server, backend)
    return server


# --- in process (dos serve) -------------------------------------------------------------------


class InProcess:
    """The agent service of this server; a client is counted by its network address."""

    def __init__(self, agents: Agents, counters: Counters) -> None:
        self.agents = agents
        self.counters = counters

    async def admit(self, ctx: Context | None) -> None:
        who = _who(ctx)
        if not self.counters.allow("client_messages", who):
            wait = self.counters.retry_after("client_messages", who)
            raise RefusedError("rate_limited", f"too many actions: try again in {wait} s")

    async def tables(self, offset: int) -> dict[str, Any]:
        limit = self.agents.service.limits.table_page
        return self.agents.tables(max(offset, 0), limit)

    async def create(self, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return await self.agents.create(_model(CreateTable, body), _who(ctx))

    async def join(self, code: str, body: dict[str, Any], ctx: Context | None) -> dict[str, Any]:
        return await self.agents.join(code, _model(JoinTable, body), _who(ctx))

    async def look(self, token: str) -> dict[str, Any]:
        return (await self.agents.look(token)).data

    async def start(self, token: str) -> dict[str, Any]:
        return (await self.agents.start(token)).data

    async def act(self, token: str, action: str, version: int) -> dict[str, Any]:
        return (await self.agents.act(token, action, version)).data

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]:
        kind: Until = "change" if until == "change" else "turn"
        return (await self.agents.wait(token, version, change, timeout, kind)).data

    async def record(self, token: str) -> str:
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


def install(app: FastAPI, agents: Agents, counters: Counters) -> Callable[[], Any]:
    """Mounts the MCP server on ``app`` at ``/mcp`` (streamable HTTP, one JSON answer per
    request, no sessions kept, so POST only: a GET, which would open an event stream, is
    answered 405); returns what the application's lifespan must run."""
    server = new_server(InProcess(agents, counters))
    # Builds the SDK's session manager; its Starlette app is not used: the endpoint is
    # mounted on the server's own application, behind its limits. (No host is given: the
    # SDK's DNS-rebinding check of loopback servers does not apply to a game server that
    # may listen anywhere; the seat token is the authority, docs/agents.md.)
    server.streamable_http_app(
        json_response=True, stateless_http=True, max_request_body_size=16384, host=""
    )
    manager = server.session_manager
    endpoint = StreamableHTTPASGIApp(manager)

    app.router.routes.append(
        Route(MCP_PATH, endpoint=JsonErrors(_Limited(endpoint, counters)), methods=["POST"])
    )

    @contextlib.asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with manager.run():
            yield

    return running


class _Limited:
    """The MCP endpoint, where every request counts as an API look-up of its client."""

    def __init__(self, endpoint: StreamableHTTPASGIApp, counters: Counters) -> None:
        self.endpoint = endpoint
        self.counters = counters

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        who = str(client[0]) if client else "unknown"
        if not self.counters.allow("lookup", who):
            wait = self.counters.retry_after("lookup", who)
            message = f"too many requests (lookup): try again in {wait} s"
            retry = {"Retry-After": str(wait)}
            await error_response(429, "rate_limited", message, None, **retry)(scope, receive, send)
            return
        await self.endpoint(scope, receive, send)


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

    async def act(self, token: str, action: str, version: int) -> dict[str, Any]:
        body = {"action": action, "version": version}
        return dict(await self._json("POST", "/api/agent/seat/actions", token, json=body))

    async def wait(
        self, token: str, version: int, change: int | None, timeout: float, until: str
    ) -> dict[str, Any]:
        params: dict[str, Any] = {"version": version, "timeout": timeout, "until": until}
        if change is not None:
            params["change"] = change
        return dict(await self._json("GET", "/api/agent/seat/wait", token, params=params))

    async def record(self, token: str) -> str:
        return (await self._send("GET", "/api/agent/seat/record", token)).text

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
    return error


def run_stdio(url: str) -> None:
    """``dos mcp --server URL``: the MCP server on stdio, over that server's agent API."""
    server = new_server(OverHttp(url))
    server.run("stdio")
