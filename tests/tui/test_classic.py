"""The classic rule set in the terminal (RULES.md §9): the controller on a manual clock, and
the screens driven headlessly with Textual's pilot (keys, clicks), without any sleep."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from dos import records
from dos.bots.registry import CLASSIC_LEVELS
from dos.i18n import LANGS, text
from dos.rules.classic import Kind, Phase, from_position
from dos.rules.classic.cards import NAMES, parse_card
from dos.tui.app import DosApp, Settings
from dos.tui.classic import present as classic_present
from dos.tui.classic.cards import ClassicHandView, DiscardView
from dos.tui.classic.controller import ClassicController
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN
from dos.tui.launch import PlayError, build_app
from dos.tui.screens.classic import (
    ClassicGameScreen,
    ClassicHelpScreen,
    ClassicOverScreen,
    WishScreen,
)
from dos.tui.screens.game import GameScreen
from dos.tui.screens.summary import GameOverScreen
from dos.tui.widgets.log import GameLog
from dos.tui.widgets.reaction import TARGET_KEYS, ReactionArea

from .conftest import FAST, screenshot_and_help, shown, started


def classic_app(
    lang: str = "en", seed: int = 1, players: int = 2, controller: ClassicController | None = None
) -> tuple[DosApp, ManualClock]:
    clock = ManualClock()
    settings = Settings(
        players=players, level="easy", lang=lang, seed=seed, timing=FAST, rules="classic"
    )
    app = DosApp(settings, clock=clock, think_in_background=False)
    if controller is not None:
        controller.clock = clock
        app.controller = controller
    return app, clock


def before_reaction(players: int = 2) -> ClassicController:
    """The person to play with three cards: ``B7`` fits the ``B5`` on top and leaves two, so
    the reaction test follows (two targets)."""
    state = from_position(
        {
            "rules": "classic",
            "players": players,
            "turn": HUMAN,
            "hands": [["B7", "G3", "R1"], *[["R2", "Y5", "G+2", "Y9"]] * (players - 1)],
            "draw_pile": ["G9", "Y8", "R4", "B1", "G6", "Y2"],
            "discard": ["B5"],
        }
    )
    return ClassicController(level="easy", seed=5, clock=ManualClock(), timing=FAST, state=state)


def game(app: DosApp) -> ClassicController:
    assert isinstance(app.controller, ClassicController)
    return app.controller


async def classic_step(pilot: object, app: DosApp, clock: ManualClock, *, fail: bool) -> None:
    """The person acts as one would with keys (reacting with the targets' keys, or letting
    the time run out when ``fail``); then time moves on."""
    press = pilot.press  # type: ignore[attr-defined]
    c = game(app)
    screen = app.screen
    assert isinstance(screen, ClassicGameScreen)
    if c.reacting:
        test = c.reaction
        assert test is not None
        if fail:
            clock.advance(test.time_limit + 0.01)
        else:
            await press(*TARGET_KEYS[: len(test.targets)])
    elif c.human_turn:
        action = c.legal()[0]
        before = len(c.state.history)
        if action.kind == Kind.DRAW:
            await press("d")
        else:
            index = c.state.hands[HUMAN].index(action.card)
            if index < 9:
                await press(str(index + 1))
            else:
                steps = (index - screen.cursor) % len(c.state.hands[HUMAN])
                await press(*(["right"] * steps), "enter")
            if isinstance(app.screen, WishScreen):
                await press("bgry"[action.wish])
        assert len(c.state.history) > before, c.message
    clock.advance(1.0)
    if isinstance(app.screen, ClassicGameScreen):
        app.screen.tick()
    await pilot.pause()  # type: ignore[attr-defined]


# --- the controller ----------------------------------------------------------------------------


def test_a_whole_classic_game_is_played_on_the_manual_clock() -> None:
    clock = ManualClock()
    c = ClassicController(players=3, level="easy", seed=4, clock=clock, timing=FAST)
    for number in range(5000):
        if c.over:
            break
        if c.reacting:
            if number % 2:
                assert c.reaction is not None
                for index in range(len(c.reaction.targets)):
                    c.hit(index)
            else:
                clock.advance(3.1)
        elif c.human_turn:
            assert c.submit(c.legal()[0]).ok, c.message
        clock.advance(0.4)
        c.tick()
    assert c.over
    assert sorted(c.state.ranking) == [0, 1, 2]
    assert c.log[-1] == text("en", "classic.log_game_over", player=c.names[c.state.ranking[0]])
    replayed = records.replay(records.loads(c.record().dumps()))
    assert replayed == c.state


def test_the_reaction_test_passed_with_keys_costs_nothing() -> None:
    c = before_reaction()
    clock = c.clock
    assert isinstance(clock, ManualClock)
    assert c.play_card(parse_card("B7")).ok
    test = c.reaction
    assert test is not None and len(test.targets) == 2
    clock.advance(0.4)
    assert c.hit(1)
    clock.advance(0.5)
    assert c.hit(0)
    assert c.reaction is None and c.state.phase == Phase.PLAY
    assert str(c.state.history[1]) == "react 2 900ms"  # then bot 1 plays at once (FAST)
    assert len(c.state.hands[HUMAN]) == 2
    assert c.log[2] == "You passed the reaction test (900 ms)."


def test_the_countdown_runs_out_and_the_penalty_is_drawn() -> None:
    c = before_reaction()
    clock = c.clock
    assert isinstance(clock, ManualClock)
    assert c.play_card(parse_card("B7")).ok
    assert c.remaining() == pytest.approx(3.0)
    clock.advance(1.0)
    assert c.remaining() == pytest.approx(2.0)
    assert c.hit(0)
    clock.advance(2.0)  # exactly at the deadline: still running
    assert c.tick() == 0 and c.reacting
    clock.advance(0.01)
    c.tick()
    assert str(c.state.history[1]) == "timeout"
    assert len(c.state.hands[HUMAN]) == 3  # two cards and the penalty card
    assert c.log[2] == text("en", "classic.log_react_fail", player="You", count=1)


def test_a_bot_reacts_after_its_reflex_and_the_countdown_is_shown() -> None:
    from dos.bots.classic.base import ReactionReflex
    from dos.bots.classic.random_bot import ClassicRandomBot
    from dos.play.classic import ClassicPlayer

    state = from_position(
        {
            "rules": "classic",
            "players": 2,
            "turn": 1,
            "hands": [["R2", "Y5", "G+2", "Y9"], ["B7", "G3", "R1"]],
            "draw_pile": ["G9", "Y8", "R4", "B1"],
            "discard": ["B5"],
        }
    )
    reflex = ReactionReflex(seconds_per_target=0.5, spread=0.0)
    clock = ManualClock()
    c = ClassicController(
        seed=1,
        clock=clock,
        timing=FAST,
        state=state,
        bots=[ClassicPlayer(ClassicRandomBot(reaction=reflex))],
    )
    c.tick()  # bot 1 plays its only fitting card, B7, and takes the test
    assert c.bot_reacting == 1 and c.remaining() == pytest.approx(3.0)
    clock.advance(0.9)
    assert c.tick() == 0
    clock.advance(0.1)
    c.tick()
    assert str(c.state.history[-1]) == "react 2 1000ms"
    assert c.log[-1] == "Bot 1 passed the reaction test (1000 ms)."


def test_an_illegal_choice_is_explained_and_changes_nothing() -> None:
    c = before_reaction()
    state = c.state.copy()
    outcome = c.play_card(parse_card("G3"))
    assert outcome.error == (
        "green 3 does not fit blue 5: play a card of the colour (blue) or of the same number "
        "or symbol."
    )
    assert c.draw().error == "If you can play, you must: you can play blue 7."
    assert c.submit_text("react 2 10ms").error == "There is no reaction test now."
    assert c.submit_text("W").error is not None
    assert c.state == state


# --- the screens ---------------------------------------------------------------------------


def near_the_end() -> ClassicController:
    """The person to play with three blue cards on a blue 5, bot 1 with none that fits (nor
    the cards it draws): the person plays them out, with a reaction test at two cards and at
    one, and a failed test's penalty card (B1) fits too."""
    state = from_position(
        {
            "rules": "classic",
            "players": 2,
            "turn": HUMAN,
            "hands": [["B7", "B3", "B2"], ["R8", "Y6", "G4", "R9", "Y8"]],
            "draw_pile": ["G8", "B1", "Y4", "G6", "R9", "Y6", "G8", "R4"],
            "discard": ["B5"],
        }
    )
    return ClassicController(level="easy", seed=1, clock=ManualClock(), timing=FAST, state=state)


