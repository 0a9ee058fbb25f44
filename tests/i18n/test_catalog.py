"""The message catalog: complete in every language (the rule sheets' own words and the
table's fixed terms: ``test_glossary.py``)."""

from __future__ import annotations

import pytest

from dos import i18n
from dos.i18n import LANGS, REFERENCE, catalog, missing_keys, placeholders, text


def test_no_language_lacks_a_key_or_has_other_placeholders() -> None:
    assert missing_keys() == {}


@pytest.mark.parametrize("namespace", ["game", "tui"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_game_and_tui_namespaces_are_complete(namespace: str, lang: str) -> None:
    reference = {k: v for k, v in catalog(REFERENCE).items() if k.startswith(namespace + ".")}
    texts = catalog(lang)
    assert reference
    for key, template in reference.items():
        assert key in texts, f"{lang} lacks {key}"
        assert placeholders(texts[key]) == placeholders(template), f"{lang} {key}"
        assert texts[key].strip(), f"{lang} {key} is empty"


def test_missing_keys_reports_a_missing_key_and_a_placeholder_mismatch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = {
        "en": {"game.a": "{player} drew", "game.b": "Center Row"},
        "fr": {"game.a": "{joueur} tire"},
    }
    monkeypatch.setattr(i18n, "LANGS", ("en", "fr"))
    monkeypatch.setattr(i18n, "catalog", lambda lang: fake[lang])
    assert i18n.missing_keys() == {"fr": ["game.a", "game.b"]}


def test_the_test_placeholder_namespace_is_gone() -> None:
    assert not [key for key in catalog("en") if key.startswith("test.")]


def test_an_unknown_key_or_language_is_an_error() -> None:
    with pytest.raises(i18n.CatalogError):
        text("en", "game.no_such_key")
    with pytest.raises(i18n.CatalogError):
        text("xx", "game.center_row")


@pytest.mark.parametrize("lang", LANGS)
def test_every_bot_level_of_either_rule_set_has_its_name(lang: str) -> None:
    from dos.bots.registry import CLASSIC_LEVELS, LEVELS

    texts = catalog(lang)
    assert "expert" in LEVELS
    for level in [*LEVELS, *CLASSIC_LEVELS]:
        for namespace in ("web", "tui"):
            assert texts.get(f"{namespace}.level_{level}", "").strip(), (lang, namespace, level)
