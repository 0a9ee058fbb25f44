"""Playing with people, in Chromium: a leaver never freezes a table (the host waits for the
grace, or has a bot play for them at once), everyone can leave from the page, the host's
controls over the seats, who stays for a rematch, and Play now (docs/protocol.md, "Seats and
the host")."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text
from web.conftest import DESKTOP, PHONE, Server
from web.pages import (
    WAIT_MS,
    create_table,
    join_by_link,
    open_and_join,
    open_page,
    seated_without_a_page,
    start,
    take_step,
    wait_for_change,
    wait_for_the_end,
)

pytestmark = pytest.mark.usefixtures("chromium")


def _server(folder: Path, grace: str) -> Iterator[Server]:
    server = Server(data=folder, args=["--grace", grace, "--bot-delay", "0"])
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose grace is 1 s: a closed page's seat gets the stand-in soon."""
    yield from _server(tmp_path_factory.mktemp("quick"), "1")


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose grace is 10 minutes: only the host, or leaving, brings a stand-in."""
    yield from _server(tmp_path_factory.mktemp("patient"), "600")


def _table(server: Server, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}", timeout=10) as answer:
        table: dict[str, Any] = json.loads(answer.read())
    return table


def _host(
    browser: Browser, server: Server, seats: int = 3, bots: int = 1, target: int | None = None
) -> tuple[Page, str]:
    """The host's page at a new untimed table, in its waiting room; the table's code."""
    _, host = open_page(browser, server.url, DESKTOP)
    if target is not None:
        host.fill("#create-target", str(target))
    host.fill("#create-timer", "0")  # untimed: only the grace, or the host, moves a leaver on
    return host, create_table(host, "Hosta", seats, bots)


def _guest_is_there(host: Page) -> None:
    """The host's page shows Gast at seat 1, connected: at the table (their connection said
    hello), not only their seat taken."""
    expect(host.locator("#seat-list li[data-seat='1']")).to_contain_text("Gast")
    connected = text("en", "web.connected")
    expect(host.locator("#seat-list li[data-seat='1'] .tag")).to_have_text(connected)


def _host_and_guest(
    browser: Browser, server: Server, seats: int = 3, bots: int = 1, target: int | None = None
) -> tuple[Page, Page, str]:
    host, code = _host(browser, server, seats, bots, target)
    _, guest = open_and_join(browser, server.url, code, "Gast", DESKTOP)
    _guest_is_there(host)
    return host, guest, code


def _seat_away(host: Page, seat: int) -> None:
    expect(host.locator(f"#opponents li[data-seat='{seat}'] .conn")).to_have_class(
        re.compile(r"\boff\b"), timeout=WAIT_MS
    )


# At one instant: whether a line of the log begins with the name given (a word of its own),
# the kind of the dialog open (null if none), whether it is the page's turn, and its version.
PLAYED_FOR_JS = r"""name => {
  const line = new RegExp(`^\\s*${name}\\b`);
  const dialog = document.getElementById('dialog');
  const body = document.body.dataset;
  return [[...document.querySelectorAll('#log li')].some(li => line.test(li.textContent)),
          dialog.open ? dialog.dataset.kind : null, body.myTurn === 'true', body.version || ''];
}"""


def _until_played_for(page: Page, name: str) -> None:
    """Plays the page's turns (and reads its summaries) until the log shows an action of
    ``name``'s seat: the stand-in has played for them."""
    for _ in range(200):
        played, kind, turn, seen = page.evaluate(PLAYED_FOR_JS, name)
        if played:
            return
        if kind is not None:
            page.keyboard.press("Escape")  # a round's summary: read
            expect(page.locator("#dialog")).to_be_hidden()
        elif turn:
            take_step(page)
        else:
            wait_for_change(page, seen)
    raise AssertionError(f"no action of {name}'s seat in the log")


def test_a_leaver_never_freezes_the_table_while_the_host_waits(
    browser: Browser, quick: Server
) -> None:
    host, code = _host(browser, quick)
    with seated_without_a_page(quick.url, code, "Gast"):
        _guest_is_there(host)
        start(host)
    # The guest's connection closes (their tab), and never comes back.
    # Everyone reads who is gone; after the grace the stand-in plays, and the game goes on:
    # the host's turn comes round again after the leaver's seat has played.
    expect(host.locator("#host-bar")).to_contain_text("Gast", timeout=WAIT_MS)
    expect(host.locator("#opponents li[data-seat='1']")).to_contain_text("away", timeout=WAIT_MS)
    assert _table(quick, code)["seats"][1]["away"] is True
    _until_played_for(host, "Gast")
    expect(host.locator("#host-bar")).to_be_hidden()
    assert not host.errors  # type: ignore[attr-defined]


def test_the_host_has_a_bot_play_for_a_leaver_at_once(browser: Browser, patient: Server) -> None:
    host, code = _host(browser, patient)
    with seated_without_a_page(patient.url, code, "Gast"):
        _guest_is_there(host)
        start(host)
    bar = host.locator("#host-bar p.absent[data-seat='1']")
    expect(bar).to_contain_text("Gast", timeout=WAIT_MS)
    bar.locator("[data-control='replace']").click()  # the grace is 10 minutes
    expect(host.locator("#opponents li[data-seat='1']")).to_contain_text("away", timeout=WAIT_MS)
    assert _table(patient, code)["seats"][1]["away"] is True
    _until_played_for(host, "Gast")
    assert not host.errors  # type: ignore[attr-defined]


