"""In the terminal, ``dos play`` without ``--level`` seats easy bots until the player
has finished a game, then the level they last chose (medium if none); ``--level``'s help says
each level's strength in words, from the catalog."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dos.bots.registry import LEVELS
from dos.cli import main
from dos.i18n import text
from dos.tui import launch
from dos.tui.app import DosApp
from dos.tui.launch import build_app, default_level, level_words, memory_path


def level_of(app: object) -> str:
    assert isinstance(app, DosApp)
    try:
        assert app.controller is not None
        return app.controller.level
    finally:
        if app.thinker is not None:
            app.thinker.shutdown(cancel_futures=True)


def test_a_newcomer_plays_easy_bots_and_a_returning_player_their_choice() -> None:
    assert level_of(build_app()) == "easy"
    assert level_of(build_app(memory={"finished": True})) == "medium"
    kept = {"finished": True, "levels": {"official": "hard"}}
    assert level_of(build_app(memory=kept)) == "hard"
    assert level_of(build_app(memory=kept, level="expert")) == "expert"  # a named level wins
    # The choice is the rule set's own: the classic table of a newcomer is easy too.
    assert level_of(build_app(memory={"levels": {"official": "hard"}}, rules="classic")) == "easy"
    # A level the rule set no longer offers is not kept.
    assert default_level(["easy", "medium"], {"levels": {"official": "expert"}}, "official") == (
        "easy"
    )


def test_the_memory_lives_under_xdg_state_home_and_survives_a_bad_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert memory_path() == tmp_path / "dos" / "play.json"
    memory_path().parent.mkdir(parents=True)
    memory_path().write_text("not json", encoding="utf-8")
    assert launch.load_memory(memory_path()) == {}  # a newcomer again, never a crash


def test_dos_play_remembers_the_level_chosen_and_a_finished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The application's run is replaced: once by a quit before the end, once by a game that
    ended and was followed by a new one (the end-of-game screen's New game: the next seed)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    levels: list[str] = []

    def quit_at_once(app: DosApp) -> None:
        assert app.controller is not None
        levels.append(app.controller.level)
        app.on_unmount()

    def finish_then_new_game(app: DosApp) -> None:
        quit_at_once(app)
        app.settings = replace(app.settings, seed=app.settings.seed + 1)

    monkeypatch.setattr(DosApp, "run", quit_at_once)
    launch.play(level="hard")
    assert json.loads(memory_path().read_text()) == {"levels": {"official": "hard"}}
    launch.play(level=None)
    assert levels == ["hard", "hard"]  # kept, though no game was finished yet
    memory_path().unlink()
    launch.play(level=None)
    assert levels[-1] == "easy"
    assert json.loads(memory_path().read_text()) == {}
    monkeypatch.setattr(DosApp, "run", finish_then_new_game)
    launch.play(level=None)
    assert json.loads(memory_path().read_text()) == {"finished": True}
    monkeypatch.setattr(DosApp, "run", quit_at_once)
    launch.play(level=None)
    assert levels[-1] == "medium"


def test_the_help_says_each_levels_strength(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    for level in LEVELS:
        assert level_words(level) in shown
    assert "Default: easy until you have finished a game" in shown
    assert level_words("hard", lang="ja") == text(
        "ja",
        "guide.level_said",
        level=text("ja", "web.level_hard"),
        words=text("ja", "guide.level_words_hard"),
    )
