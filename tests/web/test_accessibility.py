"""Accessibility: axe-core finds no violation on any screen, at phone and desktop
sizes: the lobby, the waiting room, the official and the classic tables, the dialogs (a wild
card's question, the round summary, game over), the replay and the rules.

axe-core comes from the npm registry through the project's package.json and lock file
(``make test`` runs ``npm ci``); it is injected into the page as a script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page, play_away, start

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations'],
    rules: {'label-content-name-mismatch': {enabled: true}}});
  return result.violations.map((v) => ({id: v.id, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' | ' + n.failureSummary)}));
}"""


def axe_violations(page: Page, screen: str, found: dict[str, Any]) -> None:
    """Runs axe-core on the page as it is, at the phone's size and then the desktop's (the
    page laid out again for each: the same screen, its two layouts)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        violations = page.evaluate(RUN_AXE)
        if violations:
            found[f"{screen} ({size})"] = violations


@pytest.fixture(scope="module")
def axe_path() -> Path:
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci` (make test does)")
    return AXE


def test_no_axe_violations_on_any_screen(
    browser: Browser, server: Server, axe_path: Path, output_dir: Path
) -> None:
    found: dict[str, Any] = {}
    context, page = open_page(browser, server.url, PHONE)
    try:
        axe_violations(page, "lobby", found)
        page.click("#nav-rules")
        expect(page.locator("#view-rules")).to_be_visible()
        axe_violations(page, "rules", found)
        page.keyboard.press("Escape")
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        axe_violations(page, "waiting room", found)
        start(page)
        expect(page.locator("#hand button.card").first).to_be_visible()
        axe_violations(page, "official table", found)
        page.evaluate(
            """async () => {
              const d = await import('/static/js/dialog.js');
              const i18n = await import('/static/js/i18n.js');
              d.ask(i18n.t('web.designation_title'), i18n.t('web.designation_body'), [
                {label: i18n.t('game.double_color_match'), value: 'a'},
                {label: i18n.t('game.double_number_match'), value: 'b'}]);
            }"""
        )
        expect(page.locator("#dialog")).to_be_visible()
        axe_violations(page, "wild card question", found)
        page.keyboard.press("Escape")
        # A round played over the API while the page is away: its summary on the page.
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        play_away(page, server.url, code, until="round")
        expect(page.locator("#dialog")).to_have_attribute("data-kind", "round")
        axe_violations(page, "round summary", found)
        # A game of one round, for game over and the replay.
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.fill("#create-target", "1")
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        play_away(page, server.url, code)
        expect(page.locator("#dialog")).to_have_attribute("data-kind", "over")
        axe_violations(page, "game over", found)
        page.click("#replay-button")
        expect(page.locator("#view-replay")).to_be_visible()
        page.click("#replay-next")
        axe_violations(page, "replay", found)
        # The classic table.
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.select_option("#create-rules", "classic")
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        start(page)
        expect(page.locator("#center-row .card")).to_have_count(1)
        axe_violations(page, "classic table", found)
    finally:
        context.close()
    report = output_dir / "axe.json"
    report.write_text(json.dumps(found, indent=1))
    assert found == {}, f"{sorted(found)}: see {report}"
