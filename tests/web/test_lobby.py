"""Issue 12, defect 4: each bot seat picks its own level in the lobby."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .pages import create_table, open_page, set_language


def test_each_bot_has_its_own_level(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.fill("#create-seats", "4")
        page.fill("#create-bots", "3")
        expect(page.locator("#bot-levels label > span")).to_have_text(
            ["Bot 2: level", "Bot 3: level", "Bot 4: level"]
        )
        set_language(page, "fr")
        expect(page.locator("#bot-levels label > span").first).to_have_text("Robot 2 : niveau")
        set_language(page, "en")
        code = create_table(page, "Ada", seats=4, bots=3, level=["hard", "easy", "medium"])
        seats = page.request.get(f"{server.url}/api/tables/{code}").json()["seats"]
        assert [s["bot"] for s in seats] == [None, "hard", "easy", "medium"]
        expect(page.locator("#seat-list li[data-seat='1']")).to_contain_text("hard")
        expect(page.locator("#seat-list li[data-seat='2']")).to_contain_text("easy")
    finally:
        context.close()