@pytest.mark.asyncio
async def test_the_end_of_a_classic_game_is_played_with_keys_to_the_ranking() -> None:
    app, clock = classic_app(seed=1, players=2, controller=near_the_end())
    async with started(app) as pilot:
        reactions = 0
        for _ in range(300):
            if isinstance(app.screen, ClassicOverScreen):
                break
            reactions += game(app).reacting
            await classic_step(pilot, app, clock, fail=reactions % 2 == 0)
        else:
            pytest.fail("the game did not end")
        c = game(app)
        assert c.over and sorted(c.state.ranking) == [0, 1]
        ranking = shown(app, "#ranking")
        for place, seat in enumerate(c.state.ranking, 1):
            assert f"{place}. {c.names[seat]}" in ranking
        log = app.screen_stack[-2].query_one(GameLog).lines_text
        assert any(line.startswith("You played") for line in log)
        assert any(line.startswith("You passed the reaction test") for line in log)
        assert any(line.startswith("You failed the reaction test") for line in log)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ClassicGameScreen)
        assert app.controller is not c and not game(app).over
        assert app.settings.seed == 2


@pytest.mark.asyncio
async def test_the_table_shows_pile_colour_direction_hand_and_opponents() -> None:
    app, _ = classic_app(seed=2, players=4)
    async with started(app):
        c = game(app)
        hand = app.screen.query_one(ClassicHandView).cards()
        assert [v.card for v in hand] == c.state.hands[HUMAN]
        for view in hand:
            assert str(view.content)[0] in "●▲■★✦"  # a symbol as well as a colour
            assert {"blue", "green", "red", "yellow", "wild"} & set(view.classes)
        info = shown(app, "#pile-info")
        assert "olour: " in info and "clockwise" in info
        top = app.screen.query_one(DiscardView).cards()
        assert [v.card for v in top] == [c.state.top]
        assert str(top[0].content).endswith(NAMES[c.state.top])
        opponents = [str(v.content) for v in app.screen.query("#opponents OpponentView")]
        assert len(opponents) == 3 and "Bot 3" in opponents[2]
        assert shown(app, "#keys") == text("en", "classic.keys")


