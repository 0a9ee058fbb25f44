"""An action naming another seat is ``not_your_seat``, however its seat prefixes nest
(docs/protocol.md: ``2: dos`` from seat 2 is fine,
``1: dos`` or ``2: 1: dos`` from seat 2 is refused). The server reads every leading prefix
before the notation (``dos.server.tables.seat_claims``); the notation then allows one, so
``2: 2: dos`` from seat 2 is ``notation``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dos import ruleset
from dos.errors import DosError, NotationError
from dos.server.tables.seat_claims import foreign_seat, seat_claims
from server.support import ServerProcess, WsPlayer, create_table, join_table

CASES = [
    ("2: dos", None),
    ("dos", None),
    ("catch 1", None),  # a number in the body is no seat
    ("2: catch 1", None),
    ("02: dos", None),
    ("2: 2: dos", None),  # no other seat: the notation refuses it (one prefix)
    ("1: dos", "1"),
    ("2: 1: dos", "1"),
    ("2:1:dos", "1"),
    (" 2 : 1 : R7@0", "1"),
    ("1: 2: dos", "1"),
    ("2: 2: 2: 3: draw", "3"),
    ("1:", "1"),
    ("\uff12: 1: dos", "1"),  # FULLWIDTH DIGIT TWO is seat 2 to the notation too
    ("\u0661: dos", "1"),  # ARABIC-INDIC DIGIT ONE
    ("9" * 5000 + ": dos", "9" * 5000),  # past int()'s 4,300 digits: still read
]
"""Texts sent from seat 2, and the other seat each names first (``None``: none)."""


@pytest.mark.parametrize(("text", "other"), CASES, ids=[c[0][:20] for c in CASES])
def test_every_seat_prefix_is_read_before_the_notation(text: str, other: str | None) -> None:
    assert foreign_seat(text, 2) == other


def test_the_engine_alone_hides_a_nested_claim() -> None:
    """Why the server reads the prefixes itself: the notation reads one, so the engine
    refuses ``2: 1: dos`` as notation and never sees that it names seat 1."""
    for name in ("official", "classic"):
        rules: Any = ruleset.get(name)
        with pytest.raises(NotationError):
            rules.parse_action("2: 1: dos" if name == "official" else "2: 1: draw")
    assert seat_claims("2: 1: dos") == ["2", "1"]


_body = st.sampled_from(["dos", "draw", "catch 1", "R7@0", "lay B3", "W=R", ""])
_space = st.sampled_from(["", " ", "  ", "\t"])


@st.composite
def _prefixed(draw: st.DrawFn) -> tuple[list[int], str]:
    """Seats and an action text naming them as prefixes, spaced at random."""
    seats = draw(st.lists(st.integers(0, 5), max_size=4))
    text = "".join(f"{draw(_space)}{s:0{draw(st.integers(1, 3))}d}{draw(_space)}:" for s in seats)
    return seats, text + draw(_space) + draw(_body)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(prefixed=_prefixed(), seat=st.integers(0, 3))
def test_an_action_names_another_seat_iff_a_prefix_does(
    prefixed: tuple[list[int], str], seat: int
) -> None:
    """Hypothesis: whatever the nesting, an action is another seat's exactly when one of its
    prefixes is, and the first such prefix is the one named."""
    seats, text = prefixed
    others = [str(s) for s in seats if s != seat]
    assert foreign_seat(text, seat) == (others[0] if others else None)
    assert seat_claims(text) == [str(s) for s in seats]


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(
    text=st.one_of(st.text(max_size=20), _prefixed().map(lambda p: p[1])),
    seat=st.integers(0, 3),
    name=st.sampled_from(["official", "classic"]),
)
def test_the_reader_sees_every_seat_the_engine_reads(text: str, seat: int, name: str) -> None:
    """Hypothesis: a text the engine reads as another seat's action is one the seat reader
    refuses first; so ``by_seat`` never has anything left to refuse."""
    rules: Any = ruleset.get(name)
    try:
        action = rules.parse_action(text)
    except DosError:
        return
    if action.seat is not None and action.seat != seat:
        assert foreign_seat(text, seat) == str(action.seat)


# --- through a running server -------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_server_refuses_a_nested_claim_as_not_your_seat(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, None], options={"target_score": 100})
    guest = join_table(server.url, str(host["code"]), "Bob")
    ada = await WsPlayer(server.ws_url, str(host["code"]), str(host["token"])).connect()
    bob = await WsPlayer(server.ws_url, str(host["code"]), str(guest["token"])).connect()
    try:
        await _check_nested_claims(ada, bob)
    finally:
        await ada.close()
        await bob.close()


async def _check_nested_claims(ada: WsPlayer, bob: WsPlayer) -> None:
    await ada.send({"type": "start"})
    await ada.expect("state")
    await bob.expect("state")
    for player, other in ((ada, 1), (bob, 0)):
        own = player.seat
        cases = [
            (f"{other}: dos", "not_your_seat"),
            (f"{own}: {other}: dos", "not_your_seat"),
            (f"{other}: {own}: dos", "not_your_seat"),
            (f"{own}: {own}: {other}: draw", "not_your_seat"),
            (f"{own}:{other}:catch {other}", "not_your_seat"),
            (f"{own}: {own}: dos", "notation"),
        ]
        for text, code in cases:
            answer = await player.act(text)
            assert answer["type"] == "error" and answer["code"] == code, (own, text, answer)
            assert answer["message"]
    await ada.send({"type": "sync"})
    assert (await ada.expect("state"))["version"] == 0  # nothing changed
