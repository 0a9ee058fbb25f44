"""The ASGI application: HTTP endpoints, the WebSocket of each player, and the browser client.

``create_app(config)`` builds it; ``serve(config, host, port)`` runs it on uvicorn and prints
the address to open. The protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import re
import socket
import sys
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import Response
from starlette.websockets import WebSocketDisconnect

from dos import ruleset
from dos.i18n.explain import Words
from dos.server import errors, hints, logs, seating
from dos.server.accounts import Accounts, accounts_router
from dos.server.auth import TokenError, load_secret
from dos.server.bodies import BodyLimit
from dos.server.bots import bot_support
from dos.server.chat import ChatRefusedError
from dos.server.connections import Client
from dos.server.delivery import file_response, json_response
from dos.server.errors import ApiError
from dos.server.games import games_router
from dos.server.health import health_router
from dos.server.http import GuardedWebSockets, Open, guarded_protocol
from dos.server.jobs import JobSettings
from dos.server.learn import learn_router
from dos.server.limits import Counters, Limits, client_address
from dos.server.limits import limited as limits_dependency
from dos.server.logs import TABLE
from dos.server.messages import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ActionMessage,
    AllowHints,
    Back,
    Chat,
    ChatSpectators,
    Continue,
    CreateTable,
    GameList,
    Hello,
    HintRequest,
    JoinTable,
    Leave,
    LogRequest,
    MakeHost,
    Ping,
    ProtocolError,
    Rematch,
    Remove,
    Replace,
    SeatGrant,
    ServerInfo,
    SetSeat,
    Start,
    Sync,
    TableInfo,
    TableList,
    parse_client_message,
    server_message,
)
from dos.server.passkeys import RelyingParty
from dos.server.players import players_router
from dos.server.reviews import reviews_router
from dos.server.service import MAX_SEATS, MIN_SEATS, Service
from dos.server.storage import Database, database_url, list_games
from dos.server.tables import RefusedError, Settings, Table

log = logging.getLogger(__name__)

HELLO_SECONDS = 10.0
"""How long a new connection has to send ``hello``."""
WS_MAX_BYTES = 65536
"""Frames over this size close the connection (1009); over ``MAX_MESSAGE_BYTES`` are refused."""

_STATUS = {
    "bad_request": 400,
    "bad_seat": 400,
    "bad_token": 401,
    "expired_token": 401,
    "no_table": 404,
    "no_seat": 409,
    "started": 409,
    "bad_state": 409,
}


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How to run the server."""

    data: Path = field(default_factory=lambda: Path("data"))
    """The data folder: the SQLite database (by default) and the token secret."""
    database: str | None = None
    """A database URL (``sqlite:///...``, ``postgresql://...``); default: SQLite in ``data``."""
    settings: Settings = field(default_factory=Settings)
    sqlite_synchronous: str = "FULL"
    limits: Limits = field(default_factory=Limits)
    """What one client may ask (``dos.server.limits``)."""
    relying_party: RelyingParty = field(default_factory=RelyingParty.from_environment)
    """Who passkeys are made for: ``DOS_RP_ID``, ``DOS_ORIGINS`` (docs/accounts.md)."""
    jobs: JobSettings = field(default_factory=JobSettings.from_environment)
    """Hints' and reviews' CPU jobs (``dos.server.jobs``): ``DOS_HINT_ITERATIONS``..."""
    redis: str | None = None
    """A Redis URL (``redis://host:6379/0``): the server is one of many processes, which
    share their per-client limits there (and need one token secret, ``DOS_SECRET``).
    ``None``: one process, no Redis."""
    name: str | None = None
    """This process's name in its logs (``dos.server.logs``); default ``host:pid``."""


def _refused(error: RefusedError) -> Exception:
    if error.code == "rate_limited":
        retry = {"Retry-After": str(error.retry or 1)}
        return HTTPException(429, error.message, headers=retry)
    return ApiError(_STATUS.get(error.code, 400), error.code, error.message, error.field)


GAMES_PAGE = 50
"""The most games one page of a table's games lists."""

MAX_BODY_BYTES = 16384
"""The largest HTTP request body read (413 past it)."""

Code = Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")]
"""A table code in a path."""
GameId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]
"""A game id in a path (a database integer)."""
Offset = Annotated[int, Query(ge=0, le=2**31)]
"""Where a page of a list starts."""
PageLimit = Annotated[int | None, Query(ge=1, le=10000)]
"""How many items a page of a list has (the server caps it)."""


