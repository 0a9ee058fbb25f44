"""Every word of a refusal comes from the catalog in the page's language.

The server's English (a stale action's "the game is at version ...", an unknown table) never
reaches the page: its error code picks the catalog's words, and a code the page does not
know gets a generic text in the page's language. The banner does not follow the player to
the Rules page.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, WebSocketRoute, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page, set_language, start

LATIN_WORDS = re.compile(r"[A-Za-z]{3,}")


def test_an_unknown_table_is_said_in_japanese_and_the_banner_stays_behind(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        set_language(page, "ja")
        page.fill("#player-name", "Kei")
        page.fill("#join-code", "ZZZZZZ")
        page.click("#join-button")
        banner = page.locator("#error-banner")
        expect(banner).to_be_visible()
        said = banner.inner_text()
        assert said in {text("ja", "web.err_no_table"), text("ja", "web.err_not_found")}, said
        assert not LATIN_WORDS.search(said), said
        page.click("#nav-rules")
        expect(page.locator("#view-rules")).to_be_visible()
        expect(banner).to_be_hidden()
    finally:
        context.close()


def test_a_stale_action_and_an_unknown_code_are_said_in_welsh(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    sockets: list[WebSocketRoute] = []
    try:
        set_language(page, "cy")

        def route(socket: WebSocketRoute) -> None:
            # The page's draw goes out with another version: the server finds it stale.
            upstream = socket.connect_to_server()
            sockets.append(socket)

            def forward(message: str | bytes) -> None:
                data = json.loads(message)
                if data.get("type") == "action" and data.get("action") == "draw":
                    data["version"] += 1
                upstream.send(json.dumps(data))

            socket.on_message(forward)

        page.route_web_socket(re.compile(r"/ws"), route)
        create_table(page, "Rhys", seats=2, bots=1, level="easy")
        start(page)
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=20_000)
        page.keyboard.press("d")
        banner = page.locator("#error-banner")
        expect(banner).to_have_text(text("cy", "web.error_stale"))
        # A code this page has never heard of: still Welsh, never the server's English.
        sockets[-1].send(
            json.dumps({"type": "error", "code": "brand_new", "message": "look again, in English"})
        )
        expect(banner).to_have_text(text("cy", "web.error_generic"))
    finally:
        context.close()
