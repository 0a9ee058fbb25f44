"""Classic games saved, resumed and replayed in the terminal (``dos play --resume/--replay``
with a classic record), and the options refused with the classic rules; on a manual clock,
with Textual's pilot, without any sleep."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from dos import records
from dos.cli import main
from dos.errors import DosError
from dos.i18n import text
from dos.rules.classic import Phase
from dos.tui.app import DosApp, Settings
from dos.tui.classic.cards import ClassicHandView
from dos.tui.classic.controller import ClassicController
from dos.tui.classic.replay import ClassicReplay
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, GameController
from dos.tui.launch import PlayError, build_app
from dos.tui.screens.classic import ClassicGameScreen, ClassicOverScreen
from dos.tui.screens.replay import ClassicReplayScreen
from dos.tui.widgets.log import GameLog
from dos.tui.widgets.reaction import TARGET_KEYS

from .conftest import FAST, started
from .test_classic import classic_step
from .test_launch import recorded_game


def played(
    seed: int = 4, players: int = 3, *, actions: int = 10_000, until_reaction: bool = False
) -> tuple[ClassicController, ManualClock]:
    """A classic game on a manual clock, played (the person plays their first legal action,
    passes every reaction test) until ``actions`` actions, the person's reaction test (with
    ``until_reaction``) or the end."""
    clock = ManualClock()
    c = ClassicController(players=players, level="easy", seed=seed, clock=clock, timing=FAST)
    for _ in range(5000):
        if c.over or len(c.state.history) >= actions:
            break
        if c.reacting:
            if until_reaction:
                break
            assert c.reaction is not None
            for index in range(len(c.reaction.targets)):
                c.hit(index)
        elif c.human_turn:
            assert c.submit(c.legal()[0]).ok, c.message
        clock.advance(0.4)
        c.tick()
    return c, clock


def stepped(c: ClassicController, clock: ManualClock, *, fail: bool) -> None:
    """``classic_step`` on the controller alone: the person plays their first legal action or
    takes the reaction test (hitting every target, or letting the time run out when
    ``fail``); then time moves on."""
    if c.reacting:
        test = c.reaction
        assert test is not None
        if fail:
            clock.advance(test.time_limit + 0.01)
        else:
            for index in range(len(test.targets)):
                assert c.hit(index)
    elif c.human_turn:
        assert c.submit(c.legal()[0]).ok, c.message
    clock.advance(1.0)
    c.tick()


def saved(tmp_path: Path, c: ClassicController, name: str = "classic.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(c.record().dumps(), encoding="utf-8")
    return path


def resumed_app(record: records.Record) -> tuple[DosApp, ManualClock]:
    """The app resuming ``record``: the settings say nothing of the rule set (official by
    default); the record says classic."""
    clock = ManualClock()
    app = DosApp(
        Settings(level="easy", timing=FAST),
        resume=record,
        clock=clock,
        think_in_background=False,
    )
    return app, clock


# --- resuming ----------------------------------------------------------------------------------


def test_a_resumed_classic_game_has_the_same_state_and_log() -> None:
    c, _ = played(actions=30)
    assert len(c.state.history) >= 30 and not c.over
    record = records.loads(c.record().dumps())
    resumed = ClassicController.from_record(record, clock=ManualClock(), timing=FAST)
    assert resumed.state == c.state
    assert resumed.log == c.log  # the log rebuilt from the record: the person's draws named
    assert resumed.names == c.names and resumed.seed == c.seed


def test_a_resumed_classic_game_goes_on_to_the_ranking() -> None:
    c, _ = played(actions=20)
    clock = ManualClock()
    resumed = ClassicController.from_record(c.record(), clock=clock, timing=FAST)
    for _ in range(5000):
        if resumed.over:
            break
        if resumed.reacting:
            clock.advance(3.1)  # fails: a penalty card
        elif resumed.human_turn:
            assert resumed.submit(resumed.legal()[0]).ok, resumed.message
        clock.advance(0.4)
        resumed.tick()
    assert resumed.over and sorted(resumed.state.ranking) == [0, 1, 2]
    final = records.replay(records.loads(resumed.record().dumps()))
    assert final == resumed.state


def test_an_interrupted_reaction_test_starts_again_with_a_fresh_countdown() -> None:
    c, clock = played(seed=2, players=2, until_reaction=True)
    test = c.reaction
    assert test is not None and c.state.phase == Phase.REACTION
    assert c.hit(0)
    clock.advance(2.5)  # half a second left, one target hit, when the game is saved
    record = c.record()
    resumed_clock = ManualClock(100.0)
    resumed = ClassicController.from_record(record, clock=resumed_clock, timing=FAST)
    again = resumed.reaction
    assert again is not None and resumed.reacting
    assert again.targets == test.targets  # the engine's targets, the same
    assert again.hits == 0  # the hits before the save are not kept
    assert resumed.remaining() == pytest.approx(again.time_limit)  # a fresh countdown
    resumed_clock.advance(1.0)
    for index in range(len(again.targets)):
        assert resumed.hit(index)
    assert str(resumed.state.history[len(record.actions)]) == f"react {len(again.targets)} 1000ms"


def test_only_a_classic_record_from_a_seed_resumes_a_classic_game(tmp_path: Path) -> None:
    official = records.loads(recorded_game(tmp_path).read_text(encoding="utf-8"))
    with pytest.raises(DosError, match="classic"):
        ClassicController.from_record(official)
    with pytest.raises(DosError, match="official"):
        GameController.from_record(played(actions=3)[0].record())


@pytest.mark.asyncio
async def test_save_a_classic_game_and_resume_it_with_keys(tmp_path: Path) -> None:
    save = tmp_path / "classic.jsonl"
    clock = ManualClock()
    settings = Settings(
        players=3, level="easy", seed=4, timing=FAST, rules="classic", save_path=save
    )
    app = DosApp(settings, clock=clock, think_in_background=False)
    assert isinstance(app.controller, ClassicController)
    for number in range(12):  # the game in progress: played without the screen
        stepped(app.controller, clock, fail=number % 3 == 0)
    async with started(app) as pilot:
        assert isinstance(app.screen, ClassicGameScreen)
        await pilot.press("ctrl+s")
        assert text("en", "tui.saved", path=str(save)) in str(
            app.screen.query_one("#message", Static).content
        )
        assert isinstance(app.controller, ClassicController)
        state = app.controller.state.copy()
        log = list(app.controller.log)
    assert len(state.history) >= 12
    resumed, clock = resumed_app(records.loads(save.read_text(encoding="utf-8")))
    async with started(resumed) as pilot:
        assert resumed.settings.rules == "classic"
        assert isinstance(resumed.screen, ClassicGameScreen)
        c = resumed.controller
        assert isinstance(c, ClassicController)
        assert c.state == state and c.log == log
        shown = resumed.screen.query_one(ClassicHandView).cards()
        assert [v.card for v in shown] == state.hands[HUMAN]
        assert resumed.screen.query_one(GameLog).lines_text == log
        for number in range(4):  # and the game goes on
            await classic_step(pilot, resumed, clock, fail=number % 2 == 0)
        assert len(c.state.history) > len(state.history)


@pytest.mark.asyncio
async def test_a_game_saved_in_the_reaction_test_resumes_in_the_play_area(
    tmp_path: Path,
) -> None:
    c, _ = played(seed=3, players=2, until_reaction=True)
    app, clock = resumed_app(c.record())
    async with started(app) as pilot:
        controller = app.controller
        assert isinstance(controller, ClassicController) and controller.reacting
        assert app.screen.query_one("#reaction-box").has_class("active")
        test = controller.reaction
        assert test is not None
        clock.advance(0.5)
        await pilot.press(*TARGET_KEYS[: len(test.targets)])
        assert not controller.reacting
        assert controller.log[len(c.log)] == "You passed the reaction test (500 ms)."


@pytest.mark.asyncio
async def test_resuming_a_finished_classic_game_shows_the_ranking(tmp_path: Path) -> None:
    c, _ = played(seed=1, players=2)
    assert c.over
    app, _ = resumed_app(c.record())
    async with started(app):
        assert isinstance(app.screen, ClassicOverScreen)


def test_build_app_takes_the_rule_set_from_the_record(tmp_path: Path) -> None:
    path = saved(tmp_path, played(actions=10)[0])
    app = build_app(level="easy", resume=str(path))
    assert isinstance(app, DosApp) and isinstance(app.controller, ClassicController)
    assert app.settings.rules == "classic" and app.settings.save_path == path
    assert app.thinker is not None
    app.thinker.shutdown(cancel_futures=True)
    same = build_app(level="easy", resume=str(path), rules="classic")  # agreeing: fine
    assert isinstance(same, DosApp) and isinstance(same.controller, ClassicController)
    assert same.thinker is not None
    same.thinker.shutdown(cancel_futures=True)
    replay = build_app(replay=str(path))
    assert isinstance(replay, DosApp) and replay.controller is None
    assert replay.settings.rules == "classic"


# --- replaying ---------------------------------------------------------------------------------


def test_a_classic_replay_steps_forward_and_back() -> None:
    c, _ = played(actions=25)
    record = records.loads(c.record().dumps())
    replay = ClassicReplay(record, "en", seen_by=HUMAN)
    assert replay.step == 0 and replay.log == [c.log[0]]
    replay.go(5)
    assert replay.state.history == c.state.history[:5]
    assert replay.log == c.log[: len(replay.log)]
    replay.go(2)
    assert replay.step == 2 and len(replay.state.history) == 2
    replay.go(10_000)
    assert replay.step == len(record.actions) and replay.state == c.state
    assert replay.log == c.log
    every = ClassicReplay(record, "en")  # every drawn card named
    every.go(len(record.actions))
    assert len(every.log) == len(c.log)


@pytest.mark.asyncio
async def test_the_classic_replay_screen_steps_with_the_official_keys(tmp_path: Path) -> None:
    path = saved(tmp_path, played(seed=1, players=2)[0])
    app = build_app(lang="it", replay=str(path))  # no --rules: the record says classic
    assert isinstance(app, DosApp)
    async with started(app) as pilot:
        screen = app.screen
        assert isinstance(screen, ClassicReplayScreen)
        replay = screen.replay
        total = len(replay.actions)
        log = screen.query_one(GameLog)
        assert log.lines_text == replay.log and len(log.lines_text) == 1
        await pilot.press("right", "right", "space")
        assert replay.step == 3 and log.lines_text == replay.log
        await pilot.press("left")
        assert replay.step == 2 and log.lines_text == replay.log
        await pilot.press("pagedown")
        assert replay.step == min(22, total)
        await pilot.press("pageup")
        assert replay.step == 2
        await pilot.press("end")
        assert replay.step == total and replay.state.phase == Phase.OVER
        header = str(screen.query_one("#header", Static).content)
        assert header == text(
            "it", "tui.replay_header", file=path.name, step=total, total=total, round=1
        )
        hands = str(screen.query_one("#hands", Static).content)
        for seat, name in enumerate(replay.names):
            assert name in hands
            place = replay.state.ranking.index(seat) + 1
            assert text("it", "classic.place", place=place) in hands
        assert str(screen.query_one("#status", Static).content) == text("it", "game.game_over")
        assert log.lines_text[-1] == text(
            "it", "classic.log_game_over", player=replay.names[replay.state.ranking[0]]
        )
        await pilot.press("home")
        assert replay.step == 0 and len(log.lines_text) == 1
        await pilot.press("q")
    assert app.return_code == 0  # q left the replay


# --- refusals ----------------------------------------------------------------------------------


def test_a_contradicting_rules_option_is_refused(tmp_path: Path) -> None:
    classic = saved(tmp_path, played(actions=5)[0])
    official = recorded_game(tmp_path)
    with pytest.raises(PlayError, match=r"--rules official: .* classic game"):
        build_app(rules="official", resume=str(classic))
    with pytest.raises(PlayError, match=r"--rules official: .* classic game"):
        build_app(rules="official", replay=str(classic))
    with pytest.raises(PlayError, match=r"--rules classic: .* official game"):
        build_app(rules="classic", resume=str(official))


def test_target_is_refused_with_the_classic_rules(tmp_path: Path) -> None:
    classic = saved(tmp_path, played(actions=5)[0])
    with pytest.raises(PlayError, match="--target: the classic rules have no target score"):
        build_app(rules="classic", target=200)
    with pytest.raises(PlayError, match="--target"):
        build_app(resume=str(classic), target=150)  # classic, from the record
    with pytest.raises(PlayError, match="--target"):
        build_app(replay=str(classic), target=150)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "classic", "--target", "300"], "--target: the classic rules"),
        (["--resume", "{classic}", "--rules", "official"], "--rules official:"),
        (["--replay", "{classic}", "--rules", "official"], "--rules official:"),
        (["--resume", "{classic}", "--target", "100"], "--target"),
        (["--resume", "{official}", "--rules", "classic"], "--rules classic:"),
    ],
)
def test_the_command_line_refuses_them_with_status_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "classic": str(saved(tmp_path, played(actions=5)[0])),
        "official": str(recorded_game(tmp_path)),
    }
    assert main(["play", *(arg.format(**files) for arg in argv)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dos play: ") and message in err
