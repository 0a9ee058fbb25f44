"""The browser's first catalog has every text its page names.

The lobby once showed the raw key ``learn.nav``: the link's text lived in the tutorial's
namespace, which the page loads only on the tutorial's own view (``BROWSER_ON_DEMAND``). Every
``data-i18n``, ``data-i18n-label`` and ``data-i18n-aria`` key of ``index.html`` is filled when
the page loads, so each must be in ``page_catalog``; a key the page fills later (the tutorial's
``data-i18n-key``) is not. In the browser, ``i18n.js`` says any missing text on the console, and
the page tests count it as an error of the page (tests/web/pages.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dos.i18n import LANGS, page_catalog

INDEX = Path(__file__).parents[2] / "src" / "dos" / "web" / "static" / "index.html"
FILLED_AT_LOAD = re.compile(r'data-i18n(?:-label|-aria)?="([^"]+)"')


def test_the_page_names_some_texts() -> None:
    keys = set(FILLED_AT_LOAD.findall(INDEX.read_text(encoding="utf-8")))
    assert "web.learn_nav" in keys and len(keys) > 50


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_the_page_fills_at_load_is_in_its_first_catalog(lang: str) -> None:
    keys = set(FILLED_AT_LOAD.findall(INDEX.read_text(encoding="utf-8")))
    texts = page_catalog(lang)
    assert sorted(key for key in keys if key not in texts) == []
