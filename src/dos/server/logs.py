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

``FORMAT`` shows them after the time (UTC, to the millisecond):
``2026-11-29T11:04:09.123Z INFO web-1:4242 K7M2QX dos.server.tables.table: ...``; ``--log-format
json`` writes each record as one JSON object instead (``JsonFormatter``: ``time``, ``level``,
``node``, ``table``, ``logger``, ``message``, and ``error`` with the traceback).

A failure that repeats (a database away refuses every action of every table) would write
its traceback each time: ``Repeats`` writes the first record of each kind of failure in
full, holds back the next ones of that kind for ``REPEAT_SECONDS``, then writes one line
that counts them: ``41 times more in the last 10 s, the latest: ...``.

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
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

TABLE: ContextVar[str | None] = ContextVar("dos_table", default=None)
"""The code of the table the current task works for (``None``: none)."""

FORMAT = "%(asctime)s %(levelname)s %(node)s %(table)s %(name)s: %(message)s"
"""The server's log format: time, level, process, table, logger, message."""

LOG_FORMATS = ("text", "json")
"""What ``--log-format`` takes."""

REPEAT_SECONDS = 10.0
"""How long ``Repeats`` holds back the repeats of one kind of failure before it counts them."""


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


def _utc(created: float) -> str:
    """An instant as ISO 8601 in UTC, to the millisecond.

    >>> _utc(0.25)
    '1970-01-01T00:00:00.250Z'
    """
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{whole}.{int(created % 1 * 1000):03d}Z"