@pytest.mark.asyncio
async def test_playable_cards_are_highlighted_and_illegal_ones_explained() -> None:
    app, _ = classic_app(controller=before_reaction())
    async with started(app) as pilot:
        c = game(app)
        await pilot.press("h")
        hinted = [
            v.card for v in app.screen.query_one(ClassicHandView).cards() if "hint" in v.classes
        ]
        assert hinted == [parse_card("B7")]
        assert "B7" in shown(app, "#legal")
        state = c.state.copy()
        g3 = c.state.hands[HUMAN].index(parse_card("G3"))
        await pilot.press(str(g3 + 1))
        assert shown(app, "#message").startswith("⚠ green 3 does not fit blue 5")
        await pilot.press("d")
        assert "you can play blue 7" in shown(app, "#message")
        assert c.state == state


@pytest.mark.asyncio
async def test_the_targets_are_drawn_where_the_engine_put_them_and_clicks_hit_them() -> None:
    app, clock = classic_app(controller=before_reaction())
    async with started(app) as pilot:
        c = game(app)
        b7 = c.state.hands[HUMAN].index(parse_card("B7"))
        await pilot.click(app.screen.query_one(ClassicHandView).cards()[b7])
        assert c.reacting
        area = app.screen.query_one(ReactionArea)
        assert area.display and not app.screen.query_one("#table").display
        width, height = area.content_size
        targets = [(t["x"], t["y"]) for t in _view_targets(c)]
        boxes = area.boxes()
        lines = area.render().plain.split("\n")
        for (x, y), box, key in zip(targets, boxes, TARGET_KEYS, strict=False):
            cx, cy = box.centre
            assert abs(cx - x * width) <= 1 and abs(cy - y * height) <= 1
            assert lines[cy][cx] == key.upper()
        assert "3.0 s" in shown(app, "#countdown")
        clock.advance(1.2)
        app.screen.tick()
        await pilot.pause()
        assert "1.8 s" in shown(app, "#countdown")
        await pilot.click(area, offset=(0, 0))  # beside the targets: a miss, nothing else
        assert c.reacting and c.reaction is not None and c.reaction.hits == 0
        for box in boxes:
            await pilot.click(area, offset=box.centre)
        assert not c.reacting
        assert str(c.state.history[1]) == "react 2 1200ms"
        assert app.screen.query_one("#table").display


