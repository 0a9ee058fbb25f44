"""The table's details: nothing hides what the player needs.

A refusal's banner floats below the menu, never over it (and at the window's top once the
menu has scrolled away); the cards matched onto a Center Row card leave its number in view;
the leaderboard's pages link to the rules and the tutorial, as the game's pages do.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import open_page, set_language
from .scripted import ScriptedTable, refusal


def rect(page: Page, selector: str) -> Any:
    return page.evaluate(
        "s => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }",
        selector,
    )


def test_a_refusal_never_covers_the_menu(browser: Browser, server: Server) -> None:
    table = ScriptedTable.at("official", lambda t: t.rules.turn(t.state) == 1)
    for viewport in (PHONE, DESKTOP):
        context, page = open_page(browser, server.url, viewport)
        try:
            set_language(page, "cy")  # the longest menu: it wraps on a phone
            table.open(page)
            table.send(refusal("stale"))
            banner = page.locator("#error-banner")
            expect(banner).to_have_text(text("cy", "web.error_stale"))
            menu = rect(page, ".topbar")
            shown = rect(page, "#error-banner")
            assert shown["top"] >= menu["bottom"], (viewport, menu, shown)
            page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
            page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
            if rect(page, ".topbar")["bottom"] < 0:  # scrolled away: the banner stays in view
                assert 0 <= rect(page, "#error-banner")["top"] < 40, viewport
            assert not page.errors  # type: ignore[attr-defined]
        finally:
            context.close()


def first_match(table: ScriptedTable) -> Any:
    """The page's seat's first legal match now, if it is its turn."""
    if table.rules.turn(table.state) != 0:
        return None
    return next((a for a in table.legal(0) if "@" in str(a) and "dos" not in str(a)), None)


def test_cards_matched_onto_a_center_row_card_leave_its_number_in_view(
    browser: Browser, server: Server
) -> None:
    for viewport in (DESKTOP, PHONE):
        context, page = open_page(browser, server.url, viewport)
        try:
            table = ScriptedTable.at("official", lambda t: first_match(t) is not None)
            table.open(page)
            table.send(table.step(first_match(table), 0, by_bot=False))
            slot = page.locator(".center-slot:has(.played .card)")
            expect(slot).to_have_count(1)
            hidden = slot.evaluate(
                """slot => {
                  const n = slot.querySelector('.index').getBoundingClientRect();
                  const x = n.left + n.width / 2, y = n.top + n.height / 2;
                  const top = document.elementFromPoint(x, y);
                  return top === slot.querySelector('.index') ? null : String(top && top.className);
                }"""
            )
            assert hidden is None, (viewport, hidden)
            assert not page.errors  # type: ignore[attr-defined]
        finally:
            context.close()


def test_the_leaderboard_links_to_the_rules_and_the_tutorial(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url + "/leaderboard", PHONE)
    try:
        set_language(page, "ja")
        rules = page.locator(".topnav a[href='/rules']")
        expect(rules).to_have_text(text("ja", "web.nav_rules"))
        expect(page.locator(".topnav a[href='/learn']")).to_have_text(text("ja", "web.learn_nav"))
        rules.click()
        expect(page.locator("#view-rules")).to_be_visible()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