def _levels(rules: str) -> list[str]:
    """The bot levels a table of ``rules`` accepts, easiest first (none where bots cannot
    play it)."""
    support = bot_support(rules)
    return support.levels() if support is not None else []


def _static_dir() -> Path:
    from dos.web import STATIC_DIR

    return STATIC_DIR


def create_app(config: ServerConfig) -> FastAPI:
    """The application, with its service started and stopped by the lifespan."""
    url = database_url(config.database, config.data)
    service = Service(
        Database(url, config.sqlite_synchronous),
        config.data,
        config.settings,
        config.limits,
        config.jobs,
        redis_url=config.redis,
        secret=load_secret(config.data, shared=config.redis is not None),
    )
    counters = service.counters
    accounts = Accounts(service, config.relying_party)
    open_connections = Open(config.limits.client_connections)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        await accounts.start()
        sweeper = asyncio.create_task(service.sweep())
        async with agents_running():
            yield
        sweeper.cancel()
        await service.stop()

    def limited(kind: str) -> Any:
        """A dependency that counts one ``kind`` request of the client (429 past its limit)."""
        return limits_dependency(counters, kind)

    app = FastAPI(
        title="DOS game server",
        version=str(PROTOCOL_VERSION),
        description="Tables, seats and results of online DOS. The WebSocket protocol is "
        "documented in docs/protocol.md.",
        lifespan=lifespan,
        default_response_class=errors.SafeJSONResponse,
        responses=errors.RESPONSES,
    )
    errors.install(app)
    app.state.service = service
    app.include_router(games_router(service, counters))
    app.include_router(players_router(service, counters))
    app.include_router(accounts_router(accounts, counters))
    app.include_router(health_router(service.metrics, service.db, counters))
    app.include_router(learn_router(counters))
    app.include_router(reviews_router(service, counters))
    agents_running = _install_agents(app, service, counters)
    app.state.open_connections = open_connections
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)  # 413 in the JSON error body
    app.add_middleware(GZipMiddleware, minimum_size=500)  # HTTP only; WebSockets pass by

    async def table_or_404(code: str) -> Table:
        table = await service.table(code)
        if table is None:
            raise ApiError(404, "no_table", f"there is no table {code!r}", "code")
        return table

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        """Whether the server answers."""
        return {"ok": True}

    @app.get("/api/info", response_model=ServerInfo)
    async def info() -> dict[str, Any]:
        """The protocol version, rule sets, bot levels and limits."""
        return {
            "protocol": PROTOCOL_VERSION,
            "rules": list(ruleset.names()),
            "levels": _levels("official"),
            "levels_by_rules": {name: _levels(name) for name in ruleset.names()},
            "max_message_bytes": MAX_MESSAGE_BYTES,
            "seats": list(range(MIN_SEATS, MAX_SEATS + 1)),
        }

    page_size = config.limits.table_page

    @app.get("/api/tables", response_model=TableList, dependencies=[limited("lookup")])
    async def public_tables(offset: Offset = 0, limit: PageLimit = None) -> dict[str, Any]:
        """The public tables in the lobby or playing, newest first: ``limit`` of them (at most
        the server's page size, 50 by default) from ``offset``."""
        limit = page_size if limit is None else min(limit, page_size)
        total, tables = service.public_tables(offset, limit)
        return {"tables": tables, "total": total, "offset": offset, "limit": limit}

    @app.post("/api/tables", response_model=SeatGrant, status_code=201)
    async def create_table(request: CreateTable, http: Request) -> dict[str, Any]:
        """Creates a table; the creator is the host, at seat 0 (the ``create`` limit)."""
        try:
            return await service.create(request, client_address(http.client))
        except RefusedError as error:
            raise _refused(error) from None

    @app.get("/api/tables/{code}", response_model=TableInfo, dependencies=[limited("lookup")])
    async def table_info(code: Code) -> dict[str, Any]:
        """One table."""
        return (await table_or_404(code)).info()

    @app.post("/api/tables/{code}/join", response_model=SeatGrant)
    async def join_table(code: Code, request: JoinTable, http: Request) -> dict[str, Any]:
        """Takes an open seat (or gives back the seat this player already has; the ``join``
        limit)."""
        try:
            return await service.join(code, request, client_address(http.client))
        except RefusedError as error:
            raise _refused(error) from None

    @app.get("/api/tables/{code}/games", response_model=GameList, dependencies=[limited("lookup")])
    async def table_games(
        code: Code, offset: Offset = 0, limit: PageLimit = None
    ) -> dict[str, Any]:
        """The games played at a table, oldest first: ``limit`` of them (at most 50) from
        ``offset``, and their ``total``."""
        table = await table_or_404(code)
        limit = GAMES_PAGE if limit is None else min(limit, GAMES_PAGE)
        total, games = await service.db.read(list_games, table.code, offset, limit)
        return {
            "total": total,
            "offset": offset,
            "limit": limit,
            "games": [
                {
                    "game_id": g.id,
                    "number": g.number,
                    "status": g.status,
                    "players": g.players,
                    "result": g.result,
                }
                for g in games
            ],
        }

    @app.get("/api/i18n/{lang}", response_model=dict[str, str])
    async def i18n(
        lang: Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z]+$")],
        request: Request,
    ) -> Response:
        """The browser's texts in ``lang``, a flat object (with an ETag): every namespace but
        the terminal's and those loaded on demand (``/api/i18n/{lang}/{namespace}``)."""
        from dos.i18n import CatalogError, page_catalog

        try:
            return json_response(request, page_catalog(lang))
        except CatalogError as error:
            raise ApiError(404, "no_language", str(error), "lang") from None

    @app.get("/api/i18n/{lang}/{namespace}", response_model=dict[str, str])
    async def i18n_namespace(
        lang: Annotated[str, PathParam(min_length=1, max_length=16, pattern=r"^[a-z]+$")],
        namespace: Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[a-z]+$")],
        request: Request,
    ) -> Response:
        """The texts of one namespace in ``lang`` (the tutorial's: ``learn``), with an ETag."""
        from dos.i18n import LANGS, CatalogError, namespace_catalog

        if lang not in LANGS:
            raise ApiError(404, "no_language", f"unknown language {lang!r}", "lang")
        try:
            return json_response(request, namespace_catalog(lang, namespace))
        except CatalogError as error:
            raise ApiError(404, "no_namespace", str(error), "namespace") from None

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        """One player's (or spectator's) connection: ``docs/protocol.md``."""
        who = client_address(websocket.client)
        if not open_connections.take(who):
            await websocket.close(1013, "too many connections from this client")
            return
        try:
            await websocket.accept()
            if not counters.allow("connects", who):
                await websocket.close(4429, "too many new connections: try again later")
                return
            table = await service.table(code) if _CODE.fullmatch(code) else None
            if table is None:
                await websocket.close(4404, f"there is no table {code[:16]!r}")
                return
            client = Client(websocket, who, counters)
            client.start()
            TABLE.set(table.code)  # this connection's log records name its table
            service.metrics.connections.inc()
            try:
                await _converse(service, table, client)
            except WebSocketDisconnect:
                pass
            finally:
                service.metrics.connections.dec()
                table.detach(client)
                await client.stop()
        finally:
            open_connections.give_back(who)

    static = _static_dir()

    def page(request: Request) -> Response:
        return file_response(request, static / "index.html", "text/html")

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        return page(request)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> Response:
        return file_response(request, static / "leaderboard.html", "text/html")

    @app.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> Response:
        """The tutorial (``docs/learn.md``), shown by the client's learn view."""
        return page(request)

    @app.get("/t/{code}", include_in_schema=False)
    async def join_link(code: str, request: Request) -> Response:
        return page(request)

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_link(game_id: GameId, request: Request) -> Response:
        """A game's replay (``?step=N``: at that moment), shown by the client's replay view."""
        return page(request)

    files = _static_files(static)

    @app.get("/static/{path:path}", include_in_schema=False)
    async def static_file(path: str, request: Request) -> Response:
        # Only the files the client ships: the request's path never reaches the file system.
        target = files.get(path)
        if target is None:
            raise ApiError(404, "not_found", "no such file", "path")
        return file_response(request, target, _MEDIA.get(target.suffix))

    return app


