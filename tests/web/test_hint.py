"""The Hint button in headless Chromium: at a casual table against a bot it
shows on one's turn, is reached from the keyboard, and lights the `expert`'s suggested cards
and target with the reason in words. (That a rated table offers none is the server's
``hints: false``, tests/server/test_hints.py, and the page's ``hintControl``, tests/js.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import open_page, take_step


@pytest.fixture(scope="module")
def hinting(server: Server) -> Server:
    """The server the browser tests share: its hints search few iterations (``JOBS``)."""
    return server


STALE = re.escape(text("en", "game.hint_refused_stale"))
"""What the page says of a hint the game outdated before it was ready."""


def _table(page: Page, rated: bool) -> None:
    page.fill("#player-name", "Hana")
    page.fill("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.select_option("#create-level-1", "easy")
    page.locator("input[name=rated]").set_checked(rated)
    page.click("#create-button")
    expect(page.locator("#start-button")).to_be_visible()
    page.click("#start-button")
    expect(page.locator("#view-table")).to_be_visible()


def _my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'true' && !document.querySelector('dialog[open]')"
    )


def test_a_hint_lights_the_experts_cards_and_says_why(
    browser: Browser, hinting: Server, output_dir: Path
) -> None:
    context, page = open_page(browser, hinting.url, DESKTOP)
    try:
        _table(page, rated=False)
        lit = False
        for _ in range(12):  # until a hint plays cards (a draw lights none)
            _my_turn(page)
            button = page.locator("#btn-hint")
            expect(button).to_be_visible()
            box = page.locator("#hint-box")
            for _ in range(3):
                button.focus()  # reached from the keyboard
                page.keyboard.press("Enter")
                # The search runs in a worker process. A bot's DOS! call may land meanwhile
                # (out of turn, whenever its reflex says): then the hint is outdated, the
                # page says so and offers it again (tests/web/test_hint_stale.py).
                expect(box).to_contain_text(re.compile(f"Expert's hint:|{STALE}"), timeout=30_000)
                if "Expert's hint:" in box.inner_text():
                    break
                expect(button).to_be_enabled()
            expect(box).to_contain_text("Expert's hint:")
            action = box.get_attribute("data-action") or ""
            match = re.fullmatch(r"(.+)@(\d+)", action)
            if match:
                cards = match[1].split("+")
                expect(page.locator("#hand .card.hinted")).to_have_count(len(cards))
                hinted = page.locator("#hand .card.hinted").evaluate_all(
                    "els => els.map(e => e.dataset.card.split('=')[0])"
                )
                assert sorted(hinted) == sorted(c.split("=")[0] for c in cards)
                expect(page.locator(f"#center-{match[2]}")).to_have_class(re.compile("hinted"))
                lit = True
                page.screenshot(path=str(output_dir / "hint.png"))
                break
            take_step(page)
        assert lit, "no hint played cards in twelve turns"
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
