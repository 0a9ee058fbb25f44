"""A seat never acts for another.

The seat of an action comes from the authenticated connection alone: an action text whose
seat prefix names another seat (``1: catch 2`` from seat 0, ``0: 1: catch 2``, ``2: 1: dos``)
is refused with ``not_your_seat`` (or ``notation`` when it cannot be read) and changes
nothing; an unprefixed action is the connection's own seat's.

Every test plays a three-seat table of WebSocket players (no bots, no timer): nothing happens
unless a test player sends it, so "nothing was broadcast" is checked by a ``ping`` to every
other connection: its ``pong`` comes after anything the server queued for it before.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.support import ServerProcess, WsPlayer, create_table, join_table

REFUSALS = {"not_your_seat", "notation", "illegal", "stale", "not_playing"}
"""The codes an action may be refused with (docs/protocol.md)."""
PREFIX_REFUSALS = {"not_your_seat", "notation"}
"""The codes an action naming another seat is refused with."""

_PREFIX = re.compile(r"^(\d+): ")
_ANY_PREFIX = re.compile(r"^\s*(\d+)\s*:(.*)$", re.DOTALL)


def _names_another_seat(text: str, sender: int) -> bool:
    """Whether ``text`` starts with seat prefixes (``N:``, any number of them, any digits)
    of which one is not ``sender``'s."""
    while (prefixed := _ANY_PREFIX.match(text)) is not None:
        if int(prefixed.group(1)) != sender:
            return True
        text = prefixed.group(2)
    return False


async def _table(server: ServerProcess, seats: int = 3) -> list[WsPlayer]:
    """A started table of ``seats`` human WebSocket players, seat order."""
    host = create_table(server.url, name="Ada", seats=[None] * seats)
    grants = [host] + [
        join_table(server.url, host["code"], name) for name in ("Bob", "Cy", "Di")[: seats - 1]
    ]
    players = [await WsPlayer(server.ws_url, host["code"], g["token"]).connect() for g in grants]
    await players[0].send({"type": "start"})
    for player in players:
        await player.expect("state")
    assert [p.seat for p in players] == list(range(seats))
    return players


async def _quiet(player: WsPlayer, tag: str) -> list[dict[str, Any]]:
    """Pings ``player``; returns what it received before the ``pong``."""
    await player.send({"type": "ping", "id": tag})
    before = []
    while True:
        message = await player.recv()
        if message["type"] == "pong" and message.get("id") == tag:
            return before
        before.append(message)


def _acting_seat(action: str, turn: int) -> int:
    """The seat a canonical action is made by: its prefix, else the seat to act."""
    prefixed = _PREFIX.match(action)
    return int(prefixed.group(1)) if prefixed else turn


async def _send_and_check(players: list[WsPlayer], sender: int, text: str, tag: str) -> bool:
    """Sends ``text`` as seat ``sender``'s action on the current version and checks that no
    seat acted for another; whether it was accepted."""
    me = players[sender]
    assert me.view is not None
    version, turn = me.version, me.view["turn"]
    answer = await me.act(text)
    others = [p for p in players if p is not me]
    if answer["type"] == "update":
        assert answer["seat"] == sender, (text, answer)
        acted = _acting_seat(answer["action"], turn)
        assert acted == sender, f"seat {sender} sent {text!r}: seat {acted} acted ({answer})"
        for other in others:
            seen = [m for m in await _quiet(other, tag) if m["type"] == "update"]
            assert [m["action"] for m in seen] == [answer["action"]], (text, seen)
        return True
    assert answer["type"] == "error", answer
    assert answer["code"] in REFUSALS, (text, answer)
    if _names_another_seat(text, sender):
        assert answer["code"] in PREFIX_REFUSALS, (sender, text, answer)
    assert me.version == version
    for other in others:
        seen = [m for m in await _quiet(other, tag) if m["type"] == "update"]
        assert seen == [], f"seat {sender} sent {text!r}, refused ({answer}), yet {seen}"
        assert other.version == version
    return False


