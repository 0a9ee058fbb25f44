"""Calling "DOS!" with the move (``"dos": true`` on an ``action``; RULES.md §6): the call is
applied with the move that leaves two cards, under the table's one lock, so an `expert` bot
that catches at once (``--bot-delay 0``) never catches a person who called with the move, and
still catches one who forgot."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from server.support import ServerProcess, WsPlayer, create_table

pytestmark = pytest.mark.asyncio

POSITIONS = 3
"""Positions where the person's move leaves two cards, per test."""


def cards_laid(action: str) -> int:
    """How many hand cards an action in notation takes out of the hand.

    >>> cards_laid("R5+DOS@1"), cards_laid("B3@0"), cards_laid("lay G7"), cards_laid("end")
    (2, 1, 1, 0)
    """
    if "@" in action:
        return len(action.split("@", 1)[0].split("+"))
    return 1 if action.split(" ", 1)[0] in ("lay", "place") else 0


def leaving_two(view: dict[str, Any]) -> list[str]:
    """The person's turn actions that leave two cards in hand. None while the person owes
    DOS penalty cards (caught during their own turn): those arrive when the turn ends
    (RULES.md §4.4), so a lay that takes the hand to two ends the turn with four."""
    if view["penalties"][view["seat"]]:
        return []
    hand = len(view["hand"])
    return [a for a in view["legal"] if ":" not in a and 0 < cards_laid(a) == hand - 2]


async def caught_up(person: WsPlayer) -> None:
    """Reads until the bot is done for now: the person is to act, or the game is over."""
    while True:
        view = person.view
        assert view is not None
        if person.result is not None or view["phase"] == "over":
            return
        if view["turn"] == person.seat or person.seat in view["dos_open"]:
            try:  # a bot's catch or call may still be on its way
                await person.recv(0.3)
            except TimeoutError:
                return
            continue
        await person.recv()


async def to_a_move_leaving_two(person: WsPlayer, rng: random.Random) -> str:
    """Plays at random (calling its own DOS at once) until a legal move leaves two cards."""
    for _ in range(3000):
        await caught_up(person)
        view = person.view
        assert view is not None and person.result is None, "the game ended first"
        legal: list[str] = view["legal"]
        if "dos" in legal or any(a.endswith(": dos") for a in legal):
            await person.act(next(a for a in legal if a.endswith("dos")))
            continue
        if view["turn"] != person.seat:
            continue
        moves = leaving_two(view)
        if moves:
            return rng.choice(moves)
        turn = [a for a in legal if ":" not in a and not a.startswith(("catch", "dos"))]
        # Keep the hand from running out: prefer draws and small matches.
        await person.act(rng.choice(turn))
    raise AssertionError("no move leaving two cards came")


async def after(person: WsPlayer, seconds: float) -> list[dict[str, Any]]:
    """The updates that arrive within ``seconds``."""
    updates: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            message = await person.recv(left)
        except TimeoutError:
            break
        if message["type"] == "update":
            updates.append(message)
    return updates


async def seated_against_expert(server: ServerProcess) -> WsPlayer:
    host = create_table(
        server.url, seats=[None, "expert"], options={"target_score": 1000}, rated=False
    )
    person = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await person.send({"type": "start"})
    await person.expect("state")
    return person


def caught(update: dict[str, Any], seat: int) -> bool:
    return bool(update["action"].endswith(f"catch {seat}"))


async def test_a_person_who_calls_with_the_move_is_never_caught(server: ServerProcess) -> None:
    person = await seated_against_expert(server)
    rng = random.Random(7)
    for _ in range(POSITIONS):
        move = await to_a_move_leaving_two(person, rng)
        version = person.version
        ident = person.next_id()
        await person.send(
            {"type": "action", "action": move, "version": version, "id": ident, "dos": True}
        )
        first = await person.expect("update")
        assert (first["action"], first["seat"], first["id"]) == (move, 0, ident), first
        second = await person.expect("update")
        assert second["action"] in ("dos", "0: dos"), second
        assert (second["seat"], second["id"], second["version"]) == (0, ident, version + 2)
        assert person.view is not None and 0 not in person.view["dos_open"]
        later = await after(person, 0.5)
        assert not any(caught(u, 0) for u in later), later
        assert not any(m["type"] == "error" for m in person.messages), person.messages
    await person.close()


async def test_a_person_who_forgets_is_caught_by_the_expert(server: ServerProcess) -> None:
    person = await seated_against_expert(server)
    rng = random.Random(8)
    catches = 0
    for _ in range(POSITIONS):
        move = await to_a_move_leaving_two(person, rng)
        answer = await person.act(move)
        assert answer["type"] == "update", answer
        catches += any(caught(u, 0) for u in await after(person, 1.0))
    assert catches >= 1  # the expert notices 95% of the time: at least one of three
    await person.close()


async def test_the_flag_on_a_move_leaving_more_cards_is_ignored(server: ServerProcess) -> None:
    person = await seated_against_expert(server)
    await caught_up(person)
    while person.view is not None and person.view["turn"] != person.seat:
        await person.recv()
    assert person.view is not None
    ident = person.next_id()
    await person.send(
        {"type": "action", "action": "draw", "version": person.version, "id": ident, "dos": True}
    )
    first = await person.expect("update")
    assert (first["action"], first["id"]) == ("draw", ident)
    assert not any(u["id"] == ident for u in await after(person, 0.3))
    await person.close()


async def test_a_classic_table_refuses_the_flag(server: ServerProcess) -> None:
    host = create_table(server.url, rules="classic", seats=[None, "easy"])
    person = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await person.send({"type": "start"})
    await person.expect("state")
    version = person.version
    ident = person.next_id()
    await person.send(
        {"type": "action", "action": "draw", "version": version, "id": ident, "dos": True}
    )
    error = await person.expect("error", id=ident)
    assert error["code"] == "bad_message" and "dos" in error["message"], error
    assert not any(m.get("id") == ident for m in person.messages if m["type"] == "update")
    await person.close()
