"""Two friends play, in Chromium: Bea, on Ada's player page, asks her to be friends; Ada
accepts in the lobby's panel and challenges her; the invitation reaches Bea on that other page
of the site, she presses Play, both are seated at the new table, Ada starts the game and each
plays (two pages: two people are the point). Both players are accounts (a recovery code keeps
each), made over HTTP. The challenge's table names no seed, so the seeded test server deals its
first game from the suite's seed (``support.DEAL_SEED``): the same cards every run."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text
from server.support import create_table
from web.conftest import DESKTOP, Server
from web.pages import WAIT_MS, my_turn, start, take_step

pytestmark = pytest.mark.usefixtures("chromium")

PULSE_WAIT_MS = 15_000
"""How long a page may take to show what another page did: the next pulse (every 4 s)."""


def account(url: str, name: str) -> dict[str, Any]:
    """A player with a token, kept by a recovery code (an account)."""
    grant = create_table(url, name=name, seats=[None, None])
    made = httpx.post(
        f"{url}/api/account/recovery",
        headers={"Authorization": f"Bearer {grant['player_token']}"},
        timeout=10,
    )
    assert made.status_code == 200, made.text
    return {"id": grant["player_id"], "token": grant["player_token"], "name": name}


def signed_in_page(browser: Browser, url: str, player: dict[str, Any]) -> Page:
    """A page of its own browser, holding ``player`` (as a browser signed in holds them)."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(
        "if (!localStorage.getItem('dos.player_token')) {"
        f"localStorage.setItem('dos.player_token', {player['token']!r});"
        f"localStorage.setItem('dos.player_id', {player['id']!r});"
        f"localStorage.setItem('dos.name', {player['name']!r}); }}"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


def back_into_view(page: Page) -> None:
    """The player comes back to the page's tab: it pulses at once (as it does when a tab
    becomes visible), instead of at its next pulse; in the lobby its panel is read again."""
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


def each_plays(first: Page, second: Page) -> None:
    """From the game's first turn, the seat to act plays through its page's controls, one
    action at a time, until both players have acted (the round goes on meanwhile)."""
    mover = first if my_turn(first) else second
    acted: set[int] = set()
    for _ in range(20):
        done = take_step(mover)
        assert done != "dialog", "the round ended within two turns of the suite's deal"
        if done != "stale":
            acted.add(id(mover))
        if len(acted) == 2:
            return
        if not my_turn(mover):
            mover = second if mover is first else first
            expect(mover.locator("body")).to_have_attribute("data-my-turn", "true", timeout=WAIT_MS)
    raise AssertionError("the two players did not both act within 20 actions")


def test_friends_challenge_and_play(browser: Browser, server: Server) -> None:
    ada, bea = account(server.url, "Ada"), account(server.url, "Bea")
    ada_page = signed_in_page(browser, server.url, ada)
    bea_page = signed_in_page(browser, f"{server.url}/leaderboard?player={ada['id']}", bea)
    try:
        # Bea asks from Ada's page; Ada accepts in the lobby's panel.
        bea_page.get_by_role("button", name=text("en", "friends.ask")).click()
        expect(bea_page.locator("#friends-player-actions")).to_contain_text(
            text("en", "friends.asked")
        )
        back_into_view(ada_page)
        request = ada_page.locator(f"[data-list=requests_in] li[data-player={bea['id']}]")
        request.get_by_role("button", name=text("en", "friends.accept")).click()
        friend = ada_page.locator(f"[data-list=friends] li[data-player={bea['id']}]")
        expect(friend.locator(".dot-online")).to_be_visible()  # Bea is on the site

        # Ada challenges Bea, who is on another page: the invitation reaches her there.
        friend.get_by_role("button", name=text("en", "friends.challenge")).click()
        ada_page.locator("#friends-challenge button[type=submit]").click()
        invitation = bea_page.locator(".friends-toast.invitation")  # at Bea's next pulse
        expect(invitation).to_contain_text("Ada", timeout=PULSE_WAIT_MS)
        invitation.get_by_role("button", name=text("en", "friends.play")).click()

        expect(bea_page.locator("#view-waiting")).to_be_visible()
        code = bea_page.locator("#waiting-code").inner_text()
        expect(ada_page.locator("#view-waiting")).to_be_visible(timeout=PULSE_WAIT_MS)
        expect(ada_page.locator("#waiting-code")).to_have_text(code)
        for page in (ada_page, bea_page):
            seats = page.locator("#seat-list")
            expect(seats).to_contain_text("Ada")
            expect(seats).to_contain_text("Bea")

        # Ada, the challenger, hosts: she starts, and each plays.
        start(ada_page, bea_page)
        each_plays(ada_page, bea_page)
        # Each page shows the other's moves: both come to the same state.
        shown = ada_page.locator("body").get_attribute("data-version") or ""
        expect(bea_page.locator("body")).to_have_attribute("data-version", shown)
        assert not ada_page.errors and not bea_page.errors  # type: ignore[attr-defined]
    finally:
        ada_page.context.close()
        bea_page.context.close()