def _view_targets(c: ClassicController) -> list[dict[str, float]]:
    from dos.rules.classic import view

    reaction = view(c.state, HUMAN).to_json()["reaction"]
    assert reaction is not None
    targets: list[dict[str, float]] = reaction["targets"]
    return targets


@pytest.mark.asyncio
async def test_a_wild_asks_for_the_wished_colour() -> None:
    state = from_position(
        {
            "rules": "classic",
            "players": 2,
            "turn": HUMAN,
            "hands": [["W", "G3", "R1", "Y4"], ["R2", "Y5", "G+2", "Y9"]],
            "draw_pile": ["G9", "Y8"],
            "discard": ["B5"],
        }
    )
    c = ClassicController(level="easy", seed=5, timing=FAST, state=state)
    app, _ = classic_app(controller=c)
    async with started(app) as pilot:
        wild = c.state.hands[HUMAN].index(parse_card("W"))
        await pilot.press(str(wild + 1))
        assert isinstance(app.screen, WishScreen)
        await pilot.press("escape")
        assert len(c.state.history) == 0
        await pilot.press(str(wild + 1), "g")
        assert str(c.state.history[0]) == "W=G"
        assert c.log[1] == "You played Wild and wished green."


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", LANGS)
async def test_one_classic_screen_per_language(lang: str, tmp_path: Path) -> None:
    app, _ = classic_app(lang=lang, seed=2, players=3)
    async with started(app) as pilot:
        assert isinstance(app.screen, ClassicGameScreen)
        c = game(app)
        assert shown(app, "#keys") == text(lang, "classic.keys")
        assert text(lang, "game.your_hand") in shown(app, "#hand-title")
        assert text(lang, "classic.draw_pile") in shown(app, "#pile-info")
        log = app.screen.query_one(GameLog)
        assert log.lines_text[0] == c.log[0]
        await screenshot_and_help(
            pilot,
            app,
            tmp_path,
            lang,
            table=ClassicGameScreen,
            help_screen=ClassicHelpScreen,
            prefix="classic",
        )


@pytest.mark.asyncio
async def test_the_official_game_over_offers_a_classic_game() -> None:
    from .test_app import finished_record

    app = DosApp(  # the game-over screen of a finished game, resumed
        Settings(level="easy", timing=FAST),
        resume=finished_record(),
        clock=ManualClock(),
        think_in_background=False,
    )
    async with started(app) as pilot:
        assert isinstance(app.screen, GameOverScreen)
        assert text("en", "classic.offer_classic") in str(
            app.screen.query_one(".hint", Static).content
        )
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ClassicGameScreen)
        assert app.settings.rules == "classic"


@pytest.mark.parametrize("level", list(CLASSIC_LEVELS))
def test_the_classic_header_names_every_classic_level(level: str) -> None:
    game = ClassicController(level=level, lang="ja", clock=ManualClock(), timing=FAST)
    assert classic_present.header(game) == text(
        "ja", "classic.header", level=text("ja", f"tui.level_{level}")
    )


def test_dos_play_takes_the_classic_rules() -> None:
    app = build_app(rules="classic", players=3, level="hard", seed=9)
    assert isinstance(app, DosApp)
    assert isinstance(app.controller, ClassicController)
    assert app.controller.state.options.players == 3
    assert app.thinker is not None
    app.thinker.shutdown(cancel_futures=True)
    with pytest.raises(PlayError, match="--target"):
        build_app(rules="classic", target=300)
    with pytest.raises(PlayError, match="--rules"):
        build_app(rules="uno")


@pytest.mark.asyncio
async def test_an_official_game_still_opens_the_official_table() -> None:
    app = build_app(seed=1)
    assert isinstance(app, DosApp)
    async with started(app):
        assert isinstance(app.screen, GameScreen)


@pytest.mark.asyncio
@pytest.mark.parametrize("players", [2, 4])
async def test_the_classic_table_fits_a_80_by_24_terminal(players: int) -> None:
    app, _ = classic_app(seed=2, players=players)
    async with started(app, size=(80, 24)):
        assert app.screen.query_one("#table").max_scroll_y == 0
        assert app.screen.query_one(ClassicHandView).region.bottom <= 24 - 3
