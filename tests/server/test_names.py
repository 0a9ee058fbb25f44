"""Display names (issue 11, item 9): NFC-normalised and trimmed; refused with a 4xx
``{"code": "bad_name", "field": "name", ...}`` when they hold control characters (NUL too),
bidi overrides or isolates, zero-width characters, only whitespace, or more than 24
characters. The same rule on create and on join."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.support import TIMEOUT, ServerProcess, create_table

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
def lobby(server: ServerProcess) -> Iterator[dict[str, Any]]:
    """A table in the lobby with open human seats: bad names try to join it."""
    yield _lobby(server)


@pytest.mark.parametrize("name", list(BAD.values()), ids=list(BAD))
def test_a_bad_name_is_refused_on_create(server: ServerProcess, name: str) -> None:
    response = httpx.post(f"{server.url}/api/tables", json={"name": name}, timeout=TIMEOUT)
    _check_bad_name(response)


@pytest.mark.parametrize("name", list(BAD.values()), ids=list(BAD))
def test_a_bad_name_is_refused_on_join_and_takes_no_seat(
    server: ServerProcess, lobby: dict[str, Any], name: str
) -> None:
    code = lobby["code"]
    response = httpx.post(
        f"{server.url}/api/tables/{code}/join", json={"name": name}, timeout=TIMEOUT
    )
    _check_bad_name(response)
    table = httpx.get(f"{server.url}/api/tables/{code}", timeout=TIMEOUT).json()
    assert [s["name"] for s in table["seats"]] == ["Host", None, None, None]


@pytest.mark.parametrize(("name", "shown"), list(GOOD.values()), ids=list(GOOD))
def test_a_good_name_is_normalised_on_create(server: ServerProcess, name: str, shown: str) -> None:
    assert unicodedata.is_normalized("NFC", shown)
    grant = create_table(server.url, name=name, seats=[None, "easy"])
    assert grant["table"]["seats"][0]["name"] == shown
    table = httpx.get(f"{server.url}/api/tables/{grant['code']}", timeout=TIMEOUT).json()
    assert table["seats"][0]["name"] == shown


def test_good_names_are_normalised_on_join(server: ServerProcess) -> None:
    """Every good name joins a table of its own (a table has at most four seats); the seat
    shows the normalised name, on the grant and on the table."""
    for name, shown in GOOD.values():
        host = _lobby(server, seats=2)
        response = httpx.post(
            f"{server.url}/api/tables/{host['code']}/join", json={"name": name}, timeout=TIMEOUT
        )
        assert response.status_code == 200, (name, response.text)
        grant = response.json()
        assert grant["table"]["seats"][1]["name"] == shown, name
        table = httpx.get(f"{server.url}/api/tables/{host['code']}", timeout=TIMEOUT).json()
        assert table["seats"][1]["name"] == shown, name


# --- the property -------------------------------------------------------------------------------

REFUSED = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
REFUSED |= {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"}
"""Bidi overrides and isolates, zero-width characters: always refused."""


def _normal(name: str) -> str:
    """``name`` as docs/protocol.md shows it: NFC, trimmed, inner runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def _must_refuse(name: str) -> bool:
    """Whether the rule of item 9 refuses ``name`` (the server may refuse more, never less)."""
    shown = _normal(name)
    if not shown or len(shown) > 24:
        return True
    return any(unicodedata.category(c) == "Cc" or c in REFUSED for c in name)


def _plain(name: str) -> bool:
    """Letters, marks, digits and spaces only: such a name of 1-24 characters (normalised)
    must be accepted."""
    plain = all(
        unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Zs" for c in name
    )
    return plain and 0 < len(_normal(name)) <= 24


_names = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.text(alphabet="Ae\u0301 \t\u3000\u00a0\x00\u202e\u2066\u200b\ufeff\u0308千🎲", max_size=30),
    st.builds(lambda core, pad: pad + core + pad, st.text(min_size=1, max_size=26), st.text(" ")),
)


def test_any_name_is_refused_or_shown_normalised(server: ServerProcess) -> None:
    """Hypothesis: whatever name a create sends, the server refuses it with ``bad_name``
    (it must when the rule says so) or shows it normalised as docs/protocol.md says (NFC,
    trimmed, inner runs of spaces made one; it must accept a name of plain letters, marks,
    digits and spaces); never a 5xx."""

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(name=_names)
    def check(name: str) -> None:
        raw = json.dumps({"name": name, "seats": [None, "easy"]})  # lone surrogates escaped
        response = httpx.post(
            f"{server.url}/api/tables",
            content=raw.encode("ascii"),
            headers={"content-type": "application/json"},
            timeout=TIMEOUT,
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
