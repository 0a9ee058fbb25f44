"""A rematch deals only those who chose it, in Chromium: a friend whose tab closed is not
dealt into the host's rematch, and the host's bar never says they stay."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from server.support import WsPlayer
from web.conftest import DESKTOP, Server
from web.pages import WAIT_MS, create_table, join_by_link, open_page, start

pytestmark = pytest.mark.usefixtures("chromium")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose grace is 0.2 s: a closed page's seat gets the stand-in at once."""
    server = Server(
        data=tmp_path_factory.mktemp("quick"), args=["--grace", "0.2", "--bot-delay", "0"]
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _table(server: Server, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}", timeout=10) as answer:
        table: dict[str, Any] = json.loads(answer.read())
    return table


def _watch_to_the_end(server: Server, code: str) -> None:
    """Follows the table as a spectator over the WebSocket (no page drawing the game) until
    the server has stored its game's end."""

    async def watch() -> None:
        ws_url = "ws" + server.url.removeprefix("http")
        watcher = await WsPlayer(ws_url, code, None).connect()
        try:
            while watcher.table is None or watcher.table["status"] != "finished":
                await watcher.recv(timeout=WAIT_MS / 1000)
        finally:
            await watcher.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        thread.submit(asyncio.run, watch()).result()


def test_a_friend_whose_tab_closed_is_not_dealt_into_the_rematch(
    browser: Browser, quick: Server
) -> None:
    host_context, host = open_page(browser, quick.url, DESKTOP)
    try:
        host.fill("#create-target", "1")  # one round: the game
        host.fill("#create-timer", "0")
        code = create_table(host, "Hosta", 2, 0)
        friend_context, friend = open_page(browser, quick.url, DESKTOP)
        join_by_link(friend, quick.url, code, "Ada")
        start(host, friend)
        friend_context.close()  # Ada's tab closes, and never comes back
        # The host's page goes too, until the stand-ins have played the game to its end (which a
        # spectator sees); then the host comes back to the game over.
        host.goto("about:blank")
        _watch_to_the_end(quick, code)
        host.goto(f"{quick.url}/t/{code}")
        expect(host.locator("#over-actions")).to_be_visible(timeout=WAIT_MS)
        host.keyboard.press("Escape")  # the game-over summary
        staying = host.locator("#host-bar .who-stays").first
        expect(staying).to_contain_text("Hosta")
        expect(staying).not_to_contain_text("Ada")
        host.click("#btn-rematch")
        expect(host.locator("#over-actions")).to_be_hidden(timeout=WAIT_MS)
        table = _table(quick, code)
        assert table["status"] == "playing"
        assert table["seats"][1]["name"] is None and table["seats"][1]["bot"] is not None
        expect(host.locator("#opponents li[data-seat='1']")).not_to_contain_text("Ada")
        assert not host.errors  # type: ignore[attr-defined]
    finally:
        host_context.close()
