"""Moves you can follow: the cards of each play fly from the player's place to the
table, and the other players' moves are shown one at a time at a reading pace; with
``prefers-reduced-motion: reduce`` nothing flies and nothing waits."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import DESKTOP, Server
from .pages import create_table, draw_lay_and_wait, open_page, start

PACE_MS = 600  # motion.js

# Records every flying card and the moment each new state version is shown.
WATCH_JS = """() => {
  window.flights = [];
  window.shown = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('flying')) {
        window.flights.push(node.dataset.card);
      }
    }
  }).observe(document.body, {childList: true});
  // A new version shown (the page also sets the attribute again to the same version when it
  // draws the table anew: a table message, say; that is no step).
  new MutationObserver(() => {
    const version = Number(document.body.dataset.version);
    const last = window.shown[window.shown.length - 1];
    if (last && last[0] === version) return;
    window.shown.push([version, performance.now(),
                       document.body.dataset.paced, document.body.dataset.myTurn]);
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
}"""


def watch_bots_play(page: Page) -> tuple[list[str], list[list[Any]]]:
    """A table of one person and two bots where the bots move first: what the page shows of
    the bots' moves until the person's turn."""
    create_table(page, "Ada", seats=3, bots=2, level="easy")
    page.evaluate(WATCH_JS)
    start(page)
    for _ in range(6):  # rounds start with anyone: wait for a turn that the bots played up to
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=20_000)
        if int(page.evaluate("() => document.body.dataset.version")) >= 2:
            break
        draw_lay_and_wait(page)
    return page.evaluate("() => window.flights"), page.evaluate("() => window.shown")


def test_the_bots_moves_fly_one_at_a_time(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP, motion=True)
    try:
        flights, shown = watch_bots_play(page)
        assert flights, "no card flew"
        # After a bot's move that leaves the turn with the bots, the next move shows no sooner
        # than the reading pace. (The answer to the person's own action, on their turn, is
        # shown at once, however soon they act.)
        bot_steps = [
            b[1] - a[1] for a, b in itertools.pairwise(shown) if a[2] == "true" and a[3] == "false"
        ]
        assert bot_steps, shown
        assert min(bot_steps) >= PACE_MS * 0.9, (bot_steps, shown)
    finally:
        context.close()


def test_reduced_motion_means_no_flight_and_no_wait(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP, motion=False)
    try:
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        flights, _ = watch_bots_play(page)
        assert flights == []
    finally:
        context.close()
