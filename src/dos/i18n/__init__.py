"""One message catalog for every client: the terminal, the browser and the server's texts.

Every word a client shows comes from here, in the seven languages of the rule sheets
(``LANGS``). The catalog lives in JSON files, ``locales/<lang>/<namespace>.json``, each a flat
object of ``key -> text``; a key is addressed as ``"<namespace>.<key>"`` (``"game.center_row"``).
Texts use ``{name}`` placeholders, filled by ``text``. English is the reference: every key it
has must exist in every language (``missing_keys``; a test fails on any).

>>> text("en", "game.log_call", player="Ada")
'Ada called "DOS!".'
>>> text("de", "game.center_row")
'Mittelreihe'
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

LANGS: tuple[str, ...] = ("en", "fr", "de", "it", "nl", "cy", "ja")
"""Language codes, English first."""

LANG_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "it": "Italiano",
    "nl": "Nederlands",
    "cy": "Cymraeg",
    "ja": "日本語",
}
"""Each language by its own name, for language pickers."""

REFERENCE = "en"


class CatalogError(ValueError):
    """An unknown language or key, or a broken catalog file."""


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every text of ``lang`` as ``{"namespace.key": text}`` (a cached dict: do not modify)."""
    if lang not in LANGS:
        raise CatalogError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    folder = resources.files(__package__).joinpath("locales", lang)
    texts: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        namespace = entry.name.removesuffix(".json")
        try:
            data: Any = json.loads(entry.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise CatalogError(f"locales/{lang}/{entry.name}: {error}") from error
        if not isinstance(data, dict):
            raise CatalogError(f"locales/{lang}/{entry.name}: expected an object of texts")
        for key, value in data.items():
            if not isinstance(value, str):
                raise CatalogError(f"locales/{lang}/{entry.name}: {key!r} is not a text")
            texts[f"{namespace}.{key}"] = value
    return texts


def text(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``."""
    texts = catalog(lang)
    if key not in texts:
        raise CatalogError(f"no text {key!r} in language {lang!r}")
    return texts[key].format(**params) if params else texts[key]


def placeholders(template: str) -> set[str]:
    """The names of the ``{placeholders}`` of a text.

    >>> sorted(placeholders("{player} matched {cards}"))
    ['cards', 'player']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def missing_keys() -> dict[str, list[str]]:
    """Per language, the reference keys it lacks or whose placeholders differ (empty: complete)."""
    reference = catalog(REFERENCE)
    problems: dict[str, list[str]] = {}
    for lang in LANGS:
        texts = catalog(lang)
        bad = [
            key
            for key, template in reference.items()
            if key not in texts or placeholders(texts[key]) != placeholders(template)
        ]
        bad += [key for key in texts if key not in reference]
        if bad:
            problems[lang] = sorted(bad)
    return problems
