"""A reload during the pause between rounds finds the round's summary again.

A player who reloads before closing the summary of the round just played sees it again: the
server no longer waits for a seat whose page went (the next round may be dealt already, and no
pause comes), yet the summary was never read. Once closed, a reload does not bring it back.
The table is scripted (``scripted.py``): a real game's frames, and the pause as the server
sends it to the first connection only.
"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from dos.server.protocol.server_messages import server_message

from .conftest import PHONE, Server
from .pages import open_page
from .scripted import ScriptedTable


class Paused(ScriptedTable):
    """The scripted table, after a round: its first connection gets the pause, the later ones
    none (the server stopped waiting for the seat whose page went)."""

    hellos = 0

    def _received(self, text: str | bytes) -> None:
        super()._received(text)
        if '"hello"' in str(text):
            self.hellos += 1
            if self.hellos == 1:
                self.send(server_message("pause", round=1, waiting=[0, 1], seconds=60.0))


def round_just_over(table: ScriptedTable) -> bool:
    return bool(table.rules.rounds_played(table.state) == 1)


def test_a_reload_during_the_pause_shows_the_round_summary_again(
    browser: Browser, server: Server
) -> None:
    table = Paused.at("official", round_just_over)
    context, page = open_page(browser, server.url, PHONE)
    try:
        table.open(page)
        dialog = page.locator("#dialog")
        expect(dialog).to_have_attribute("data-kind", "round")
        expect(page.locator("#pause-countdown")).to_be_visible()
        summary = page.locator("#dialog").inner_text()
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        expect(dialog).to_have_attribute("data-kind", "round")
        expect(dialog).to_be_visible()
        again = page.locator("#dialog").inner_text()
        assert again.split("\n")[:3] == summary.split("\n")[:3]
        page.click("#round-continue")
        expect(dialog).to_be_hidden()
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        expect(page.locator("#view-table")).to_be_visible()
        expect(dialog).to_be_hidden()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
