"""``python -m dos.rl.train``: its help and its parser agree, the default run is short, and the
commands docs/rl.md shows are accepted. No training runs here: ``train`` is replaced by a stub
that records the settings it is given."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from dos.rl import train as train_module

DOCS = Path(__file__).parents[2] / "docs" / "rl.md"


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        train_module.main(["--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        train_module.main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err


def test_every_option_the_help_mentions_is_one_the_parser_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _help(capsys)
    usage = text.split("\n\n", 1)[0]
    mentioned = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text)) - {"--help"}
    taken = set(re.findall(r"\[?(--[a-z][a-z-]*)", usage)) - {"--help"}
    assert "--save-every" in mentioned
    assert mentioned <= taken, f"the help mentions options it refuses: {mentioned - taken}"


def test_save_every_is_taken_and_reaches_the_training(
    tmp_path: Path, runs: list[train_module.Settings]
) -> None:
    train_module.main(["--out", str(tmp_path / "p.npz"), "--save-every", "5"])
    assert runs[-1].save_every == 5
    train_module.main(["--out", str(tmp_path / "p.npz")])
    assert runs[-1].save_every == train_module.Settings().save_every


@pytest.mark.parametrize("value", ["0", "-3", "x"])
def test_save_every_below_one_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    stderr = _refused(capsys, "--out", str(tmp_path / "p.npz"), "--save-every", value)
    assert "--save-every" in stderr


def test_an_option_it_does_not_have_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert "--checkpoint" in _refused(capsys, "--out", str(tmp_path / "p.npz"), "--checkpoint")


def test_a_first_try_is_a_short_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, runs: list[train_module.Settings]
) -> None:
    train_module.main(["--out", str(tmp_path / "p.npz")])
    assert runs[-1].minutes == 2.0
    assert runs[-1].minutes == train_module.Settings().minutes
    assert re.search(r"--minutes MINUTES\s+.*\(default 2\b", _help(capsys))
    train_module.main(["--out", str(tmp_path / "p.npz"), "--minutes", "90"])
    assert runs[-1].minutes == 90.0


def test_a_number_of_iterations_alone_has_no_time_limit(
    tmp_path: Path, runs: list[train_module.Settings]
) -> None:
    train_module.main(["--out", str(tmp_path / "p.npz"), "--iterations", "3420"])
    assert (runs[-1].iterations, runs[-1].minutes) == (3420, None)
    train_module.main(["--out", str(tmp_path / "p.npz"), "--iterations", "50", "--minutes", "1"])
    assert (runs[-1].iterations, runs[-1].minutes) == (50, 1.0)


@pytest.mark.parametrize("value", ["0", "-1"])
def test_minutes_must_be_positive(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    assert "--minutes" in _refused(capsys, "--out", str(tmp_path / "p.npz"), "--minutes", value)


def _documented_commands() -> list[list[str]]:
    text = DOCS.read_text(encoding="utf-8").replace("\\\n", " ")
    return [
        shlex.split(line.split("-m dos.rl.train", 1)[1], comments=True)
        for line in text.splitlines()
        if "-m dos.rl.train " in line and line.lstrip().startswith(".venv/bin/python")
    ]


def test_every_training_command_of_the_docs_is_taken(
    tmp_path: Path, runs: list[train_module.Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = _documented_commands()
    assert len(commands) >= 3
    assert any("--minutes" in argv for argv in commands)
    monkeypatch.chdir(tmp_path)
    for argv in commands:
        if "--init" in argv:  # the file of an earlier run: not there
            at = argv.index("--init")
            argv = argv[:at] + argv[at + 2 :]
        train_module.main(argv)
    assert len(runs) == len(commands)
