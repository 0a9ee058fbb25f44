"""Your turn: the tab's title and icon change, and a notification comes when the
tab is hidden and the player allowed notifications; the bell switches them off and on again,
and the page remembers it. The browser's Notification is replaced by a recorder
(headless Chromium shows none), and the tab's hidden state is set by the test."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .pages import LONG_FIRST_ROUND, create_table, draw_lay_and_wait, open_page, start

RECORDER = """
window.shownNotifications = [];
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.shownNotifications.push(title); }
};
Object.defineProperty(Document.prototype, 'hidden', {
  configurable: true, get() { return !!window.tabHidden; } });
"""


def test_the_title_icon_and_notification_say_it_is_your_turn(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.add_init_script(RECORDER)
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#notify-toggle")).to_have_attribute("aria-pressed", "true")
        create_table(page, "Ada", seats=2, bots=1, level="easy", seed=LONG_FIRST_ROUND)
        start(page)
        body = page.locator("body")
        expect(body).to_have_attribute("data-my-turn", "true", timeout=20_000)
        expect(page).to_have_title("● Your turn · DOS")
        icon = page.locator("link[rel='icon']")
        expect(icon).to_have_attribute("href", re.compile("ffcc33"))
        # The player looks at another tab; the bot moves; it is Ada's turn again.
        page.evaluate("() => { window.tabHidden = true; }")
        draw_lay_and_wait(page)
        expect(page).to_have_title("● Your turn · DOS")
        assert page.evaluate("() => window.shownNotifications") == ["Your turn"]
        # Switched off, the bell stays off: no notification, even after a reload.
        bell = page.locator("#notify-toggle")
        bell.click()
        expect(bell).to_have_attribute("aria-pressed", "false")
        draw_lay_and_wait(page)
        assert page.evaluate("() => window.shownNotifications") == ["Your turn"]
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(bell).to_have_attribute("aria-pressed", "false")
        bell.click()
        expect(bell).to_have_attribute("aria-pressed", "true")
    finally:
        context.close()
