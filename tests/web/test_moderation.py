"""Moderation in Chromium: a player reports and blocks another from a line of the chat, the
blocked player's lines leave her chat; an admin (she, granted by the host) finds the report
on the admin page with the chat that came before it, bans the player, and the banned
player's page is sent away from the table with the reason in words. Two people, two pages;
the admin page is the first player's, in Japanese."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, expect

from dos.i18n import text
from dos.server.people.admins import grant
from dos.server.storage.database import Database, database_url

from .conftest import DESKTOP, Server
from .pages import create_table, join_by_link, open_page, set_language

RUDE = "you all play like bots"


def test_a_report_and_a_block_from_the_chat_reach_the_admin_who_bans(
    browser: Browser, server: Server
) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, DESKTOP)
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy")
        join_by_link(bo, server.url, code, "Bo")
        bo.fill("#chat-input", RUDE)
        bo.click("#chat-send")
        line = ada.locator("#chat-log li", has_text=RUDE)
        expect(line).to_be_visible()
        # The report, from the line's menu: a reason of the list, and her own words.
        line.locator(".moderation-open").click()
        menu = ada.locator("#moderation-dialog")
        menu.get_by_role("button", name=text("en", "moderation.report"), exact=True).click()
        menu.locator("select[name=reason]").select_option("abuse")
        menu.locator("textarea[name=text]").fill("insults in the waiting room")
        menu.get_by_role("button", name=text("en", "moderation.report_send")).click()
        expect(menu.locator(".moderation-said")).to_have_text(text("en", "moderation.report_done"))
        menu.get_by_role("button", name=text("en", "moderation.close")).click()
        # The block: Bo's lines leave her chat.
        line.locator(".moderation-open").click()
        menu.get_by_role("button", name=text("en", "moderation.block"), exact=True).click()
        expect(menu.locator(".moderation-said")).to_have_text(
            text("en", "moderation.block_done", name="Bo")
        )
        menu.get_by_role("button", name=text("en", "moderation.close")).click()
        expect(ada.locator("#chat-log")).not_to_contain_text(RUDE)
        # The host makes Ada an admin (``dos admin grant``, here on the server's database).
        ada_id = ada.evaluate("() => localStorage.getItem('dos.player_id')")
        db = Database(database_url(None, server.data))
        db.run_sync(grant, ada_id, time.time())
        db.engine.dispose()
        ada.goto(f"{server.url}/admin")
        expect(ada.locator("body")).to_have_attribute("data-ready", "true")
        set_language(ada, "ja")
        expect(ada.locator("#admin-title")).to_have_text(text("ja", "moderation.admin_title"))
        report = ada.locator(".admin-report")
        expect(report).to_have_count(1)
        expect(report.locator(".admin-excerpt li")).to_have_text([f"Bo: {RUDE}"])
        report.locator(".admin-reason").fill("insults")
        report.locator("[data-action=ban]").click()
        expect(ada.locator("#admin-empty")).to_be_visible()
        expect(ada.locator("#admin-log tr[data-action=ban]")).to_contain_text("insults")
        # Bo's page, at the table, is sent away with the reason.
        expect(bo.locator("#error-banner")).to_have_text(text("en", "web.err_banned"))
        assert ada.errors == [] and bo.errors == []  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        bo_context.close()
