"""``dos ladder``: every pair meets the same duplicated deals, the ratings do not depend on the
backend, the files are written, and bad input exits 2 with a message and writes nothing."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dos import extras
from dos.arena import ladder_report
from dos.arena.ladder import default_names, ladder_schedule, run_ladder
from dos.arena.schedule import make_schedule
from dos.arena.tournament import run_tournament
from support import run_cli

RULES = ["official", "classic"]
NAMES = ["random", "greedy", "medium"]
QUICK = ["--bots", ",".join(NAMES), "--target", "30", "--no-progress"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, "ladder", *args)


@pytest.mark.parametrize("rules", RULES)
def test_every_pair_plays_the_same_deals_under_both_seatings(rules: str) -> None:
    specs = ladder_schedule(NAMES, 4, seed=7, target_score=30, rules=rules)
    assert [spec.index for spec in specs] == list(range(len(specs)))
    by_pair: dict[frozenset[str], list[tuple[int, tuple[str, ...]]]] = {}
    for spec in specs:
        by_pair.setdefault(frozenset(spec.seating), []).append((spec.seed, spec.seating))
    assert len(by_pair) == 3
    tournament = [spec.seed for spec in make_schedule(["random", "greedy"], 2, 4, seed=7)]
    for games in by_pair.values():
        assert len(games) == 4
        assert [seed for seed, _ in games] == tournament  # the deals of a tournament, same seed
        first = games[0][1]
        assert Counter(seating for _, seating in games) == {first: 2, first[::-1]: 2}
    assert all(spec.rules == rules for spec in specs)


def test_the_games_run_deal_by_deal_so_every_pair_is_spread_through_the_ladder() -> None:
    specs = ladder_schedule(NAMES, 4, known=NAMES)
    assert [spec.deal for spec in specs] == [0] * 6 + [1] * 6


@pytest.mark.parametrize("rules", RULES)
def test_by_default_every_bot_and_level_but_no_policy_file(rules: str) -> None:
    names = default_names(rules)
    assert names == ["random", "greedy", "mcts", "sage", "easy", "medium", "hard", "expert"]
    assert not any(name.startswith("policy:") for name in names)


@pytest.mark.parametrize("rules", RULES)
def test_a_pair_of_the_ladder_plays_the_games_of_a_tournament(rules: str) -> None:
    ladder = run_ladder(NAMES, 4, seed=3, target_score=30, rules=rules, progress=False)
    alone = run_tournament(["greedy", "medium"], 2, 4, seed=3, target_score=30, rules=rules)
    pair = [game for game in ladder.games if set(game.seating) == {"greedy", "medium"}]
    assert [(g.seed, g.seating, g.winner, g.scores) for g in pair] == [
        (g.seed, g.seating, g.winner, g.scores) for g in alone.games
    ]
    assert all(bot.games == 8 for bot in ladder.summary.bots)
    for row in NAMES:
        for column in NAMES:
            if row != column:
                assert ladder.pairwise.games[row, column] == 4
                won = ladder.pairwise.wins.get((row, column), 0)
                assert won + ladder.pairwise.wins.get((column, row), 0) == 4


@pytest.mark.parametrize("rules", RULES)
def test_the_ratings_do_not_depend_on_the_number_of_jobs(
    capsys: pytest.CaptureFixture[str], rules: str
) -> None:
    def ladder(*extra: str) -> dict[str, Any]:
        status, stdout, stderr = run(
            capsys, *QUICK, "--rules", rules, "--games", "4", "--seed", "5", "--json", *extra
        )
        assert (status, stderr) == (0, "")
        document: dict[str, Any] = json.loads(stdout)
        for entry in document["standings"]:
            del entry["decision_seconds"]
        del document["ladder"]["backend"], document["ladder"]["seconds"]
        return document

    one, two = ladder(), ladder("--jobs", "2")
    assert one == two
    assert [entry["rank"] for entry in one["standings"]] == [1, 2, 3]
    ratings = [entry["rating"]["ordinal"] for entry in one["standings"]]
    assert ratings == sorted(ratings, reverse=True)


def test_greedy_is_rated_above_random(capsys: pytest.CaptureFixture[str]) -> None:
    # greedy wins practically every game against random (docs/bots.md); the deals are fixed
    status, stdout, _ = run(capsys, *QUICK, "--games", "4", "--seed", "1", "--json")
    assert status == 0
    order = [entry["name"] for entry in json.loads(stdout)["standings"]]
    assert order.index("greedy") < order.index("random")


def test_a_small_ladder_writes_its_four_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "deep" / "ladder"
    status, stdout, stderr = run(capsys, *QUICK, "--games", "2", "--seed", "2", "--out", str(out))
    assert (status, stderr) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == sorted(ladder_report.FILES)
    lines = stdout.splitlines()
    assert lines[0].startswith("6 games: 3 names, 3 pairs x 2 games (1 deal x 2 seatings)")
    assert lines[2].split()[:3] == ["rank,", "name", "rating"]
    assert any(line.startswith("row beats column") for line in lines)
    assert lines[-1].startswith(f"wrote {out / 'games.csv'}")
    assert (out / "ladder.txt").read_text(encoding="utf-8") == "\n".join(lines[:-2]) + "\n"

    with (out / "games.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [row["game"] for row in rows] == [str(i) for i in range(6)]
    assert len({row["seed"] for row in rows}) == 1

    document = json.loads((out / "ladder.json").read_text(encoding="utf-8"))
    assert document["ladder"]["bots"] == NAMES and document["ladder"]["games_per_pair"] == 2
    assert len(document["games"]) == 6
    wins = sum(entry["wins"] for entry in document["standings"])
    assert wins == 6 and sum(row["winner_bot"] == "greedy" for row in rows) == next(
        entry["wins"] for entry in document["standings"] if entry["name"] == "greedy"
    )
    greedy = document["pairwise"]["greedy"]
    assert set(greedy) == {"random", "medium"} and greedy["random"]["games"] == 2
    assert (out / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,nosuchbot"], "--bots: unknown bot 'nosuchbot' (known: random,"),
        (["--bots", "random"], "--bots: name at least two bots"),
        (["--bots", "random,greedy,random"], "--bots: each bot may be named once"),
        (["--bots", "random,greedy", "--games", "3"], "--games: must be a multiple of 2"),
        (["--bots", "random,greedy", "--games", "0"], "--games: must be at least 1, not 0"),
        (["--bots", "random,greedy", "--players", "3"], "--players: a ladder plays two-player"),
        (["--bots", "random,greedy", "--target", "0"], "--target: must be at least 1"),
        (["--bots", "random,greedy", "--jobs", "0"], "--jobs: must be at least 1, not 0"),
        (["--bots", "random,policy:no/such.npz"], "--bots: 'policy:no/such.npz' cannot be loaded"),
        (["--rules", "classic", "--bots", "random,policy:x.npz"], "--bots: 'policy:x.npz' cannot"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "results"
    status, stdout, stderr = run(capsys, *args, "--no-progress", "--out", str(out))
    assert status == 2
    assert stderr.startswith("dos ladder: ") and message in stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not out.exists()


def test_an_output_folder_without_matplotlib_names_the_extra_before_any_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = extras.installed
    monkeypatch.setattr(extras, "installed", lambda module: module != "matplotlib" and real(module))
    out = tmp_path / "results"
    status, stdout, stderr = run(capsys, *QUICK, "--games", "2", "--out", str(out))
    assert (status, stdout) == (2, "")
    assert "needs matplotlib: pip install 'dos-game[arena]'" in stderr
    assert not out.exists()
    status, _, _ = run(capsys, *QUICK, "--games", "2")  # without --out, no plot is needed
    assert status == 0