# --- the explicit cases ------------------------------------------------------------------------


def _other_seat_texts(sender: int, seats: int) -> Iterator[str]:
    """Every action kind, written with another seat's prefix (alone and after the sender's)."""
    kinds = ["draw", "end", "dos", "lay B3", "place G7", "R7@0", "R5+DOS@1", "B3+R#=4@0"]
    for other in range(seats):
        if other == sender:
            continue
        victims = [f"catch {v}" for v in range(seats) if v != other]
        for kind in kinds + victims:
            yield f"{other}: {kind}"
            yield f"{sender}: {other}: {kind}"
            yield f" {sender} :{other}:{kind}"


def _relabel(text: str, shift: int) -> str:
    """``text`` with every seat number ``n`` (0-2) written ``(n + shift) % 3``."""
    return re.sub(r"[0-2]", lambda m: str((int(m.group()) + shift) % 3), text)


@pytest.mark.asyncio
@pytest.mark.parametrize("to_act", [False, True], ids=["as-written", "sender-to-act"])
@pytest.mark.parametrize(
    ("sender", "text"),
    [(0, "1: catch 2"), (0, "0: 1: catch 2"), (2, "2: 1: dos"), (1, "1: 2: catch 0")],
)
async def test_texts_naming_another_seat_are_refused(
    server: ServerProcess, sender: int, text: str, to_act: bool
) -> None:
    """Texts naming another seat as written, and with the seats renumbered so that the sender is the
    seat to act (the case where dropping the sender's own prefix left another seat's)."""
    players = await _table(server)
    assert players[0].view is not None
    if to_act:
        shift = (players[0].view["turn"] - sender) % 3
        sender, text = (sender + shift) % 3, _relabel(text, shift)
    answer = await players[sender].act(text)
    assert answer["type"] == "error", f"seat {sender} sent {text!r}: {answer}"
    assert answer["code"] in PREFIX_REFUSALS, (sender, text, answer)
    for other in players:
        if other.seat != sender:
            assert [m for m in await _quiet(other, "q") if m["type"] == "update"] == []
    for player in players:
        await player.close()


@pytest.mark.asyncio
async def test_a_prefix_of_another_seat_is_refused_on_every_action_kind(
    server: ServerProcess,
) -> None:
    """From the seat to act and from a seat waiting, at the deal: every kind of action with
    another seat's prefix is refused as ``not_your_seat`` (or ``notation``), nothing changes."""
    players = await _table(server)
    assert players[0].view is not None
    turn = players[0].view["turn"]
    for sender in (turn, (turn + 1) % 3):
        for text in _other_seat_texts(sender, 3):
            answer = await players[sender].act(text)
            assert answer["type"] == "error", f"seat {sender} sent {text!r}: {answer}"
            assert answer["code"] in PREFIX_REFUSALS, (sender, text, answer)
    for player in players:
        assert [m for m in await _quiet(player, "q") if m["type"] == "update"] == []
        await player.send({"type": "sync"})
        assert (await player.expect("state"))["version"] == 0
        await player.close()


@pytest.mark.asyncio
async def test_nobody_calls_dos_for_a_seat_that_owes_it(server: ServerProcess) -> None:
    """Nobody calls DOS in this game, so DOS obligations stay open; whenever one is open, the
    seat to act and a seat waiting each try to call it (``2: 1: dos`` from the seat to act
    would read as seat 1's call once the server drops the sender's own prefix) or to catch
    for the one who owes it. Every try is refused; the game goes on with plain turns."""
    players = await _table(server)
    rng = random.Random(7)
    tried = 0
    for step in range(3000):
        view = players[0].view
        assert view is not None
        if players[0].result is not None or tried >= 6:
            break
        turn = view["turn"]
        for debtor in view["dos_open"]:
            for sender in range(3):
                if sender == debtor:
                    continue
                victim = next(v for v in range(3) if v not in (sender, debtor))
                texts = [f"{sender}: {debtor}: dos", f"{debtor}: dos"]
                texts += [f"{sender}: {debtor}: catch {victim}", f"{debtor}: catch {victim}"]
                for text in texts:
                    accepted = await _send_and_check(players, sender, text, f"s{step}")
                    assert not accepted, (sender, text)
            tried += 1
        mover = players[turn]
        assert mover.view is not None
        plain = [a for a in mover.view["legal"] if ":" not in a and not a.startswith("catch")]
        plain = [a for a in plain if a != "dos"]
        answer = await mover.act(rng.choice(plain))
        assert answer["type"] == "update", answer
        for other in players:
            while other.version < mover.version:
                await other.recv()
    assert tried > 0, "no DOS obligation came up"
    for player in players:
        await player.close()


