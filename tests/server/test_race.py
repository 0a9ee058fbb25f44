"""The DOS race (RULES.md §6) on a real server: a call and a catch sent at once; the first the
server accepts wins, the other is refused, and every client sees the same outcome."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.support import ServerProcess, WsPlayer, create_table, join_table
from server.test_dos_with_move import leaving_two

pytestmark = pytest.mark.asyncio

RACES = 3


async def test_a_call_and_a_catch_at_once_have_exactly_one_winner(server: ServerProcess) -> None:
    host = create_table(server.url, seats=[None, None], options={"target_score": 1000})
    guest = join_table(server.url, host["code"], "Bob")
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    watcher = await WsPlayer(server.ws_url, host["code"], None).connect()
    await ada.send({"type": "start"})
    for player in (ada, bob, watcher):
        await player.expect("state")
    players = [ada, bob]
    rng = random.Random(21)
    races = 0
    outcomes: dict[str, int] = {"dos": 0, "catch": 0}
    while races < RACES:
        target = max(p.version for p in players)
        for player in (*players, watcher):
            while player.version < target:
                await player.recv()
        assert ada.view is not None and ada.result is None
        if ada.view["dos_open"]:
            owner = players[ada.view["dos_open"][0]]
            catcher = players[1 - owner.seat]  # type: ignore[operator]
            version = owner.version
            called, caught = await asyncio.gather(
                owner.act("dos", version), catcher.act(f"catch {owner.seat}", version)
            )
            answers = [called["type"], caught["type"]]
            assert sorted(answers) == ["error", "update"], (called, caught)
            loser = called if called["type"] == "error" else caught
            assert loser["code"] in ("stale", "illegal")
            winner = caught if loser is called else called
            outcomes["catch" if loser is called else "dos"] += 1
            for player in (*players, watcher):
                while player.version < version + 1:
                    await player.recv()
                assert player.history[version] == winner["action"]
            assert owner.version == catcher.version == version + 1
            races += 1
            continue
        for player in players:
            legal = player.view["legal"] if player.view else []
            turn = [a for a in legal if ":" not in a and a not in ("dos",)]
            turn = [a for a in turn if not a.startswith("catch")]
            if player.view and player.view["turn"] == player.seat and turn:
                answer = await player.act(rng.choice(turn))
                assert answer["type"] == "update", answer
                break
    assert sum(outcomes.values()) == RACES
    for player in (ada, bob, watcher):
        await player.close()


CALLS = 3
"""Calls made while another seat's action was on its way, per test."""


async def caught_up(players: list[WsPlayer], version: int) -> None:
    for player in players:
        while player.version < version:
            await player.recv()


async def test_an_action_made_before_another_seats_call_still_counts(
    server: ServerProcess,
) -> None:
    """A call (RULES.md §6) changes nothing another seat may do but catch the caller: a turn
    action made on the version before the call is taken; a catch of the caller made there lost
    the race (``stale``), and so does anything made before a move."""
    host = create_table(server.url, seats=[None, None], options={"target_score": 1000})
    guest = join_table(server.url, host["code"], "Bob")
    ada = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    bob = await WsPlayer(server.ws_url, host["code"], guest["token"]).connect()
    await ada.send({"type": "start"})
    for player in (ada, bob):
        await player.expect("state")
    players = [ada, bob]
    rng = random.Random(5)
    checked = 0
    for _ in range(3000):
        if checked == CALLS:
            break
        await caught_up(players, max(p.version for p in players))
        assert ada.view is not None and ada.result is None, "the game ended first"
        mover = players[ada.view["turn"]]
        other = players[1 - ada.view["turn"]]
        assert mover.view is not None
        legal: list[str] = mover.view["legal"]
        calls = [a for p in players for a in (p.view or {}).get("legal", []) if a.endswith("dos")]
        if calls:  # an obligation open before this test's moves: closed at once
            owner = next(p for p in players if any(a.endswith("dos") for a in p.view["legal"]))
            await owner.act(next(a for a in owner.view["legal"] if a.endswith("dos")))
            continue
        moves = leaving_two(mover.view)
        if not moves:
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            await mover.act(rng.choice(turn))
            continue
        before = mover.version
        moved = await mover.act(rng.choice(moves))  # without the call
        assert moved["type"] == "update", moved
        seen = moved["version"]
        await caught_up(players, seen)
        call = next(a for a in mover.view["legal"] if a.endswith("dos"))
        called = await mover.act(call)
        assert called["type"] == "update", called
        await caught_up(players, seen + 1)
        # A catch made on the version before the call lost the race, as a stale action.
        late = await other.act(f"catch {mover.seat}", seen)
        assert (late["type"], late["code"]) == ("error", "stale"), late
        assert other.view is not None
        if other.view["turn"] != other.seat:
            continue  # the move did not end the turn: nothing else of `other` to make
        turn = [a for a in other.view["legal"] if ":" not in a and not a.startswith("catch")]
        # Made on the version before the move: stale, whatever it is.
        old = await other.act(turn[0], before)
        assert (old["type"], old["code"]) == ("error", "stale"), old
        assert other.version == seen + 1
        # Made on the version before the call: it means the same after it, and is taken.
        action = rng.choice(turn)
        taken = await other.act(action, seen)
        assert taken["type"] == "update" and taken["version"] == seen + 2, taken
        await caught_up(players, seen + 2)
        assert ada.history == bob.history and ada.history[-2:] == [called["action"], action]
        checked += 1
    assert checked == CALLS
    for player in (ada, bob):
        await player.close()
