"""A rule set the server plays and the page has no client of its own for is offered in the
lobby and played to its end in the browser with the generic client (``js/generic.js``).

The server loads the suite's toy rule set ("count to N", ``tests/toy_rules.py``) as any
plug-in is loaded (``DOS_RULESETS``); no file of the browser client names it. Two people
create and join its table from the lobby's menus, take turns with the buttons of their legal
actions, and each sees the end: who won, in the game-over dialog and in the log.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import body, dialog_kind, join_by_link, my_turn, open_page, start, version

TOY = "count-toy"
"""The toy's name (``toy_rules.TOY``)."""
TESTS = Path(__file__).parents[1]
"""The folder of ``toy_rules``, put on the server's import path."""
STATIC = Path(__file__).parents[2] / "src" / "dos" / "web" / "static"


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that loads the toy rule set as a plug-in, beside the built-in ones."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    server = Server(
        data=tmp_path_factory.mktemp("toy-server"),
        env={"DOS_RULESETS": "toy_rules", "PYTHONPATH": path},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_no_file_of_the_client_names_the_toy() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    assert files
    assert [p.name for p in files if TOY in p.read_text(encoding="utf-8")] == []


def create_toy_table(page: Page) -> str:
    """Ada creates a table of the toy for two people through the lobby's menus."""
    page.fill("#player-name", "Ada")
    page.select_option("#create-rules", TOY)
    expect(page.locator("#create-rules option:checked")).to_have_text(TOY)  # its own name
    # It has no bots, no target score and no option fields of its own: none shown.
    expect(page.locator("#create-bots")).to_be_hidden()
    expect(page.locator("#create-target")).to_be_hidden()
    expect(page.locator("#rules-options fieldset:visible")).to_have_count(0)
    page.fill("#create-seats", "2")
    page.click("#create-button")
    expect(page.locator("#view-waiting")).to_be_visible()
    expect(page.locator("#waiting-rules")).to_contain_text(TOY)
    return page.locator("#waiting-code").inner_text().strip()


def add(page: Page, amount: int) -> None:
    """The seat's legal action `add N`, by its button; waits for the state it brings."""
    seen = version(page)
    buttons = page.locator("#generic-actions button")
    expect(buttons).to_have_text(["add 1", "add 2"])
    page.locator(f'#generic-actions button[data-action="add {amount}"]').click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=seen)


def test_a_rule_set_without_a_client_is_created_joined_and_played_to_its_end(
    browser: Browser, toy_server: Server
) -> None:
    ada_context, ada = open_page(browser, toy_server.url, DESKTOP)
    bo_context, bo = open_page(browser, toy_server.url, DESKTOP)
    try:
        code = create_toy_table(ada)
        join_by_link(bo, toy_server.url, code, "Bo")
        start(ada, bo)
        # The view's public fields, readably; the target is the toy's default (5).
        for page in (ada, bo):
            expect(page.locator("#center-row dl.generic-view")).to_contain_text("total")
            expect(page.locator("#center-row dl.generic-view")).to_contain_text('"target":5')
        moves, last = 0, ""
        while body(ada, "phase") != "over" or body(bo, "phase") != "over":
            assert moves < 5, "the count reaches 5 in three moves of 2"
            mover, other = (ada, bo) if my_turn(ada) else (bo, ada)
            expect(other.locator("#generic-actions button")).to_have_count(0)  # not its turn
            expect(mover.locator("#hint")).to_have_text(text("en", "web.generic_hint"))
            add(mover, 2)
            moves, last = moves + 1, "Ada" if mover is ada else "Bo"
            expect(other.locator("body")).to_have_attribute("data-version", version(mover))
        assert moves == 3  # 2 + 2 + 2 reaches 5: whoever moved last won
        won = text("en", "web.generic_winner", player=last)
        for page in (ada, bo):
            expect(page.locator("#dialog .winner-line")).to_have_text(won)
            assert dialog_kind(page) == "over"
            expect(page.locator("#log li").last).to_have_text(won)
            # the deal's commitment first (docs/records.md), then the moves
            expect(page.locator("#log li").first).to_have_class("shuffle")
            expect(page.locator("#log li:not(.shuffle)").first).to_contain_text(": add 2")
        assert ada.errors == [] and bo.errors == []  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        bo_context.close()
