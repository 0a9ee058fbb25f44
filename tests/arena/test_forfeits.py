"""A sandboxed tournament goes on past a bot that raises, hangs or answers a string: each
forfeits its game, named with the game, seed, seat and position; and a tournament where a bot
by path plays deals from a secret key, given back to the organiser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dos import ruleset
from dos.arena.schedule import deal_seeds
from dos.arena.tournament import run_tournament
from dos.bots.sandbox.bot import Sandbox
from support import run_cli

HEAD = """
import random
import time

from dos.bots.base import Budget, turn_choices
from dos.rules.official import Action, SeatView
"""

RAISER = f"""{HEAD}
class Raiser:
    name = "raiser"
    budget = Budget(seconds=60.0)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        raise ValueError("no idea")
"""

HANGER = f"""{HEAD}
class Hanger:
    name = "hanger"
    budget = Budget(seconds=0.05)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        time.sleep(3600)  # never answers: its process is stopped at its limit
        raise AssertionError
"""

STRINGER = f"""{HEAD}
class Stringer:
    name = "stringer"
    budget = Budget(seconds=60.0)

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return str(turn_choices(view)[0])  # type: ignore[return-value]
"""

SANDBOX = Sandbox(move_seconds=120.0, grace=0.5)
"""The hanger's limit is 0.55 s; the others' 60.5 s, never reached by an honest answer."""


def _bots(tmp_path: Path) -> list[str]:
    names = []
    for name, source in (("raiser", RAISER), ("hanger", HANGER), ("stringer", STRINGER)):
        path = tmp_path / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        names.append(str(path))
    return names


def test_a_tournament_of_bots_that_raise_hang_and_answer_strings_reports_each_forfeit(
    tmp_path: Path,
) -> None:
    raiser, hanger, stringer = _bots(tmp_path)
    result = run_tournament(
        [raiser, hanger, stringer], 3, 3, target_score=30, progress=False, sandbox=SANDBOX,
        out=tmp_path / "out", deal_key=b"test",
    )  # fmt: skip
    forfeits = [game.forfeit for game in result.games]
    assert all(forfeit is not None for forfeit in forfeits)
    reasons = {forfeit.bot: forfeit.reason for forfeit in forfeits if forfeit is not None}
    assert reasons[raiser] == f"{raiser} raised ValueError: no idea"
    assert reasons[hanger] == f"{hanger} took over 0.55 s for one move (its limit)"
    assert reasons[stringer] == f"{stringer} returned a str, expected an Action"
    assert result.settings["forfeits"] == 3
    table = result.table()
    assert "forfeits (3):" in table
    for game in result.games:
        assert game.forfeit is not None
        assert game.scores[game.forfeit.seat] == 0  # last
        line = f"game {game.index} (seed {game.seed}), seat {game.forfeit.seat}, decision "
        assert line in table
    written = json.loads((tmp_path / "out" / "tournament.json").read_text(encoding="utf-8"))
    assert [f["game"] for f in written["forfeits"]] == [0, 1, 2]
    first = written["forfeits"][0]
    assert {"game", "seed", "seat", "bot", "reason", "decision", "actions"} <= set(first)
    position = ruleset.get("official").from_position(first["position"])
    assert ruleset.get("official").turn(position) == first["seat"]


def test_in_process_a_bot_that_raises_or_answers_strings_forfeits_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    raiser, _, stringer = _bots(tmp_path)
    result = run_tournament(
        [raiser, stringer, "greedy"], 3, 3, target_score=30, progress=False, sandbox=None,
        deal_key=b"test",
    )  # fmt: skip
    assert len(result.games) == 3
    reasons = {game.forfeit.bot: game.forfeit.reason for game in result.games if game.forfeit}
    assert reasons[raiser].endswith("raised ValueError: no idea")
    assert reasons[stringer].endswith("returned a str, expected an Action")
    assert "forfeits (3):" in result.table()


def test_a_bot_by_path_gets_deals_from_a_secret_key_the_results_give_back(
    tmp_path: Path,
) -> None:
    _, _, stringer = _bots(tmp_path)
    result = run_tournament([stringer, "greedy"], 2, 2, seed=4, progress=False, sandbox=SANDBOX)
    key = bytes.fromhex(result.settings["deal_key"])
    assert len(key) == 16
    assert [game.seed for game in result.games] == deal_seeds(4, 1, key) * 2
    assert deal_seeds(4, 1, key) != deal_seeds(4, 1)  # not the public function of --seed
    again = run_tournament(
        [stringer, "greedy"], 2, 2, seed=4, progress=False, sandbox=SANDBOX, deal_key=key
    )
    assert [g.outcome() for g in again.games] == [g.outcome() for g in result.games]


def test_built_in_bots_deal_from_the_seed_alone() -> None:
    result = run_tournament(["random", "greedy"], 2, 2, seed=4, target_score=30, progress=False)
    assert result.settings["deal_key"] is None
    assert result.games[0].seed == deal_seeds(4, 1)[0]


def test_the_command_line_takes_a_deal_key_and_refuses_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, stringer = _bots(tmp_path)
    status, out, err = run_cli(
        capsys, "tournament", "--bots", f"{stringer},greedy", "--games", "2", "--deal-key",
        "00ff", "--no-progress", "--json",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert json.loads(out)["tournament"]["deal_key"] == "00ff"
    status, out, err = run_cli(
        capsys, "tournament", "--bots", f"{stringer},greedy", "--deal-key", "xyz",
    )  # fmt: skip
    assert status == 2
    assert "--deal-key: hexadecimal digits" in err
