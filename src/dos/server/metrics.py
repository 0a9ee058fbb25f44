"""The server's figures for Prometheus, served at ``GET /metrics`` (docs/deployment.md).

Each server (``create_app``) has its own ``Metrics`` with its own registry, not
``prometheus_client``'s global one: tests run several servers in one process, and each
process of a many-process server reports its own figures (Prometheus adds the ``instance``
label when it scrapes them). What is measured:

``dos_tables{status}``
    tables held in memory by this process, by status (read when scraped);
``dos_connections``
    WebSocket connections open on this process;
``dos_actions_total{by}``
    actions committed by this process's tables (``by``: ``person`` or ``bot``); actions a
    second is ``rate(dos_actions_total[1m])``;
``dos_action_seconds{stage}``
    an action's latency from its arrival at the table (before waiting for the table's lock)
    to its commit (``stage="committed"``) and to its update queued for every connection
    (``stage="sent"``);
``dos_bot_decision_seconds{level}``
    how long a bot took to choose (its thinking, not its human-like delay);
``dos_bot_decisions_pending``
    bot decisions asked for and not yet made (the bots' queue: searching bots decide in
    worker processes, ``dos.server.tables.bot_decisions``);
``dos_bot_stale_answers_total``
    bot decisions dropped because their table moved on before the answer came;
``dos_bot_fallbacks_total``
    bot decisions the lowest level made instead, the job runner having failed or been busy
    at every attempt;
``dos_ownership_changes_total``, ``dos_failovers_total``
    tables this process became the owner of (``dos.cluster.ownership.take_table``), and
    those it adopted because nobody held them (a dead or stopped owner's: ``dos.cluster.node``).

>>> metrics = Metrics()
>>> metrics.actions.labels(by="bot").inc()
>>> b"dos_actions_total{by=\\"bot\\"} 1.0" in metrics.render()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of ``render``'s text (Prometheus's text format)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: an action takes about a millisecond to handle and commit, more under load."""
DECISION_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: from the simplest bot's instant choice to a searching bot's budget."""

STATUSES = ("lobby", "playing", "finished")
"""The table statuses the tables gauge reports, each even when no table has it."""


class _Tables(Collector):
    """``dos_tables{status}``, counted when scraped from the tables a function returns."""

    def __init__(self, tables: Callable[[], Iterable[Any]]) -> None:
        self.tables = tables

    def collect(self) -> Iterator[Metric]:
        counts = dict.fromkeys(STATUSES, 0)
        for table in self.tables():
            status = str(getattr(table.status, "value", table.status))
            counts[status] = counts.get(status, 0) + 1
        family = GaugeMetricFamily(
            "dos_tables", "Tables held in memory by this process, by status", labels=["status"]
        )
        for status, count in counts.items():
            family.add_metric([status], count)
        yield family

    def describe(self) -> Iterator[Metric]:
        # Described without counting: registering must not call ``tables`` yet.
        yield GaugeMetricFamily("dos_tables", "Tables held in memory by this process")


class Metrics:
    """One server's metrics, in a registry of its own (see the module's docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.connections = Gauge(
            "dos_connections", "WebSocket connections open on this process", registry=registry
        )
        self.actions = Counter(
            "dos_actions",
            "Actions committed by this process's tables",
            ["by"],
            registry=registry,
        )
        self.action_seconds = Histogram(
            "dos_action_seconds",
            "Seconds from an action's arrival at its table to its commit and to its update sent",
            ["stage"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.bot_decision_seconds = Histogram(
            "dos_bot_decision_seconds",
            "Seconds a bot took to choose an action (not its human-like delay)",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.bot_decisions_pending = Gauge(
            "dos_bot_decisions_pending",
            "Bot decisions asked for and not yet made on this process",
            registry=registry,
        )
        self.bot_stale_answers = Counter(
            "dos_bot_stale_answers",
            "Bot decisions dropped because their table moved on before the answer came",
            registry=registry,
        )
        self.bot_fallbacks = Counter(
            "dos_bot_fallbacks",
            "Bot decisions made by the lowest level after the job runner failed repeatedly",
            registry=registry,
        )
        self.agent_waits = Gauge(
            "dos_agent_waits",
            "Agents' long polls waiting for a change of their table on this process",
            registry=registry,
        )
        self.ownership_changes = Counter(
            "dos_ownership_changes",
            "Tables this process became the owner of",
            registry=registry,
        )
        self.failovers = Counter(
            "dos_failovers",
            "Tables this process took over after their owner died",
            registry=registry,
        )
        self._tables: _Tables | None = None
        # The labelled series an action touches, looked up once (``labels`` takes a lock).
        self._counted = {
            by_bot: self.actions.labels(by="bot" if by_bot else "person")
            for by_bot in (False, True)
        }
        self._stages = {
            stage: self.action_seconds.labels(stage=stage) for stage in ("committed", "sent")
        }

    def watch_tables(self, tables: Callable[[], Iterable[Any]]) -> None:
        """Reports ``dos_tables`` from ``tables()`` (objects with a ``status``) when scraped."""
        if self._tables is not None:
            self.registry.unregister(self._tables)
        self._tables = _Tables(tables)
        self.registry.register(self._tables)

    def action_done(self, by_bot: bool, stage: str, seconds: float) -> None:
        """Records one action's latency at ``stage`` (``committed`` also counts it)."""
        if stage == "committed":
            self._counted[by_bot].inc()
        self._stages[stage].observe(seconds)

    def render(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)
