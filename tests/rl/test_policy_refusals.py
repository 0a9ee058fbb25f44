"""A ``policy:FILE`` at a table it was not trained for is refused when the bot is made for that
table: exit 2, a message naming the file, what it plays and what the table is, no traceback."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from dos.bots.base import Budget
from dos.bots.registry import make_player
from dos.errors import DosError
from dos.rl.codec import make_codec
from dos.rl.policy import init_params, load, save
from dos.rl.policy_bot import PolicyBot, PolicyRefusedError
from dos.rules.official import Options, new_game, view
from support import run_cli

PUBLISHED = Path(__file__).parents[2] / "docs" / "results" / "policy-official-2p.npz"


def _policy(path: Path, players: int, meta: dict[str, object]) -> Path:
    size = make_codec("official", players, layout="exact").layout.size
    save(path, init_params(np.random.default_rng(players), size, 16, 8), meta)
    return path


@pytest.fixture
def two_player(tmp_path: Path) -> Path:
    return _policy(tmp_path / "two.npz", 2, {"rules": "official", "players": 2})


@pytest.fixture
def three_player(tmp_path: Path) -> Path:
    return _policy(tmp_path / "three.npz", 3, {"rules": "official", "players": 3})


def _refused(capsys: pytest.CaptureFixture[str], command: str, *args: str) -> str:
    """Runs ``dos COMMAND ARGS``; checks the clean refusal and returns its message."""
    status, stdout, stderr = run_cli(capsys, command, *args)
    assert status == 2, stderr
    assert stdout == ""
    assert stderr.startswith(f"dos {command}: ")
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1
    return stderr


def test_the_published_policy_at_a_three_player_table(capsys: pytest.CaptureFixture[str]) -> None:
    name = f"policy:{PUBLISHED}"
    message = _refused(
        capsys, "tournament", "--bots", f"{name},greedy", "--players", "3", "--games", "3"
    )
    assert str(PUBLISHED) in message
    assert "plays the official rules with 2 players" in message
    assert "this table: the official rules with 3 players" in message


def test_the_published_policy_at_a_classic_table(capsys: pytest.CaptureFixture[str]) -> None:
    name = f"policy:{PUBLISHED}"
    message = _refused(capsys, "tournament", "--bots", f"{name},greedy", "--rules", "classic")
    assert str(PUBLISHED) in message
    assert "unknown bot" not in message
    assert "plays the official rules with 2 players" in message
    assert "this table: the classic rules with 2 players" in message


@pytest.mark.parametrize("players", ["2", "4"])
def test_a_three_player_policy_elsewhere_in_a_tournament(
    capsys: pytest.CaptureFixture[str], three_player: Path, players: str
) -> None:
    message = _refused(
        capsys, "tournament", "--bots", f"random,policy:{three_player}", "--players", players
    )
    assert f"policy:{three_player} plays the official rules with 3 players" in message
    assert f"this table: the official rules with {players} players" in message


def test_a_ladder_plays_two_player_tables_only(
    capsys: pytest.CaptureFixture[str], three_player: Path
) -> None:
    message = _refused(capsys, "ladder", "--bots", f"random,policy:{three_player}")
    assert f"policy:{three_player} plays the official rules with 3 players" in message
    assert "this table: the official rules with 2 players" in message


def test_a_classic_ladder(capsys: pytest.CaptureFixture[str], two_player: Path) -> None:
    message = _refused(
        capsys, "ladder", "--rules", "classic", "--bots", f"random,policy:{two_player}"
    )
    assert "plays the official rules with 2 players" in message
    assert "this table: the classic rules with 2 players" in message


def test_dos_watch(capsys: pytest.CaptureFixture[str], two_player: Path) -> None:
    message = _refused(capsys, "watch", "--bots", f"policy:{two_player}", "--players", "4")
    assert f"policy:{two_player} plays the official rules with 2 players" in message
    assert "this table: the official rules with 4 players" in message


def test_a_file_without_a_player_count_is_read_from_its_network(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    silent = _policy(tmp_path / "silent.npz", 2, {"rules": "official"})
    assert load(silent).players == 2
    message = _refused(
        capsys, "tournament", "--bots", f"policy:{silent},random", "--players", "3", "--games", "3"
    )
    assert "plays the official rules with 2 players" in message


def test_a_file_whose_network_contradicts_its_metadata_is_not_a_policy(tmp_path: Path) -> None:
    liar = _policy(tmp_path / "liar.npz", 3, {"rules": "official", "players": 2})
    with pytest.raises(ValueError, match="observation of 3 players"):
        load(liar)


def test_a_missing_file_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere.npz"
    message = _refused(capsys, "tournament", "--bots", f"policy:{missing},random")
    assert str(missing) in message


def test_the_registry_refuses_before_any_game(two_player: Path, three_player: Path) -> None:
    with pytest.raises(PolicyRefusedError) as refused:
        make_player(f"policy:{two_player}", "official", players=3)
    assert isinstance(refused.value, DosError)
    with pytest.raises(PolicyRefusedError, match="classic rules"):
        make_player(f"policy:{two_player}", "classic", players=2)
    assert make_player(f"policy:{three_player}", "official", players=3).bot.name.endswith(
        "three.npz"
    )


def test_a_bot_made_without_the_table_refuses_its_first_wrong_view(two_player: Path) -> None:
    bot = PolicyBot(two_player)
    state = new_game(Options(players=3), 5)
    with pytest.raises(PolicyRefusedError, match="this table: the official rules with 3 players"):
        bot.choose(view(state, state.turn), random.Random(0), Budget())


def test_a_policy_at_its_own_table_plays(
    capsys: pytest.CaptureFixture[str], two_player: Path
) -> None:
    status, stdout, stderr = run_cli(
        capsys,
        "tournament",
        "--bots",
        f"policy:{two_player},random",
        "--games",
        "2",
        "--target",
        "20",
        "--no-progress",
    )
    assert status == 0, stderr
    assert f"policy:{two_player}" in stdout
