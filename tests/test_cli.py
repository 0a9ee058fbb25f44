"""The ``dos`` command (dos.cli), run in-process, and once as the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dos.cli import main
from dos.perft import divide, perft
from dos.records import record_of
from dos.rules.official import (
    Options,
    all_legal_actions,
    apply,
    from_position,
    new_game,
    parse_action,
    to_position,
)
from support import play_randomly, run_cli

POSITION: dict[str, Any] = {
    "players": 3,
    "dealer": 2,
    "turn": 0,
    "hands": [["B3", "R4", "R#", "Y7", "DOS"], ["G5", "G6"], ["Y9", "B1", "G1"]],
    "center": ["R7", "B5"],
    "draw_pile": ["G1", "B8", "Y3", "R10"],
    "discard": ["B9"],
    "scores": [0, 0, 0],
    "dos_open": [1],
}


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION), encoding="utf-8")
    return path


def test_legal_prints_every_legal_action_one_per_line(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "legal", str(position_file))
    assert (status, err) == (0, "")
    expected = [str(a) for a in all_legal_actions(from_position(POSITION))]
    assert out.splitlines() == expected
    assert "catch 1" in expected
    assert "1: dos" in expected


def test_legal_reads_the_position_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(POSITION)))
    status, out, _ = run_cli(capsys, "legal", "-")
    assert status == 0
    assert out.splitlines() == [str(a) for a in all_legal_actions(from_position(POSITION))]


# a Double Color Match (R# + DOS as red on R7), seat 1's call, the bonus placement
STEPS = ("R#+DOS@0", "1: dos", "place Y7")


def test_apply_prints_the_resulting_position(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "apply", str(position_file), *STEPS)
    assert (status, err) == (0, "")
    expected = from_position(POSITION)
    for text in STEPS:
        apply(expected, parse_action(text))
    assert json.loads(out) == to_position(expected)
    assert len(out.strip().splitlines()) == 1
    # the placement ended the turn: the other seats drew for the Double Color Match
    assert [len(hand) for hand in json.loads(out)["hands"]] == [2, 3, 4]


def test_apply_pretty_indents(capsys: pytest.CaptureFixture[str], position_file: Path) -> None:
    status, out, _ = run_cli(capsys, "apply", "--pretty", str(position_file), "draw")
    assert status == 0
    assert len(out.splitlines()) > 10
    assert json.loads(out)["phase"] == "drawn"


def test_an_illegal_action_exits_2_with_the_rule_and_prints_nothing(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "apply", str(position_file), "draw", "draw")
    assert status == 2
    assert out == ""
    assert "RULES §3" in err
    assert err.startswith("dos apply: action 2 'draw': ")


@pytest.mark.parametrize(
    ("action", "rule"),
    [("Y7@1", "RULES §3"), ("2: draw", "RULES §3"), ("catch 2", "RULES §6"), ("end", "RULES §3")],
)
def test_each_illegal_action_names_its_rule(
    capsys: pytest.CaptureFixture[str], position_file: Path, action: str, rule: str
) -> None:
    status, out, err = run_cli(capsys, "apply", str(position_file), action)
    assert (status, out) == (2, "")
    assert rule in err


def test_unreadable_notation_exits_2(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "apply", str(position_file), "R11@0")
    assert (status, out) == (2, "")
    assert "unknown card 'R11'" in err


def test_a_bad_position_file_exits_2_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**POSITION, "turn": 7}), encoding="utf-8")
    status, out, err = run_cli(capsys, "legal", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("dos legal: turn: ")
    path.write_text("{not json", encoding="utf-8")
    status, _, err = run_cli(capsys, "legal", str(path))
    assert status == 2
    assert "not JSON" in err
    status, _, err = run_cli(capsys, "legal", str(tmp_path / "missing.json"))
    assert status == 2
    assert "cannot read" in err


SIMULATE = ("simulate", "--players", "2", "--games", "3", "--seed", "1", "--json")


def test_simulate_json_prints_counts_and_speed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "simulate", "--players", "2", "--games", "3", "--seed", "1", "--json"
    )
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert set(result) == {
        "rules",
        "engine",
        "players",
        "games",
        "rounds",
        "decisions",
        "seconds",
        "decisions_per_second",
    }
    assert (result["rules"], result["players"], result["games"]) == ("official", 2, 3)
    assert result["rounds"] >= 3
    assert result["decisions"] > 0
    assert result["seconds"] > 0
    rate = result["decisions"] / result["seconds"]
    assert result["decisions_per_second"] == pytest.approx(rate, abs=0.051)
    # the counts, unlike the timings, are a function of the seed
    status, again, _ = run_cli(
        capsys, "simulate", "--players", "2", "--games", "3", "--seed", "1", "--json"
    )
    second = json.loads(again)
    assert (second["rounds"], second["decisions"]) == (result["rounds"], result["decisions"])


def test_simulate_text_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "simulate", "--players", "3", "--games", "1")
    assert status == 0
    assert out.splitlines()[0].split() == ["rules", "official"]
    status, _, err = run_cli(capsys, "simulate", "--games", "0")
    assert status == 2
    assert "--games" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--players", "11"])
    assert exit_info.value.code == 2
    assert "must be from 2 to 10" in capsys.readouterr().err


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    state = play_randomly("official", new_game(Options(players=2, target_score=30), 4), 4)
    path = tmp_path / "game.jsonl"
    path.write_text(record_of("official", state, seed=4).dumps(), encoding="utf-8")
    return path


def test_replay_validates_a_record(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    actions = len(record_file.read_text(encoding="utf-8").splitlines()) - 2
    status, out, err = run_cli(capsys, "replay", str(record_file))
    assert (status, err) == (0, "")
    assert out.startswith(f"valid: {actions} actions, result {{")
    assert "not finished" not in out
    status, out, _ = run_cli(capsys, "replay", "-v", str(record_file))
    assert status == 0
    assert len(out.splitlines()) == actions + 1


def test_replay_exits_2_on_a_broken_record(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    lines = record_file.read_text(encoding="utf-8").splitlines()
    lines[3] = json.dumps({"action": "catch 5"})
    record_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run_cli(capsys, "replay", str(record_file))
    assert (status, out) == (2, "")
    assert err.startswith("dos replay: line 4: action 'catch 5': RULES §6")
    record_file.write_text("garbage\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "replay", str(record_file))
    assert status == 2
    assert "line 1: not JSON" in err


def test_perft_prints_the_count_and_the_divide_breakdown(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    state = from_position(POSITION)
    status, out, _ = run_cli(capsys, "perft", str(position_file), "--depth", "2")
    assert status == 0
    assert out.strip() == str(perft("official", state, 2))
    status, out, _ = run_cli(capsys, "perft", str(position_file), "--depth", "2", "--divide")
    assert status == 0
    lines = out.splitlines()
    rows = divide("official", state, 2)
    assert [line.split() for line in lines[:-1]] == [
        [*action.split(), str(count)] for action, count in rows
    ]
    assert lines[-1] == f"total {perft('official', state, 2)}"
    status, _, err = run_cli(capsys, "perft", str(position_file), "--depth", "0")
    assert status == 2
    assert "--depth" in err


def test_watch_prints_a_game_to_its_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "watch", "--players", "2", "--seed", "1", "--target", "30")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("DOS · official rules · 2 players · target 30 · seed 1")
    last = lines[-1]
    assert last.startswith("Game over after ")
    assert " wins with " in last
    points = int(last.split(" wins with ")[1].split()[0])
    assert points >= 30
    again = run_cli(capsys, "watch", "--players", "2", "--seed", "1", "--target", "30")[1]
    assert again == out


def test_the_installed_console_script_runs(position_file: Path) -> None:
    script = Path(sys.executable).parent / "dos"
    assert script.exists(), f"no console script at {script}; run `make setup`"
    done = subprocess.run(
        [str(script), "legal", str(position_file)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(a) for a in all_legal_actions(from_position(POSITION))]
    failed = subprocess.run(
        [str(script), "apply", str(position_file), "end"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert "RULES §3" in failed.stderr


def test_watch_seats_the_bots_asked_for_and_rejects_unknown_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(
        capsys, "watch", "--players", "3", "--seed", "2", "--target", "40", "--bots", "greedy,easy"
    )
    assert status == 0
    assert "Seats: 0 greedy, 1 easy, 2 greedy" in out
    status, out, err = run_cli(capsys, "watch", "--bots", "nope")
    assert status == 2
    assert out == ""
    assert "--bots: unknown nope" in err


def test_watch_refuses_the_classic_rules_instead_of_showing_an_official_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(capsys, "watch", "--rules", "classic")
    assert status == 2
    assert out == ""
    assert "--rules: dos watch prints official games only" in err
