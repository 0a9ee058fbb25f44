"""Nothing a player may touch moves unless they act.

On a phone, and on a desktop, the others' moves change the status bar's texts, the players'
boxes, the Center Row's length and the hint's; none of them may push the hand (or its
buttons) about. The table is scripted (``scripted.py``): a four-seat game of the real engine
whose other three seats play one move after another, in English, Japanese and Welsh; after
each move the page has shown, the hand is where it was, nothing scrolls sideways, and
Chromium reports no layout shift of the page.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE, Server
from .pages import open_page, set_language
from .scripted import ScriptedTable

SEATS = 4

# Layout shifts as Chromium reports them (PerformanceObserver, "layout-shift": the browser's
# own measure of content that moved without the player's input), added up.
SHIFTS_JS = """() => {
  window.shifts = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.shifts += entry.value;
  }).observe({type: 'layout-shift', buffered: false});
}"""

HAND_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y]; };
  return {hand: box(document.getElementById('hand')),
          actions: box(document.getElementById('actions')),
          shifts: window.shifts};
}"""


WIDE_JS = """() => document.documentElement.scrollWidth <= window.innerWidth ? [] :
  [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.id || e.className).slice(0, 8)"""
"""What sticks out of the window on the right, if the page scrolls sideways."""


class FourSeats(ScriptedTable):
    """The scripted table with four seats: the page's (0) and three hard bots."""

    def table_info(self) -> dict[str, Any]:
        info = super().table_info()
        info["seats"] = [
            {
                "seat": s,
                "name": "Ada" if s == 0 else None,
                "bot": None if s == 0 else "hard",
                "connected": True,
                "away": False,
            }
            for s in range(SEATS)
        ]
        return info


def others_to_move(table: ScriptedTable) -> bool:
    return bool(table.rules.turn(table.state) == 1 and table.version > 4)


def show(page: Page, table: ScriptedTable, frame: str) -> None:
    table.send(frame)
    expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", PHONE), ("ja", PHONE), ("cy", PHONE), ("cy", DESKTOP)]
)
def test_the_others_moves_never_move_the_hand(
    browser: Browser, server: Server, lang: str, viewport: dict[str, int]
) -> None:
    table = FourSeats.at("official", others_to_move, {"players": SEATS})
    context, page = open_page(browser, server.url, viewport)
    try:
        set_language(page, lang)
        table.open(page)
        page.evaluate(SHIFTS_JS)
        rng = random.Random(7)
        moved, shifts = 0, 0.0
        before = page.evaluate(HAND_JS)
        while moved < 15 and not table.rules.is_over(table.state):
            seat = table.rules.turn(table.state)
            moves = [a for a in table.legal(seat) if not re.search(r"catch", str(a))]
            page.evaluate("() => { window.shifts = 0; }")
            frame = table.step(rng.choice(moves), seat, by_bot=seat != 0)
            show(page, table, frame)
            now = page.evaluate(HAND_JS)
            assert page.evaluate(WIDE_JS) == [], "scrolls sideways"
            if seat == 0:  # the player's own move may move what is theirs
                before = now
                continue
            moved += 1
            shifts += now["shifts"]
            assert now["hand"] == before["hand"], (moved, before, now)
            assert now["actions"] == before["actions"], (moved, before, now)
            before = now
        assert moved >= 12
        assert shifts < 0.01, shifts
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
