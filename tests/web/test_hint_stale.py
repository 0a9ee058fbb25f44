"""A hint the game outran: the page says so in the player's language and offers it again.

The server answers every ``hint`` request (docs/protocol.md, "Hints"); when the game moved on
while the hint was worked out (here: the bot catches the player out of turn, and it is still
the player's turn) the answer is the ``hint_stale`` refusal. The page must not wait for a hint
that never comes: it says, in the hint's own box (a status, not an alert), that the game moved
on, and its Hint button is there again, enabled, and asks again when pressed.

The table is scripted (``scripted.py``): the frames of a real game, sent at the exact moments
the test chooses, the refusal made by the server's own code.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page, expect

from dos.i18n import text
from dos.server.protocol.server_messages import server_message
from dos.server.tables.hints import HintRefusedError

from .conftest import DESKTOP, Server
from .pages import open_page, set_language
from .scripted import ScriptedTable

LANG = "fr"
"""The player's language: none of the page's words here may be the English ones."""


class HintTable(ScriptedTable):
    """A scripted casual table where the one person may ask for hints."""

    def table_info(self) -> dict[str, Any]:
        return {**super().table_info(), "hints": True}


def caught_on_my_turn(table: ScriptedTable) -> bool:
    """The page's turn, with a move to make, and the bot may catch it (a DOS! not called)."""
    if table.rules.turn(table.state) != 0:
        return False
    mine = [a for a in table.legal(0) if "dos" not in str(a) and "catch" not in str(a)]
    return bool(mine) and any("catch" in str(a) for a in table.legal(1))


def stale() -> str:
    """The server's answer to a hint outdated before it was ready (``dos.server.tables.hints``)."""
    error = HintRefusedError("hint_stale", "the game moved on: ask again")
    return server_message(
        "error", code=error.code, message=error.message, id=None, **error.reason.json()
    )


def hints_asked(table: ScriptedTable) -> int:
    return sum(1 for m in table.from_page if m.get("type") == "hint")


def wait_for_hints(page: Page, table: ScriptedTable, count: int) -> None:
    """Until the page has sent ``count`` hint requests (they reach the test through
    Playwright, whose messages are handled while the test waits on the page)."""
    deadline = time.monotonic() + 10
    while hints_asked(table) < count:
        assert time.monotonic() < deadline, f"the page asked {hints_asked(table)} hints"
        page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")


def test_a_stale_hint_is_said_and_offered_again(browser: Browser, server: Server) -> None:
    table = HintTable.at("official", caught_on_my_turn)
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        set_language(page, LANG)
        table.open(page)
        button = page.locator("#btn-hint")
        box = page.locator("#hint-box")
        banner = page.locator("#error-banner")
        said = text(LANG, "game.hint_refused_stale")
        expect(button).to_be_visible()
        button.click()
        wait_for_hints(page, table, 1)
        expect(button).to_be_disabled()
        expect(button).to_have_text(text(LANG, "web.hint_asking"))

        # The bot catches the player out of turn while the hint is worked out: a new
        # version, still the player's turn; then the server's answer: stale.
        (catch,) = [a for a in table.legal(1) if "catch" in str(a)]
        table.send(table.step(catch, 1))
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        table.send(stale())
        expect(box).to_be_visible()
        expect(box).to_have_text(said)
        expect(box).to_have_attribute("role", "status")
        expect(banner).to_be_hidden()  # a notice, not a refusal of anything the player did
        expect(button).to_be_visible()
        expect(button).to_be_enabled()
        expect(button).to_have_text(text(LANG, "web.hint_button"))

        # Offered again: pressed, it asks again (and the notice gives way).
        button.click()
        wait_for_hints(page, table, 2)
        expect(box).to_be_hidden()
        expect(button).to_be_disabled()

        # Stale before the page has seen the game move on: the same.
        table.send(stale())
        expect(box).to_have_text(said)
        expect(button).to_be_enabled()
        expect(button).to_have_text(text(LANG, "web.hint_button"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
