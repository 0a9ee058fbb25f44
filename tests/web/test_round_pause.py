"""The round summary pauses the game until every player has continued.

Two people and a bot play a round; when its summary opens, the next round waits: both pages
show the countdown and who is still reading, nothing is played (the bot waits too) while one
player has continued and the other has not, and the next round goes on once both have.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, join_by_link, open_page, play_round, start, version

SHORT_FIRST_ROUND = 241
"""A deal whose first round, at three seats (two people and an ``easy`` bot), ends after
``SHORT_ROUND`` under ``play_round``'s play, with no DOS! owed but with a move and the bot
never at two cards: the round is a function of the seed and the moves, the same every run."""
SHORT_ROUND = {"steps": 6, "owed": 0, "caught": 0}


def test_the_next_round_waits_for_every_player(browser: Browser, server: Server) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, PHONE)
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy", seed=SHORT_FIRST_ROUND)
        join_by_link(bo, server.url, code, "Bo")
        start(ada, bo)
        played = play_round([ada, bo])
        assert played == SHORT_ROUND, f"SHORT_FIRST_ROUND plays otherwise: {played}"
        for page in (ada, bo):
            expect(page.locator("#dialog")).to_have_attribute("data-kind", "round")
            expect(page.locator("body")).to_have_attribute("data-paused", "true")
            expect(page.locator("#pause-countdown")).to_contain_text("The next round starts in")
        paused_at = version(ada)
        ada.click("#round-continue")
        # The server has taken Ada's answer: it now waits for Bo alone.
        expect(ada.locator("#pause-info")).to_contain_text("Waiting for Bo.")
        expect(bo.locator("#pause-countdown")).to_contain_text("Waiting for Bo.")
        expect(bo.locator("#dialog")).to_have_attribute("data-kind", "round")
        assert version(ada) == paused_at and version(bo) == paused_at  # nobody played
        bo.click("#round-continue")
        for page in (ada, bo):
            expect(page.locator("body")).to_have_attribute("data-paused", "false")
            expect(page.locator("#pause-info")).to_be_hidden()
            expect(page.locator("#dialog")).to_be_hidden()
            expect(page.locator("body")).to_have_attribute("data-round", "2")
    finally:
        ada_context.close()
        bo_context.close()
