"""The server's log lines (``dos.server.logs``): a failure that repeats writes its traceback
once and is then counted; every line carries its time; ``--log-format json`` writes one JSON
object a line."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from dos.cli import main
from dos.server import logs


@pytest.fixture
def written() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger of its own writing to a string, as ``dos serve``'s root logger writes to
    stderr (``logging.basicConfig``)."""
    stream = io.StringIO()
    logger = logging.getLogger("dos.test.logs")
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    yield logger, stream
    logger.removeHandler(handler)


def _refuse(logger: logging.Logger, code: str) -> None:
    """What a table does when the database refuses an action's commit."""
    try:
        raise ConnectionRefusedError("connection to server at 10.0.0.5 port 5432 failed")
    except ConnectionRefusedError:
        logger.exception("table %s: could not commit action %d", code, 7)


def test_a_failure_repeated_for_every_action_writes_its_traceback_once(
    written: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, stream = written
    logs.install("web-1", logger)
    for number in range(300):  # a database away, every table's actions refused
        _refuse(logger, f"T{number:05d}")
    logger.info("still here")
    lines = stream.getvalue().splitlines()
    assert sum("Traceback" in line for line in lines) == 1
    assert "T00000: could not commit action 7" in lines[0]
    assert len(lines) < 10, lines  # the traceback and the line after it
    assert lines[-1].endswith("dos.test.logs: still here")


def test_the_repeats_are_counted_in_one_line_a_window() -> None:
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    now: list[float] = [0.0]
    due: list[Callable[[], None]] = []

    def schedule(_delay: float, run: Callable[[], None]) -> None:
        due.append(run)

    handler.addFilter(logs.Repeats(handler, 60, clock=lambda: now[0], schedule=schedule))
    logger = logging.getLogger("dos.test.repeats")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for second in range(60):  # one a second: the first in full, the others held back
            now[0] = float(second)
            _refuse(logger, f"T{second:05d}")
        assert len(due) == 1 and len(lines) == 1
        now[0] = 60.0
        due.pop()()  # the window's end: the 59 after the first, counted
        assert len(lines) == 2
        assert lines[1].startswith("59 times more in the last 60 s, the latest: table T00059")
        assert "ConnectionRefusedError: connection to server at 10.0.0.5" in lines[1]
        for second in range(60, 100):
            now[0] = float(second)
            _refuse(logger, f"T{second:05d}")
        assert len(lines) == 2
        # The next of its kind after a window's end comes as the count, at once.
        now[0] = 130.0
        _refuse(logger, "LATEST")
        assert lines[2].startswith("41 times more in the last 70 s, the latest: table LATEST")
        # Another kind (another exception) is a line of its own, in full.
        try:
            raise TimeoutError("no answer")
        except TimeoutError:
            logger.exception("table %s: could not commit action %d", "X", 1)
        assert lines[3] == "table X: could not commit action 1"
    finally:
        logger.removeHandler(handler)


def test_every_line_carries_its_time_in_utc(written: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = written
    logs.install("web-1", logger)
    with logs.at_table("K7M2QX"):
        logger.warning("the turn timer ran out")
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING web-1 K7M2QX dos\.test\.logs: "
        r"the turn timer ran out\n",
        stream.getvalue(),
    )


def test_json_lines_are_one_object_each(written: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = written
    logs.install("web-1", logger, log_format="json")
    with logs.at_table("K7M2QX"):
        logger.info("taken, epoch %d", 3)
        _refuse(logger, "K7M2QX")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", first.pop("time"))
    assert first == {
        "level": "INFO",
        "node": "web-1",
        "table": "K7M2QX",
        "logger": "dos.test.logs",
        "message": "taken, epoch 3",
    }
    assert second["level"] == "ERROR"
    assert second["message"] == "table K7M2QX: could not commit action 7"
    assert second["error"].startswith("Traceback (most recent call last):")
    assert second["error"].endswith("failed")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_serve_takes_the_log_format(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, log_format: str
) -> None:
    started: list[Any] = []
    monkeypatch.setattr("dos.house.serve", lambda config, *where: started.append(config))
    assert main(["serve", "--data", str(tmp_path), "--log-format", log_format]) == 0
    assert started[0].log_format == log_format


def test_serve_refuses_another_log_format(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--data", str(tmp_path), "--log-format", "xml"])
    assert "invalid choice: 'xml'" in capsys.readouterr().err


def test_a_bot_worker_logs_json_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    class Worker:
        def __init__(self, *_args: Any, **_kwargs: Any) -> None:
            logging.getLogger("dos.cluster.jobworker").warning("ready")

        def stop(self) -> None:
            pass

        async def serve(self) -> None:
            pass

    monkeypatch.setattr("dos.cluster.jobworker.JobWorker", Worker)
    for name in ("DOS_REDIS_URL", "DOS_REDIS_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    stream = io.StringIO()
    # The root's handlers, as the worker's process has them: this one alone (the test's
    # others, and what the worker installs on them, are put back after it).
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [logging.StreamHandler(stream)])
    level = root.level
    try:
        # Nothing listens on port 1: the worker says so in a line and goes on waiting.
        argv = ["bot-worker", "--redis", "redis://127.0.0.1:1/0", "--name", "w-1"]
        assert main([*argv, "--log-format", "json"]) == 0
    finally:
        root.setLevel(level)
    entry = json.loads(stream.getvalue().splitlines()[-1])
    assert (entry["node"], entry["logger"], entry["message"]) == (
        "w-1",
        "dos.cluster.jobworker",
        "ready",
    )
