"""A table's owner keeps its table through a lapse of its process lease (``dos.cluster.node``):
when the lease expired with nobody else taking the table, because the process was too busy to
renew it in time (here: stopped with SIGSTOP past the lease) or because Redis restarted without
its data, the owner takes a new process lease and the table again in place under a new epoch,
and its players see nothing: no connection closed, no action lost, the game goes on. One ``dos
serve --redis`` on SQLite, with a Redis of the module's own (no persistence)."""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Iterator

import httpx
import pytest
import redis

from cluster.support import RedisServer
from dos import records
from server.support import TIMEOUT, ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio

SECRET = "7" * 64
ACTIONS = 6
"""Actions played between two lapses."""
LEASE = 1.5
"""The server's lease (``--lease``; 3 s unless told): the SIGSTOP lasts past it."""


@pytest.fixture(scope="module")
def lone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, RedisServer]]:
    """One server process on a Redis of its own: nobody else could take its tables."""
    try:
        store = RedisServer()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    store.start()
    server = ServerProcess(
        tmp_path_factory.mktemp("lapse"),
        None,
        "--redis",
        store.url,
        "--lease",
        str(LEASE),
        env={"DOS_SECRET": SECRET},
    )
    server.start()
    try:
        yield server, store
    finally:
        server.stop()
        store.remove()


async def _caught_up(players: list[WsPlayer]) -> None:
    """Every player reads up to the newest version any of them has."""
    target = max(p.version for p in players)
    for player in players:
        while player.version < target:
            await player.recv()


async def _play(players: list[WsPlayer], rng: random.Random, actions: int) -> None:
    """Plays ``actions`` actions (a person's turn or DOS call each; fewer if the game ends),
    every player reading every update and going on after each round's summary."""
    for _ in range(actions):
        await _caught_up(players)
        if players[0].result is not None:
            return
        for player in players:
            if player.waited_for:
                player.waited_for = False
                await player.send({"type": "continue"})
        mover = next((p for p in players if p.choice(rng) is not None), None)
        assert mover is not None
        answer = await mover.act(mover.choice(rng) or "")
        if answer["type"] == "error" and answer["code"] == "paused":
            continue  # the summary is still on show for the other player
        assert answer["type"] == "update", answer


def _holds(client: redis.Redis, code: str) -> bool:
    """Whether the table's claim rests on its owner's process lease now (the alive key holds
    the claim's incarnation), checked that the latter expires within the server's --lease."""
    claim = client.get(f"dos:table:{{{code}}}:lease")
    if claim is None:
        return False
    _epoch, owner, incarnation = claim.decode().split(" ")
    key = f"dos:owner:{{{owner}}}:alive"
    with client.pipeline(transaction=True) as both:  # the value and its time left at one moment
        alive, left = both.get(key).pttl(key).execute()
    if alive is None or alive.decode().split(" ")[0] != incarnation or int(left) <= 0:
        return False  # gone, another incarnation's, or expiring this very millisecond
    assert int(left) <= LEASE * 1000  # the server's --lease, not the default
    return True


async def _leased(store: RedisServer, code: str, held: bool) -> None:
    """Waits until the table is held in Redis (``held``) or free there."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    with redis.Redis.from_url(store.url) as client:
        while _holds(client, code) != held:
            assert loop.time() < deadline, f"the lease never {'came' if held else 'went'}"
            await asyncio.sleep(0.05)


async def test_an_owner_keeps_its_table_through_lapses_of_its_lease(
    lone: tuple[ServerProcess, RedisServer],
) -> None:
    server, store = lone
    grant = create_table(server.url, seats=[None, None], options={"target_score": 100})
    code = grant["code"]
    guest = join_table(server.url, code, "Bea")
    ada = await WsPlayer(server.ws_url, code, grant["token"]).connect()
    bea = await WsPlayer(server.ws_url, code, guest["token"]).connect()
    players = [ada, bea]
    try:
        await ada.send({"type": "start"})
        for player in players:
            await player.expect("state")
        rng = random.Random(3)
        await _play(players, rng, ACTIONS)
        taken_again = "".join(server.output).count(f"table {code}: taken again in place")

        # Too busy to renew: the process is stopped until its lease has expired in Redis.
        assert server.process is not None
        server.process.send_signal(signal.SIGSTOP)
        try:
            await _leased(store, code, held=False)
        finally:
            server.process.send_signal(signal.SIGCONT)
        await _play(players, rng, ACTIONS)
        await _leased(store, code, held=True)

        # Redis restarted without its data: the lease (and its epoch counter) gone, found so
        # at the next renewal; the players play on meanwhile and after.
        store.restart()
        await _play(players, rng, ACTIONS)
        await _leased(store, code, held=True)
        assert ada.result is None, "the game ended before the lapses were over"
        while ada.result is None:  # to the game's end: its record is public then
            await _play(players, rng, ACTIONS)
        await _caught_up(players)

        output = "".join(server.output)
        taken = output.count(f"table {code}: taken again in place")
        assert taken >= taken_again + 2, output[-3000:]
        info = httpx.get(f"{server.url}/api/tables/{code}", timeout=TIMEOUT).json()
        text = httpx.get(f"{server.url}/api/games/{info['game_id']}/record", timeout=TIMEOUT).text
        record = records.loads(text)
        assert record.actions == ada.history == bea.history  # nothing lost or doubled
        records.replay(record)
    finally:
        for player in players:
            await player.close()  # open all along: a closed connection fails the reads
