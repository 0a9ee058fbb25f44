"""A hard bot is rarely caught.

A player who catches in no time at all (the page presses Catch! the instant the button
appears) plays a hard bot: whenever the bot's own move brings its hand to two cards, it has
called "DOS!" with that move (docs/bots.md), so the catch comes too late and is refused.
"""

from __future__ import annotations

import itertools

from playwright.sync_api import Browser

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import create_table, open_page, play_round, start

CALLS_IN_FIRST_ROUND = 45
"""A deal on which, at two seats against a ``hard`` bot, the bot's own moves bring its hand to
two cards ``CALLS`` times in a first round that ends after ``SHORT_ROUND`` under
``play_round``'s play, and the person owes no DOS! but with a move: the game is a function of
the seed and the moves (the bot calls with its move, at once)."""
SHORT_ROUND = {"steps": 4, "owed": 0, "caught": 0}
CALLS = 2

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
        played = play_round([page])
        assert played == SHORT_ROUND, f"CALLS_IN_FIRST_ROUND plays otherwise: {played}"
        log = page.locator("#log li").all_inner_texts()
        # The players' actions, without what follows from them ("every other player draws").
        actions = [entry for entry in log if entry.startswith((bot, "Ada"))]
        calls_on_own_move = 0
        for before, entry in itertools.pairwise(actions):
            if before.startswith(bot) and any(word in before for word in own_moves):
                assert entry != caught, (before, entry)
                calls_on_own_move += entry == called
        assert caught not in log, log
        assert calls_on_own_move == CALLS, log
    finally:
        context.close()
