"""A hard bot is rarely caught.

A player who catches in no time at all (the page presses Catch! the instant the button
appears) plays a hard bot: whenever the bot's own move brings its hand to two cards, it has
called "DOS!" with that move (docs/bots.md), so the catch comes too late and is refused.
"""

from __future__ import annotations

import itertools

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import create_table, dialog_kind, open_page, start
from .test_browser import play_round

CALLS_IN_FIRST_ROUND = 1
"""A deal on which, at two seats against a ``hard`` bot, the bot's own moves bring its hand to
two cards at least twice in a short first round under ``play_round``'s play, so one round
shows the calls: the game is a function of the seed and the moves."""

# Presses any Catch! button the instant it is added to the page.
INSTANT_CATCH = """() => {
  new MutationObserver(() => {
    for (const b of document.querySelectorAll('.catch-button:not([disabled])')) b.click();
  }).observe(document.body, {childList: true, subtree: true});
}"""


def test_an_instant_catch_does_not_beat_a_hard_bot(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="hard", seed=CALLS_IN_FIRST_ROUND)
        start(page)
        page.evaluate(INSTANT_CATCH)
        bot = "Bot 2 (hard)"
        own_moves = ("matched", "laid", "placed")  # the bot's own moves, in the log's words
        called = text("en", "game.log_call", player=bot)
        caught = text("en", "game.log_catch", player="Ada", caught=bot)
        calls_on_own_move = 0
        for _ in range(6):
            play_round([page], {page: "Ada"}, {page: "en"})
            log = page.locator("#log li").all_inner_texts()
            calls_on_own_move = 0
            for before, entry in itertools.pairwise(log):
                if before.startswith(bot) and any(word in before for word in own_moves):
                    assert entry != caught, (before, entry)
                    calls_on_own_move += entry == called
            if calls_on_own_move >= 2 or dialog_kind(page) == "over":
                break
            page.click("#round-continue")
            expect(page.locator("body")).to_have_attribute("data-paused", "false")
        assert calls_on_own_move >= 1, page.locator("#log li").all_inner_texts()
    finally:
        context.close()
