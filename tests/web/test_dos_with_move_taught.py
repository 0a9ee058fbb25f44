"""The toggle "DOS! with this move" is taught, in Chromium: the tutorial's DOS! lesson offers
it (key W) and its move goes with the call, so the catch step follows at once; and a player
who is caught at the table reads that the toggle exists."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from dos import learn
from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import WAIT_MS, open_page
from .scripted import ScriptedTable

pytestmark = pytest.mark.usefixtures("chromium")


def test_the_dos_lesson_calls_with_the_move(browser: Browser, server: Server) -> None:
    _, page = open_page(browser, server.url + "/learn", DESKTOP)
    saved = {"lesson": "dos_call", "actions": [], "done": []}
    page.evaluate("saved => localStorage.setItem('dos.learn', saved)", json.dumps(saved))
    page.reload()
    view = page.locator("#view-learn")
    expect(view).to_have_attribute("data-lesson", "dos_call")
    lesson = learn.lesson("dos_call")
    expect(page.locator("#learn-prompt")).to_have_text(text("en", lesson.steps[0].prompt))
    toggle = page.locator("#learn-dos-move")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_class("dos-move lit")
    page.keyboard.press("w")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.locator("#learn-hand button.card.lit").first.click()
    page.locator("#learn-center button.card.lit").first.click()
    # Called with the move: nobody could catch it; the opponent's missed call is next.
    expect(view).to_have_attribute("data-step", "2", timeout=WAIT_MS)
    expect(page.locator("#learn-prompt")).to_have_text(text("en", lesson.steps[2].prompt))
    expect(toggle).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]


def _catchable(table: ScriptedTable) -> bool:
    """The page's seat has two cards and no call: the bot may catch it."""
    return any(str(a).endswith("catch 0") for a in table.legal(1))


def test_a_player_caught_reads_that_the_toggle_exists(browser: Browser, server: Server) -> None:
    table = ScriptedTable.at("official", _catchable)
    _, page = open_page(browser, server.url, PHONE)
    table.open(page)
    hint = page.locator("#hint")
    caught = text("en", "game.caught_dos_with_move")
    expect(hint).not_to_contain_text(caught)
    table.send(table.step("1: catch 0", 1))
    expect(hint).to_contain_text(caught)
    assert not page.errors  # type: ignore[attr-defined]


def _must_draw_from_one(table: ScriptedTable) -> bool:
    """The page's turn with one card in hand and only a draw to make: the draw brings the hand
    to two, which owes DOS! (RULES.md §6)."""
    moves = [str(a) for a in table.legal(0)]
    return (
        table.rules.turn(table.state) == 0 and len(table.state.hands[0]) == 1 and moves == ["draw"]
    )


def test_a_draw_to_two_cards_carries_the_call(browser: Browser, server: Server) -> None:
    """A hand of one that must draw becomes two: the toggle is offered and the draw goes with
    the call, so a bot's instant catch cannot come first."""
    table = ScriptedTable.at("official", _must_draw_from_one)
    _, page = open_page(browser, server.url, PHONE)
    table.open(page)
    toggle = page.locator("#btn-dos-move")
    expect(toggle).to_be_visible()
    page.keyboard.press("w")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("d")
    sent = table.wait_for_action(page)
    assert (sent["action"], sent.get("dos")) == ("draw", True), sent
    assert not page.errors  # type: ignore[attr-defined]
