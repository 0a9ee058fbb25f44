"""Sound: moves and your turn make sounds (Web Audio, no files); the mute toggle
silences them and is remembered across a reload."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import LONG_FIRST_ROUND, create_table, draw_lay_and_wait, open_page, start


def test_sounds_and_a_remembered_mute(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        toggle = page.locator("#sound-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_have_attribute("aria-label", text("en", "web.sound"))
        create_table(page, "Ada", seats=2, bots=1, level="easy", seed=LONG_FIRST_ROUND)
        start(page)
        draw_lay_and_wait(page)
        expect(page.locator("body")).to_have_attribute("data-last-sound", "turn")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        page.reload()
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("() => localStorage.getItem('dos.sound')") == "off"
        draw_lay_and_wait(page)  # the bot's move and this player's turn: silence
        assert page.evaluate("() => document.body.dataset.sounds") is None
    finally:
        context.close()
