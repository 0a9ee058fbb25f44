"""The host hands the host role on during a game, to a player who is here.

The host's bar offers it for each other player at the table; once pressed, the other player
is the host (their page has the host's controls) and the former host no longer is.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, join_by_link, open_page, start


def test_the_host_hands_the_role_on_during_a_game(browser: Browser, server: Server) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, PHONE)
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy")
        join_by_link(bo, server.url, code, "Bo")
        start(ada, bo)
        expect(ada.locator("#view-table")).to_be_visible()
        hand_on = ada.locator("#host-bar button[data-control='make_host']")
        expect(hand_on).to_have_count(1)
        expect(hand_on).to_have_text(text("en", "web.make_host_named", name="Bo"))
        expect(bo.locator("#host-bar button[data-control='make_host']")).to_have_count(0)
        hand_on.click()
        back = bo.locator("#host-bar button[data-control='make_host']")
        expect(back).to_have_text(text("en", "web.make_host_named", name="Ada"))
        expect(ada.locator("#host-bar button[data-control='make_host']")).to_have_count(0)
        assert not ada.errors and not bo.errors  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        bo_context.close()
