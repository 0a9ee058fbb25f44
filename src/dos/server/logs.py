"""Log records that say which process and which table they come from.

With many processes behind one load balancer, a log line is of use only if it names the
process that wrote it and the table it is about. ``ContextFilter`` adds both to every record
that reaches the handlers it is installed on (``install``, which ``dos serve`` calls):

``record.node``
    the process: the name given (``dos serve --name``), else ``host:pid``;
``record.table``
    the table being handled, from a context variable (``TABLE``) that the WebSocket
    connection sets once it knows its table and the bots set in their tasks; ``-`` outside
    any table. asyncio copies the context into every task and timer created from there, so
    the table's own work carries its code too.

``FORMAT`` shows them: ``INFO web-1:4242 K7M2QX dos.server.tables.table: ...``.

>>> import logging
>>> record = logging.LogRecord("dos", logging.INFO, __file__, 1, "hello", None, None)
>>> with at_table("K7M2QX"):
...     ContextFilter("web-1").filter(record)
True
>>> record.node, record.table
('web-1', 'K7M2QX')
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Iterator
from contextvars import ContextVar

TABLE: ContextVar[str | None] = ContextVar("dos_table", default=None)
"""The code of the table the current task works for (``None``: none)."""

FORMAT = "%(levelname)s %(node)s %(table)s %(name)s: %(message)s"
"""The server's log format: level, process, table, logger, message."""


def process_name(configured: str | None = None) -> str:
    """This process's name in logs: the one configured, else ``host:pid``.

    >>> process_name("web-1")
    'web-1'
    >>> process_name().endswith(f":{os.getpid()}")
    True
    """
    return configured or f"{socket.gethostname()}:{os.getpid()}"


@contextlib.contextmanager
def at_table(code: str | None) -> Iterator[None]:
    """Within the block, log records name the table ``code``."""
    token = TABLE.set(code)
    try:
        yield
    finally:
        TABLE.reset(token)


class ContextFilter(logging.Filter):
    """Adds ``node`` (the process) and ``table`` (``TABLE``, else ``-``) to each record; a
    record that has them already (``extra=``) keeps its own."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        """Adds the fields; never drops a record."""
        if not hasattr(record, "node"):
            record.node = self.node
        if not hasattr(record, "table"):
            record.table = TABLE.get() or "-"
        return True


def install(node: str, logger: logging.Logger | None = None) -> ContextFilter:
    """Puts a ``ContextFilter`` on every handler of ``logger`` (the root logger) and gives
    them ``FORMAT``; returns the filter. Call it after the handlers exist
    (``logging.basicConfig``)."""
    target = logger if logger is not None else logging.getLogger()
    context = ContextFilter(node)
    for handler in target.handlers:
        handler.addFilter(context)
        handler.setFormatter(logging.Formatter(FORMAT))
    return context