# --- the property -------------------------------------------------------------------------------

_SEATS = st.sampled_from(["0", "1", "2", "3", "01", " 1", "1 ", "\uff11", "\u0662", "-1", "9"])
_COLON = st.sampled_from([":", " :", ": ", " : ", ":\t", "\uff1a"])
_BODIES = st.sampled_from(
    ["dos", "DOS", "catch 0", "catch 1", "catch 2", "draw", "end", "lay B3", "R7@0", ""]
)


@st.composite
def _action_text(draw: st.DrawFn, players: list[WsPlayer], sender: int) -> str:
    """What seat ``sender`` sends: its own legal actions (the game must move on), another
    seat's legal actions, prefixes of every kind (one, two, odd digits and colons), or any
    text at all. What is drawn never depends on the game (hypothesis replays draws): a legal
    action is drawn as an index into the list the game offers now."""
    own = players[sender].view["legal"] if players[sender].view else []
    anyone = [a for p in players if p.view for a in p.view["legal"]]
    pick = draw(st.integers(0, 10**6), label="pick")
    body = draw(_BODIES, label="body")
    if draw(st.booleans(), label="legal body") and anyone:
        body = anyone[pick % len(anyone)]
    first = draw(_SEATS) + draw(_COLON)
    second = draw(_SEATS) + draw(_COLON)
    kind = draw(st.integers(0, 8), label="kind")
    if kind == 0:
        return first + body
    if kind == 1:
        return first + second + body
    if kind == 2:
        return f"{sender}: {body}"
    if kind == 3:
        return draw(st.text(max_size=30), label="any text")
    if kind == 4:
        return draw(st.text(alphabet="0123: dosDOScatchraw\t", max_size=20), label="near text")
    if kind == 8:
        return f"{sender}: {second}{body}"  # its own prefix, then another's
    return own[pick % len(own)] if own else body  # kinds 5-7: the game moves on


def test_every_action_text_is_the_senders_own_or_refused(server: ServerProcess) -> None:
    """Hypothesis: whatever text a connection sends as an ``action`` (on the version it saw),
    either the ``update`` is broadcast with the sender's seat and acts for that seat (its
    canonical prefix is the sender's, or it has none and the sender was to act), or the sender
    gets an ``error`` with a refusal code, nothing is broadcast and the version stays. A text
    whose seat prefixes name another seat is refused as ``not_your_seat`` or ``notation``."""
    with asyncio.Runner() as runner:
        players = runner.run(_table(server))
        counter = iter(range(10**9))

        @settings(
            max_examples=300,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(after_turn=st.sampled_from([0, 0, 1, 2]), data=st.data())
        def check(after_turn: int, data: st.DataObject) -> None:
            if players[0].result is not None:
                runner.run(_rematch(players))
            assert players[0].view is not None
            sender = (players[0].view["turn"] + after_turn) % 3  # the seat to act, mostly
            text = data.draw(_action_text(players, sender), label="text")
            runner.run(_send_and_check(players, sender, text, f"p{next(counter)}"))

        try:
            check()
        finally:
            for player in players:
                runner.run(player.close())


async def _rematch(players: list[WsPlayer]) -> None:
    await players[0].rematch()
    for player in players[1:]:
        await player.expect("state")
