"""Your own bot by path (``FILE.py:CLASS``, docs/bots.md "Write your own bot"): the example
bot plays in ``dos tournament``, ``dos ladder`` and ``dos play`` with no change to the registry,
and every way a file can fail to be a bot for the table is refused before the first game, with
exit status 2 and a message that names the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dos.bots.registry import make_player
from dos.rules.official import Kind
from dos.tui.clock import ManualClock
from dos.tui.controller import GameController, Timing
from dos.tui.launch import PlayError, build_app
from support import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "shedder.py"
SHEDDER = f"{EXAMPLE}:Shedder"

CLASSIC_BOT = """
import random

from dos.bots.base import Budget
from dos.rules.classic import Action, SeatView


class FirstLegal:
    name = "first"

    def choose(self, view: SeatView, rng: random.Random, budget: Budget) -> Action:
        return view.legal[0]  # in the reaction test: the only legal answer is to react
"""


def test_the_example_bot_plays_a_tournament_by_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "tournament", "--bots", f"{SHEDDER},random", "--games", "4", "--target", "40",
        "--no-progress", "--json",
    )  # fmt: skip
    assert (status, err) == (0, "")
    summary = json.loads(out)["summary"]
    games = {bot["name"]: bot["games"] for bot in summary["bots"]}
    assert games == {SHEDDER: 4, "random": 4}


def test_the_example_bot_plays_a_ladder_by_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "ladder", "--bots", f"{SHEDDER},random,easy", "--games", "2", "--target", "40",
        "--no-progress",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out.startswith("6 games: 3 names, 3 pairs x 2 games")
    assert SHEDDER in out


def test_a_classic_bot_by_path_plays_the_classic_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "first.py"
    path.write_text(CLASSIC_BOT, encoding="utf-8")
    status, _, err = run_cli(
        capsys, "tournament", "--rules", "classic", "--bots", f"{path},random", "--games", "2",
        "--no-progress",
    )  # fmt: skip
    assert (status, err) == (0, "")
    status, _, err = run_cli(capsys, "tournament", "--bots", f"{path},random", "--games", "2")
    assert status == 2
    assert f"--bots: {path} plays the classic rules, not the official rules" in err


BAD_FILES = {
    "notbot.py": 'class Thing:\n    name = "thing"\n',
    "noname.py": "class Bot:\n    def choose(self, view, rng, budget):\n        return 0\n",
    "args.py": (
        'class Bot:\n    name = "b"\n\n    def __init__(self, depth):\n        pass\n\n'
        "    def choose(self, view, rng, budget):\n        return 0\n"
    ),
    "broken.py": "import no_such_module_for_dos_tests\n",
    "two.py": (
        'class A:\n    name = "a"\n\n    def choose(self, view, rng, budget):\n        return 0\n'
        '\n\nclass B(A):\n    name = "b"\n'
    ),
    "wrong.py": (
        'class Bot:\n    name = "b"\n    rules = "poker"\n\n'
        "    def choose(self, view, rng, budget):\n        return 0\n"
    ),
}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.py:Bot", "missing.py: no such file"),
        ("notbot.py:Nope", "notbot.py: no class 'Nope' (it has no bot class)"),
        ("notbot.py:Thing", "notbot.py:Thing is not a bot: it has no choose(view, rng, budget)"),
        ("noname.py:Bot", "noname.py:Bot is not a bot: give it a name"),
        ("args.py:Bot", "args.py:Bot: Bot() failed (TypeError: "),
        ("broken.py", "broken.py: running it failed: ModuleNotFoundError: "),
        ("two.py", "two.py: name the bot class, as two.py:CLASS (a class with a choose method;"),
        ("wrong.py:Bot", "wrong.py:Bot: rules = 'poker'; a bot plays 'official' or 'classic'"),
    ],
)
@pytest.mark.parametrize("command", ["tournament", "ladder", "play"])
def test_a_file_that_is_no_bot_for_the_table_is_refused_with_status_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    command: str,
    name: str,
    message: str,
) -> None:
    for file, text in BAD_FILES.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    if command == "play":
        args = ["play", "--bots", name]
    else:
        args = [command, "--bots", f"{name},random", "--games", "2", "--no-progress"]
    status, out, err = run_cli(capsys, *args)
    assert (status, out) == (2, "")
    assert err.startswith(f"dos {command}: --bots: ") and message in err, err


def test_dos_play_seats_your_bot_in_every_other_seat() -> None:
    """``dos play --bots FILE.py:CLASS`` builds the game with the bot in seats 1-3; the game
    is played on by it (here driven on a manual clock, the person's moves made for them)."""
    app = build_app(bots=SHEDDER, players=3)
    try:
        controller = getattr(app, "controller", None)
        assert isinstance(controller, GameController)
        bots = [player.bot for player in controller.players[1:] if player is not None]
        assert [type(bot.bot).__name__ for bot in bots] == ["Shedder", "Shedder"]  # checked
    finally:
        app.thinker.shutdown(cancel_futures=True)  # type: ignore[attr-defined]
    clock = ManualClock()
    game = GameController(
        players=2, level=SHEDDER, seed=3, clock=clock, timing=Timing(bot_move=0.0)
    )
    bot_moves = 0
    while len(game.state.history) < 80:
        if game.summary is not None:
            game.resume()
        elif game.human_turn:
            game.submit(next(a for a in game.legal() if a.kind not in (Kind.CALL, Kind.CATCH)))
        before = (game.state.turn, len(game.state.history))
        clock.advance(0.5)
        game.tick()
        bot_moves += before[0] == 1 and len(game.state.history) > before[1]
    assert bot_moves > 10


def test_dos_play_refuses_a_bot_of_the_other_rules() -> None:
    with pytest.raises(PlayError, match=r"--bots: .* plays the official rules, not the classic"):
        build_app(bots=SHEDDER, rules="classic")


def test_a_bot_by_path_takes_its_reflex_and_budget_from_its_class(tmp_path: Path) -> None:
    path = tmp_path / "tuned.py"
    path.write_text(
        "from dos.bots.base import Budget\nfrom dos.bots.reflex import Reflex\n\n\n"
        'class Tuned:\n    name = "tuned"\n    reflex = Reflex(reaction=0.5)\n'
        "    budget = Budget(iterations=50)\n\n"
        "    def choose(self, view, rng, budget):\n        return view.legal[0]\n",
        encoding="utf-8",
    )
    player = make_player(f"{path}:Tuned", players=2)
    assert (player.reflex.reaction, player.budget.iterations) == (0.5, 50)
    assert make_player(str(path)).bot.name == "tuned"  # the file's only bot class
