"""Display names: one rule for every path that takes a name (table creation, joining).

A name is normalised to NFC and trimmed, then refused if it is empty, longer than
``NAME_MAX`` characters, or holds a character that could hide or disguise text: control
characters (NUL included), bidirectional overrides and isolates, zero-width characters,
unassigned or private-use code points and lone surrogates.

>>> display_name("  Ame\\u0301lie ")
'Amélie'
>>> display_name("Bob\\u202e")
Traceback (most recent call last):
...
ValueError: a name cannot hold U+202E (a bidirectional control)
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 24
"""The longest display name, in characters (after normalisation)."""

_BIDI = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""Bidirectional marks, embeddings, overrides and isolates."""
_INVISIBLE = frozenset([0x00AD, 0x034F, 0x180E, *range(0x200B, 0x200E), 0x2060, 0xFEFF])
"""Zero-width and other invisible characters (soft hyphen, joiners, word joiner, BOM)."""
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def _what(char: str) -> str | None:
    code = ord(char)
    if code in _BIDI:
        return "a bidirectional control"
    if code in _INVISIBLE:
        return "an invisible character"
    return _REFUSED_CATEGORIES.get(unicodedata.category(char))


def hidden_character(text: str) -> str | None:
    """What is wrong with the first character of ``text`` that could hide or disguise text
    (``None``: nothing); chat texts are held to this too.

    >>> hidden_character("ok"), hidden_character("a\u200bb")
    (None, 'cannot hold U+200B (an invisible character)')
    """
    for char in text:
        what = _what(char)
        if what is not None:
            return f"cannot hold U+{ord(char):04X} ({what})"
    return None


def display_name(text: str) -> str:
    """``text`` as a display name (NFC, trimmed, inner runs of spaces made one); raises
    ``ValueError`` saying what is wrong."""
    hidden = hidden_character(text)  # before normalising: NFC must not see lone surrogates
    if hidden is not None:
        raise ValueError(f"a name {hidden}")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise ValueError("a name needs at least one visible character")
    if len(name) > NAME_MAX:
        raise ValueError(f"a name has at most {NAME_MAX} characters, not {len(name)}")
    return name
