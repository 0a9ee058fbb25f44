"""The host's switch that allows hints, in Chromium: friends at a casual table, in fresh tabs,
turn hints on from the table (the switch needs no hint code loaded first), and the Hint button
comes to every player."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from web.conftest import DESKTOP, Server
from web.pages import WAIT_MS, create_table, join_by_link, open_page, start

pytestmark = pytest.mark.usefixtures("chromium")


def test_friends_at_a_casual_table_turn_hints_on_in_fresh_tabs(
    browser: Browser, server: Server
) -> None:
    _, host = open_page(browser, server.url, DESKTOP)
    host.locator("input[name=rated]").set_checked(False)
    code = create_table(host, "Hosta", 2, 0)
    _, friend = open_page(browser, server.url, DESKTOP)
    join_by_link(friend, server.url, code, "Ada")
    start(host, friend)
    switch = host.locator("#hint-allow")
    expect(switch).to_be_visible()
    expect(switch).not_to_be_checked()
    expect(friend.locator("#hint-allow")).to_be_hidden()  # the host's alone
    switch.check()
    expect(switch).to_be_checked(timeout=WAIT_MS)
    # The table allows hints now: whoever's turn it is has the Hint button.
    turn = host if host.evaluate("() => document.body.dataset.myTurn") == "true" else friend
    expect(turn.locator("#btn-hint")).to_be_visible(timeout=WAIT_MS)
    assert not host.errors and not friend.errors  # type: ignore[attr-defined]
