"""Catch! shows only while a catch can succeed, and a catch gets an answer.

A hard bot calls "DOS!" with the move that leaves it two cards: the server sends the move and
the call one right after the other. The page shows the others' moves at a reading pace
(motion.js, 600 ms), but the race's controls are decided on the newest state the page has
received, whatever the animation shows: Catch! goes the moment the call arrives, and never
stands on the table while every press would be refused as too late.
A catch that is pressed shows so at once, and its outcome (caught, or too late) is said in the
log with a sound.

The table is scripted (``scripted.py``): the frames of a real game, at the exact moments.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import open_page
from .scripted import BOT, ScriptedTable, refusal

# After each frame the page has handled, and at every frame drawn: a Catch! on show that the
# newest state received does not allow is a violation.
CATCH_WATCH_JS = """() => {
  window.violations = [];
  window.catchesShown = 0;
  const allowed = () => {
    const states = window.frames_in.filter((f) => f.legal !== null);
    const newest = states[states.length - 1];
    return newest ? newest.legal.map((a) => /catch (\\d+)$/.exec(a)).filter(Boolean)
      .map((m) => m[1]) : [];
  };
  const check = (when) => {
    const shown = [...document.querySelectorAll('.catch-button')]
      .filter((b) => b.getClientRects().length);
    window.catchesShown += shown.length;
    const ok = allowed();
    for (const b of shown) {
      if (!ok.includes(b.dataset.seat)) {
        window.violations.push({seat: b.dataset.seat, when, at: performance.now(),
          shownVersion: document.body.dataset.version});
      }
    }
  };
  window.handled = [];  // [a frame's version, the version on show once the page handled it]
  window.afterFrame.push((frame) => {
    window.handled.push([frame.version, Number(document.body.dataset.version)]);
    check(`after frame ${frame.type} ${frame.version}`);
  });
  const loop = () => { check('frame drawn'); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
}"""


def bot_to_two(table: ScriptedTable) -> Any:
    """The bot's move that leaves it two cards (an open DOS obligation) from now, if any."""
    state = table.state
    if table.rules.turn(state) != 1 or state.dos_open or table.rules.rounds_played(state):
        return None
    for action in table.legal(1):
        after = table.rules.copy(state)
        table.rules.apply(after, action)
        if len(after.hands[1]) == 2 and after.dos_open >> 1 & 1:
            return action
    return None


def seated(browser: Browser, server: Server) -> tuple[Any, Page, ScriptedTable, Any]:
    """A page at a table where the hard bot is about to leave itself two cards, moves shown
    at a reading pace (no reduced motion)."""
    table = ScriptedTable.at("official", lambda t: bot_to_two(t) is not None)
    move = bot_to_two(table)
    context, page = open_page(browser, server.url, DESKTOP, motion=True)
    table.open(page)
    return context, page, table, move


def test_catch_is_never_on_show_once_the_bots_call_has_arrived(
    browser: Browser, server: Server
) -> None:
    context, page, table, move = seated(browser, server)
    try:
        page.evaluate(CATCH_WATCH_JS)
        moved = table.step(move, 1)
        assert "catch 1" in moved  # the move's own state allows a catch ...
        called = table.step("dos", 1)
        table.send(moved, called)  # ... and the call follows it at once, as the server sends it
        body = page.locator("body")
        expect(body).to_have_attribute("data-version", str(table.version))
        # The call arrived while the move was still on show (it waited for the reading pace):
        # the moment of the report. Catch! was never on show meanwhile.
        assert [table.version, table.version - 1] in page.evaluate("() => window.handled")
        assert page.evaluate("() => window.violations") == []
        expect(page.locator(".catch-button")).to_have_count(0)
        expect(page.locator("#log")).to_contain_text(text("en", "game.log_call", player=BOT))
    finally:
        context.close()


@pytest.mark.parametrize("outcome", ["late", "caught"])
def test_a_catch_shows_pressed_then_says_how_it_went(
    browser: Browser, server: Server, outcome: str
) -> None:
    context, page, table, move = seated(browser, server)
    try:
        sounds = int(page.evaluate("() => Number(document.body.dataset.sounds || 0)"))
        table.send(table.step(move, 1))
        button = page.locator(".catch-button[data-seat='1']")
        expect(button).to_be_visible()
        expect(button).to_have_text(text("en", "web.catch_name", name=BOT))
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        expect(button).to_have_attribute("aria-disabled", "true")  # no second catch
        sent = table.wait_for_action(page)
        assert sent["action"].endswith("catch 1")
        assert sent["version"] == table.version  # the newest state the page had
        log = page.locator("#log")
        if outcome == "late":
            # The bot's call reached the server first: the call, then the refusal.
            table.send(table.step("dos", 1), refusal("stale", sent["id"]))
            expect(log).to_contain_text(text("en", "web.log_catch_late", player="Ada", caught=BOT))
            sound = "late"
        else:
            table.send(table.step("catch 1", 0, id=sent["id"], by_bot=False))
            expect(log).to_contain_text(text("en", "game.log_catch", player="Ada", caught=BOT))
            sound = "catch"
        expect(page.locator(".catch-button")).to_have_count(0)
        expect(page.locator("body")).to_have_attribute("data-last-sound", sound)
        assert int(page.evaluate("() => Number(document.body.dataset.sounds)")) > sounds
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