def _install_agents(app: FastAPI, service: Service, counters: Counters) -> Any:
    """The HTTP agent API and the MCP server at /mcp (``dos.agents``, docs/agents.md); returns
    what the lifespan runs."""
    from dos.agents import http, mcp_server
    from dos.agents.service import Agents

    agents = Agents(service)
    app.include_router(http.agent_router(agents, counters))
    return mcp_server.install(app, agents, counters)


_CODE = re.compile(r"[A-Za-z0-9]{1,16}")

_MEDIA = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".woff2": "font/woff2",
}


def _static_files(root: Path) -> dict[str, Path]:
    """The client's files by their path under ``/static/``."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in _MEDIA
    }


async def _receive(websocket: WebSocket, timeout: float | None) -> str | bytes:
    message = await asyncio.wait_for(websocket.receive(), timeout)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text: str | None = message.get("text")
    if text is not None:
        return text
    data: bytes = message.get("bytes") or b""
    return data


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


def _error(
    client: Client, code: str, message: str, ident: str | None = None, reason: Words | None = None
) -> None:
    why = reason.json() if reason is not None else {}
    client.send(server_message("error", code=code, message=message, id=ident, **why))


async def _converse(service: Service, table: Table, client: Client) -> None:
    websocket = client.websocket
    while not client.closed:
        try:
            raw = await _receive(websocket, None if client.greeted else HELLO_SECONDS)
        except TimeoutError:
            _error(client, "hello_required", "no hello in time")
            client.close(4408, "no hello in time")
            await client.drain()
            return
        if not client.allow():
            if client.flooding():
                _error(client, "rate_limited", "too many messages: closing")
                client.close(4429, "flood: too many messages")
                await client.drain()
                return
            message_id = _message_id(raw)
            _error(client, "rate_limited", "too many messages: this one was dropped", message_id)
            continue
        try:
            message = parse_client_message(raw)
        except ProtocolError as error:
            _error(client, error.code, error.message)
            continue
        try:
            done = await _handle(service, table, client, message)
        except Exception:  # a bug must not end the connection, nor the server
            log.exception("table %s: message %s failed", table.code, message.type)
            _error(client, "internal", "the server failed on this message; nothing changed")
            continue
        if done:
            return


async def _handle(service: Service, table: Table, client: Client, message: Any) -> bool:
    """Handles one message; whether the connection is to end."""
    if isinstance(message, Hello):
        if client.greeted:
            _error(client, "hello_required", "hello was already said on this connection")
            return False
        if message.protocol != PROTOCOL_VERSION:
            _error(client, "protocol", f"this server speaks protocol {PROTOCOL_VERSION}")
            client.close(4400, f"protocol {PROTOCOL_VERSION} only")
            await client.drain()
            return True
        seat: int | None = None
        if message.token is not None:
            try:
                claim = service.signer.read_seat(message.token)
            except TokenError as error:
                _error(client, error.code, error.message)
                client.close(4401, error.code)
                await client.drain()
                return True
            if claim.code != table.code or not table.opens(claim.seat, claim.player_id):
                _error(client, "bad_token", "this token does not open a seat at this table")
                client.close(4401, "bad_token")
                await client.drain()
                return True
            seat = claim.seat
            client.player_id = claim.player_id
        client.greeted = True
        await table.attach(client, seat)
        return False
    if not client.greeted:
        _error(client, "hello_required", "say hello first (with your seat token, or null)")
        return False
    if isinstance(message, Ping):
        client.send(server_message("pong", id=message.id))
    elif isinstance(message, Sync):
        if not client.allow_sync():
            _error(client, "rate_limited", "too many resyncs: use the state you were sent")
            return False
        async with table.lock:
            client.send(table.state_message(client.seat))
    elif isinstance(message, ActionMessage):
        if client.seat is None:
            _error(client, "not_seated", "spectators cannot play", message.id)
            return False
        try:
            await table.submit(
                client.seat, message.action, message.version, message.id, dos=message.dos
            )
        except RefusedError as error:
            _error(client, error.code, error.message, message.id, error.reason)
            if error.code == "storage":
                async with table.lock:
                    client.send(table.state_message(client.seat))
    elif isinstance(message, Start | Rematch):
        try:
            if isinstance(message, Start):
                await table.start(client.seat)
            else:
                await table.rematch(client.seat)
        except RefusedError as error:
            _error(client, error.code, error.message)
    elif isinstance(message, Back):
        if client.seat is None:
            _error(client, "not_seated", "spectators have no seat to take back")
        else:
            table.back(client.seat)
    elif isinstance(message, LogRequest):
        await _send_log(table, client, message.before)
    elif isinstance(message, Continue) and client.seat is not None:
        table.proceed(client.seat)
    elif isinstance(message, Leave | Replace | Remove | SetSeat | MakeHost):
        await _seat_control(table, client, message)
    elif isinstance(message, HintRequest):
        service.hints.ask(table, client)
    elif isinstance(message, AllowHints):
        try:
            await hints.allow(table, client.seat, message.allowed)
        except RefusedError as error:
            _error(client, error.code, error.message)
    elif isinstance(message, Chat | ChatSpectators):
        try:
            if isinstance(message, Chat):
                await table.chat.say(table, client, message.text, message.reaction)
            else:
                table.chat.allow_spectators(table, client, message.allowed)
        except ChatRefusedError as error:
            _error(client, error.code, error.message)
    return False


async def _seat_control(
    table: Table, client: Client, message: Leave | Replace | Remove | SetSeat | MakeHost
) -> None:
    """Leaving, and the host's controls over the seats (``dos.server.seating``)."""
    try:
        if isinstance(message, Leave):
            if client.seat is None:
                raise RefusedError("not_seated", "leave: spectators have no seat to leave")
            await table.leave(client.seat)
        elif isinstance(message, Replace):
            await seating.replace(table, client.seat, message.seat)
        elif isinstance(message, Remove):
            await seating.remove(table, client.seat, message.seat)
        elif isinstance(message, SetSeat):
            await seating.set_seat(table, client.seat, message.seat, message.bot)
        else:
            await seating.make_host(table, client.seat, message.seat)
    except RefusedError as error:
        _error(client, error.code, error.message)


