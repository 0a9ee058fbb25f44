"""Play now for a newcomer, in Chromium: on a phone's first visit it is above the fold and
above the passkeys' panel; until a first game is finished it is casual, so the newcomer has
the Hint button."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Browser, expect

from web.conftest import PHONE, Server
from web.pages import WAIT_MS, open_page

pytestmark = pytest.mark.usefixtures("chromium")


def test_a_newcomers_play_now_is_in_sight_and_has_hints(browser: Browser, server: Server) -> None:
    _, page = open_page(browser, server.url, PHONE)
    button = page.locator("#play-now-button").bounding_box()
    account = page.locator("#account-panel").bounding_box()
    assert button is not None and account is not None
    assert button["y"] + button["height"] <= PHONE["height"]  # above the fold
    assert button["y"] < account["y"]  # above "Sign in with a passkey"
    page.click("#play-now-button")
    expect(page.locator("#view-table")).to_be_visible(timeout=WAIT_MS)
    code = page.evaluate("() => location.pathname.split('/').pop()")
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}", timeout=10) as answer:
        table = json.loads(answer.read())
    assert table["rated"] is False and table["hints"] is True
    page.wait_for_function("() => document.body.dataset.myTurn === 'true'", timeout=WAIT_MS)
    expect(page.locator("#btn-hint")).to_be_visible(timeout=WAIT_MS)
    assert not page.errors  # type: ignore[attr-defined]
