"""No dead ends, in Chromium: a player removed while away who opens the table's link again is
told so and offered to watch; the lobby lists the games whose seat this browser holds, one
click back; a link to a table, a replay or a page that does not exist says so in the
player's language (a page, never the API's JSON)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from dos.i18n import text
from web.conftest import DESKTOP, PHONE, Server
from web.pages import WAIT_MS, create_table, open_and_join, open_page, set_language, start

pytestmark = pytest.mark.usefixtures("chromium")


def test_a_removed_player_who_comes_back_is_told_and_offered_to_watch(
    browser: Browser, server: Server
) -> None:
    _, host = open_page(browser, server.url, DESKTOP)
    host.fill("#create-timer", "0")
    code = create_table(host, "Hosta", 3, 1)
    _, guest = open_and_join(browser, server.url, code, "Gast", DESKTOP)
    start(host, guest)
    guest.goto("about:blank")  # the guest's tab goes away; the host removes them meanwhile
    absent = host.locator("#host-bar p.absent[data-seat='1']")
    expect(absent).to_be_visible(timeout=WAIT_MS)
    absent.locator("[data-control='remove']").click()
    expect(absent).to_be_hidden(timeout=WAIT_MS)
    guest.goto(f"{server.url}/t/{code}")
    notice = guest.locator("#lobby-notice")
    expect(notice).to_have_text(text("en", "web.notice_seat_gone", code=code), timeout=WAIT_MS)
    expect(guest.locator("#invite-watch")).to_be_visible()  # the game is on: watch it
    expect(guest.locator("#view-waiting")).to_be_hidden()
    expect(guest.locator("#error-banner")).to_be_hidden()
    expect(guest.locator("#conn-status")).to_be_hidden()
    guest.click("#invite-watch")
    expect(guest.locator("#view-table")).to_be_visible(timeout=WAIT_MS)
    expect(guest.locator("#watching-note")).to_be_visible()
    assert not guest.errors and not host.errors  # type: ignore[attr-defined]


def test_the_lobby_takes_you_back_to_your_games_and_says_what_a_link_lacks(
    browser: Browser, server: Server
) -> None:
    """The lobby lists the game whose seat this browser holds, one click back; then links to
    nothing say so in the player's language."""
    _, page = open_page(browser, server.url, PHONE)
    code = create_table(page, "Ada", 2, 0)
    page.goto(server.url)  # the lobby, the seat kept
    game = page.locator(f"#your-games li[data-code='{code}']")
    expect(game).to_contain_text(text("en", "web.your_game_waiting"))
    game.get_by_role("button").click()
    expect(page.locator("#view-waiting")).to_be_visible()
    expect(page.locator("#waiting-code")).to_have_text(code)
    assert not page.errors  # type: ignore[attr-defined]

    set_language(page, "ja")
    notice = page.locator("#lobby-notice")
    page.goto(f"{server.url}/t/NOPE42")
    expect(notice).to_have_text(text("ja", "web.notice_no_table", code="NOPE42"))
    for address in ("/replay/999999", "/replay/abc"):
        page.goto(server.url + address)
        expect(notice).to_have_text(text("ja", "web.notice_no_replay", address=address))
        expect(page.locator("#view-lobby")).to_be_visible()
    answer = page.goto(f"{server.url}/nowhere")
    assert answer is not None and answer.status == 404
    assert re.match("text/html", answer.headers["content-type"])
    expect(notice).to_have_text(text("ja", "web.notice_no_page", address="/nowhere"))
    page.goto(server.url)  # the lobby's own address: nothing to say
    expect(notice).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
