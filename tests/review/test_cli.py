"""``dos review`` (``dos.review.cli.main``): its output, its cache, and exit status 2 with a
message for input it rejects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the review runs on the compiled core (the `fast` extra)")

from dos.review.cli import main
from review.games import greedy_game


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text(greedy_game(5).dumps(), encoding="utf-8")
    return path


def test_json_output_has_the_review_of_the_seat(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(game), "--seat", "1", "--json", "--iterations", "8"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "dos-review"
    assert (data["seat"], data["samples"], data["seed"]) == (1, 8, 0)
    assert set(data["summary"]) >= {
        "decisions",
        "inaccuracies",
        "mistakes",
        "blunders",
        "missed_calls",
        "missed_catches",
    }
    assert data["entries"]
    assert set(data["entries"][0]) >= {"index", "chosen", "best", "game_before", "loss"}


def test_text_output_is_one_line_a_decision_and_a_summary(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(game), "--seat", "0", "--iterations", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("?! ")
    assert all(line.split()[0].isdigit() for line in lines[:-1])


def test_the_cache_gives_the_review_back(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    argv = [str(game), "--seat", "0", "--json", "--iterations", "8", "--cache", str(cache)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert len(list(cache.iterdir())) == 1

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("reviewed again instead of reading the cache")

    monkeypatch.setattr("dos.review.cli.review_record", fail)
    assert main(argv) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        (None, [], "cannot read"),
        ("not json\n", [], "not JSON"),
        ('{"format": "dos-record", "version": 1, "rules": "classic", "seed": 1}\n', [], "classic"),
        ("GAME", ["--seat", "2"], "no seat 2"),
        ("GAME", ["--seat", "0", "--iterations", "1"], "--iterations"),
        ("BROKEN", [], "line"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str | None,
    args: list[str],
    message: str,
) -> None:
    path = tmp_path / "game.jsonl"
    record = greedy_game(5)
    if text == "GAME":
        text = record.dumps()
    elif text == "BROKEN":
        record.actions[3] = "R10@7"
        text = record.dumps()
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert main([str(path), "--iterations", "4", *(args or ["--seat", "0"])]) == 2
    error = capsys.readouterr().err
    assert error.startswith("dos review: ")
    assert message in error


def test_a_missing_seat_argument_exits_2(tmp_path: Path) -> None:
    assert main([str(tmp_path / "x.jsonl")]) == 2


def test_the_dos_command_runs_the_same_review(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dos.cli import main as dos_main

    argv = [str(game), "--seat", "1", "--json", "--iterations", "8"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert dos_main(["review", *argv]) == 0
    assert capsys.readouterr().out == alone
    assert dos_main(["review", str(game), "--seat", "7"]) == 2
    assert "seat" in capsys.readouterr().err
