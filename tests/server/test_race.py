"""The DOS race (RULES.md §6) on a real server: a call and a catch sent at once; the first the
server accepts wins, the other is refused, and every client sees the same outcome."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.support import ServerProcess, WsPlayer, create_table, join_table

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
