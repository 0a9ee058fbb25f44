"""Play people in Chromium: a person queues from the lobby, a second player joins the queue
through HTTP, and the page lands at the table they were matched to."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Browser, expect

from web.conftest import DESKTOP, Server
from web.pages import WAIT_MS, open_page

pytestmark = pytest.mark.usefixtures("chromium")


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.loads(answer.read()))


def test_a_person_in_the_queue_lands_at_the_table_of_their_match(
    browser: Browser, server: Server
) -> None:
    _, page = open_page(browser, server.url, DESKTOP)
    page.fill("#player-name", "Ada")
    page.select_option("#play-people-seats", "2")
    page.select_option("#play-people-bots", "")
    page.click("#play-people-button")
    expect(page.locator("#play-people-band")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#play-people-cancel")).to_be_visible()
    rules = page.locator("#play-people-rules").input_value()
    bob = _post(f"{server.url}/api/queue", {"name": "Bob", "rules": rules, "seats": 2})
    assert bob["state"] == "matched"
    seat = bob["seat"]
    assert isinstance(seat, dict) and seat["seat"] == 1
    expect(page.locator("#view-table")).to_be_visible(timeout=WAIT_MS)
    assert page.evaluate("() => location.pathname.split('/').pop()") == seat["code"]
    assert not page.errors  # type: ignore[attr-defined]
