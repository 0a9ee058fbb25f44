"""Leaving a table is final for the page: what the table sent before and the page had not
shown yet (held while the table's rule-set client loads) does not bring its view back.

The official table's client loads at the first table. Here its module is held until the person has
left the waiting room they just made; the table's first messages arrived before they left.
The page stays in the lobby.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Route, expect

from .conftest import DESKTOP, Server
from .pages import open_page


def test_a_table_left_while_its_client_loads_stays_left(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    held: list[Route] = []

    def hold(route: Route) -> None:  # answered when the test says (a bound method is refused)
        held.append(route)

    try:
        page.route("**/static/js/officialtable.js*", hold)
        page.fill("#player-name", "Ada")
        page.fill("#create-seats", "2")
        page.fill("#create-bots", "1")
        with page.expect_request("**/static/js/officialtable.js*"):
            page.click("#create-button")
        expect(page.locator("#view-waiting")).to_be_visible()
        expect(page.locator("#leave-button")).to_be_visible()
        assert held, "the official table's client was not asked for"
        page.click("#leave-button")
        expect(page.locator("#view-lobby")).to_be_visible()
        held[0].continue_()
        page.evaluate("() => import('/static/js/officialtable.js')")  # loaded now, and what it held
        page.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # is out
        expect(page.locator("#view-lobby")).to_be_visible()
        expect(page.locator("#view-waiting")).to_be_hidden()
        assert page.evaluate("() => location.pathname") == "/"
    finally:
        context.close()
