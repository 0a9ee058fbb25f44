"""Display names and chat texts: one rule, decided by what renders, for every path that takes
a name (table creation, joining) and for chat (``dos.server.tables.chat``).

A text is split, in NFC, into grapheme clusters (what a reader sees as one character:
Unicode's extended grapheme clusters, ``\\X`` of the ``regex`` package). Every cluster must
render:

- its first code point is a character with ink (a letter, number, punctuation or symbol), or
  a lone space between words. Refused there: control, format, private-use, unassigned and
  surrogate code points, line and paragraph separators, every default-ignorable code point
  (zero-width characters, bidirectional controls, invisible operators, Hangul fillers,
  variation selectors, tag characters), a combining mark with no letter to sit on, and
  U+2800 BRAILLE PATTERN BLANK (a pattern the standard draws with no ink);
- what follows it is combining marks (at most ``MARKS_MAX``, variation selectors included),
  other characters with ink (an emoji modifier, the consonants of an Indic conjunct), a
  variation selector right after the character with ink it varies (U+FE0F after an emoji,
  U+E0100-U+E01EF after an ideograph), ZERO WIDTH JOINER only between two pictographs of an
  emoji sequence, and tag characters only in a well-formed emoji tag sequence (the flag of
  Wales: U+1F3F4, lower-case tag letters or digits, U+E007F); at most ``CLUSTER_MAX`` code
  points in all. So invisible code points cannot carry hidden text: at most one selector
  rides on a character, and only where it selects something.

A name is normalised to NFC, trimmed, inner runs of spaces made one, and refused if it is
then empty or longer than ``NAME_MAX`` code points. A refused character is named by its code
point, with why.

>>> display_name("  Ame\\u0301lie ")
'Amélie'
>>> display_name("Bob\\u202e")
Traceback (most recent call last):
...
ValueError: a name cannot hold U+202E (a bidirectional control)
>>> display_name("\\u3164")
Traceback (most recent call last):
...
ValueError: a name cannot hold U+3164 (an invisible character)
"""

from __future__ import annotations

import unicodedata

import regex

NAME_MAX = 24
"""The longest display name, in code points (after normalisation)."""
MARKS_MAX = 4
"""The most combining marks one cluster may carry (variation selectors count): Devanagari,
Thai, Vietnamese and Tibetan need at most about three; Zalgo text stacks hundreds."""
CLUSTER_MAX = 12
"""The most code points in one cluster: the longest emoji sequences (a kiss with two skin
tones) have 10, a subdivision flag at most 8."""

_KIND = regex.compile(
    r"""(?P<bidi>[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069])
    |(?P<tag>[\U000E0000-\U000E007F])
    |(?P<joiner>\u200D)
    |(?P<selector>\p{Variation_Selector})
    |(?P<control>\p{Cc})
    |(?P<surrogate>\p{Cs})
    |(?P<private>\p{Co})
    |(?P<unassigned>\p{Cn})
    |(?P<line>\p{Zl})
    |(?P<paragraph>\p{Zp})
    |(?P<invisible>\p{Default_Ignorable_Code_Point})
    |(?P<format>\p{Cf})
    |(?P<blank>\u2800)
    |(?P<mark>\p{M})
    |(?P<space>\p{Zs})
    |(?P<ink>[\p{L}\p{N}\p{P}\p{S}])""",
    regex.VERBOSE,
)
"""What one code point is, the first alternative that fits (every code point fits one)."""

_WHY = {
    "bidi": "a bidirectional control",
    "tag": "a tag character, invisible outside an emoji flag",
    "joiner": "an invisible character",
    "selector": "an invisible character",
    "control": "a control character",
    "surrogate": "a lone surrogate",
    "private": "a private-use character",
    "unassigned": "an unassigned code point",
    "line": "a line separator",
    "paragraph": "a paragraph separator",
    "invisible": "an invisible character",
    "format": "a format character",
    "blank": "a blank braille pattern, drawn with no ink",
    "mark": "a combining mark with no letter to sit on",
}
"""Why a code point cannot start a cluster (spaces and characters with ink can)."""

_TAG_SEQUENCE = regex.compile(
    r"\U0001F3F4[\U000E0030-\U000E0039\U000E0061-\U000E007A]{1,6}\U000E007F"
)
"""A well-formed emoji tag sequence: a flag of a subdivision (Wales, Scotland, England)."""
_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")
_EMOJI = regex.compile(r"\p{Emoji}")
_IDEOGRAPH = regex.compile(r"\p{Ideographic}")
_CLUSTER = regex.compile(r"\X")
_SURROGATE = regex.compile(r"\p{Cs}")


