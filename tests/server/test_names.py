"""Display names: NFC-normalised and trimmed; refused with a 4xx
``{"code": "bad_name", "field": "name", ...}`` when they hold control characters (NUL too),
bidi overrides or isolates, zero-width characters, only whitespace, or more than 24
characters. The same rule on create and on join.

Names and chat texts are decided by what renders
(``dos.server.protocol.names``): every grapheme cluster starts with a character with ink, invisible
characters (invisible operators, deprecated format characters, tag characters, Hangul
fillers, the blank braille pattern, stray variation selectors) are refused alone, among spaces
and inside text, and a cluster carries at most ``MARKS_MAX`` combining marks (no Zalgo); real
names in every script, and emoji sequences (skin tones, ZWJ families, the flag of Wales),
still pass."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from dos.server.protocol.names import (
    CLUSTER_MAX,
    MARKS_MAX,
    NAME_MAX,
    display_name,
    hidden_character,
)
from dos.server.tables.chat import TEXT_MAX
from server.support import TIMEOUT, TLS, ServerProcess, WsPlayer, create_table, join_table

WALES = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbwls") + "\U000e007f"
"""The flag of Wales: a black flag, the tag letters g b w l s, a cancel tag."""

BAD = {
    "empty": "",
    "nul": "\x00",
    "nul inside": "Ada\x00",
    "bell": "A\x07da",
    "escape sequence": "\x1b[31mAda",
    "newline": "Ada\nBob",
    "tab inside": "Ada\tBob",
    "delete": "Ada\x7f",
    "C1 control": "Ada\x85",
    "LRE": "\u202aAda",
    "RLE": "Ada\u202b",
    "PDF": "Ada\u202c",
    "LRO": "\u202dAda",
    "RLO": "Ada\u202eevil",
    "LRI": "\u2066Ada",
    "RLI": "\u2067Ada",
    "FSI": "\u2068Ada",
    "PDI": "Ada\u2069",
    "zero-width space": "Ada\u200b",
    "ZWNJ": "A\u200cda",
    "ZWJ": "A\u200dda",
    "word joiner": "\u2060Ada",
    "BOM": "\ufeffAda",
    "space only": " ",
    "spaces only": "     ",
    "tab only": "\t",
    "ideographic space only": "\u3000\u3000",
    "no-break space only": "\u00a0",
    "25 characters": "x" * 25,
    "25 after trimming": "  " + "y" * 25 + "  ",
    "25 ideographs": "千" * 25,
    "100 characters": "z" * 100,
    "Zalgo": "Z" + "\u0301" * 20,
    "Zalgo on every letter": "".join(c + "\u0336\u0337\u0338\u0335\u0334" for c in "Ada"),
    "a stray combining mark": "\u0301Ada",
    "a mark on a space": "Ada \u0301",
    "a joiner between letters": "Ad\u200da",
    "a lone variation selector": "Ada\ufe0f",
    "tag text after a name": "Ada" + "".join(chr(0xE0000 + ord(c)) for c in "hi"),
    "a malformed tag sequence": "\U0001f3f4\U000e0041\U000e007f",
    "an emoji with a trailing joiner": "Ada 🎲\u200d",
}
"""Names refused with ``bad_name``."""

GOOD = {
    "plain": ("Ada", "Ada"),
    "trimmed": ("  Ada  ", "Ada"),
    "trimmed wide spaces": ("\u3000Ada\u00a0", "Ada"),
    "inner space kept": ("Ada Lovelace", "Ada Lovelace"),
    "decomposed accent": ("Zoe\u0308", "Zo\u00eb"),
    "24 characters": ("w" * 24, "w" * 24),
    "24 once trimmed": ("  " + "v" * 24 + "  ", "v" * 24),
    "24 once composed": ("e\u0301" * 24, "\u00e9" * 24),
    "Japanese": ("千代", "千代"),
    "emoji": ("Ada 🎲", "Ada 🎲"),
    "punctuation": ("O'Brien-Smith", "O'Brien-Smith"),
    "katakana": ("ボット", "ボット"),
    "kanji": ("山田", "山田"),
    "Welsh circumflex": ("Siân", "Siân"),
    "Welsh w circumflex": ("Dafydd ŵ", "Dafydd ŵ"),
    "Welsh decomposed": ("Sia\u0302n", "Siân"),
    "Devanagari clusters": ("स्त्री क्षत्रिय", "स्त्री क्षत्रिय"),
    "emoji with a skin tone": ("Ada 👍🏽", "Ada 👍🏽"),
    "ZWJ family": ("👨\u200d👩\u200d👧\u200d👦", "👨\u200d👩\u200d👧\u200d👦"),
    "red heart with VS16": ("\u2764\ufe0f", "\u2764\ufe0f"),
    "flag of Wales": (f"Dai {WALES}", f"Dai {WALES}"),
    "marks up to the bound": ("Iq\u0301\u0302\u0303\u0304", "Iq\u0301\u0302\u0303\u0304"),
}
"""Names accepted, and the name the table then shows."""


def _check_bad_name(response: httpx.Response) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    assert body.get("code") == "bad_name", body
    assert body.get("field") == "name", body
    assert isinstance(body.get("message"), str) and body["message"], body


def _lobby(server: ServerProcess, seats: int = 4) -> dict[str, Any]:
    return create_table(server.url, name="Host", seats=[None] * seats)


@pytest.fixture(scope="module")
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    """One client for the module's requests to the server (a top-level ``httpx`` call builds
    a client, and its TLS context, for each request)."""
    with httpx.Client(base_url=server.url, timeout=TIMEOUT, verify=TLS) as client:
        yield client


@pytest.fixture(scope="module")
def lobby(server: ServerProcess) -> Iterator[dict[str, Any]]:
    """A table in the lobby with open human seats: bad names try to join it."""
    yield _lobby(server)


@pytest.mark.parametrize("name", list(BAD.values()), ids=list(BAD))
def test_a_bad_name_is_refused_on_create(
    server: ServerProcess, http: httpx.Client, name: str
) -> None:
    response = http.post("/api/tables", json={"name": name})
    _check_bad_name(response)


@pytest.mark.parametrize("name", list(BAD.values()), ids=list(BAD))
def test_a_bad_name_is_refused_on_join_and_takes_no_seat(
    server: ServerProcess, http: httpx.Client, lobby: dict[str, Any], name: str
) -> None:
    code = lobby["code"]
    response = http.post(
        f"/api/tables/{code}/join",
        json={"name": name},
    )
    _check_bad_name(response)
    table = http.get(f"/api/tables/{code}").json()
    assert [s["name"] for s in table["seats"]] == ["Host", None, None, None]


@pytest.mark.parametrize(("name", "shown"), list(GOOD.values()), ids=list(GOOD))
def test_a_good_name_is_normalised_on_create(
    server: ServerProcess, http: httpx.Client, name: str, shown: str
) -> None:
    assert unicodedata.is_normalized("NFC", shown)
    grant = create_table(server.url, name=name, seats=[None, "easy"])
    assert grant["table"]["seats"][0]["name"] == shown
    table = http.get(f"/api/tables/{grant['code']}").json()
    assert table["seats"][0]["name"] == shown


def test_good_names_are_normalised_on_join(server: ServerProcess, http: httpx.Client) -> None:
    """Every good name joins a table of its own (a table has at most four seats); the seat
    shows the normalised name, on the grant and on the table."""
    for name, shown in GOOD.values():
        host = _lobby(server, seats=2)
        response = http.post(
            f"/api/tables/{host['code']}/join",
            json={"name": name},
        )
        assert response.status_code == 200, (name, response.text)
        grant = response.json()
        assert grant["table"]["seats"][1]["name"] == shown, name
        table = http.get(f"/api/tables/{host['code']}").json()
        assert table["seats"][1]["name"] == shown, name


# --- what renders as nothing ------------------------------------------------------------------

INVISIBLE = {
    **{f"U+{c:04X}": chr(c) for c in range(0x2061, 0x2065)},  # invisible operators
    **{f"U+{c:04X}": chr(c) for c in range(0x206A, 0x2070)},  # deprecated format characters
    "U+E0001": "\U000e0001",  # LANGUAGE TAG
    "U+E0041": "\U000e0041",  # TAG LATIN CAPITAL LETTER A: text an agent reads, a person not
    "U+3164": "\u3164",  # HANGUL FILLER
    "U+2800": "\u2800",  # BRAILLE PATTERN BLANK
    "U+115F": "\u115f",  # HANGUL CHOSEONG FILLER
    "U+1160": "\u1160",  # HANGUL JUNGSEONG FILLER
    "U+FE0F": "\ufe0f",  # VARIATION SELECTOR-16
    "U+FFA0": "\uffa0",  # HALFWIDTH HANGUL FILLER
    "U+17B4": "\u17b4",  # KHMER VOWEL INHERENT AQ
    "U+180E": "\u180e",  # MONGOLIAN VOWEL SEPARATOR
    "U+1D173": "\U0001d173",  # MUSICAL SYMBOL BEGIN BEAM
    "U+E0100": "\U000e0100",  # VARIATION SELECTOR-17
    "U+E007F": "\U000e007f",  # CANCEL TAG
}
"""Characters that render as nothing which the first list of refused characters let pass:
the review's (invisible operators, deprecated format characters, tag characters, Hangul
fillers, the blank braille pattern, VS16) and a few of their kin."""

FORMS = {
    "alone": "{}",
    "twice": "{0}{0}",
    "among spaces": " {0} {0} ",
    "among wide spaces": "\u3000{}\u00a0",
    "after a name": "Ada {}",
    "inside a name": "Ad{}a",
}
"""Where an invisible character is put: alone, among spaces, inside text."""

INVISIBLE_CASES = [
    pytest.param(form.format(char), code, id=f"{code} {where}")
    for code, char in INVISIBLE.items()
    for where, form in FORMS.items()
]

LEGIT = [*(shown for _, shown in GOOD.values()), "देवनागरी", "👩🏽\u200d💻", "🏳️\u200d🌈"]
"""Names in every script and emoji sequences, as the table shows them."""


def _refusal(text: str) -> str:
    """The message ``display_name`` raises for ``text`` (fails when it accepts it)."""
    with pytest.raises(ValueError, match=r"^a name ") as refused:
        display_name(text)
    return str(refused.value)


@pytest.mark.parametrize(("text", "code"), INVISIBLE_CASES)
def test_an_invisible_character_is_refused_in_a_name_and_a_chat_text(text: str, code: str) -> None:
    """Each character that renders as nothing is refused wherever it stands, by the one rule
    of names and chat, and the refusal names it."""
    assert _refusal(text) == f"a name {hidden_character(text)}"
    assert f"cannot hold {code} (" in _refusal(text)


def test_a_letter_with_199_combining_marks_is_refused() -> None:
    zalgo = "Z" + "\u0301" * 199
    assert hidden_character(zalgo) == (
        f"cannot hold U+0301 (more than {MARKS_MAX} combining marks on one character)"
    )
    assert "U+0301" in _refusal(zalgo)
    assert hidden_character("Z" + "\u0301\u0302\u0303\u0304") is None  # the bound itself


def test_a_cluster_has_a_bounded_number_of_code_points() -> None:
    joined = "\u200d".join(["🧑"] * 8)  # 15 code points in one cluster: the 13th is refused
    assert hidden_character(joined) == (
        f"cannot hold U+1F9D1 (more than {CLUSTER_MAX} code points in one character)"
    )
    assert hidden_character("\u200d".join(["🧑"] * 6)) is None  # 11 code points


@pytest.mark.parametrize("name", LEGIT)
def test_real_names_and_emoji_sequences_pass(name: str) -> None:
    assert hidden_character(name) is None
    assert display_name(name) == name


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("\u0301", "U+0301 (a combining mark with no letter to sit on)"),
        ("\u2800", "U+2800 (a blank braille pattern, drawn with no ink)"),
        ("Bob\u202e", "U+202E (a bidirectional control)"),
        ("Ad\u200da", "U+200D (an invisible character outside an emoji sequence)"),
        ("Ada\ufe0f", "U+FE0F (a variation selector with nothing to vary)"),
        ("Ada\U000e0041", "U+E0041 (a tag character, invisible outside an emoji flag)"),
        ("Ada\U000f0000", "U+F0000 (a private-use character)"),
        ("\u0600\u0661", "U+0600 (a format character)"),
    ],
)
def test_a_refusal_names_the_code_point_and_why(text: str, why: str) -> None:
    assert _refusal(text) == f"a name cannot hold {why}"


_letters = st.text(alphabet="AdaSiânŵボット ", min_size=0, max_size=10)
"""Letters and spaces (no ideograph: U+E0100 would be its variation selector)."""


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(before=_letters, hidden=st.sampled_from(sorted(INVISIBLE.values())), after=_letters)
def test_an_invisible_character_anywhere_in_text_is_refused(
    before: str, hidden: str, after: str
) -> None:
    """Hypothesis: one invisible character anywhere among letters and spaces is refused."""
    assert hidden_character(before + hidden + after) is not None


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet=[*INVISIBLE.values(), " ", "\u3000", "\u00a0"], min_size=1))
def test_invisible_characters_and_spaces_never_make_a_name(text: str) -> None:
    """Hypothesis: no mix of invisible characters and spaces is a name."""
    with pytest.raises(ValueError):
        display_name(text)


@pytest.mark.parametrize(("text", "code"), INVISIBLE_CASES[:: len(FORMS) // 2])
def test_the_server_refuses_an_invisible_name(
    server: ServerProcess, http: httpx.Client, lobby: dict[str, Any], text: str, code: str
) -> None:
    """On create and on join, through the running server."""
    for path in ("/api/tables", f"/api/tables/{lobby['code']}/join"):
        response = http.post(path, json={"name": text})
        _check_bad_name(response)
        assert code in response.json()["message"], response.text


@pytest.mark.asyncio
async def test_the_server_refuses_an_invisible_chat_text(server: ServerProcess) -> None:
    """Every invisible case, and Zalgo, is refused as ``bad_message`` naming the code point;
    real text in every script still goes to the table."""
    host = create_table(server.url, seats=[None, None])
    guest = join_table(server.url, str(host["code"]), "Bob")
    ada = await WsPlayer(server.ws_url, str(host["code"]), str(host["token"])).connect()
    bob = await WsPlayer(server.ws_url, str(host["code"]), str(guest["token"])).connect()
    zalgo = "Z" + "\u0301" * (TEXT_MAX - 1)
    for text, code in [*((p.values[0], p.values[1]) for p in INVISIBLE_CASES), (zalgo, "U+0301")]:
        await ada.send({"type": "chat", "text": text})
        error = await ada.expect("error")
        assert error["code"] == "bad_message", (text, error)
        assert f"cannot hold {code} (" in error["message"], (text, error)
    for text in LEGIT:
        await ada.send({"type": "chat", "text": text})
        line = await bob.expect("chat")
        assert line["text"] == text and line["seat"] == 0
    await ada.close()
    await bob.close()


# --- the property -------------------------------------------------------------------------------

REFUSED = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
REFUSED |= {"\u200b", "\u200c", "\u2060", "\ufeff", *INVISIBLE.values()}
"""Bidi overrides and isolates, zero-width and invisible characters: always refused (ZERO
WIDTH JOINER too, except between the pictographs of an emoji sequence)."""


def _normal(name: str) -> str:
    """``name`` as docs/protocol.md shows it: NFC, trimmed, inner runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def _must_refuse(name: str) -> bool:
    """Whether the rule of the module docstring's first paragraph refuses ``name`` (the server
    may refuse more, never less)."""
    shown = _normal(name)
    if not shown or len(shown) > 24:
        return True
    return any(unicodedata.category(c) == "Cc" or c in REFUSED for c in name)


