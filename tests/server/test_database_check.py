"""A database ``dos serve`` cannot use stops it at once with one line, its password hidden
(``dos.server.storage.database.check``), not with the traceback of a failed start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dos.cli import main
from server.support import free_port


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://dos:hunter2@127.0.0.1:{port}/dos", "did not answer"),
        ("mysql://dos:hunter2@db/dos", "not a database the server can use"),
        ("hunter2", "not a database URL"),
    ],
)
def test_a_database_it_cannot_use_stops_the_start_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    url: str,
    said: str,
) -> None:
    started: list[Any] = []
    monkeypatch.setattr("dos.house.serve", lambda config, *where: started.append(config))
    database = url.format(port=free_port())  # nothing listens there
    assert main(["serve", "--data", str(tmp_path), "--database", database]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and said in lines[0], lines
    assert "hunter2" not in lines[0] or url == "hunter2"
    assert started == []
