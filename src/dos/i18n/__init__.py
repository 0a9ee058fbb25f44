"""One message catalog for every client: the terminal, the browser and the server's texts.

Every word a client shows comes from here, in the seven languages of the rule sheets
(``LANGS``). The catalog lives in JSON files, ``locales/<lang>/<namespace>.json``, each a flat
object of ``key -> text``; a key is addressed as ``"<namespace>.<key>"`` (``"game.center_row"``).
Texts use ``{name}`` placeholders, filled by ``text``. English is the reference: every key it
has must exist in every language (``missing_keys``; a test fails on any).

A counted text ("hit 2 targets") has one entry per CLDR plural category of its language,
``key#one``, ``key#other`` and so on (``PLURAL_CATEGORIES``: Welsh has six, Japanese one), and
``plural`` picks the form for a number, as the browser's ``Intl.PluralRules`` does.

The game's fixed terms (the Center Row, the piles, the rule sheets' card and match names, the
table's buttons) are in one glossary per language, ``glossary/<lang>.json``: each term as the
game shows it and the variants no text may use; ``glossary/terms.json`` names, for every
term, the catalog key whose text it is and the texts that name it (a hint naming a button
names it as labelled). ``tests/i18n/test_glossary.py`` checks the whole catalog against it.

>>> text("en", "game.log_call", player="Ada")
'Ada called "DOS!".'
>>> text("de", "game.center_row")
'Mittelreihe'
>>> plural("en", "web.classic_log_react", 2, player="Bo", hits=2, ms=900)
'Bo hit 2 targets in 900 ms.'
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

PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "fr": ("one", "many", "other"),
    "de": ("one", "other"),
    "it": ("one", "many", "other"),
    "nl": ("one", "other"),
    "cy": ("zero", "one", "two", "few", "many", "other"),
    "ja": ("other",),
}
"""Each language's CLDR cardinal plural categories of whole numbers (CLDR 46, as Chromium's
``Intl.PluralRules`` names them): a counted text has one form for each."""

PLURAL_MARK = "#"
"""What separates a counted text's key from its plural category (``web.table_entry#one``)."""


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


BROWSER_ON_DEMAND: tuple[str, ...] = ("learn", "shuffle", "friends", "tour", "moderation")
"""Namespaces the browser loads only on the page that needs them (the tutorial's texts, the
replay's shuffle check, friends where the browser holds a player, moderation's menus and
the admin page): its first load stays small
(``GET /api/i18n/{lang}/{namespace}``)."""
TERMINAL_ONLY: tuple[str, ...] = ("tui",)
"""Namespaces only the terminal client shows."""


def namespaces() -> tuple[str, ...]:
    """The catalog's namespaces (the reference language's files), sorted.

    >>> "game" in namespaces() and "web" in namespaces()
    True
    """
    return tuple(sorted({key.split(".", 1)[0] for key in catalog(REFERENCE)}))


def page_catalog(lang: str) -> dict[str, str]:
    """What the browser's page loads first: every text of ``lang`` but the terminal's and
    those loaded on demand (``BROWSER_ON_DEMAND``, ``namespace_catalog``)."""
    left_out = BROWSER_ON_DEMAND + TERMINAL_ONLY
    return {k: v for k, v in catalog(lang).items() if k.split(".", 1)[0] not in left_out}


def namespace_catalog(lang: str, namespace: str) -> dict[str, str]:
    """The texts of one namespace of ``lang`` (``{"learn.key": text}``); an unknown one is a
    ``CatalogError``.

    >>> namespace_catalog("de", "game")["game.center_row"]
    'Mittelreihe'
    """
    if namespace not in namespaces():
        raise CatalogError(f"unknown namespace {namespace!r} (known: {', '.join(namespaces())})")
    prefix = namespace + "."
    return {k: v for k, v in catalog(lang).items() if k.startswith(prefix)}


def text(lang: str, key: str, **params: object) -> str:
    """The text ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``."""
    texts = catalog(lang)
    if key not in texts:
        raise CatalogError(f"no text {key!r} in language {lang!r}")
    return texts[key].format(**params) if params else texts[key]


def plural_category(lang: str, count: int) -> str:
    """The CLDR plural category of the whole number ``count`` in ``lang`` (CLDR 46's
    cardinal rules, for integers: ``v = 0``, no exponent).

    >>> [plural_category("cy", n) for n in (0, 1, 2, 3, 6, 7)]
    ['zero', 'one', 'two', 'few', 'many', 'other']
    >>> plural_category("fr", 0), plural_category("en", 0), plural_category("it", 2_000_000)
    ('one', 'other', 'many')
    """
    n = abs(count)
    if lang in ("en", "de", "nl"):
        return "one" if n == 1 else "other"
    if lang in ("fr", "it"):
        if n == 1 or (lang == "fr" and n == 0):
            return "one"
        return "many" if n != 0 and n % 1_000_000 == 0 else "other"
    if lang == "cy":
        return {0: "zero", 1: "one", 2: "two", 3: "few", 6: "many"}.get(n, "other")
    if lang == "ja":
        return "other"
    raise CatalogError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")


def plural(lang: str, key: str, count: int, **params: object) -> str:
    """The form of the counted text ``key`` for ``count`` in ``lang`` (its entries
    ``key#one``, ``key#other``...; ``other`` if the language lacks the form), its
    ``{placeholders}`` filled from ``params``.

    >>> plural("en", "web.classic_log_react", 1, player="Bo", hits=1, ms=900)
    'Bo hit 1 target in 900 ms.'
    """
    texts = catalog(lang)
    for category in (plural_category(lang, count), "other"):
        template = texts.get(f"{key}{PLURAL_MARK}{category}")
        if template is not None:
            return template.format(**params)
    raise CatalogError(f"no counted text {key!r} in language {lang!r}")


def placeholders(template: str) -> set[str]:
    """The names of the ``{placeholders}`` of a text.

    >>> sorted(placeholders("{player} matched {cards}"))
    ['cards', 'player']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def missing_keys() -> dict[str, list[str]]:
    """Per language, the reference keys it lacks or whose placeholders differ (empty: complete).

    A counted text needs a form for each plural category of the language, and no other, each
    with the placeholders of the reference's ``other`` form.
    """
    reference = catalog(REFERENCE)
    counted = {
        key.partition(PLURAL_MARK)[0]: placeholders(reference.get(key, ""))
        for key in reference
        if key.endswith(PLURAL_MARK + "other")
    }
    plain = {key: template for key, template in reference.items() if PLURAL_MARK not in key}
    problems: dict[str, list[str]] = {}
    for lang in LANGS:
        texts = catalog(lang)
        wanted = {key: placeholders(template) for key, template in plain.items()}
        for base, names in counted.items():
            for category in PLURAL_CATEGORIES.get(lang, ("other",)):
                wanted[f"{base}{PLURAL_MARK}{category}"] = names
        bad = [key for key, names in wanted.items() if placeholders(texts.get(key, "")) != names]
        bad += [key for key in wanted if key not in texts]
        bad += [key for key in texts if key not in wanted]
        if bad:
            problems[lang] = sorted(set(bad))
    return problems
