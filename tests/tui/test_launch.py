"""``dos play``: its options, and the replay of a recorded game."""

from __future__ import annotations

from pathlib import Path

import pytest

from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from dos.cli import main
from dos.i18n import text
from dos.tui.app import DosApp
from dos.tui.clock import ManualClock
from dos.tui.launch import PlayError, build_app
from dos.tui.replay import Replay
from dos.tui.screens.replay import ReplayScreen
from dos.tui.widgets.log import GameLog

from .conftest import controller, first_turn_action


def recorded_game(tmp_path: Path) -> Path:
    """A file holding the record of a few turns of a seeded game."""
    clock = ManualClock()
    game = controller(players=3, seed=7, clock=clock)
    while len(game.state.history) < 30:
        if game.summary is not None:
            game.resume()
        elif game.human_turn:
            game.submit(first_turn_action(game))
        clock.advance(0.5)
        game.tick()
    path = tmp_path / "game.jsonl"
    path.write_text(game.record().dumps(), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "--players"),
        ({"level": "grandmaster"}, "--level"),
        ({"level": "sage"}, "--level"),  # a bot's name, no level
        ({"lang": "es"}, "--lang"),
        ({"target": 0}, "--target"),
        ({"replay": "/no/such/file"}, "cannot read"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(PlayError, match=message):
        build_app(**options)  # type: ignore[arg-type]


def test_the_expert_level_is_played_and_each_rule_set_takes_only_its_own_levels() -> None:
    from dos.bots.sage import SageBot

    app = build_app(level="expert")
    try:
        assert app.controller is not None and app.controller.level == "expert"
        assert all(type(p.bot) is SageBot for p in app.controller.players[1:] if p is not None)
    finally:
        assert app.thinker is not None
        app.thinker.shutdown(cancel_futures=True)
    for level in [*LEVELS, *CLASSIC_LEVELS]:
        for rules, levels in (("official", LEVELS), ("classic", CLASSIC_LEVELS)):
            if level not in levels:
                with pytest.raises(PlayError, match="--level"):
                    build_app(rules=rules, level=level)


def test_the_command_line_offers_every_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--level", "grandmaster"])
    assert exit_info.value.code == 2
    offered = capsys.readouterr().err.split("choose from ", 1)[1]
    assert [name.strip(" ')\n") for name in offered.split(",")] == list(
        dict.fromkeys([*LEVELS, *CLASSIC_LEVELS])
    )
    assert "expert" in LEVELS


def test_the_command_line_refuses_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--players", "5"])
    assert exit_info.value.code == 2
    assert "--players" in capsys.readouterr().err


def test_the_command_line_refuses_an_unreadable_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a record\n", encoding="utf-8")
    assert main(["play", "--replay", str(bad)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_build_app_makes_a_game_a_resumed_game_or_a_replay(tmp_path: Path) -> None:
    path = recorded_game(tmp_path)
    assert isinstance(build_app(level="easy"), DosApp)
    resumed = build_app(level="easy", resume=str(path))
    assert isinstance(resumed, DosApp) and resumed.controller is not None
    assert len(resumed.controller.state.history) >= 30
    replay = build_app(replay=str(path))
    assert isinstance(replay, DosApp) and replay.controller is None


def test_a_replay_steps_forward_and_back(tmp_path: Path) -> None:
    from dos import records

    record = records.loads(recorded_game(tmp_path).read_text(encoding="utf-8"))
    replay = Replay(record, "en")
    replay.go(5)
    assert len(replay.sentences) == 5 and replay.state.history == replay.states[5].history
    replay.go(2)
    assert replay.step == 2 and len(replay.state.history) == 2
    replay.go(10_000)
    assert replay.step == len(record.actions)


@pytest.mark.asyncio
async def test_the_replay_screen_steps_with_keys(tmp_path: Path) -> None:
    path = recorded_game(tmp_path)
    app = build_app(lang="it", replay=str(path))
    assert isinstance(app, DosApp)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("right", "right", "right")
        assert app.screen.replay.step == 3
        log = app.screen.query_one(GameLog)
        assert len(log.lines_text) == 3
        await pilot.press("left")
        assert app.screen.replay.step == 2
        await pilot.press("end")
        total = len(app.screen.replay.actions)
        header = str(app.screen.query_one("#header").content)  # type: ignore[attr-defined]
        assert header == text(
            "it",
            "tui.replay_header",
            file=path.name,
            step=total,
            total=total,
            round=app.screen.replay.state.round,
        )