_INVISIBLE_ONES = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def _plain_cluster(cluster: str) -> bool:
    """A letter or digit carrying at most ``MARKS_MAX`` marks, or a space."""
    kinds = [unicodedata.category(c)[0] for c in cluster]
    if kinds == ["Z"]:
        return True
    marks = kinds.count("M")
    return kinds[0] in "LN" and marks <= MARKS_MAX and len(cluster) <= CLUSTER_MAX


def _plain(name: str) -> bool:
    """Letters, marks, digits and spaces only, none of them invisible, each mark on a letter
    or digit (at most ``MARKS_MAX`` on one): such a name of 1-24 characters (normalised) must
    be accepted."""
    plain = all(
        unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Zs" for c in name
    )
    if not plain or _INVISIBLE_ONES.search(name):
        return False
    clusters = regex.findall(r"\X", unicodedata.normalize("NFC", name))
    return all(map(_plain_cluster, clusters)) and 0 < len(_normal(name)) <= NAME_MAX


_names = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.text(alphabet="Ae\u0301 \t\u3000\u00a0\x00\u202e\u2066\u200b\ufeff\u0308千🎲", max_size=30),
    st.builds(lambda core, pad: pad + core + pad, st.text(min_size=1, max_size=26), st.text(" ")),
)


def test_any_name_is_refused_or_shown_normalised(server: ServerProcess, http: httpx.Client) -> None:
    """Hypothesis: whatever name a create sends, the server refuses it with ``bad_name``
    (it must when the rule says so) or shows it normalised as docs/protocol.md says (NFC,
    trimmed, inner runs of spaces made one; it must accept a name of plain letters, marks,
    digits and spaces); never a 5xx."""

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(name=_names)
    def check(name: str) -> None:
        raw = json.dumps({"name": name, "seats": [None, "easy"]})  # lone surrogates escaped
        response = http.post(
            "/api/tables",
            content=raw.encode("ascii"),
            headers={"content-type": "application/json"},
        )
        assert response.status_code < 500, (name, response.text)
        if response.status_code == 201:
            assert not _must_refuse(name), f"{name!r} was accepted: {response.text[:200]}"
            shown = response.json()["table"]["seats"][0]["name"]
            assert shown == _normal(name), (name, shown)
        else:
            _check_bad_name(response)
            assert not _plain(name), f"{name!r} was refused: {response.text[:200]}"

    check()
