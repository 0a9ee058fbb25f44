"""Table chat (issue 12): through the server's WebSocket, the author from the connection;
texts shown as text (never HTML), quick reactions in the reader's language, a length cap and
a rate limit; a player can mute another; spectators read, and write once the host allows."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import create_table, join_by_link, open_page, set_language, start


def last_line(page: Page) -> Locator:
    """The words of the chat's last line, with its author (not its mute button)."""
    return page.locator("#chat-log li").last.locator(".who, .words")


HOSTILE = '<img src=x onerror="window.hacked=1"><b>bold</b>'


def test_chat_between_players_and_a_spectator(browser: Browser, server: Server) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, DESKTOP)
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy")
        join_by_link(bo, server.url, code, "Bo")
        start(ada, bo)
        set_language(bo, "fr")
        # Markup is shown as the text it is.
        ada.fill("#chat-input", HOSTILE)
        ada.click("#chat-send")
        expect(last_line(bo)).to_have_text(["Ada:", HOSTILE])
        assert bo.locator("#chat-log img, #chat-log b").count() == 0
        assert bo.evaluate("() => window.hacked") is None
        # A quick reaction, said in the reader's language.
        bo.locator("#chat-reactions button[data-reaction='gg']").click()
        expect(last_line(ada)).to_have_text(["Bo:", text("en", "web.reaction_gg")])
        expect(last_line(bo)).to_have_text(["Bo:", text("fr", "web.reaction_gg")])
        # The input holds 200 characters at most.
        ada.fill("#chat-input", "x" * 250)
        assert len(ada.input_value("#chat-input")) == 200
        ada.fill("#chat-input", "")
        # Bo mutes Ada: her lines go, and her next ones do not show.
        bo.locator("#chat-log li .mute[data-seat='0']").first.click()
        expect(bo.locator("#chat-log li")).to_have_count(1)
        ada.locator("#chat-reactions button[data-reaction='wow']").click()
        expect(last_line(ada)).to_have_text(["Ada:", text("en", "web.reaction_wow")])
        bo.locator("#chat-reactions button[data-reaction='nice']").click()
        expect(bo.locator("#chat-log li")).to_have_count(2)
        expect(bo.locator("#chat-log")).not_to_contain_text("Ada")
        # A spectator reads, and writes only once the host allows it.
        watcher_context, watcher = open_page(browser, f"{server.url}/t/{code}", DESKTOP)
        watcher.click("#watch-button")
        expect(watcher.locator("#view-table")).to_be_visible()
        expect(watcher.locator("#chat-input")).to_be_disabled()
        expect(watcher.locator("#chat-read-only")).to_be_visible()
        expect(bo.locator("#chat-host")).to_be_hidden()
        ada.check("#chat-spectators")
        expect(watcher.locator("#chat-input")).to_be_enabled()
        watcher.fill("#chat-input", "hello from the rail")
        watcher.click("#chat-send")
        expect(last_line(ada)).to_have_text(["Spectator:", "hello from the rail"])
        watcher_context.close()
        # Flooding: past the burst, the server refuses, and the page says so in its words.
        for number in range(6):
            ada.fill("#chat-input", f"spam {number}")
            ada.click("#chat-send")
        expect(ada.locator("#error-banner")).to_have_text(text("en", "web.err_chat_rate_limited"))
        expect(bo.locator("#chat-log")).not_to_contain_text("spam 5")
    finally:
        ada_context.close()
        bo_context.close()
