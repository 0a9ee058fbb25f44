"""Every word of the leaderboard and player pages is in the message catalog, in every
language (the catalog test checks that each language has every English key)."""

from __future__ import annotations

import re

import pytest

from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from dos.i18n import LANGS, catalog
from dos.web import STATIC_DIR

KEY = re.compile(r"""["'`]((?:rank|web)\.[a-z_]+)["'`]""")
DYNAMIC = re.compile(r"`(web\.(?:rules|level)_)\$\{")
PAGE_MODULES = ("js/leaderboard.js", "js/ratingplot.js", "js/rulesets.js")
"""The leaderboard page's modules that say its words (a rule set's name: rulesets.js)."""


def _page_keys() -> set[str]:
    keys: set[str] = set()
    for name in ("leaderboard.html", *PAGE_MODULES, "index.html"):
        source = (STATIC_DIR / name).read_text(encoding="utf-8")
        keys |= {k for k in KEY.findall(source) if k.startswith("rank.") or name != "index.html"}
    return keys


def test_the_pages_use_rank_words() -> None:
    keys = _page_keys()
    assert {"rank.title", "rank.rating", "rank.plot_label", "rank.rated_table"} <= keys
    source = "".join((STATIC_DIR / name).read_text(encoding="utf-8") for name in PAGE_MODULES)
    assert set(DYNAMIC.findall(source)) == {"web.rules_", "web.level_"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_the_pages_is_in_the_catalog(lang: str) -> None:
    texts = catalog(lang)
    missing = sorted(k for k in _page_keys() if k not in texts)
    assert missing == []
    for rules in ("official", "classic"):
        assert f"web.rules_{rules}" in texts
    for level in [*LEVELS, *CLASSIC_LEVELS]:  # a rated bot is shown by its level's name
        assert f"web.level_{level}" in texts
