"""The ASGI application: one router per resource, the WebSocket of each player, the browser
client.

``create_app(config)`` builds it from the routers: the tables and their WebSocket
(``dos.server.http.table_routes``; the conversation is ``dos.server.http.conversation``), the
finished games (``games``), players (``players``), accounts (``accounts``) and the browser client's
pages and files (``client_routes``), over a ``Service`` (``service_for``) of one process. What
plugs into the server comes in as arguments, from above it (``dos.house``): a service built
with other implementations of the server's interfaces, the routing of a server of many
(``dos.server.hosting.routing``), and what mounts itself on the application (``Mount``: the agents).
``serve(app, config, host, port)`` runs an application on uvicorn and prints the address to
open. The protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware

from dos import ruleset
from dos.server import logs
from dos.server.hosting.bus import Bus
from dos.server.hosting.jobs import Jobs, JobSettings, LocalJobs
from dos.server.hosting.ownership import Ownership
from dos.server.hosting.review_store import LocalReviewStore, ReviewStore
from dos.server.hosting.routing import LocalRouting, Routing
from dos.server.http.account_routes import accounts_router
from dos.server.http.admin import admin_router
from dos.server.http.client_routes import client_router, not_found_page
from dos.server.http.friends import friends_router
from dos.server.http.games import games_router
from dos.server.http.health import health_router
from dos.server.http.learn import learn_router
from dos.server.http.moderation import moderation_router, news_for
from dos.server.http.players import players_router
from dos.server.http.reviews import Reviews, reviews_router
from dos.server.http.table_routes import tables_router
from dos.server.matchmaking.routes import queue_router
from dos.server.matchmaking.service import Queue
from dos.server.net import errors
from dos.server.net.bodies import BodyLimit
from dos.server.net.guard import GuardedWebSockets, Open, guarded_protocol
from dos.server.net.limits import Counters, Limits
from dos.server.people.accounts import Accounts
from dos.server.people.auth import load_secret
from dos.server.people.friends import Friends
from dos.server.people.relying_party import RelyingParty
from dos.server.protocol.base import MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from dos.server.protocol.http_bodies import ServerInfo
from dos.server.service import MAX_SEATS, MIN_SEATS, Service
from dos.server.storage.database import Database, database_url
from dos.server.tables.handover_store import HandoverStore
from dos.server.tables.settings import Settings
from dos.server.tables.table import Table
from dos.server.tournaments.routes import tournaments_router
from dos.server.tournaments.service import Tournaments

if TYPE_CHECKING:
    import uvicorn

log = logging.getLogger(__name__)

WS_MAX_BYTES = 65536
"""Frames over this size close the connection (1009); over ``MAX_MESSAGE_BYTES`` are refused."""


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
    """What one client may ask (``dos.server.net.limits``)."""
    relying_party: RelyingParty = field(default_factory=RelyingParty.from_environment)
    """Who passkeys are made for: ``DOS_RP_ID``, ``DOS_ORIGINS`` (docs/accounts.md)."""
    jobs: JobSettings = field(default_factory=JobSettings.from_environment)
    """Hints' and reviews' CPU jobs (``dos.server.hosting.jobs``): ``DOS_HINT_ITERATIONS``..."""
    redis: str | None = None
    """A Redis URL (``redis://host:6379/0``): the server is one of many processes, which
    share there the per-client limits and one token secret (``DOS_SECRET``), and, plugged in
    from above (``dos.house``), the tables' leases, the bus that routes each table's requests
    to its owner and the bots' job queue (``dos.cluster``). ``None``: one process, no
    Redis."""
    name: str | None = None
    """This process's name in its logs (``dos.server.logs``); default ``host:pid``."""
    lease: float | None = None
    """With ``redis``: a process's lease in seconds (``dos.cluster.node.LEASE_SECONDS`` unless
    told): how long a dead process's tables wait before another adopts them."""
    log_format: str = "text"
    """Its log lines as text or as JSON objects (``dos.server.logs.formatter``)."""


MAX_BODY_BYTES = 16384
"""The largest HTTP request body read (413 past it)."""


def _ruleset_info(entry: ruleset.Entry) -> dict[str, Any]:
    """A rule set as ``/api/info`` lists it (``RuleSetInfo``): what its registry entry
    offers, so that a client builds its menus from it without knowing any rule set.

    >>> info = _ruleset_info(ruleset.entry("classic"))
    >>> info["levels"][0], info["hints"], info["reaction"], info["dos_race"]
    ('easy', False, True, False)
    """
    return {
        "name": entry.name,
        "summary": entry.summary,
        "levels": entry.levels(),
        "hints": entry.hints,
        "reviews": entry.reviews,
        "rated": entry.rated,
        "reaction": entry.reaction is not None,
        "target_score": entry.target_score,
        "dos_race": entry.dos_race,
    }


def _static_dir() -> Path:
    from dos.web import STATIC_DIR

    return STATIC_DIR


Mount = Callable[[FastAPI, Service], Callable[[], contextlib.AbstractAsyncContextManager[Any]]]
"""What mounts itself on the application from above the server (the agents, ``dos.house``):
given the application and its service, it adds its routes and returns what the application's
lifespan runs while it serves."""


def database(config: ServerConfig) -> Database:
    """The database ``config`` names (not opened yet: the service's start opens it)."""
    return Database(database_url(config.database, config.data), config.sqlite_synchronous)


def service_for(
    config: ServerConfig,
    db: Database | None = None,
    *,
    ownership: Ownership | None = None,
    handovers: HandoverStore | None = None,
    runner: Jobs | None = None,
    tables: dict[str, Table] | None = None,
    bus: Bus | None = None,
) -> Service:
    """The service ``config`` describes, on ``db`` (by default ``database(config)``): of one
    process unless given other implementations of the server's interfaces (``Service``).
    With ``config.redis`` its per-client counters are kept in Redis, and its token secret is
    the one every process shares."""
    return Service(
        database(config) if db is None else db,
        config.data,
        config.settings,
        config.limits,
        config.jobs,
        ownership=ownership,
        handovers=handovers,
        runner=runner,
        counters=Counters(config.limits, config.redis),
        tables=tables,
        secret=load_secret(config.data, shared=config.redis is not None),
        bus=bus,
    )


def create_app(
    config: ServerConfig,
    service: Service | None = None,
    *,
    routing: Routing | None = None,
    connections: Open | None = None,
    reviews: ReviewStore | None = None,
    mounts: Sequence[Mount] = (),
) -> FastAPI:
    """The application of ``service`` (by default ``service_for(config)``: one process),
    with its service started and stopped by the lifespan. ``routing`` (by default
    ``LocalRouting``: every request served here) stands before the routes; ``connections``
    counts each client's open connections (HTTP and WebSocket; shared with the routing);
    ``reviews`` keeps the game reviews (by default ``LocalReviewStore``: the data folder);
    ``mounts`` mount themselves after the server's own resources."""
    service = service_for(config) if service is None else service
    routing = LocalRouting() if routing is None else routing
    open_connections = (
        Open(config.limits.client_connections) if connections is None else connections
    )
    counters = service.counters
    accounts = Accounts(service, config.relying_party)
    reviews_served = Reviews(
        service, LocalReviewStore(service.data / "reviews") if reviews is None else reviews
    )
    running: list[Callable[[], contextlib.AbstractAsyncContextManager[Any]]] = []
    tournaments = Tournaments(service)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        await accounts.start()
        routing.start()
        sweeper = asyncio.create_task(service.sweep())
        ticker = asyncio.create_task(tournaments.run())
        async with contextlib.AsyncExitStack() as mounted:
            for run in running:
                await mounted.enter_async_context(run())
            yield
        sweeper.cancel()
        ticker.cancel()
        await reviews_served.close()  # before the service's jobs stop: they wait for these
        await routing.stop()
        await service.stop()

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
    news = news_for(service)
    app.include_router(moderation_router(service, accounts, counters, news))
    app.include_router(admin_router(service, accounts, counters, _static_dir(), news))
    friends = Friends(service.db, accounts, service.signer, service.clock)
    app.include_router(friends_router(service, friends, counters))
    app.include_router(health_router(service.metrics, service.db, counters, service.jobs))
    app.include_router(learn_router(counters))
    app.include_router(reviews_router(reviews_served, counters))
    app.include_router(tournaments_router(tournaments, counters))
    app.include_router(queue_router(Queue(service), counters))
    running.extend(mount(app, service) for mount in mounts)
    app.state.open_connections = open_connections
    app.add_middleware(routing.middleware)  # a table's requests go to its owner
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)  # 413 in the JSON error body
    app.add_middleware(GZipMiddleware, minimum_size=500)  # HTTP only; WebSockets pass by

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        """Whether the server answers."""
        return {"ok": True}

    @app.get("/api/info", response_model=ServerInfo)
    async def info() -> dict[str, Any]:
        """The protocol version, rule sets (each with what it offers), bot levels and
        limits."""
        entries = list(ruleset.entries())
        return {
            "protocol": PROTOCOL_VERSION,
            "rules": [entry.name for entry in entries],
            "levels": ruleset.entry(ruleset.DEFAULT).levels(),
            "levels_by_rules": {entry.name: entry.levels() for entry in entries},
            "max_message_bytes": MAX_MESSAGE_BYTES,
            "seats": list(range(MIN_SEATS, MAX_SEATS + 1)),
            "seeded": config.settings.deals.seeded,
            "rulesets": [_ruleset_info(entry) for entry in entries],
        }

    app.include_router(tables_router(service, counters, open_connections, config.limits.table_page))
    app.include_router(client_router(_static_dir()))
    app.add_exception_handler(404, not_found_page(_static_dir()))
    return app


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


