"""Issue 26: one server on three processes and two bot workers, one PostgreSQL and one Redis
(real parts).

Four players (two people and two bots, one of which searches in the workers) at a table whose
requests reach any process: the people connect to the two processes that do not own the table
and are relayed to its owner (``dos.cluster.relay``). Every client sees the same actions in
the same order, which are the ones the database holds. Then the owner is killed (SIGKILL) at
moments chosen by a seeded generator, again and again: another process adopts the table by
replaying its committed actions, the relayed clients stay connected, those of the dead
process reconnect anywhere, and the game finishes with no acknowledged action lost and none
applied twice. An owner paused (SIGSTOP) past its lease wakes to find its table taken: it
commits nothing more (the database refuses its fencing epoch). SIGTERM hands the tables over
with no relayed client disconnected.
"""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.exceptions import ConnectionClosed

from cluster.support import READY, RedisServer, Worker
from dos import records
from server.support import PostgresCluster, ServerProcess, WsPlayer, create_table, join_table

pytestmark = pytest.mark.asyncio

SECRET = "one-secret-for-every-process-0123456789"
PROCESSES = 3
WORKERS = 2


class Cluster:
    """Three ``dos serve --redis`` processes and two ``dos bot-worker`` on one PostgreSQL
    database and one Redis."""

    def __init__(self, folder: Path, database: str, redis_url: str) -> None:
        self.redis_url = redis_url
        self.database = database
        self.workers: list[Worker] = []
        self.servers = [
            ServerProcess(
                folder / f"p{i}",
                database,
                "--redis",
                redis_url,
                "--name",
                f"p{i}",
                env={"DOS_SECRET": SECRET},
            )
            for i in range(PROCESSES)
        ]

    def start(self) -> None:
        self.workers = [Worker(self.redis_url, f"w{i}") for i in range(WORKERS)]
        for server in self.servers:
            server.start()
        for worker in self.workers:
            worker.wait_for("ready", timeout=READY)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        for worker in self.workers:
            worker.kill()

    def epochs(self, game_id: int) -> list[int]:
        """The fencing epoch each action of the game was committed under, in order."""
        with psycopg.connect(self.database.replace("postgresql+psycopg", "postgresql")) as db:
            rows = db.execute(
                "SELECT epoch FROM dos_actions WHERE game_id = %s ORDER BY idx", (game_id,)
            )
            return [int(epoch) for (epoch,) in rows]

    def table_epoch(self, code: str) -> int:
        """The fencing epoch the database holds for the table (the last owner's claim)."""
        with psycopg.connect(self.database.replace("postgresql+psycopg", "postgresql")) as db:
            row = db.execute("SELECT epoch FROM dos_tables WHERE code = %s", (code,)).fetchone()
            assert row is not None, code
            return int(row[0])

    async def claimed(self, code: str, above: int) -> None:
        """Waits until a new owner has claimed the table in the database (an epoch above
        ``above``): from then on, the database refuses every commit under an older one."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while self.table_epoch(code) <= above:
            assert loop.time() < deadline, f"table {code}: nobody claimed it above {above}"
            await asyncio.sleep(0.05)

    async def new_owner(self, code: str, old: int) -> int:
        """Waits until a process other than ``old`` holds the table's lease; which."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while True:
            found = self.owner(code)
            if found is not None and found != old:
                return found
            assert loop.time() < deadline, f"table {code}: nobody took it over from p{old}"
            await asyncio.sleep(0.05)

    def owner(self, code: str) -> int | None:
        """Which process holds the table's lease now (``None``: none, as between an owner's
        death and the adoption, or once the game is over and nobody reaches the table)."""
        with redis.Redis.from_url(self.redis_url) as client:
            value = client.get(f"dos:table:{{{code}}}:lease")
        if value is None:
            return None
        name = value.decode().split(" ", 1)[1]
        return int(name.split(":", 1)[0][1:])


