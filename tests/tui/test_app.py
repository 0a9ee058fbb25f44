"""The terminal client driven headlessly with Textual's pilot: keys, clicks, screens."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import wait
from pathlib import Path

import pytest
from textual.widgets import Input

from dos import records
from dos.i18n import LANGS, text
from dos.rules.official import Action, Kind
from dos.tui.app import DosApp, Settings
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, GameController
from dos.tui.screens.designation import DesignationScreen
from dos.tui.screens.game import GameScreen
from dos.tui.screens.help import HelpScreen
from dos.tui.screens.summary import GameOverScreen, SummaryScreen
from dos.tui.widgets.cards import CardView
from dos.tui.widgets.center import CenterRowView
from dos.tui.widgets.hand import HandView
from dos.tui.widgets.log import GameLog

from .conftest import (
    FAST,
    first_turn_action,
    near_the_round_end,
    played_until,
    screenshot_and_help,
    shown,
    started,
    to_a_move_leaving_two,
)


def app_for(
    lang: str = "en",
    seed: int = 1,
    players: int = 2,
    target: int = 200,
    save: Path | None = None,
) -> tuple[DosApp, ManualClock]:
    clock = ManualClock()
    settings = Settings(
        players=players,
        level="easy",
        lang=lang,
        seed=seed,
        target_score=target,
        save_path=save,
        timing=FAST,
    )
    return DosApp(settings, clock=clock, think_in_background=False), clock


def positions(hand: list[int], cards: tuple[int, ...]) -> list[int]:
    """Hand positions holding ``cards`` (distinct positions for a pair of equal cards)."""
    taken: list[int] = []
    for card in cards:
        taken.append(next(i for i, c in enumerate(hand) if c == card and i not in taken))
    return taken


async def select_with_keys(pilot: object, screen: GameScreen, index: int) -> None:
    size = len(screen.controller.state.hands[HUMAN])
    steps = (index - screen.cursor) % size
    await pilot.press(*(["right"] * steps), "space")  # type: ignore[attr-defined]


async def play_with_keys(pilot: object, screen: GameScreen, action: Action) -> None:
    """Makes ``action`` the way a person would, with keys only."""
    press = pilot.press  # type: ignore[attr-defined]
    hand = screen.controller.state.hands[HUMAN]
    if action.kind == Kind.MATCH:
        for index in positions(hand, action.cards):
            await select_with_keys(pilot, screen, index)
        if action.target < 10:
            await press(str(action.target))
        else:
            steps = (action.target - screen.target) % len(screen.controller.state.center)
            await press(*(["down"] * steps), "enter")
        if isinstance(screen.app.screen, DesignationScreen):
            await press("enter")  # the best designation
    elif action.kind == Kind.DRAW:
        await press("d")
    elif action.kind == Kind.END:
        await press("e")
    else:
        await select_with_keys(pilot, screen, positions(hand, action.cards)[0])
        await press("l")


async def step(pilot: object, app: DosApp, clock: ManualClock) -> None:
    """The person acts if it is their turn (calling "DOS!" when due); then time moves on."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    c = screen.controller
    if HUMAN in c.dos_open():
        await pilot.press("s")  # type: ignore[attr-defined]
    elif c.human_turn:
        before = len(c.state.history)
        await play_with_keys(pilot, screen, first_turn_action(c))
        assert len(c.state.history) > before, c.message
    clock.advance(0.3)
    screen.tick()
    await pilot.pause()  # type: ignore[attr-defined]


async def until_human_turn(pilot: object, app: DosApp, clock: ManualClock) -> None:
    """Lets time move on (bots may act first) until the person is to act."""
    for _ in range(100):
        screen = app.screen
        assert isinstance(screen, GameScreen)
        if screen.controller.human_turn:
            return
        clock.advance(0.3)
        screen.tick()
        await pilot.pause()  # type: ignore[attr-defined]
    pytest.fail("the person's turn did not come")


async def play_to_summary(pilot: object, app: DosApp, clock: ManualClock) -> None:
    """Plays with keys (``step``) until a round ends and its summary shows."""
    for _ in range(300):
        if isinstance(app.screen, SummaryScreen):
            return
        await step(pilot, app, clock)
    pytest.fail("the round did not end")


def app_near_the_round_end(
    seed: int, players: int = 2, target: int = 200
) -> tuple[DosApp, ManualClock]:
    """``app_for`` with its game's first round played without the screen up to the person's
    last two moves (``near_the_round_end``): the test plays the rest with keys."""
    apps: list[tuple[DosApp, ManualClock]] = []

    def make() -> tuple[GameController, ManualClock]:
        apps.append(app_for(seed=seed, players=players, target=target))
        app, clock = apps[-1]
        assert isinstance(app.controller, GameController)
        return app.controller, clock

    near_the_round_end(make)
    return apps[-1]