def uvicorn_server(app: FastAPI, config: ServerConfig) -> uvicorn.Server:
    """The uvicorn server ``serve`` runs ``app`` on (``create_app``'s, made of ``config``):
    its connections guarded by ``config.limits``; at its shutdown the tables are handed to
    the other processes (one of many) and every client is told goodbye (1001) first."""
    import uvicorn

    service: Service = app.state.service

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # One of many: the tables are handed to the other processes first (their
            # clients reattached or reconnecting there), so a rolling upgrade shows nothing.
            await service.ownership.drain()
            # Say goodbye first (1001, docs/protocol.md): uvicorn would close with 1012.
            await service.say_goodbye()
            await super().shutdown(sockets)

    return Server(
        uvicorn.Config(
            app,
            http=guarded_protocol(app.state.open_connections, config.limits.header_seconds),
            ws=GuardedWebSockets,
            limit_concurrency=config.limits.connections,
            ws_max_size=WS_MAX_BYTES,
            ws_per_message_deflate=False,  # compression costs more CPU than it saves here
            log_level="warning",
            log_config=None,  # its records go to the root's handlers: one format for all
            lifespan="on",
            timeout_graceful_shutdown=3,
        )
    )


def serve(app: FastAPI, config: ServerConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Runs ``app`` (``create_app``'s, made of ``config``) until interrupted; prints the
    address to open once it listens."""
    logging.basicConfig(level=logging.INFO)
    # Each record names the process and table; repeated failures are counted, not repeated.
    logs.install(logs.process_name(config.name), log_format=config.log_format)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    # The database thread must not hold the event loop up for long: switch threads often.
    sys.setswitchinterval(0.0005)
    # Games hold many long-lived objects: a full garbage collection over all of them stalls
    # every table at once (hundreds of milliseconds with 500 tables). So the automatic
    # collector only looks at young objects, and a full collection runs every few minutes.
    gc.set_threshold(1000, 20, 1_000_000)
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    # The loopback address is shown by name: passkeys (docs/accounts.md) work at a domain,
    # and browsers hold `localhost` for one, never at a bare IP address.
    shown = "localhost" if host == "127.0.0.1" else f"[{host}]" if ":" in host else host
    service: Service = app.state.service
    # The job workers start now, in the background, warm: the fork server up, the workers
    # forked, the searching bots' compiled rollouts ready in each (never in this process),
    # so that no table's first hint or bot decision waits for them; /api/ready says 503
    # until they are (``dos.server.http.health``). With Redis, ``dos bot-worker`` runs the jobs.
    if isinstance(service.jobs, LocalJobs) and service.job_settings.warm:
        service.jobs.warm()

    server = uvicorn_server(app, config)

    async def main() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        gc.freeze()  # what exists after start-up (modules, loaded tables) is never collected
        if server.started:
            seed = config.settings.deals.seed
            if seed is not None:
                print(
                    f"DOS server: dealing from the known seed {seed} (--deal-seed): "
                    "games reproduce exactly and are never rated",
                    flush=True,
                )
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
