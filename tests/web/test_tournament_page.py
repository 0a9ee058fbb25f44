"""A tournament's page in Chromium, in Japanese: a visitor joins a Swiss from its page, sees
the standings and the status in their language (axe-core finds no violation there), and once
the organiser starts the round the page (looking again by itself) offers their table, which
opens with their seat."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from dos.i18n import text
from web.conftest import DESKTOP, Server
from web.pages import open_page, set_language
from web.test_accessibility import axe_violations

pytestmark = pytest.mark.usefixtures("chromium")


def test_a_visitor_joins_a_swiss_and_is_taken_to_their_table(
    browser: Browser, server: Server
) -> None:
    made = httpx.post(
        f"{server.url}/api/tournaments",
        json={"name": "Bea", "title": "金曜杯", "format": "swiss", "rounds": 2},
    ).json()
    context, page = open_page(browser, f"{server.url}/tournaments/{made['id']}", DESKTOP)
    set_language(page, "ja")
    expect(page.locator("#tour-name")).to_have_text("金曜杯")
    expect(page.locator("#tour-status")).to_have_text(
        text("ja", "tour.swiss_not_started", rounds=2)
    )
    page.fill("#tour-name-input", "Ada")
    page.get_by_role("button", name=text("ja", "tour.join")).click()
    rows = page.locator("#tour-standings tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#tour-standings tr.you")).to_contain_text("Ada")
    expect(page.get_by_role("button", name=text("ja", "tour.leave"))).to_be_visible()
    found: dict[str, object] = {}
    axe_violations(page, "tournament", found)
    assert found == {}

    started = httpx.post(
        f"{server.url}/api/tournaments/{made['id']}/start",
        json={"player_token": made["player_token"]},
    )
    assert started.status_code == 200, started.text
    expect(page.locator("#tour-status")).to_have_text(
        text("ja", "tour.round_of", round=1, rounds=2), timeout=10_000
    )
    expect(page.locator("#tour-tables a")).to_have_count(1)
    page.get_by_role("button", name=text("ja", "tour.play")).click()
    expect(page).to_have_url(f"{server.url}/t/{started.json()['tables'][0]['code']}")
    expect(page.locator("#view-table")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()