def game_over_app(seed: int = 4) -> tuple[DosApp, ManualClock]:
    """A game to one point, its one round near its end: ``game_over`` plays the rest."""
    return app_near_the_round_end(seed, target=1)


async def game_over(pilot: object, app: DosApp, clock: ManualClock) -> None:
    """Plays the round to its summary and closes it: the game-over screen shows."""
    await play_to_summary(pilot, app, clock)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, GameOverScreen)


@pytest.mark.asyncio
async def test_the_end_of_a_round_is_played_with_keys_and_summarised() -> None:
    app, clock = app_near_the_round_end(seed=11, players=3)  # the start without the screen
    async with started(app) as pilot:
        await play_to_summary(pilot, app, clock)
        controller = app.controller
        assert controller is not None
        result = controller.state.round_results[-1]
        hands = shown(app, "#hands")
        for seat, hand in enumerate(result.hands):
            points = text("en", "game.points_count", points=sum(_points(hand)))
            assert controller.names[seat] in hands and points in hands
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert controller.state.round == 2
        log = app.screen.query_one(GameLog)
        assert any(line.startswith("Round 2: ") for line in log.lines_text)
        assert any(' called "DOS!"' in line or "matched" in line for line in log.lines_text)


def _points(hand: tuple[int, ...]) -> list[int]:
    from dos.rules.official.cards import POINTS

    return [POINTS[c] for c in hand]


@pytest.mark.asyncio
async def test_the_screen_shows_center_row_hand_opponents_turn_and_phase() -> None:
    app, _ = app_for(seed=3, players=4)
    async with started(app):
        c = app.controller
        assert c is not None
        center = app.screen.query_one(CenterRowView).cards()
        assert [v.card for v in center] == c.state.center
        assert [v.border_title for v in center] == [str(i) for i in range(len(c.state.center))]
        hand = app.screen.query_one(HandView).cards()
        assert [v.card for v in hand] == c.state.hands[HUMAN]
        for view in hand:
            assert str(view.content)[0] in "●▲■★✦"  # a symbol as well as a colour
            assert {"blue", "green", "red", "yellow", "wild"} & set(view.classes)
        opponents = shown(app, "#opponents OpponentView")
        assert "Bot 1" in opponents
        assert text("en", "game.cards_count", count=len(c.state.hands[1])) in opponents
        assert text("en", "game.phase") in shown(app, "#status")


@pytest.mark.asyncio
async def test_an_illegal_choice_gets_a_message_and_changes_nothing() -> None:
    app, clock = app_for(seed=3)
    async with started(app) as pilot:
        await until_human_turn(pilot, app, clock)
        c = app.controller
        assert c is not None and c.human_turn
        before = c.state.copy()
        await pilot.press("l")  # nothing selected
        assert shown(app, "#message") == "⚠ " + text("en", "tui.select_one_card")
        await pilot.press("space", "l")  # a lay before drawing
        assert text("en", "game.err_draw_first") in shown(app, "#message")
        await pilot.press("e")
        assert c.state == before


@pytest.mark.asyncio
async def test_legal_choices_are_highlighted_on_request() -> None:
    app, _ = app_for(seed=3)
    async with started(app) as pilot:
        c = app.controller
        assert c is not None
        hand = app.screen.query_one(HandView).cards()
        assert not any("hint" in v.classes for v in hand)
        await pilot.press("h")
        playable = {card for a in c.legal() if a.kind == Kind.MATCH for card in a.cards}
        assert {v.card for v in hand if "hint" in v.classes} == playable
        assert text("en", "tui.legal", actions="").strip() in shown(app, "#legal")


@pytest.mark.asyncio
async def test_cards_are_picked_and_played_with_the_mouse() -> None:
    app, _ = app_for(seed=3)
    async with started(app) as pilot:
        c = app.controller
        assert c is not None
        match = next(a for a in c.legal() if a.kind == Kind.MATCH)
        hand_views = app.screen.query_one(HandView).cards()
        for index in positions(c.state.hands[HUMAN], match.cards):
            await pilot.click(hand_views[index])
        assert Counter(app.screen.selected_cards()) == Counter(match.cards)  # type: ignore[attr-defined]
        await pilot.click(app.screen.query_one(CenterRowView).cards()[match.target])
        assert c.state.history[-1] == match or c.state.matched


