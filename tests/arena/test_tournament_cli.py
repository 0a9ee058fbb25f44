"""``dos tournament``: bad input exits 2 with a message and writes nothing; a real run writes
its CSV, JSON and PNG, all or none."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from dos.arena import report
from dos.arena.schedule import TournamentError
from dos.arena.tournament import run_tournament
from support import run_cli

QUICK = ["--bots", "random,easy", "--target", "40", "--no-progress"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, "tournament", *args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,nosuchbot"], "--bots: unknown bot 'nosuchbot' (known: random,"),
        (["--bots", "random"], "--bots: name at least two bots"),
        (["--bots", "random,random"], "--bots: each bot may be named once"),
        (["--bots", "random,easy", "--games", "0"], "--games: must be at least 1, not 0"),
        (["--bots", "random,easy", "--games", "-6"], "--games: must be at least 1, not -6"),
        (["--bots", "random,easy", "--games", "5"], "--games: must be a multiple of 2"),
        (["--bots", "random,easy", "--players", "1"], "--players: must be from 2 to 10, not 1"),
        (["--bots", "random,easy", "--players", "11"], "--players: must be from 2 to 10, not 11"),
        (["--bots", "random,easy", "--jobs", "0"], "--jobs: must be at least 1, not 0"),
        (["--bots", "random,easy", "--target", "0"], "--target: must be at least 1"),
        (["--bots", "random,easy", "--ray", "no:port"], "--ray: 'no:port' is not an address"),
        (
            ["--bots", "random,easy", "--ray", "127.0.0.1:1", "--ray-timeout", "2"],
            "--ray: cannot reach 127.0.0.1:1: ",
        ),
    ],
)
def test_bad_input_exits_2_with_a_message_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "results"
    status, stdout, stderr = run(capsys, *args, "--no-progress", "--out", str(out))
    assert status == 2
    assert stderr.startswith("dos tournament: ") and message in stderr
    assert stdout == ""
    assert not out.exists()


def test_an_output_path_that_is_a_file_is_rejected_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("keep me", encoding="utf-8")
    status, _, stderr = run(capsys, *QUICK, "--games", "2", "--out", str(blocker / "sub"))
    assert status == 2 and f"--out: {blocker} is not a folder" in stderr
    assert blocker.read_text(encoding="utf-8") == "keep me"


def test_a_small_run_writes_csv_json_and_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "deep" / "results"
    status, stdout, stderr = run(
        capsys, *QUICK, "--games", "12", "--jobs", "2", "--seed", "3", "--out", str(out)
    )
    assert (status, stderr) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == sorted(report.FILES)  # no temporary files
    lines = stdout.splitlines()
    assert lines[0].startswith("12 games (6 deals x 2 seatings), random, easy, seed 3, target 40")
    assert "processes (2 jobs)" in lines[0]
    assert any(line.startswith("random ") for line in lines)
    assert any(line.startswith("win rate by seat") for line in lines)
    assert lines[-1].startswith(f"wrote {out / 'games.csv'}")

    with (out / "games.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 12
    assert [row["game"] for row in rows] == [str(i) for i in range(12)]
    assert {(row["bot_0"], row["bot_1"]) for row in rows} == {
        ("random", "easy"),
        ("easy", "random"),
    }
    assert all(row["winner_bot"] == row[f"bot_{row['winner_seat']}"] for row in rows)

    document = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
    settings, summary, games = document["tournament"], document["summary"], document["games"]
    assert settings["bots"] == ["random", "easy"] and settings["deals"] == 6
    assert settings["options"]["target_score"] == 40
    assert len(games) == 12 and games[0]["seed"] == games[1]["seed"]
    bots = {bot["name"]: bot for bot in summary["bots"]}
    assert bots["random"]["wins"] + bots["easy"]["wins"] == 12
    assert sum(row["winner_bot"] == "random" for row in rows) == bots["random"]["wins"]
    low, high = bots["random"]["ci95"]
    assert 0 <= low <= bots["random"]["win_rate"] <= high <= 1
    assert set(bots["easy"]["decision_seconds"]) == {"median", "p95"}
    assert [seat["games"] for seat in bots["easy"]["per_seat"]] == [6, 6]

    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_prints_the_summary_and_the_same_seed_gives_the_same_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def games_of(*extra: str) -> dict[str, object]:
        status, stdout, _ = run(capsys, *QUICK, "--games", "4", "--seed", "9", "--json", *extra)
        assert status == 0
        document: dict[str, object] = json.loads(stdout)
        return document

    first, second = games_of(), games_of("--jobs", "2")
    assert first["tournament"]["seed"] == 9  # type: ignore[index]
    for document in (first, second):
        for bot in document["summary"]["bots"]:  # type: ignore[index]
            del bot["decision_seconds"]
    assert first["summary"] == second["summary"]


def test_a_failed_write_leaves_nothing_behind(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken_plot(path: Path, *args: object) -> None:
        path.write_bytes(b"half a picture")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "write_plot", broken_plot)
    fresh = tmp_path / "new" / "folder"
    with pytest.raises(TournamentError, match=r"--out: cannot write the results to .*No space"):
        run_tournament(["random", "easy"], 2, 2, target_score=40, out=fresh, progress=False)
    assert not (tmp_path / "new").exists()

    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "games.csv").write_text("old", encoding="utf-8")
    with pytest.raises(TournamentError):
        run_tournament(["random", "easy"], 2, 2, target_score=40, out=existing, progress=False)
    assert [p.name for p in existing.iterdir()] == ["games.csv"]
    assert (existing / "games.csv").read_text(encoding="utf-8") == "old"


def test_a_bot_that_cannot_be_loaded_is_rejected_before_any_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dos.bots import registry

    monkeypatch.setitem(registry.BOTS, "ghost", "dos.bots.no_such_module:Ghost")
    with pytest.raises(TournamentError, match="--bots: 'ghost' cannot be loaded: No module"):
        run_tournament(["random", "ghost"], 2, 2, progress=False)


def test_the_table_shows_a_bot_holding_several_seats(capsys: pytest.CaptureFixture[str]) -> None:
    status, stdout, _ = run(capsys, *QUICK, "--players", "3", "--games", "3")
    assert status == 0
    assert "3 games (1 deal x 3 seatings), random, easy, easy" in stdout
    header = next(line for line in stdout.splitlines() if line.startswith("bot "))
    assert header.split()[:5] == ["bot", "seats", "games", "wins", "win"]
    easy = next(line for line in stdout.splitlines() if line.startswith("easy "))
    assert easy.split()[1:3] == ["2", "3"]  # two seats, in all three games