@pytest.fixture(scope="module")
def processes(
    tmp_path_factory: pytest.TempPathFactory,
    postgres: tuple[PostgresCluster, str],
    redis_server: RedisServer,
) -> Iterator[Cluster]:
    """The three processes and two workers, shared by the tests of this module (each plays a
    table of its own)."""
    pg, url = postgres
    with redis.Redis.from_url(redis_server.url) as client:
        client.flushdb()
    found = Cluster(tmp_path_factory.mktemp("cluster"), pg.new_database(url), redis_server.url)
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def cluster(processes: Cluster) -> Cluster:
    """The three processes, each running (a test before may have stopped one)."""
    for server in processes.servers:
        if server.process is None or server.process.poll() is not None:
            server.start()
    return processes


class Person:
    """A person's client that reconnects to another process when its own dies."""

    def __init__(self, cluster: Cluster, code: str, token: str | None, at: int) -> None:
        self.cluster = cluster
        self.code = code
        self.token = token
        self.at = at
        self.player = WsPlayer(cluster.servers[at].ws_url, code, token)
        self.reconnects = 0
        self.resyncs = 0

    async def connect(self) -> None:
        await self.player.connect()

    async def reconnect(self, rng: random.Random) -> None:
        live = [
            i for i, s in enumerate(self.cluster.servers) if s.process and s.process.poll() is None
        ]
        self.at = rng.choice(live)
        self.player = WsPlayer(self.cluster.servers[self.at].ws_url, self.code, self.token)
        await self.player.connect()
        self.reconnects += 1

    async def read(self, timeout: float) -> dict[str, Any] | None:
        try:
            message = await self.player.recv(timeout)
        except TimeoutError:
            return None
        if message["type"] == "state":
            self.resyncs += 1
        return message


async def _step(people: list[Person], rng: random.Random) -> None:
    """One action by whichever person may act, or a wait for the bots; any closed connection
    reconnects."""
    for person in people:
        player = person.player
        if player.waited_for:
            player.waited_for = False
            await player.send({"type": "continue"})
        action = player.choice(rng)
        if action is None:
            continue
        ident = player.next_id()
        await player.send(
            {"type": "action", "action": action, "version": player.version, "id": ident}
        )
        while True:
            message = await person.read(20.0)
            assert message is not None, "no answer to an action, nor a resync"
            if message.get("id") == ident or message["type"] == "state":
                return  # answered, or resynced (a new owner): decide again
    # Nobody may act: a bot's turn (or a round's pause), on every client in turn.
    for person in people:
        await person.read(0.2)


async def _play(
    people: list[Person], rng: random.Random, kills: int, cluster: Cluster, code: str
) -> int:
    """Plays to the end, killing the table's owner ``kills`` times at random moments and
    starting it again; returns how many kills happened."""
    killed = 0
    loop = asyncio.get_running_loop()
    progress = (loop.time(), -1)
    while people[0].player.result is None or any(p.player.result is None for p in people):
        seen = sum(len(p.player.history) for p in people)
        if seen != progress[1]:
            progress = (loop.time(), seen)
        elif loop.time() - progress[0] > 30:
            states = [
                (
                    p.at,
                    p.player.version,
                    p.reconnects,
                    p.resyncs,
                    p.player.view and p.player.view.get("turn"),
                )
                for p in people
            ]
            logs = "".join("".join(s.output[-15:]) for s in cluster.servers)
            raise AssertionError(f"the game stalled: {states}\n{logs}")
        playing = all(p.player.result is None for p in people)
        if playing and killed < kills and rng.random() < 0.3:
            victim = cluster.owner(code)
            if victim is not None:
                cluster.servers[victim].kill()
                killed += 1
                cluster.servers[victim].start()
        for person in people:
            try:
                await _step([person], rng)
            except (ConnectionClosed, OSError):
                await person.reconnect(rng)
        if all(p.player.result is not None for p in people):
            break
    return killed


