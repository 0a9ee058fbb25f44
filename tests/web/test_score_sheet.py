"""The score sheet: every round's points per player, not only the last round's,
with the totals, which are the scores."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .pages import create_table, dialog_kind, open_page, start
from .test_browser import play_round

TWO_SHORT_ROUNDS = 1
"""A deal on which, at two seats against an ``easy`` bot, each of the first two rounds ends
within ``SHORT_ROUND_STEPS`` of the person's steps under ``play_round``'s play, and the game
goes on after the first: the game is a function of the seed and the moves (the catches race
the bot's calls, so the count varies a little between runs, well inside the bound)."""
SHORT_ROUND_STEPS = 40


def test_the_summary_shows_every_rounds_points(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="easy", seed=TWO_SHORT_ROUNDS)
        start(page)
        for played in (1, 2):
            steps = play_round([page], {page: "Ada"}, {page: "en"})["steps"]
            assert steps <= SHORT_ROUND_STEPS, f"round {played} of TWO_SHORT_ROUNDS: {steps} steps"
            sheet = page.locator("#dialog .score-sheet")
            expect(sheet.locator("tbody tr")).to_have_count(played)
            expect(sheet.locator("thead th")).to_have_text(["Round", "Ada", "Bot 2 (easy)"])
            rows = [
                [int(x) for x in row.locator("td").all_inner_texts()]
                for row in sheet.locator("tbody tr").all()
            ]
            totals = [int(x) for x in sheet.locator("tfoot td").all_inner_texts()]
            assert totals == [sum(column) for column in zip(*rows, strict=True)]
            # Each round, only its winner scores; the totals are the scores of the summary.
            assert all(sum(1 for points in row if points) <= 1 for row in rows)
            scores = page.locator(
                "#dialog table.summary:not(.score-sheet) tr[data-seat] td:last-child"
            )
            assert [int(x) for x in scores.all_inner_texts()] == totals
            if played == 1:
                assert dialog_kind(page) == "round", "TWO_SHORT_ROUNDS no longer plays two rounds"
                page.click("#round-continue")
    finally:
        context.close()
