"""A provisional player sees their own rating, in Chromium: after a first rated game the
lobby's "Your player" shows it, marked provisional, with a link to their own page (so another
device signed in as them shows that their history came along)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from dos.i18n import text
from web.conftest import DESKTOP, Server
from web.pages import WAIT_MS, create_table, open_page

pytestmark = pytest.mark.usefixtures("chromium")


@pytest.fixture(scope="module")
def rating(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that deals at random (a seeded server's games are never rated), whose
    stand-in plays a closed page's seat at once."""
    server = Server(
        data=tmp_path_factory.mktemp("rating"),
        args=["--grace", "0.2", "--bot-delay", "0"],
        seeded=False,
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_provisional_player_sees_their_rating_and_their_page(
    browser: Browser, rating: Server
) -> None:
    _, page = open_page(browser, rating.url, DESKTOP)
    page.fill("#create-target", "100")  # the shortest game that is rated
    page.fill("#create-timer", "0")
    code = create_table(page, "Ada", 2, 1)  # rated, as the form is by default
    page.click("#start-button")
    expect(page.locator("#view-table")).to_be_visible()
    page.goto("about:blank")  # Ada goes: the stand-in plays her seat to the game's end
    _, watcher = open_page(browser, rating.url, DESKTOP)
    watcher.fill("#join-code", code)
    watcher.click("#watch-button")
    expect(watcher.locator("body")).to_have_attribute("data-phase", "over", timeout=WAIT_MS)
    page.goto(rating.url)
    ratings = page.locator("#account-ratings li")
    expect(ratings).to_have_count(1)
    expect(ratings.first).to_have_attribute("data-provisional", "true")
    provisional = text("en", "rank.provisional_rating", rating="")
    expect(ratings.first).to_contain_text(provisional.strip())
    player = page.evaluate("() => localStorage.getItem('dos.player_id')")
    link = page.locator("#account-page")
    expect(link).to_have_attribute("href", f"/leaderboard?player={player}")
    link.click()
    expect(page).to_have_url(f"{rating.url}/leaderboard?player={player}")
    assert not page.errors  # type: ignore[attr-defined]