async def test_four_players_on_three_processes_see_one_game_through_owner_kills(
    cluster: Cluster,
) -> None:
    rng = random.Random(26)
    servers = cluster.servers
    grant = create_table(
        servers[0].url, seats=[None, None, "easy", "hard"], options={"target_score": 30}
    )
    code = grant["code"]
    owner = cluster.owner(code)  # the process that created it
    assert owner is not None
    elsewhere = [i for i in range(PROCESSES) if i != owner]
    guest = join_table(servers[elsewhere[1]].url, code, "Bea")
    # Each person on a process that does not own the table: relayed to the owner.
    ada = Person(cluster, code, grant["token"], elsewhere[0])
    bea = Person(cluster, code, guest["token"], elsewhere[1])
    await ada.connect()
    await bea.connect()
    await ada.player.send({"type": "start"})
    for person in (ada, bea):
        while person.player.view is None:  # until the deal
            await person.player.recv()
    people = [ada, bea]
    killed = await _play(people, rng, kills=12, cluster=cluster, code=code)
    assert killed >= 10
    # Same game everywhere: the clients' histories and the database's record.
    assert ada.player.history == bea.player.history
    assert ada.player.result == bea.player.result
    info = httpx.get(f"{servers[0].url}/api/tables/{code}", timeout=30).json()
    text = httpx.get(f"{servers[1].url}/api/games/{info['game_id']}/record", timeout=30).text
    record = records.loads(text)
    assert record.actions == ada.player.history  # none lost, none applied twice
    records.replay(record)
    for person in people:
        await person.player.close()


async def _dealt(people: list[Person]) -> None:
    for person in people:
        while person.player.view is None:  # until the deal
            await person.player.recv()


def _record(cluster: Cluster, code: str) -> tuple[int, records.Record]:
    """The game's id and its record, as the database holds it."""
    live = [s for s in cluster.servers if s.process is not None and s.process.poll() is None]
    info = httpx.get(f"{live[0].url}/api/tables/{code}", timeout=30).json()
    url = live[-1].url  # another process, where there are two
    text = httpx.get(f"{url}/api/games/{info['game_id']}/record", timeout=30).text
    return int(info["game_id"]), records.loads(text)


async def test_an_owner_paused_past_its_lease_commits_nothing_when_it_wakes(
    cluster: Cluster,
) -> None:
    """Split brain: the owner is stopped (SIGSTOP) with a client's action on its way, another
    process takes the table and the game goes on; woken (SIGCONT), the former owner commits
    nothing (the database refuses its epoch, or it finds its lease gone first): every action
    of the record after the pause carries the new owner's epoch."""
    rng = random.Random(27)
    servers = cluster.servers
    grant = create_table(servers[0].url, seats=[None, None], options={"target_score": 20})
    code = grant["code"]
    owner = cluster.owner(code)
    assert owner is not None
    other = next(i for i in range(PROCESSES) if i != owner)
    guest = join_table(servers[other].url, code, "Bea")
    ada = Person(cluster, code, grant["token"], owner)  # on the owner itself
    bea = Person(cluster, code, guest["token"], other)  # relayed to it
    people = [ada, bea]
    await ada.connect()
    await bea.connect()
    await ada.player.send({"type": "start"})
    await _dealt(people)
    for _ in range(4):
        await _step(people, rng)
    # Whoever is to act sends an action to the owner just before it stops: it waits in the
    # owner's socket (if Ada's) or was taken and is answered (if Bea's, through the relay).
    paused = servers[owner].process
    assert paused is not None
    for person in people:  # every update read: both at the version the database holds
        while await person.read(0.3) is not None:
            pass
    before = ada.player.version
    assert before == bea.player.version > 0
    info = httpx.get(f"{servers[other].url}/api/tables/{code}", timeout=30).json()
    game_id = int(info["game_id"])
    old_epoch = cluster.table_epoch(code)
    mover = next((p for p in people if p.player.choice(rng) is not None), None)
    paused.send_signal(signal.SIGSTOP)
    try:
        committed = len(cluster.epochs(game_id))  # what the owner committed before it stopped
        if mover is ada:
            action = ada.player.choice(rng)
            await ada.player.send(
                {"type": "action", "action": action, "version": before, "id": "while-paused"}
            )
        adopted_by = await cluster.new_owner(code, owner)
        assert adopted_by != owner
        # Woken once the new owner's claim is in the database (the lease in Redis comes a
        # moment before it, while the new owner loads the table).
        await cluster.claimed(code, old_epoch)
    finally:
        paused.send_signal(signal.SIGCONT)
    # The former owner wakes: whatever it does, it commits nothing more. Its client is closed
    # (1012) or refused, reconnects and plays on through the new owner.
    await _play(people, rng, kills=0, cluster=cluster, code=code)
    game_id, record = _record(cluster, code)
    assert record.actions == ada.player.history == bea.player.history
    records.replay(record)
    epochs = cluster.epochs(game_id)
    assert epochs == sorted(epochs)  # never an older owner after a newer one
    assert all(e <= old_epoch for e in epochs[:committed]), (committed, epochs)
    assert all(e > old_epoch for e in epochs[committed:]), (committed, epochs)
    woke = "".join(servers[owner].output)
    assert f"table {code}: lease lost" in woke, woke[-3000:]
    for person in people:
        await person.player.close()


