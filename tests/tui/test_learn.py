"""The tutorial in the terminal (``dos learn``): a learner walks lessons by their lit
cards and keys, a wrong move is refused with the step's or the engine's words, and the place
reached is kept for the next start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dos import learn
from dos.i18n import text
from dos.i18n.explain import render
from dos.tui.screens.learn import LearnApp, LearnScreen

from .conftest import shown, started


def screen_of(app: LearnApp) -> LearnScreen:
    assert isinstance(app.screen, LearnScreen)
    return app.screen


async def follow(pilot: Pilot[None], screen: LearnScreen) -> None:
    """Does the step by its lit cards and keys, as a person reading the screen would."""
    lit = screen.answer.lit
    keys = {"draw": "d", "lay": "l", "place": "p", "end": "e", "dos": "s", "catch": "c"}
    if lit.buttons:
        if lit.buttons[0] in ("lay", "place"):
            await pilot.press(str(lit.hand[0] + 1))
        await pilot.press(keys[lit.buttons[0]])
    else:
        for index in lit.hand:
            await pilot.press(str(index + 1))
        await pilot.press("t", "enter")
    await pilot.pause()


@pytest.mark.asyncio
async def test_every_lesson_walked_by_its_lit_cards_and_keys() -> None:
    # One walk, in a language other than English: every step's prompt must come from the
    # learner's catalog (the keys and lit cards are the same in every language).
    lang = "cy"
    app = LearnApp(lang=lang)
    async with started(app) as pilot:
        screen = screen_of(app)
        for number, lesson in enumerate(learn.lessons()):
            assert screen.lesson.id == lesson.id
            for step in lesson.steps:
                assert screen.answer.status == "play"
                assert shown(app, "#learn-prompt") == text(lang, step.prompt)
                await follow(pilot, screen)
            assert screen.answer.status == "finished", lesson.id
            if number + 1 < len(learn.ORDER):
                await pilot.press("n")
                await pilot.pause()
        assert text(lang, "learn.all_done") in shown(app, "#learn-prompt")


@pytest.mark.asyncio
async def test_a_wrong_move_is_explained_and_the_place_is_kept(tmp_path: Path) -> None:
    progress = tmp_path / "learn.json"
    lang = "it"
    lesson = learn.lesson("single_number_match")
    app = LearnApp(lang=lang, progress=progress)
    async with started(app) as pilot:
        screen = screen_of(app)
        await pilot.press("d")  # legal, but not this step's move
        await pilot.pause()
        assert screen.answer.status == "wrong"
        wrong = f"{text(lang, 'learn.wrong')} {text(lang, lesson.steps[0].wrong)}"
        assert shown(app, "#learn-wrong") == wrong
        assert len(screen.answer.view["hand"]) == 6  # nothing was drawn
        # Not a match at all: the engine's reason, in the rule's words.
        await pilot.press(str(screen.answer.lit.hand[0] + 1), "right", "enter")
        await pilot.pause()
        refusal = learn.run(lesson, ["B7@1"]).explanation
        assert refusal is not None
        assert shown(app, "#learn-wrong") == f"{text(lang, 'learn.wrong')} {render(lang, refusal)}"
        await follow(pilot, screen)
        assert screen.answer.step == 1
        assert json.loads(progress.read_text()) == {"lesson": lesson.id, "actions": ["B7@0"]}
    again = LearnApp(lang=lang, progress=progress)
    async with started(again):
        assert screen_of(again).answer.step == 1
        assert shown(again, "#learn-prompt") == text(lang, lesson.steps[1].prompt)


@pytest.mark.asyncio
async def test_the_dos_lesson_calls_with_the_move_on_w() -> None:
    lang = "ja"
    app = LearnApp(lang=lang, lesson="dos_call")
    async with started(app) as pilot:
        screen = screen_of(app)
        assert screen.answer.lit.dos_with_move
        assert text(lang, "web.dos_with_move") in shown(app, "#learn-buttons")
        await pilot.press("w")
        await pilot.pause()
        assert text(lang, "tui.dos_with_move_armed") in shown(app, "#learn-note")
        for index in screen.answer.lit.hand:
            await pilot.press(str(index + 1))
        await pilot.press("t", "enter")
        await pilot.pause()
        # Called with the move: straight to catching the opponent who did not call.
        assert (screen.answer.status, screen.answer.step) == ("play", 2)
        assert shown(app, "#learn-prompt") == text(lang, learn.lesson("dos_call").steps[2].prompt)
