"""The classic table.

The lobby offers the classic options (reaction time, penalty, stacking) and the table gets
them; the Rules page covers the classic rules; the log says how many cards a pending Draw Two
or Wild Draw Four made a player draw; the reaction test shows its countdown, and the digits
printed on its targets hit them from the keyboard.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import body, create_table, my_turn, open_page, start, version, wait_for_change
from .test_browser import CLASSIC_BOT_DEAL, classic_step


def test_the_lobby_offers_the_classic_options_and_the_rules_cover_them(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        expect(page.locator("#create-form .options-classic")).to_be_hidden()
        page.select_option("#create-rules", "classic")
        expect(page.locator("#create-form .options-classic")).to_be_visible()
        page.fill("#create-reaction", "2.5")
        page.fill("#create-penalty", "2")
        page.uncheck("#create-stacking")
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        options = page.request.get(f"{server.url}/api/tables/{code}").json()["options"]
        assert options["reaction_time_ms"] == 2500
        assert options["penalty_cards"] == 2
        assert options["stacking"] is False
        page.click("#nav-rules")
        expect(page.locator("#rules-classic")).to_contain_text(text("en", "classic.help_reaction"))
        expect(page.locator("#rules-classic")).to_contain_text(text("en", "classic.help_wild"))
        # The log of a draw on a pending penalty says how many cards (in every language).
        said = page.evaluate(
            """async () => {
              const classic = await import('/static/js/classic.js');
              return classic.describe('1: draw', 1, {pending: 4}, ['Ada', 'Bo']);
            }"""
        )
        assert said == text("en", "classic.log_draw_pending", player="Bo", count=4)
    finally:
        context.close()


def test_the_reaction_test_counts_down_and_its_digits_hit_the_targets(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.select_option("#create-rules", "classic")
        page.fill("#create-reaction", "10")  # time enough for a test on a busy machine
        # A deal that comes to the page's own reaction test after a few turns, not games.
        create_table(page, "Ada", seats=2, bots=1, level="easy", seed=CLASSIC_BOT_DEAL)
        start(page)
        tests = 0
        for _ in range(2000):
            if tests:
                break
            if body(page, "phase") == "over":  # the bot went out first: a new game
                page.click("#rematch-button")
                expect(page.locator("body")).not_to_have_attribute("data-phase", "over")
                continue
            before = version(page)
            if not my_turn(page):
                wait_for_change(page, before)
                continue
            targets = page.locator("#reaction-area .reaction-target")
            if not targets.count():
                classic_step(page)
                continue
            tests += 1
            expect(page.locator("#reaction-countdown")).to_contain_text(
                re.compile(r"Time left: \d+\.\d s")
            )
            numbers = targets.evaluate_all("els => els.map(e => e.dataset.number)")
            for number in numbers:
                page.keyboard.press(number)
            wait_for_change(page, before)
            log = page.locator("#log li").all_inner_texts()
            assert any(
                re.fullmatch(rf"Ada hit {len(numbers)} targets? in \d+ ms\.", e) for e in log
            ), log
        assert tests, page.locator("#log li").all_inner_texts()
    finally:
        context.close()
