"""Each bot seat picks its own level in the lobby; the levels are the
server's (the bot registry's), each rule set's own, named in the player's language."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import create_table, open_page, set_language, start


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


def test_every_level_of_the_rule_set_is_offered_in_the_players_words(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        set_language(page, "de")
        page.fill("#create-seats", "2")
        page.fill("#create-bots", "1")
        menu = page.locator("#create-level-1 option")
        expect(menu).to_have_text([text("de", f"web.level_{level}") for level in LEVELS])
        assert menu.evaluate_all("options => options.map(o => o.value)") == list(LEVELS)
        assert "expert" in LEVELS and text("de", "web.level_expert") == "Experte"
        page.select_option("#create-level-1", "expert")
        page.select_option("#create-rules", "classic")  # the classic rule set's own levels
        expect(menu).to_have_text([text("de", f"web.level_{level}") for level in CLASSIC_LEVELS])
        page.select_option("#create-rules", "official")
        expect(page.locator("#create-level-1")).to_have_value("expert")  # the choice is kept
        code = create_table(page, "Ada", seats=2, bots=1, level="expert")
        seats = page.request.get(f"{server.url}/api/tables/{code}").json()["seats"]
        assert [s["bot"] for s in seats] == [None, "expert"]
        bot = text("de", "game.bot_name", number=2)
        waiting = page.locator("#seat-list li[data-seat='1']")
        expect(waiting.locator(".who")).to_have_text(bot)  # as at the table
        expect(waiting.locator(".level")).to_have_text("Experte")
        start(page)
        expect(page.locator("#opponents li:not(.me) .who")).to_have_text(bot)
        expect(page.locator("#opponents li:not(.me) .level")).to_have_text("Experte")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