async def _send_log(table: Table, client: Client, before: int | None) -> None:
    """A page of the log; one the table does not keep costs the client the replay."""
    log = table.log
    if log is None:
        _error(client, "not_playing", "no game has been dealt at this table")
        return
    cost = log.cost(before)
    if not client.counters.spend("work", cost, client.address):
        wait = client.counters.retry_after("work", client.address)
        _error(client, "rate_limited", f"too much replay work: try again in {wait} s")
        return
    await table.send_log(client, before)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


FULL_GC_SECONDS = 300.0
"""How often the server runs a full garbage collection (see ``serve``)."""


async def _collect_garbage() -> None:
    while True:
        await asyncio.sleep(FULL_GC_SECONDS)
        gc.collect()


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Runs the server until interrupted; prints the address to open once it listens."""
    import uvicorn

    from dos.bots.registry import warm_up

    logging.basicConfig(level=logging.INFO, format=logs.FORMAT)
    logs.install(logs.process_name(config.name))  # each record names the process and table
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    # The database thread must not hold the event loop up for long: switch threads often.
    sys.setswitchinterval(0.0005)
    # Games hold many long-lived objects: a full garbage collection over all of them stalls
    # every table at once (hundreds of milliseconds with 500 tables). So the automatic
    # collector only looks at young objects, and a full collection runs every few minutes.
    gc.set_threshold(1000, 20, 1_000_000)
    # A searching bot's first move would otherwise wait for its compiled rollouts (seconds,
    # under a minute on a machine's first start): ready them while the first players gather.
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    # The loopback address is shown by name: passkeys (docs/accounts.md) work at a domain,
    # and browsers hold `localhost` for one, never at a bare IP address.
    shown = "localhost" if host == "127.0.0.1" else f"[{host}]" if ":" in host else host
    app = create_app(config)
    service: Service = app.state.service

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Say goodbye first (1001, docs/protocol.md): uvicorn would close with 1012.
            await service.say_goodbye()
            await super().shutdown(sockets)

    server = Server(
        uvicorn.Config(
            app,
            http=guarded_protocol(app.state.open_connections, config.limits.header_seconds),
            ws=GuardedWebSockets,
            limit_concurrency=config.limits.connections,
            ws_max_size=WS_MAX_BYTES,
            ws_per_message_deflate=False,  # compression costs more CPU than it saves here
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=3,
        )
    )

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        gc.freeze()  # what exists after start-up (modules, loaded tables) is never collected
        if server.started:
            print(f"DOS server: open http://{shown}:{bound}/", flush=True)
        collector = asyncio.create_task(_collect_garbage())
        await task
        collector.cancel()

    loop_factory = None
    with contextlib.suppress(ImportError):
        import uvloop

        loop_factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(main())
    if not server.started:
        sys.exit(1)
