"""The log tells a player which card they drew, and only them; a spectator sees that they
are watching."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, hand, open_page, start


def test_your_draw_is_named_to_you_alone(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        start(page)
        watcher_context, watcher = open_page(browser, f"{server.url}/t/{code}", PHONE)
        watcher.click("#watch-button")
        expect(watcher.locator("#watching-note")).to_have_text(text("en", "web.watching"))
        expect(page.locator("#watching-note")).to_be_hidden()
        body = page.locator("body")
        expect(body).to_have_attribute("data-my-turn", "true", timeout=20_000)
        expect(body).to_have_attribute("data-phase", "start")
        before = hand(page)
        page.click("#btn-draw")
        expect(body).to_have_attribute("data-phase", "drawn")
        after = hand(page)
        for card in before:
            after.remove(card)
        assert len(after) == 1
        label = page.locator(f"#hand button.card[data-card='{after[0]}']").first.get_attribute(
            "aria-label"
        )
        assert label is not None
        name = label.split(": ", 1)[1].split(", ")[0]
        expect(page.locator("#log li").last).to_have_text(f"Ada drew {name}.")
        page.reload()  # the log rebuilt from the server still names it, to Ada
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("#log li").last).to_have_text(f"Ada drew {name}.")
        # The spectator reads that Ada drew a card, not which.
        expect(watcher.locator("#log li").last).to_have_text(
            text("en", "game.log_draw", player="Ada")
        )
        watcher_context.close()
    finally:
        context.close()
