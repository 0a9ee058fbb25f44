"""The log is rebuilt from the game's actions on every (re)connect.

A second tab of the same seat shows the whole log so far, not an empty one; moves made while
a tab was away (replaced by the other tab) appear in it once it comes back.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, Server
from .pages import create_table, dialog_kind, open_page, start, take_step, version


def log_of(page: Page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def play_own_turns(page: Page, steps: int) -> None:
    """``steps`` actions of this seat (the bots play between them). A round summary that opens
    meanwhile is continued past, and a step that found its control gone ("stale": the state
    moved on before it acted) is taken again, so the seat really makes ``steps`` moves."""
    done = tries = 0
    while done < steps:
        tries += 1
        assert tries <= 10 * steps, f"{done} of {steps} moves made in {tries - 1} tries"
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'true'"
            " || document.getElementById('dialog').open",
            timeout=20_000,
        )
        kind = dialog_kind(page)
        if kind == "over":
            return
        if kind == "round":
            page.click("#round-continue")
            continue
        if take_step(page) not in ("dialog", "stale"):
            done += 1


def test_a_second_tab_and_a_returning_tab_show_the_whole_log(
    browser: Browser, server: Server
) -> None:
    context, first = open_page(browser, server.url, DESKTOP)
    try:
        code = create_table(first, "Ada", seats=3, bots=2, level="easy")
        start(first)
        play_own_turns(first, 3)
        earlier = log_of(first)
        assert len(earlier) >= 3
        # A second tab on the same seat (same browser storage): it takes the seat over.
        second = context.new_page()
        second.goto(f"{server.url}/t/{code}")
        expect(second.locator("#view-table")).to_be_visible()
        expect(first.locator("#conn-status")).to_be_visible()  # replaced
        second.wait_for_function(
            "n => document.querySelectorAll('#log li').length >= n", arg=len(earlier)
        )
        assert log_of(second)[: len(earlier)] == earlier
        # Moves made while the first tab is away...
        play_own_turns(second, 3)
        # ...are in its log when it comes back (and takes the seat back in turn).
        first.reload()
        expect(first.locator("#view-table")).to_be_visible()
        expect(second.locator("#conn-status")).to_be_visible()  # replaced now
        missed = log_of(second)
        assert len(missed) > len(earlier)
        first.wait_for_function(
            "n => document.querySelectorAll('#log li').length >= n", arg=len(missed)
        )
        assert log_of(first)[: len(missed)] == missed
        assert int(version(first)) >= int(version(second))
    finally:
        context.close()
