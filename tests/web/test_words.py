"""The page's words name things as the page shows them.

After a fruitless draw the hint names the button to press as it is labelled (Japanese
「カードを置く」, not a 「出す」 that no button says; Welsh "Gosod cerdyn", which the Place
button, "Gosod bonws", is no part of). A date reads in the page's language in any browser
(Chromium's Intl may lack Welsh: "2026 M11 29"). The glossary behind these words is checked
over the whole catalog by ``tests/i18n/test_glossary.py``.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import Browser, expect

from dos.i18n import text

from .conftest import PHONE, Server
from .pages import open_page, set_language
from .scripted import ScriptedTable


def after_a_fruitless_draw(table: ScriptedTable) -> bool:
    return table.rules.turn(table.state) == 0 and any(
        str(a).startswith("lay ") for a in table.legal(0)
    )


@pytest.mark.parametrize("lang", ["ja", "cy"])
def test_the_hint_after_a_fruitless_draw_names_the_lay_button_as_labelled(
    browser: Browser, server: Server, lang: str
) -> None:
    table = ScriptedTable.at("official", after_a_fruitless_draw)
    context, page = open_page(browser, server.url, PHONE)
    try:
        set_language(page, lang)
        table.open(page)
        lay = page.locator("#btn-lay")
        expect(lay).to_be_visible()
        label = lay.inner_text().strip()
        hint = page.locator("#hint")
        expect(hint).to_have_text(text(lang, "web.hint_drawn_lay"))
        assert label in hint.inner_text(), (label, hint.inner_text())
        place = (page.locator("#btn-place").text_content() or "").strip()
        assert place.casefold() not in label.casefold()
        assert label.casefold() not in place.casefold()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_a_date_reads_in_the_pages_language(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        day = datetime(2026, 11, 29, 12)
        for lang, said in (("cy", "29 Tachwedd 2026"), ("ja", "2026年11月29日")):
            set_language(page, lang)
            shown = page.evaluate(
                "async ([y, m, d]) => (await import('/static/js/i18n.js'))"
                ".formatDate(new Date(y, m - 1, d, 12))",
                [day.year, day.month, day.day],
            )
            assert shown == said
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
