"""Counted texts: one catalog entry per CLDR plural category of each language, the
form picked by the number as the browser's ``Intl.PluralRules`` picks it (the browser test
``tests/web/test_small_defects.py`` holds the two equal)."""

from __future__ import annotations

import pytest

from dos import i18n
from dos.i18n import LANGS, PLURAL_CATEGORIES, PLURAL_MARK, catalog, plural, plural_category

# CLDR's own examples of each category (whole numbers).
EXAMPLES = {
    "en": {"one": [1], "other": [0, 2, 5, 100, 1_000_000]},
    "de": {"one": [1], "other": [0, 2, 5, 100]},
    "nl": {"one": [1], "other": [0, 2, 5, 100]},
    "fr": {"one": [0, 1], "many": [1_000_000, 2_000_000], "other": [2, 5, 100, 1_000_001]},
    "it": {"one": [1], "many": [1_000_000, 3_000_000], "other": [0, 2, 100, 1_000_001]},
    "cy": {
        "zero": [0],
        "one": [1],
        "two": [2],
        "few": [3],
        "many": [6],
        "other": [4, 5, 7, 10, 100],
    },
    "ja": {"other": [0, 1, 2, 100]},
}


@pytest.mark.parametrize("lang", LANGS)
def test_each_number_falls_in_its_cldr_category(lang: str) -> None:
    assert set(EXAMPLES[lang]) == set(PLURAL_CATEGORIES[lang])
    for category, numbers in EXAMPLES[lang].items():
        assert [plural_category(lang, n) for n in numbers] == [category] * len(numbers)


@pytest.mark.parametrize("lang", LANGS)
def test_every_counted_text_has_each_form_of_the_language_and_no_other(lang: str) -> None:
    counted = {k.partition(PLURAL_MARK)[0] for k in catalog("en") if PLURAL_MARK in k}
    assert {"web.classic_log_react", "web.table_entry", "web.hand_points"} <= counted
    forms = {k for k in catalog(lang) if PLURAL_MARK in k}
    assert forms == {f"{base}{PLURAL_MARK}{c}" for base in counted for c in PLURAL_CATEGORIES[lang]}


def test_the_form_follows_the_number() -> None:
    said = [plural("en", "web.classic_log_react", n, player="Bo", hits=n, ms=900) for n in (1, 2)]
    assert said == ["Bo hit 1 target in 900 ms.", "Bo hit 2 targets in 900 ms."]
    assert plural("cy", "web.hand_points", 2, points=2) == "gwerth 2 bwynt"
    assert plural("cy", "web.hand_points", 3, points=3) == "gwerth 3 phwynt"
    assert plural("ja", "web.hand_points", 1, points=1) == "手札の合計 1点"
    with pytest.raises(i18n.CatalogError):
        plural("en", "web.no_such_text", 1)


def test_missing_keys_asks_each_form_of_a_counted_text(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = {
        "en": {"web.n#one": "{n} seat", "web.n#other": "{n} seats"},
        "ja": {"web.n#other": "{n}席"},
        "cy": {"web.n#one": "{n} sedd", "web.n#other": "{n} sedd", "web.n#two": "sedd"},
    }
    monkeypatch.setattr(i18n, "LANGS", ("en", "ja", "cy"))
    monkeypatch.setattr(i18n, "catalog", lambda lang: fake[lang])
    assert i18n.missing_keys() == {
        "cy": ["web.n#few", "web.n#many", "web.n#two", "web.n#zero"],
    }
    fake["ja"]["web.n#one"] = "{n}席"  # Japanese has no "one"
    assert i18n.missing_keys()["ja"] == ["web.n#one"]