@pytest.mark.asyncio
async def test_an_action_can_be_typed_in_notation() -> None:
    app, _ = app_for(seed=3)
    async with started(app) as pilot:
        c = app.controller
        assert c is not None
        await pilot.press("colon", *"R11@0", "enter")
        assert "R11@0" in shown(app, "#message")
        app.screen.query_one(Input).value = ""  # the refused text stays, to be corrected
        await pilot.press("colon", *"draw", "enter")
        assert c.state.drew


@pytest.mark.asyncio
async def test_the_person_calls_dos_with_a_key_before_the_bot_catches() -> None:
    app, clock = app_for(seed=5)
    c = app.controller
    assert isinstance(c, GameController)
    move = to_a_move_leaving_two(c, clock)  # the turns before it, without the screen
    async with started(app) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await play_with_keys(pilot, screen, move)
        assert HUMAN in c.dos_open()
        assert text("en", "tui.dos_prompt") in shown(app, "#alert")
        logged = len(c.log)
        await pilot.press("s")
        # The call is the first thing logged after the key (the bot, free to move once the
        # call is made, may have moved after it by now).
        assert c.log[logged] == 'You called "DOS!".', c.log[logged:]
        assert HUMAN not in c.dos_open()


@pytest.mark.asyncio
async def test_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    app, clock = app_for(seed=8, players=3, save=save)
    assert isinstance(app.controller, GameController)
    played_until(app.controller, clock, steps=6)  # a game in progress, without the screen
    async with started(app) as pilot:
        await pilot.press("ctrl+s")
        assert shown(app, "#message") == text("en", "tui.saved", path=str(save))
        assert app.controller is not None
        state = app.controller.state.copy()
    record = records.loads(save.read_text(encoding="utf-8"))
    resumed = DosApp(
        Settings(level="easy", timing=FAST),
        resume=record,
        clock=ManualClock(),
        think_in_background=False,
    )
    async with started(resumed) as pilot:
        assert resumed.controller is not None
        assert resumed.controller.state == state
        assert [v.card for v in resumed.screen.query_one(HandView).cards()] == state.hands[0]


@pytest.mark.asyncio
async def test_game_over_shows_the_winner_and_offers_a_new_game() -> None:
    app, clock = game_over_app()
    async with started(app) as pilot:
        await game_over(pilot, app, clock)
        c = app.controller
        assert c is not None and c.state.winner is not None
        assert c.names[c.state.winner] in shown(app, "#winner")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.controller is not c and app.controller is not None
        assert app.controller.state.round == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", LANGS)
async def test_one_screen_per_language(lang: str, tmp_path: Path) -> None:
    app, _ = app_for(lang=lang, seed=2, players=3)
    async with started(app) as pilot:
        assert shown(app, "#center-title") == text(lang, "game.center_row")
        assert shown(app, "#keys") == text(lang, "tui.keys")
        assert text(lang, "game.your_hand") in shown(app, "#hand-title")
        assert text(lang, "game.bot_name", number=1) in shown(app, "#opponents OpponentView")
        log = app.screen.query_one(GameLog)
        assert log.lines_text[0].startswith(text(lang, "game.round_number", round=1)[:2])
        await screenshot_and_help(
            pilot, app, tmp_path, lang, table=GameScreen, help_screen=HelpScreen, prefix="tui"
        )


def test_card_views_carry_their_place_and_index() -> None:
    view = CardView("center", 2, 25)
    assert (view.place, view.index, view.card) == ("center", 2, 25)


@pytest.mark.asyncio
async def test_a_wild_dos_colour_is_asked_only_when_it_changes_the_match() -> None:
    from dos.rules.official import Options, new_game
    from dos.rules.official.cards import parse_card

    state = new_game(Options(players=2), 3)
    state.turn, state.dealer = 0, 1
    state.hands[0] = sorted(parse_card(n) for n in ("B5", "R7", "DOS", "G9"))
    state.center = [parse_card("R7"), parse_card("B7")]
    app, clock = app_for(seed=3)
    app.controller = GameController(level="easy", seed=3, clock=clock, timing=FAST, state=state)
    async with started(app) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        hand = screen.controller.state.hands[HUMAN]
        for card in ("B5", "DOS"):
            await select_with_keys(pilot, screen, hand.index(parse_card(card)))
        await pilot.press("1")  # B5 + DOS on B7
        assert isinstance(app.screen, DesignationScreen)
        assert len(app.screen.options) == 2
        await pilot.press("2")  # the Wild DOS not blue: a Double Number Match only
        c = screen.controller
        assert str(c.state.history[-1]) in ("B5+DOS=G@1", "B5+DOS=R@1", "B5+DOS=Y@1")
        assert c.state.double_bonuses == 0 and c.human_turn
        hand = c.state.hands[HUMAN]
        await select_with_keys(pilot, screen, hand.index(parse_card("R7")))
        await pilot.press("0")  # R7 alone on R7: nothing to ask
        assert not isinstance(app.screen, DesignationScreen)
        assert "R7@0" in [str(a) for a in c.state.history]


