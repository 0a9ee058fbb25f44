"""The ``dos`` command with ``--rules classic``: legal, apply, simulate, replay, perft."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dos.records import record_of
from dos.rules.classic import all_legal_actions, from_position, new_game
from support import play_randomly, run_cli

POSITION: dict[str, Any] = {
    "rules": "classic",
    "players": 2,
    "turn": 0,
    "hands": [["B7", "G3", "W"], ["R1", "R2", "B+2"]],
    "draw_pile": ["G9", "Y9"],
    "discard": ["B5"],
}


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(POSITION), encoding="utf-8")
    return path


def test_legal_prints_the_legal_actions_of_a_classic_position(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "legal", "--rules", "classic", str(position_file))
    assert (status, err) == (0, "")
    # B7 follows blue; the Wild wishes any colour; G3 does not fit (§9: must play, no draw)
    assert out.splitlines() == ["B7", "W=B", "W=G", "W=R", "W=Y"]


def test_apply_plays_into_the_reaction_test_and_out_of_it(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, _ = run_cli(capsys, "apply", "--rules", "classic", str(position_file), "B7")
    assert status == 0
    assert json.loads(out)["phase"] == "reaction"
    status, out, _ = run_cli(
        capsys, "apply", "--rules", "classic", str(position_file), "B7", "timeout"
    )
    after = json.loads(out)
    assert (after["phase"], after["turn"]) == ("play", 1)
    assert after["hands"][0] == ["G3", "G9", "W"]  # one penalty card


def test_an_illegal_classic_action_exits_2_naming_the_rule(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    status, out, err = run_cli(capsys, "apply", "--rules", "classic", str(position_file), "draw")
    assert (status, out) == (2, "")
    assert err.startswith("dos apply: action 1 'draw': RULES §9: if you can play, you must")


def test_simulate_plays_random_classic_games(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        capsys, "simulate", "--rules", "classic", "--players", "3", "--games", "5", "--json"
    )
    assert status == 0
    result = json.loads(out)
    assert (result["rules"], result["games"], result["rounds"]) == ("classic", 5, 5)


def test_replay_checks_a_classic_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = play_randomly("classic", new_game(seed=4), 4)
    path = tmp_path / "game.jsonl"
    path.write_text(record_of("classic", state, seed=4).dumps(), encoding="utf-8")
    status, out, _ = run_cli(capsys, "replay", str(path))
    assert status == 0
    assert out.startswith(f"valid: {len(state.history)} actions, result ")
    assert f'"ranking": {state.ranking}' in out
    broken = path.read_text(encoding="utf-8").replace('"seed": 4', '"seed": 5')
    path.write_text(broken, encoding="utf-8")
    status, _, err = run_cli(capsys, "replay", str(path))
    assert status == 2
    assert "dos replay: line " in err


def test_perft_counts_classic_action_sequences(
    capsys: pytest.CaptureFixture[str], position_file: Path
) -> None:
    state = from_position(POSITION)
    status, out, _ = run_cli(
        capsys, "perft", "--rules", "classic", str(position_file), "--depth", "2", "--divide"
    )
    assert status == 0
    rows = dict(line.split() for line in out.splitlines())
    # every play leaves two cards: the reaction test lists its two answers (pass, timeout)
    assert rows == {"B7": "2", "W=B": "2", "W=G": "2", "W=R": "2", "W=Y": "2", "total": "10"}
    assert len(all_legal_actions(state)) == 5
