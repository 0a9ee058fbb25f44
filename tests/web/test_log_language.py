"""A change of language says the whole log again: every earlier line in the new language.

The log's lines are made from the game's events (each action with the views around it), not
kept as words; switching the language mid-game re-says them all, as the lines written after
the switch are. The table is scripted (``scripted.py``): a real game's frames.
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import open_page, set_language
from .scripted import BOT, ScriptedTable

LINES_JS = "() => [...document.querySelectorAll('#log > li')].map((li) => li.textContent)"


def test_switching_language_says_every_earlier_log_line_again(
    browser: Browser, server: Server
) -> None:
    table = ScriptedTable.at("official", lambda t: t.version > 2 and t.rules.turn(t.state) == 1)
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        table.open(page)
        rng = random.Random(3)
        for _ in range(6):
            seat = table.rules.turn(table.state)
            moves = [a for a in table.legal(seat) if not re.search(r"catch|dos$", str(a))]
            table.send(table.step(rng.choice(moves), seat, by_bot=seat != 0))
            expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        english = page.evaluate(LINES_JS)
        assert len(english) >= 6, english
        assert any(BOT in line for line in english)
        set_language(page, "cy")
        welsh_bot = text("cy", "web.bot_named", bot=text("cy", "game.bot_name", number=2),
                         level=text("cy", "web.level_hard"))  # fmt: skip
        expect(page.locator("#log > li").first).not_to_have_text(english[0])
        welsh = page.evaluate(LINES_JS)
        assert len(welsh) == len(english)
        assert [line for line, before in zip(welsh, english, strict=True) if line == before] == []
        assert not any(BOT in line for line in welsh)
        assert any(welsh_bot in line for line in welsh), (welsh_bot, welsh)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
