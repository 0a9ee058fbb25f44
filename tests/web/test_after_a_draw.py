"""After a fruitless draw the page shows which cards can be laid, and Lay
is offered at once (pressed with no card selected, it says to pick one and goes to it)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import create_table, hand, open_page, start


def test_the_cards_to_lay_are_marked_and_lay_is_offered(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        start(page)
        body = page.locator("body")
        expect(body).to_have_attribute("data-my-turn", "true", timeout=20_000)
        expect(body).to_have_attribute("data-phase", "start")
        page.click("#btn-draw")
        expect(body).to_have_attribute("data-phase", "drawn")
        # Any card may be laid after a draw: every one is marked, and says so.
        cards = hand(page)
        expect(page.locator("#hand button.card.layable")).to_have_count(len(cards))
        first = page.locator("#hand button.card").first
        can_lay = re.escape(text("en", "web.can_lay"))
        expect(first).to_have_attribute("aria-label", re.compile(rf"^1: .+, {can_lay}$"))
        expect(page.locator("#hint")).to_have_text(text("en", "web.hint_drawn_lay"))
        lay = page.locator("#btn-lay")
        expect(lay).to_be_visible()
        expect(lay).to_be_enabled()
        lay.click()
        expect(page.locator("#hint")).to_have_text(text("en", "web.hint_pick_lay"))
        expect(page.locator("#hand button.card.layable").first).to_be_focused()
        page.keyboard.press("Enter")  # selects the focused card
        expect(lay).to_have_class(re.compile(r"\bready\b"))
        lay.click()
        expect(body).not_to_have_attribute("data-phase", "drawn")
        expect(page.locator("#log")).to_contain_text(re.compile(r"Ada laid .+ in the Center Row"))
    finally:
        context.close()