def _kind(char: str) -> str:
    """The kind of one code point: a key of ``_WHY``, ``"space"`` or ``"ink"``."""
    found = _KIND.fullmatch(char)
    assert found is not None and found.lastgroup is not None  # the alternatives cover all
    return found.lastgroup


def _refusal(char: str, why: str) -> str:
    return f"cannot hold U+{ord(char):04X} ({why})"


def _joined(cluster: str, index: int) -> bool:
    """Whether the ZERO WIDTH JOINER at ``index`` joins two pictographs of an emoji sequence."""
    after = cluster[index + 1 : index + 2]
    return bool(_PICTOGRAPH.fullmatch(cluster[0])) and bool(after and _PICTOGRAPH.match(after))


def _selects(cluster: str, index: int) -> bool:
    """Whether the variation selector at ``index`` selects a form of the character with ink
    just before it: an emoji's presentation (U+FE0E, U+FE0F after an emoji), an ideograph's
    variant (U+E0100-U+E01EF after an ideograph), another standardized variant (U+FE00-U+FE0D,
    Mongolian). So one selector at most per character: selectors cannot carry hidden text."""
    before, selector = cluster[index - 1], cluster[index]
    if _kind(before) != "ink":
        return False
    if selector in "\ufe0e\ufe0f":
        return bool(_EMOJI.fullmatch(before))
    if "\U000e0100" <= selector <= "\U000e01ef":
        return bool(_IDEOGRAPH.fullmatch(before))
    return True


def _extension(cluster: str, index: int, kind: str) -> str | None:
    """Why the code point at ``index`` (after the first; of ``kind``) cannot be in
    ``cluster``, if it cannot."""
    if kind in ("ink", "mark"):
        return None
    if kind == "selector":
        return None if _selects(cluster, index) else "a variation selector with nothing to vary"
    if kind == "joiner" and _joined(cluster, index):
        return None
    if kind == "tag" and _TAG_SEQUENCE.fullmatch(cluster):
        return None
    if kind == "joiner":
        return "an invisible character outside an emoji sequence"
    return _WHY.get(kind, "a character that cannot be joined to the one before")


def _cluster_problem(cluster: str) -> str | None:
    """What keeps one cluster from rendering as itself (``None``: nothing)."""
    base = _kind(cluster[0])
    if base == "space":
        return _cluster_problem(cluster[1:]) if len(cluster) > 1 else None
    if base != "ink":
        return _refusal(cluster[0], _WHY[base])
    marks = 0
    for index, char in enumerate(cluster[1:], start=1):
        if index >= CLUSTER_MAX:
            return _refusal(char, f"more than {CLUSTER_MAX} code points in one character")
        kind = _kind(char)
        why = _extension(cluster, index, kind)
        if why is not None:
            return _refusal(char, why)
        marks += kind in ("mark", "selector")
        if marks > MARKS_MAX:
            return _refusal(char, f"more than {MARKS_MAX} combining marks on one character")
    return None


def hidden_character(text: str) -> str | None:
    """What keeps ``text`` from rendering as what it says: the first code point that would
    hide, disguise or smear text, and why (``None``: nothing). Clusters are read in NFC;
    chat texts are held to this too.

    >>> hidden_character("ok"), hidden_character("a\\u200bb")
    (None, 'cannot hold U+200B (an invisible character)')
    >>> hidden_character("\\u2800")
    'cannot hold U+2800 (a blank braille pattern, drawn with no ink)'
    >>> hidden_character("Zalgo" + "\\u0301" * 9)
    'cannot hold U+0301 (more than 4 combining marks on one character)'
    """
    surrogate = _SURROGATE.search(text)  # before normalising: NFC must not see lone surrogates
    if surrogate is not None:
        return _refusal(surrogate.group(), _WHY["surrogate"])
    for cluster in _CLUSTER.findall(unicodedata.normalize("NFC", text)):
        problem = _cluster_problem(cluster)
        if problem is not None:
            return problem
    return None


def display_name(text: str) -> str:
    """``text`` as a display name (NFC, trimmed, inner runs of spaces made one); raises
    ``ValueError`` saying what is wrong."""
    hidden = hidden_character(text)
    if hidden is not None:
        raise ValueError(f"a name {hidden}")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise ValueError("a name needs at least one visible character")
    if len(name) > NAME_MAX:
        raise ValueError(f"a name has at most {NAME_MAX} characters, not {len(name)}")
    return name