class TextFormatter(logging.Formatter):
    """``FORMAT``, its time in UTC (``_utc``)."""

    def __init__(self) -> None:
        super().__init__(FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 (logging's name)
        """The record's time, ISO 8601 in UTC."""
        return _utc(record.created)


class JsonFormatter(logging.Formatter):
    """Each record as one line of JSON, for a log collector.

    >>> record = logging.LogRecord("dos.x", logging.WARNING, __file__, 1, "a %s", ("b",), None)
    >>> record.created, record.node, record.table = 0.0, "web-1", "K7M2QX"
    >>> JsonFormatter().format(record)  # doctest: +NORMALIZE_WHITESPACE
    '{"time": "1970-01-01T00:00:00.000Z", "level": "WARNING", "node": "web-1",
      "table": "K7M2QX", "logger": "dos.x", "message": "a b"}'
    """

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON object: its time, level, process, table, logger and message,
        and ``error``, the traceback, when it carries one."""
        entry = {
            "time": _utc(record.created),
            "level": record.levelname,
            "node": getattr(record, "node", "-"),
            "table": getattr(record, "table", "-"),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["error"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def formatter(log_format: str = "text") -> logging.Formatter:
    """The formatter of ``--log-format``: ``text`` (``FORMAT``) or ``json``."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"a log format is one of {', '.join(LOG_FORMATS)}")
    return JsonFormatter() if log_format == "json" else TextFormatter()


Schedule = Callable[[float, Callable[[], None]], None]
"""Runs a function after so many seconds (``Repeats``' count of the held-back records)."""


def _timer(delay: float, run: Callable[[], None]) -> None:
    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()


@dataclass(slots=True)
class _Kind:
    """What ``Repeats`` knows of one kind of failure."""

    shown_at: float
    """When its last line was written."""
    held: int = 0
    """Its records held back since."""
    last: logging.LogRecord | None = None
    """The last of them."""
    window: int = 0
    """The number of its current window (a count scheduled for an earlier one is void)."""
    counting: bool = False
    """Whether a count of the current window is scheduled."""


class Repeats(logging.Filter):
    """Holds back failures that repeat, and counts them (a filter on one handler).

    A record that carries an exception (``log.exception``) is of the kind named by its
    logger, its message's template (not its arguments: every table's failure to commit is
    one kind) and the exception's type. The first record of a kind goes through whole, its
    traceback with it; those of that kind within ``window`` seconds of the last line written
    for it are held back and counted; then one line without the traceback says how many:
    ``N times more in the last M s, the latest: ...`` (its message and error), written when
    the window ends (``schedule``) or when the next record of that kind comes after it. Records
    without an exception always go through.

    >>> import sys
    >>> lines, later, now = [], [], [0.0]
    >>> handler = logging.Handler()
    >>> handler.emit = lambda record: lines.append(record.getMessage())
    >>> repeats = Repeats(handler, 60, clock=lambda: now[0], schedule=lambda d, f: later.append(f))
    >>> handler.addFilter(repeats)
    >>> def fail(code):
    ...     try:
    ...         raise OSError("database away")
    ...     except OSError:
    ...         error = sys.exc_info()
    ...     return logging.LogRecord("dos.t", 40, "t.py", 1, "table %s: no commit", (code,), error)
    >>> for second, code in enumerate("ABCD"):
    ...     now[0] = float(second)
    ...     _ = handler.handle(fail(code))
    >>> now[0] = 60.0
    >>> later.pop()()
    >>> lines  # doctest: +NORMALIZE_WHITESPACE
    ['table A: no commit',
     '3 times more in the last 60 s, the latest: table D: no commit (OSError: database away)']
    """

    def __init__(
        self,
        handler: logging.Handler,
        window: float = REPEAT_SECONDS,
        *,
        clock: Callable[[], float] = time.monotonic,
        schedule: Schedule = _timer,
    ) -> None:
        super().__init__()
        self.handler = handler
        self.window = window
        self.clock = clock
        self.schedule = schedule
        self._kinds: dict[tuple[str, str, str], _Kind] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written as it is (see the class's text)."""
        if not record.exc_info or getattr(record, "repeats", False):
            return True
        key = (record.name, str(record.msg), type(record.exc_info[1]).__name__)
        now = self.clock()
        with self._lock:
            kind = self._kinds.get(key)
            if kind is None:
                self._kinds[key] = _Kind(shown_at=now)
                return True
            kind.held += 1
            kind.last = record
            summary = None
            if now - kind.shown_at >= self.window:
                summary = self._summary(kind, now)
            elif not kind.counting:
                kind.counting = True
                number = kind.window
                self.schedule(kind.shown_at + self.window - now, lambda: self._count(key, number))
        if summary is not None:
            self.handler.handle(summary)  # the repeat that ends the window, as the count
        return False

    def _summary(self, kind: _Kind, now: float) -> logging.LogRecord:
        """The line that counts ``kind``'s held-back records; a new window begins."""
        last = kind.last
        assert last is not None and last.exc_info is not None
        error = last.exc_info[1]
        detail = str(error).strip().splitlines()
        cause = f"{type(error).__name__}: {detail[0]}" if detail else type(error).__name__
        times = "once" if kind.held == 1 else f"{kind.held} times"
        text = f"{times} more in the last {now - kind.shown_at:.0f} s, the latest: "
        text += f"{last.getMessage()} ({cause})"
        # A record of its own, of the time it is written; the kind's logger, level, place,
        # and the latest one's process and table.
        summary = logging.LogRecord(
            last.name, last.levelno, last.pathname, last.lineno, text, None, None, last.funcName
        )
        for name in ("node", "table"):
            if hasattr(last, name):
                setattr(summary, name, getattr(last, name))
        summary.repeats = True
        kind.shown_at, kind.held, kind.last = now, 0, None
        kind.window += 1
        kind.counting = False
        return summary

    def _count(self, key: tuple[str, str, str], number: int) -> None:
        """At the end of window ``number`` of a kind: its count, if it held any back."""
        with self._lock:
            kind = self._kinds[key]
            if kind.window != number or not kind.held:
                return
            summary = self._summary(kind, self.clock())
        self.handler.handle(summary)


def install(
    node: str, logger: logging.Logger | None = None, *, log_format: str = "text"
) -> ContextFilter:
    """Puts a ``ContextFilter`` and a ``Repeats`` on every handler of ``logger`` (the root
    logger) and gives them the formatter of ``log_format`` (``formatter``); returns the
    context filter. Call it after the handlers exist (``logging.basicConfig``)."""
    target = logger if logger is not None else logging.getLogger()
    context = ContextFilter(node)
    shown = formatter(log_format)
    for handler in target.handlers:
        handler.addFilter(context)
        handler.addFilter(Repeats(handler))
        handler.setFormatter(shown)
    return context