@pytest.mark.asyncio
async def test_the_game_waits_while_the_help_is_open() -> None:
    app, clock = app_for(seed=4)
    async with started(app) as pilot:
        await until_human_turn(pilot, app, clock)
        c = app.controller
        assert c is not None and c.human_turn
        await pilot.press("d")
        await pilot.press("question_mark")
        await pilot.pause()
        game_screen = app.screen_stack[-2]
        assert isinstance(app.screen, HelpScreen) and isinstance(game_screen, GameScreen)
        game_screen.tick()
        assert c.held


@pytest.mark.asyncio
async def test_clicking_an_opponent_who_forgot_catches_them() -> None:
    from .conftest import bots

    clock = ManualClock()
    app, _ = app_for(seed=8)
    app.controller = GameController(
        level="easy", seed=8, clock=clock, timing=FAST, bots=bots(1, call=0.0, catch=0.0)
    )
    c = app.controller
    played_until(c, clock, lambda g: 1 in g.dos_open())  # without the screen
    async with started(app) as pilot:
        assert 1 in c.dos_open()
        await pilot.click("#opponents OpponentView")
        assert c.log[-1] == 'You caught Bot 1, who had not called "DOS!": two penalty cards.'


def finished_record(seed: int = 4) -> records.Record:
    """A game to one point, played to its end without a screen, as saved."""
    from .conftest import controller

    clock = ManualClock()
    game = controller(seed=seed, clock=clock, target_score=1)
    while not game.over:
        if game.human_turn:
            game.submit(first_turn_action(game))
        clock.advance(0.5)
        game.tick()
    return records.loads(game.record().dumps())


@pytest.mark.asyncio
async def test_resuming_a_finished_game_shows_the_game_over_screen() -> None:
    record = finished_record()
    app = DosApp(
        Settings(level="easy", timing=FAST),
        resume=record,
        clock=ManualClock(),
        think_in_background=False,
    )
    async with started(app):
        assert isinstance(app.screen, GameOverScreen)


@pytest.mark.asyncio
async def test_the_screen_takes_a_dos_call_while_a_bot_is_still_thinking() -> None:
    from dos.play.official import Player

    from .conftest import NO_REFLEX, RecordingBot, race_position

    gate = threading.Event()
    bot = RecordingBot(gate)
    clock = ManualClock()
    app = DosApp(Settings(level="easy", timing=FAST), clock=clock)  # bots think in background
    app.controller = GameController(
        seed=3,
        clock=clock,
        timing=FAST,
        state=race_position(),
        bots=[Player(bot, NO_REFLEX)],
        thinker=app.thinker,
    )
    c = app.controller
    try:
        async with started(app) as pilot:
            stale = c.decision
            assert stale is not None
            assert bot.thinking.wait(timeout=5.0)  # bot 1 thinks on the bots' thread…
            await pilot.press("s")
            assert c.log[-1] == 'You called "DOS!".'  # … and the key is handled meanwhile
            assert not stale.done() and c.state.turn == 1
            fresh = c.decision
            assert fresh is not None and fresh is not stale
            gate.set()
            done, _ = wait([stale, fresh], timeout=5.0)
            assert len(done) == 2
            assert isinstance(app.screen, GameScreen)
            app.screen.tick()
            await pilot.pause()
            call, move = c.state.history[:2]
            assert (call.kind, call.seat) == (Kind.CALL, HUMAN)
            assert move == fresh.result()
            assert bot.views[1].history[-1] == call  # the applied decision saw the call
    finally:
        gate.set()


@pytest.mark.asyncio
@pytest.mark.parametrize("players", [2, 4])
async def test_the_table_fits_a_80_by_24_terminal_without_scrolling(players: int) -> None:
    app, _ = app_for(seed=2, players=players)
    async with started(app, size=(80, 24)):
        table = app.screen.query_one("#table")
        assert table.max_scroll_y == 0
        assert app.screen.query_one(HandView).region.bottom <= 24 - 3  # above the command line
