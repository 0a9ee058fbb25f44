"""The keyboard is never left on the page's body.

Create takes focus to Start, Start to the hand; `?` opens the Rules with focus on their title,
and Esc closes them, back to where the player was.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .pages import create_table, open_page


def test_focus_follows_create_start_and_the_rules(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        expect(page.locator("#start-button")).to_be_focused()
        page.keyboard.press("Enter")  # Start, from the keyboard
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("#hand button.card").first).to_be_focused()
        page.keyboard.press("?")
        expect(page.locator("#view-rules")).to_be_visible()
        expect(page.locator("#rules-title")).to_be_focused()
        page.keyboard.press("Escape")
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("#view-rules")).to_be_hidden()
        assert page.evaluate("() => document.activeElement.closest('#view-table') !== null")
    finally:
        context.close()
