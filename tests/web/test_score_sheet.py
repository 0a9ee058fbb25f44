"""The score sheet: every round's points per player, not only the last round's,
with the totals, which are the scores."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, Server
from .pages import create_table, dialog_kind, open_page, play_round, start

TWO_SHORT_ROUNDS = 280
"""A deal on which, at two seats against an ``easy`` bot, the first two rounds end after
``SHORT_ROUNDS`` under ``play_round``'s play, and the game goes on after the first; no DOS!
is owed but with a move and the bot is never at two cards: the game is a function of the seed
and the moves, the same every run."""
SHORT_ROUNDS = ({"steps": 1, "owed": 0, "caught": 0}, {"steps": 6, "owed": 0, "caught": 0})


def test_the_summary_shows_every_rounds_points(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="easy", seed=TWO_SHORT_ROUNDS)
        start(page)
        for played, expected in enumerate(SHORT_ROUNDS, 1):
            counts = play_round([page])
            assert counts == expected, f"round {played} of TWO_SHORT_ROUNDS: {counts}"
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
