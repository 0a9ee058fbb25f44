"""The table is a table: the opponents sit around the felt table top in seat order going
round from the player, whose hand is at the bottom; on a phone they sit in a compact row
across the top, and nothing scrolls sideways.

Also writes the README's screenshots of the table (``tests/web/output/game-desktop.png``,
``game-phone-ja.png``; copied to ``docs/screenshots/`` by hand when the table changes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page, set_language, start

Box = dict[str, float]


BOXES_JS = """selectors => selectors.map(selector => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height, right: r.right, bottom: r.bottom,
          cx: r.x + r.width / 2, cy: r.y + r.height / 2};
})"""


def seated_around(page: Page, seats: int) -> tuple[list[Box], Box, Box]:
    """Each opponent's box in seat order going round from the player, the table top, the hand
    (measured at once: the bots' moves redraw the boxes meanwhile)."""
    expect(page.locator("#opponents li")).to_have_count(seats)
    expect(page.locator("#opponents li.me")).to_have_count(1)
    me = int(page.locator("#opponents li.me").get_attribute("data-seat") or "0")
    selectors = [f'#opponents li[data-seat="{(me + n) % seats}"]' for n in range(1, seats)]
    found: list[Box | None] = page.evaluate(BOXES_JS, [*selectors, ".center-area", "#hand"])
    assert all(found), found
    boxes = [each for each in found if each]
    return boxes[:-2], boxes[-2], boxes[-1]


def no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"scrolls sideways: {widths}"


@pytest.mark.parametrize("seats", [2, 4])
def test_opponents_sit_around_the_table_on_a_desktop(
    browser: Browser, server: Server, output_dir: Path, seats: int
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.fill("#create-target", "1")  # one round: the bots left here end it soon
        create_table(page, "Ada", seats=seats, bots=seats - 1, level="easy")
        start(page)
        opponents, table, hand = seated_around(page, seats)
        if seats == 2:
            (across,) = opponents
            assert across["bottom"] <= table["y"] + 2, (across, table)  # opposite: above it
            assert abs(across["cx"] - table["cx"]) < table["width"] / 4, (across, table)
        else:
            left, top, right = opponents
            assert left["cx"] < table["x"] < table["cx"] < table["right"] < right["cx"]
            assert top["cy"] < table["y"] < table["cy"], (top, table)
            assert left["right"] <= table["x"] + 2 and right["x"] >= table["right"] - 2
            for side in (left, right):  # beside the table top, not above it
                assert table["y"] < side["cy"] < table["bottom"], (side, table)
            assert abs(top["cx"] - table["cx"]) < table["width"] / 4, (top, table)
        assert hand["y"] >= table["bottom"] - 2, (hand, table)  # the player's seat: at the bottom
        no_sideways_scroll(page)
        if seats == 4:
            page.screenshot(path=str(output_dir / "game-desktop.png"))
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


@pytest.mark.parametrize("seats", [2, 4])
def test_opponents_sit_across_the_top_on_a_phone(
    browser: Browser, server: Server, output_dir: Path, seats: int
) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        if seats == 4:
            set_language(page, "ja")
        page.fill("#create-target", "1")  # one round: the bots left here end it soon
        create_table(page, "Ada", seats=seats, bots=seats - 1, level="easy")
        start(page)
        opponents, table, hand = seated_around(page, seats)
        for each in opponents:
            assert each["bottom"] <= table["y"] + 2, (each, table)
            assert each["x"] >= 0 and each["right"] <= PHONE["width"], each
        # in seat order going round from the player: left to right, row by row
        order = [(round(each["y"] / 10), each["x"]) for each in opponents]
        assert order == sorted(order), order
        assert hand["y"] >= table["bottom"] - 2, (hand, table)
        no_sideways_scroll(page)
        if seats == 4:
            page.screenshot(path=str(output_dir / "game-phone-ja.png"))
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
