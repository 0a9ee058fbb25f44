"""The house: the DOS server put together, as ``dos serve`` runs it.

The game server (``dos.server``) runs on its own, in one process: it owns small interfaces —
which tables this process owns (``dos.server.hosting.ownership``), where each request is served
(``dos.server.hosting.routing``), the handovers of its tables
(``dos.server.tables.handover_store``), its CPU jobs (``dos.server.hosting.jobs``), the bus between
processes (``dos.server.hosting.bus``) — each with its implementation for one process. What sits on
it plugs in here, above both:

* the agents (``dos.agents``: the HTTP agent API and the MCP server), mounted on the
  application over the server's service API (``dos.server.seat_service``);
* with ``ServerConfig.redis``, the cluster (``dos.cluster``): the tables' leases and their
  handovers in Redis (``Node``), the bots' job queue (``RedisJobs``), the routing of
  each request to its table's owner (``Relay``), and the game reviews any process answers
  (``RedisReviewStore``: claims and progress in Redis, the reviews done in the database).

Each part is built with what it needs, in order: the node, then the service that owns
tables through it, then the relay that routes to the service, then the application behind
the relay. What is needed before it exists is given as a narrow callable, bound late: the
node loads tables through the service, the relay runs forwarded requests through the
application.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from dos.agents import http as agent_http
from dos.agents import mcp_mount
from dos.agents.service import Agents
from dos.cluster.jobqueue import RedisJobs
from dos.cluster.node import LEASE_SECONDS, Node
from dos.cluster.owner_side import Sides
from dos.cluster.relay import Relay
from dos.cluster.reviews import RedisReviewStore
from dos.server import app as server_app
from dos.server.app import ServerConfig
from dos.server.net.guard import Open
from dos.server.seat_service import SeatService
from dos.server.service import Service

if TYPE_CHECKING:
    from dos.server.tables.table import Table


def create_app(config: ServerConfig) -> FastAPI:
    """The application ``dos serve`` runs: the server, its agents, and with
    ``config.redis`` the cluster."""
    if config.redis is None:
        service = server_app.service_for(config)
        return server_app.create_app(config, service, mounts=[mount_agents])
    return _one_of_many(config, config.redis)


def _one_of_many(config: ServerConfig, redis_url: str) -> FastAPI:
    """One process of a server of many, on ``redis_url``."""
    db = server_app.database(config)
    settings = config.settings
    tables: dict[str, Table] = {}
    sides = Sides()

    async def load(code: str) -> Table | None:
        return await service.table(code)  # the service is built next, with this node

    node = Node(
        redis_url,
        config.name,
        db=db,
        metrics=settings.metrics,
        clock=settings.clock,
        tables=tables,
        load=load,
        on_lost=sides.lost,
        ttl=LEASE_SECONDS if config.lease is None else config.lease,
    )
    service = server_app.service_for(
        config,
        db,
        ownership=node,
        handovers=node,
        runner=RedisJobs(redis_url, clock=settings.clock),
        tables=tables,
        bus=node.bus,
    )
    connections = Open(config.limits.client_connections)

    async def run(scope: Scope, receive: Receive, send: Send) -> None:
        await app(scope, receive, send)  # the application is built next, behind this relay

    relay = Relay(
        node,
        service,
        sides,
        connections,
        app=run,
        calls={mcp_mount.MCP_PATH: mcp_mount.MCP_BODY_MAX},
    )
    reviews = RedisReviewStore(node.redis, db, node.owner, clock=settings.clock)
    app = server_app.create_app(
        config,
        service,
        routing=relay,
        connections=connections,
        reviews=reviews,
        mounts=[mount_agents],
    )
    return app


def mount_agents(app: FastAPI, service: Service) -> Callable[[], AbstractAsyncContextManager[None]]:
    """Mounts the agents on ``app`` (a ``dos.server.app.Mount``): the HTTP agent API and the
    MCP server at ``/mcp`` (docs/agents.md), over ``service``'s seat API; returns what the
    application's lifespan runs."""
    agents = Agents(SeatService(service))
    app.include_router(agent_http.agent_router(agents, service.counters))
    return mcp_mount.install(app, agents, service.counters)


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Runs the house until interrupted (``dos.server.app.serve``)."""
    server_app.serve(create_app(config), config, host, port)
