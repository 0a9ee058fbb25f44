"""One glossary per language: the game's fixed terms, used alike by every text.

``src/dos/i18n/glossary/terms.json`` names the terms (the Center Row, the piles, the rule
sheet's card and match names, the table's buttons): the catalog key whose text is the term
(a button's label, the rule sheet's name), and the texts that name it (a hint that says which
button to press names it as it is labelled). ``glossary/<lang>.json`` gives each term in that
language and the variants its texts must not use (Japanese calls the Center Row 場, never
センター列). The turn's buttons differ enough that no label is part of another's: a hint
that names one cannot be read as the other.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dos import i18n
from dos.i18n import LANGS, catalog

GLOSSARY = Path(i18n.__file__).parent / "glossary"
TERMS: dict[str, Any] = json.loads((GLOSSARY / "terms.json").read_text(encoding="utf-8"))


def glossary(lang: str) -> dict[str, Any]:
    entries: dict[str, Any] = json.loads((GLOSSARY / f"{lang}.json").read_text(encoding="utf-8"))
    return entries


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_has_every_term_of_the_glossary(lang: str) -> None:
    assert set(glossary(lang)) == set(TERMS)
    assert all(entry["term"].strip() for entry in glossary(lang).values())


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_is_what_the_game_shows(lang: str) -> None:
    texts = catalog(lang)
    for name, entry in glossary(lang).items():
        assert texts[TERMS[name]["key"]] == entry["term"], (lang, name)


@pytest.mark.parametrize("lang", LANGS)
def test_a_text_that_names_a_term_uses_it(lang: str) -> None:
    texts = catalog(lang)
    wrong = [
        (key, entry["term"])
        for name, entry in glossary(lang).items()
        for key in TERMS[name]["named_in"]
        if entry["term"] not in texts[key]
    ]
    assert wrong == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_uses_a_variant_of_a_term(lang: str) -> None:
    texts = catalog(lang)
    wrong = [
        (key, variant)
        for entry in glossary(lang).values()
        for variant in entry.get("not", [])
        for key, value in texts.items()
        if variant in value
    ]
    assert wrong == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_no_turn_button_label_is_part_of_another(lang: str) -> None:
    labels = [
        entry["term"].casefold()
        for name, entry in glossary(lang).items()
        if TERMS[name].get("group") == "turn_buttons"
    ]
    assert len(labels) == 4
    assert [(a, b) for a in labels for b in labels if a != b and a in b] == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_ends_a_sentence_twice(lang: str) -> None:
    """ "DOS!" ends its sentence: no full stop follows an exclamation or question mark, and
    no full stop is doubled (an ellipsis is "…")."""
    doubled = re.compile(r"[!?\uff01\uff1f]\s?\.(?!\.)|(?<!\.)\.\.(?!\.)|。。")
    assert [key for key, value in catalog(lang).items() if doubled.search(value)] == [], lang
