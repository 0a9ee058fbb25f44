"""A refusal shows without moving the board, and goes when the game moves on.

The banner floats over the page: the board keeps its place (a banner in the page's flow would
push it about 50 px down, under the pointer, and misclicks follow). It goes with the next state
or update from the server, whoever's, and a refused game action never shows with a dialog
open. It is an alert (``role="alert"``) in the page's language.

The table is scripted (``scripted.py``): the frames of a real game, at the exact moments.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import dialog_kind, open_page
from .scripted import ScriptedTable, refusal


def box(page: Page) -> Any:
    """Where the board is: x, y, width, height."""
    found = page.locator(".board").bounding_box()
    assert found is not None
    return found


def moves(table: ScriptedTable) -> list[Any]:
    turn = table.rules.turn(table.state)
    return [a for a in table.legal(turn) if "dos" not in str(a) and "catch" not in str(a)]


def test_a_refusal_leaves_the_board_in_place_and_goes_with_the_next_update(
    browser: Browser, server: Server
) -> None:
    table = ScriptedTable.at("official", lambda t: t.rules.turn(t.state) == 1)  # the bot's turn
    for viewport in (DESKTOP, PHONE):
        context, page = open_page(browser, server.url, viewport)
        try:
            table.open(page)
            banner = page.locator("#error-banner")
            before = box(page)
            table.send(refusal("stale"))
            expect(banner).to_have_text(text("en", "web.error_stale"))
            expect(banner).to_have_attribute("role", "alert")
            assert box(page) == before, viewport
            # The bot moves: the game went on, the refusal is about a state that is gone.
            table.send(table.step(moves(table)[0], 1))
            expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
            expect(banner).to_be_hidden()
        finally:
            context.close()


def ends_the_game(table: ScriptedTable) -> Any:
    for action in moves(table):
        after = table.rules.copy(table.state)
        table.rules.apply(after, action)
        if table.rules.is_over(after):
            return action
    return None


def test_no_refusal_shows_with_the_game_over_dialog(browser: Browser, server: Server) -> None:
    table = ScriptedTable.at(
        "official", lambda t: ends_the_game(t) is not None, {"target_score": 1}
    )
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        table.open(page)
        banner = page.locator("#error-banner")
        table.send(refusal("stale"))
        expect(banner).to_be_visible()
        table.send(table.step(ends_the_game(table), table.rules.turn(table.state)))
        expect(page.locator("#dialog")).to_be_visible()
        assert dialog_kind(page) == "over"
        expect(banner).to_be_hidden()
        # A refusal that comes with the dialog open (an action sent just before the end):
        # not behind the dialog, nor left for after it.
        table.send(refusal("stale", "a99"))
        expect(page.locator("body")).to_have_attribute("data-refused", "a99")
        expect(banner).to_be_hidden()
    finally:
        context.close()