def test_a_player_leaves_from_the_page_and_the_host_controls_the_seats(
    browser: Browser, patient: Server
) -> None:
    # In the waiting room: the host removes a guest, who is told and is back in the lobby.
    host, guest, code = _host_and_guest(browser, patient, seats=3, bots=0)
    host.locator("#seat-list li[data-seat='1'] [data-control='remove']").click()
    expect(guest.locator("#view-lobby")).to_be_visible(timeout=WAIT_MS)
    expect(guest.locator("#error-banner")).to_contain_text("removed")
    expect(host.locator("#seat-list li[data-seat='1']")).not_to_contain_text("Gast")
    # The host gives an open seat to a bot, and hands the role to a newcomer.
    host.locator("#seat-list li[data-seat='2'] select").select_option("hard")
    host.locator("#seat-list li[data-seat='2'] [data-control='add_bot']").click()
    expect(host.locator("#seat-list li[data-seat='2']")).to_contain_text("hard")
    join_by_link(guest, patient.url, code, "Gast")
    host.locator("#seat-list li[data-seat='1'] [data-control='make_host']").click()
    expect(guest.locator("#start-button")).to_be_visible(timeout=WAIT_MS)
    expect(host.locator("#start-button")).to_be_hidden()
    # The new host starts; the old one leaves the game from the page, after saying so: the
    # stand-in plays the seat at once (the grace here is 10 minutes).
    start(guest, host)
    host.click("#leave-table")
    host.click("#confirm-leave")
    expect(host.locator("#view-lobby")).to_be_visible()
    expect(guest.locator("#opponents li[data-seat='0']")).to_contain_text("away", timeout=WAIT_MS)
    assert _table(patient, code)["seats"][0]["away"] is True
    # The seat is not this browser's any more: the table's link offers to join, not the game.
    host.goto(f"{patient.url}/t/{code}")
    expect(host.locator("#join-code")).to_have_value(code)
    expect(host.locator("#view-table")).to_be_hidden()
    assert not host.errors and not guest.errors  # type: ignore[attr-defined]


def test_who_left_is_out_of_the_rematch_and_the_host_fills_the_seat(
    browser: Browser, quick: Server
) -> None:
    host, guest, code = _host_and_guest(browser, quick, target=1)  # one round: the game
    start(host, guest)
    guest.click("#leave-table")
    guest.click("#confirm-leave")
    expect(guest.locator("#view-lobby")).to_be_visible()
    # The host's page closes too: every seat is played by a bot until the game ends (read
    # over the API), which a spectator's page then shows; then the host comes back.
    context = host.context
    host.close()
    assert wait_for_the_end(quick.url, code)["status"] == "finished"
    watching, watcher = open_page(browser, quick.url, DESKTOP)
    watcher.fill("#join-code", code)
    watcher.click("#watch-button")
    expect(watcher.locator("body")).to_have_attribute("data-phase", "over", timeout=WAIT_MS)
    page = context.new_page()
    page.goto(f"{quick.url}/t/{code}")
    expect(page.locator("#over-actions")).to_be_visible(timeout=WAIT_MS)
    table = _table(quick, code)
    assert table["status"] == "finished" and table["seats"][1]["name"] is None
    assert table["host"] == 0
    page.keyboard.press("Escape")  # the game-over summary
    bar = page.locator("#host-bar")
    expect(bar).to_contain_text("Hosta")
    expect(bar).to_contain_text("empty")
    select = bar.locator("li[data-seat='1'] select")
    select.select_option("hard")
    # The spectator goes: the table's update draws the seats again, and the host's choice
    # stays what the seat shows and what "add a bot" sends.
    select.evaluate("element => { element.dataset.drawn = 'before' }")
    watching.close()
    page.wait_for_function(
        "() => !document.querySelector(\"#host-bar li[data-seat='1'] select[data-drawn]\")"
    )
    expect(select).to_have_value("hard")
    bar.locator("li[data-seat='1'] [data-control='add_bot']").click()
    expect(bar.locator("li[data-seat='1'] [data-control='open']")).to_be_visible()
    assert _table(quick, code)["seats"][1]["bot"] == "hard"
    page.click("#btn-rematch")
    expect(page.locator("#over-actions")).to_be_hidden(timeout=WAIT_MS)
    table = _table(quick, code)
    assert table["status"] == "playing" and table["seats"][1]["bot"] == "hard"


def test_play_now_is_one_click_to_a_game_against_bots(browser: Browser, patient: Server) -> None:
    _, page = open_page(browser, patient.url, PHONE)
    page.select_option("#play-now-level", "hard")
    page.select_option("#play-now-players", "3")
    page.click("#play-now-button")
    expect(page.locator("#view-table")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#hand button.card").first).to_be_visible()
    code = page.evaluate("() => location.pathname.split('/').pop()")
    table = _table(patient, code)
    assert table["status"] == "playing" and table["turn_seconds"] is None
    assert [s["bot"] for s in table["seats"]] == [None, "hard", "hard"]
    assert table["seats"][0]["name"] == "Guest"  # no name typed: the catalog's guest name
    # The choice is kept for the next visit.
    page.goto(patient.url)
    expect(page.locator("#play-now-level")).to_have_value("hard")
    expect(page.locator("#play-now-players")).to_have_value("3")
    assert not page.errors  # type: ignore[attr-defined]