async def test_sigterm_hands_the_tables_over_and_relayed_clients_stay_connected(
    cluster: Cluster,
) -> None:
    """Draining: the owner is stopped with SIGTERM mid-game; another process takes the table
    at once, and the two people, relayed from the other processes, play on to the end on the
    connections they had (no reconnect), seeing the game the database holds."""
    rng = random.Random(28)
    servers = cluster.servers
    grant = create_table(servers[0].url, seats=[None, None, "easy"], options={"target_score": 20})
    code = grant["code"]
    owner = cluster.owner(code)
    assert owner is not None
    elsewhere = [i for i in range(PROCESSES) if i != owner]
    guest = join_table(servers[elsewhere[1]].url, code, "Bea")
    ada = Person(cluster, code, grant["token"], elsewhere[0])
    bea = Person(cluster, code, guest["token"], elsewhere[1])
    people = [ada, bea]
    await ada.connect()
    await bea.connect()
    await ada.player.send({"type": "start"})
    await _dealt(people)
    for _ in range(4):
        await _step(people, rng)
    servers[owner].stop()  # SIGTERM: the tables are handed over before it exits
    assert "Traceback" not in "".join(servers[owner].output)
    await cluster.new_owner(code, owner)
    while any(p.player.result is None for p in people):
        await _step(people, rng)  # a closed connection fails the test here
    assert ada.reconnects == bea.reconnects == 0
    _, record = _record(cluster, code)
    assert record.actions == ada.player.history == bea.player.history
    for person in people:
        await person.player.close()


def _listed(server: ServerProcess) -> dict[str, dict[str, Any]]:
    """The lobby's list as one process gives it, by code (every page)."""
    found: dict[str, dict[str, Any]] = {}
    offset = 0
    while True:
        page = httpx.get(f"{server.url}/api/tables", params={"offset": offset}, timeout=30)
        assert page.status_code == 200, page.text
        data = page.json()
        found.update({table["code"]: table for table in data["tables"]})
        offset += len(data["tables"])
        if not data["tables"] or offset >= data["total"]:
            assert len(found) == data["total"]
            return found


async def test_every_process_lists_every_public_table_as_its_owner_sees_it(
    cluster: Cluster,
) -> None:
    """The lobby's list comes from the database, not from the tables a process holds: a
    table created at any process is listed by all (a private one by none), and a person's
    connection to a table owned elsewhere shows in every list (its owner's lobby entry)."""
    servers = cluster.servers
    made = [
        create_table(servers[i].url, seats=[None, None], public=True)["code"]
        for i in range(PROCESSES)
    ]
    hidden = create_table(servers[0].url, seats=[None, None])["code"]  # private
    lists = [_listed(server) for server in servers]
    for listed in lists:
        assert set(made) <= set(listed) and hidden not in listed
        assert set(listed) == set(lists[0])
    code = made[1]
    owner = cluster.owner(code)
    assert owner is not None
    # The host connects to a process that does not own the table; every process's list
    # soon shows her connected (the owner writes its tables' entries every second).
    at = next(i for i in range(PROCESSES) if i != owner)
    grant = join_table(servers[at].url, code, "Cleo")
    cleo = await WsPlayer(servers[at].ws_url, code, grant["token"]).connect()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    for server in servers:
        while True:
            seats = _listed(server)[code]["seats"]
            if seats[grant["seat"]]["connected"] and seats[grant["seat"]]["name"] == "Cleo":
                break
            assert loop.time() < deadline, seats
            await asyncio.sleep(0.1)
    await cleo.close()
