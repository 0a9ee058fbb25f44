"""Helpers of the review tests (one process and many): a short finished game to review, and
a review's state followed until it is done."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from server.support import HTTP, WsPlayer, create_table

SAMPLES = 8
"""Samples a decision on the test servers: a review of a short game in seconds."""


async def finished_game(url: str, ws_url: str, seed: int, bots: Sequence[str] = ("easy",)) -> int:
    """Plays a short game (one round, to 5 points) of a person and ``bots`` to its end on the
    server at ``url`` / ``ws_url``; its id."""
    grant = create_table(url, seats=[None, *bots], options={"target_score": 5})
    ada = await WsPlayer(ws_url, grant["code"], grant["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    rng = random.Random(seed)
    while ada.result is None:  # matches first: a short round
        legal = ada.view["legal"] if ada.view is not None else []
        calls = [a for a in legal if a.endswith("dos")]
        turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
        mine = ada.view is not None and ada.view["turn"] == ada.seat
        matches = [a for a in turn if "@" in a]
        if calls:
            await ada.act(calls[0])
        elif mine and turn:
            await ada.act(rng.choice(matches or turn))
        else:
            await ada.recv()
    await ada.stored_end()
    assert ada.table is not None
    game_id: int = ada.table["game_id"]
    await ada.close()
    return game_id


def followed(urls: Sequence[str], game_id: int, seat: int) -> list[dict[str, Any]]:
    """Reads the review's state until it is done, asking each of ``urls`` in turn (the
    processes of one server); every state read, in order."""
    seen = []
    for attempt in range(2000):
        url = urls[attempt % len(urls)]
        answer = HTTP.get(f"{url}/api/games/{game_id}/review", params={"seat": seat})
        assert answer.status_code == 200, (url, answer.text)
        state: dict[str, Any] = answer.json()
        seen.append(state)
        if state["status"] != "running":
            return seen
        # Polled: the review runs in the server's worker processes, at its own pace.
        time.sleep(0.05)
    raise AssertionError("the review did not end")
