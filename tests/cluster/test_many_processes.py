"""One server on three processes and two bot workers, one PostgreSQL and one Redis
(real parts).

Two people and bots at a table whose requests reach any process: the people connect to the
two processes that do not own the table and are relayed to its owner (``dos.cluster.relay``).
Every client sees the same actions in the same order, which are the ones the database holds.
Four such tables (official and classic) are played at once while their owners are killed
(SIGKILL) at random moments, once a table: another process adopts each table by
replaying its committed actions, the relayed clients stay connected, those of the dead process
reconnect anywhere, and every game finishes with no acknowledged action lost and none applied
twice. An owner paused (SIGSTOP) past its lease wakes to find its table taken: it commits
nothing more (the database refuses its fencing epoch). SIGTERM hands the tables over with no
relayed client disconnected.

A client spreading its requests and chat over the three processes meets the limits it would
meet on one (they are counted in Redis). Then the shared parts fail under a game: Redis
restarted without its data, and PostgreSQL stopped (actions refused with ``storage``) and
started again; each time the game goes on to its end on the same three processes, none
restarted, with nothing lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from cluster.support import READY, RedisServer, Worker
from dos import records
from dos.cluster.client_sockets import sockets_key
from server.support import (
    TIMEOUT,
    PostgresCluster,
    ServerProcess,
    WsPlayer,
    create_table,
    join_table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.mostly_waits]

SECRET = "one-secret-for-every-process-0123456789"
PROCESSES = 3
WORKERS = 2
KILLS = 1
"""Owner kills at each of the four tables played at once: four in all, and a process killed
for one table takes the others it owned down with it. (``bench/failover.py``
kills owners hundreds of times; here the mechanism is checked, at every kind of table.)"""
SHORT_CLASSIC = {"penalty_cards": 0, "stacking": False}
"""Classic games of a few hundred actions at most: a failed reaction test draws nothing."""
ACCOUNTS = 6
"""Account requests a client may make a minute (``--limit accounts``): no other test of this
module makes any."""
CLIENT_CHAT = 4
"""Chat lines a client may send a minute, all its connections together (``--limit
client_chat``): no other test of this module chats."""
SOCKETS = 40
"""WebSockets a client may hold open, all processes together (``--limit client_sockets``):
more than any other test of this module opens from one address."""
LIMITS = (
    *("--limit", "off"),
    *("--limit", f"accounts={ACCOUNTS}/minute"),
    *("--limit", f"client_chat={CLIENT_CHAT}/minute"),
    *("--limit", f"client_sockets={SOCKETS}"),
)
SPREAD, ALONE, OTHER, AUDIENCE = "127.26.0.2", "127.26.0.3", "127.26.0.4", "127.26.0.5"
"""Loopback addresses the limits test connects from: clients of their own (every other test
connects from 127.0.0.1)."""


class Cluster:
    """Three ``dos serve --redis`` processes and two ``dos bot-worker`` on one PostgreSQL
    database and one Redis (the module's own: a test restarts it)."""

    def __init__(self, folder: Path, database: str, store: RedisServer) -> None:
        self.store = store
        self.redis_url = store.url
        self.database = database
        self.workers: list[Worker] = []
        self.servers = [
            ServerProcess(
                folder / f"p{i}",
                database,
                "--redis",
                store.url,
                "--name",
                f"p{i}",
                *LIMITS,
                env={"DOS_SECRET": SECRET},
            )
            for i in range(PROCESSES)
        ]
        self.starting: dict[int, asyncio.Task[str]] = {}
        """The killed processes being started again, on threads: the games go on meanwhile."""

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

    def up(self) -> list[int]:
        """The processes that run and listen (not killed, nor being started again)."""
        self._started()
        return [
            i
            for i, server in enumerate(self.servers)
            if i not in self.starting
            and server.process is not None
            and server.process.poll() is None
        ]

    def _started(self) -> None:
        """Forgets the processes started again by now (a failed start fails the test)."""
        done = [i for i, task in self.starting.items() if task.done()]
        for task in [self.starting.pop(i) for i in done]:
            task.result()

    def kill_owner(self, code: str) -> bool:
        """Kills the table's owner (SIGKILL) and starts it again on a thread, if somebody
        holds the table and another process is up (one always is); whether it did."""
        victim = self.owner(code)
        up = self.up()
        if victim is None or victim not in up or len(up) < 2:
            return False
        server = self.servers[victim]
        server.kill()
        self.starting[victim] = asyncio.get_running_loop().create_task(
            asyncio.to_thread(server.start)
        )
        return True

    async def restarted(self) -> None:
        """Waits until every killed process is up again (a failed start fails the test)."""
        await asyncio.gather(*self.starting.values(), return_exceptions=True)
        self._started()

    def pids(self) -> list[int | None]:
        """Each process's id (a restart changes it)."""
        return [
            s.process.pid if s.process and s.process.poll() is None else None for s in self.servers
        ]

    async def ready(self, ready: bool, naming: str = "") -> None:
        """Waits until every process's ``/api/ready`` says ``ready`` (when not: with a reason
        naming ``naming``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            for server in self.servers:
                while True:
                    answer = await client.get(f"{server.url}/api/ready")
                    if ready and answer.status_code == 200:
                        break
                    if not ready and answer.status_code == 503:
                        assert naming in answer.json()["reason"], answer.text
                        break
                    assert loop.time() < deadline, (server.url, answer.status_code, answer.text)
                    await asyncio.sleep(0.05)

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
        """Which process last took the table (its claim; a dead owner's stays until the
        adoption), ``None``: none (released, as once the game is over and nobody reaches the
        table)."""
        with redis.Redis.from_url(self.redis_url) as client:
            value = client.get(f"dos:table:{{{code}}}:lease")
        if value is None:
            return None
        name = value.decode().split(" ", 1)[1]
        return int(name.split(":", 1)[0][1:])


@pytest.fixture(scope="module")
def store() -> Iterator[RedisServer]:
    """The module's Redis, without persistence: a test restarts it (its data lost)."""
    try:
        server = RedisServer()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    server.start()
    yield server
    server.remove()


@pytest.fixture(scope="module")
def processes(
    tmp_path_factory: pytest.TempPathFactory,
    postgres: tuple[PostgresCluster, str],
    store: RedisServer,
) -> Iterator[Cluster]:
    """The three processes and two workers, shared by the tests of this module (each plays a
    table of its own)."""
    pg, url = postgres
    found = Cluster(tmp_path_factory.mktemp("cluster"), pg.new_database(url), store)
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def cluster(processes: Cluster) -> Cluster:
    """The three processes, each running (a test before may have stopped one)."""
    assert not processes.starting, "a test left a process starting"
    if processes.store.process is None:  # a test failed with Redis away
        processes.store.start()
    for server in processes.servers:
        if server.process is None or server.process.poll() is not None:
            server.start()
    return processes


class Person:
    """A person's client that reconnects to another process when its own dies. Its action
    ids are its own across its connections (``next_id``)."""

    def __init__(self, cluster: Cluster, code: str, token: str | None, at: int, name: str) -> None:
        self.cluster = cluster
        self.code = code
        self.token = token
        self.at = at
        self.name = name
        self.player = WsPlayer(cluster.servers[at].ws_url, code, token)
        self.former: list[dict[str, Any]] = []
        """What its former connections received."""
        self.reconnects = 0
        self.resyncs = 0
        self._ids = 0

    async def connect(self) -> None:
        await self.player.connect()

    @property
    def messages(self) -> list[dict[str, Any]]:
        """Everything it received, over all its connections."""
        return [*self.former, *self.player.messages]

    def next_id(self) -> str:
        self._ids += 1
        return f"{self.name}-{self._ids}"

    async def reconnect(self, rng: random.Random) -> None:
        """Connects again, to a process that is up (one may be dying or starting meanwhile:
        another is tried)."""
        self.former += self.player.messages
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        failed: Exception | None = None
        while True:
            live = self.cluster.up()
            if live:
                at = rng.choice(live)
                player = WsPlayer(self.cluster.servers[at].ws_url, self.code, self.token)
                try:
                    await player.connect()
                except (OSError, WebSocketException, TimeoutError) as error:
                    failed = error  # it died as we came: another
                else:
                    self.at, self.player = at, player
                    self.reconnects += 1
                    return
            if loop.time() > deadline:
                logs = "".join("".join(s.output[-15:]) for s in self.cluster.servers)
                raise AssertionError(f"{self.name}: no process took it ({failed!r})\n{logs}")
            await asyncio.sleep(0.1)

    async def read(self, timeout: float) -> dict[str, Any] | None:
        try:
            message = await self.player.recv(timeout)
        except TimeoutError:
            return None
        if message["type"] == "state":
            self.resyncs += 1
        return message

    async def answer(self, ident: str, timeout: float = 20.0) -> dict[str, Any]:
        """Reads until the answer to action ``ident`` (its ``update`` or ``error``), or a
        resync (``state``: a new owner, which may or may not have it: decide again)."""
        while True:
            message = await self.read(timeout)
            assert message is not None, f"{self.name}: no answer to {ident}, nor a resync"
            if message.get("id") == ident or message["type"] == "state":
                return message

    async def next_message(self) -> dict[str, Any]:
        """The next message (failing after ``TIMEOUT``)."""
        message = await self.read(TIMEOUT)
        assert message is not None, f"{self.name}: nothing came"
        return message

    async def sync(self) -> dict[str, Any]:
        """Asks the full state; returns it."""
        await self.player.send({"type": "sync"})
        while (message := await self.next_message())["type"] != "state":
            pass
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
        ident = person.next_id()
        await player.send(
            {"type": "action", "action": action, "version": player.version, "id": ident}
        )
        await person.answer(ident)  # answered, or resynced (a new owner): decide again
        return
    # Nobody may act: a bot's turn (or a round's pause), on every client in turn.
    for person in people:
        await person.read(0.2)


async def _play(
    people: list[Person],
    rng: random.Random,
    cluster: Cluster,
    code: str,
    *,
    kills: int = 0,
    stall: float = 30.0,
) -> int:
    """Plays to the end, killing the table's owner ``kills`` times at random moments (and
    starting it again); returns how many kills happened. No new action for ``stall``
    seconds fails."""
    killed = 0
    loop = asyncio.get_running_loop()
    progress = (loop.time(), -1)
    while any(p.player.result is None for p in people):
        seen = sum(len(p.player.history) for p in people)
        if seen != progress[1]:
            progress = (loop.time(), seen)
        elif loop.time() - progress[0] > stall:
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
            # Each person's last messages: which came after the stall's start, from where.
            said = [
                [(m.get("type"), m.get("version"), m.get("code")) for m in p.messages[-8:]]
                for p in people
            ]
            logs = f"last messages: {said}\n"
            logs += "".join("".join(s.output[-40:]) for s in cluster.servers)
            logs += "".join("".join(w.output[-10:]) for w in cluster.workers)
            raise AssertionError(f"table {code}: the game stalled: {states}\n{logs}")
        playing = all(p.player.result is None for p in people)
        if playing and killed < kills and rng.random() < 0.3 and cluster.kill_owner(code):
            killed += 1
        for person in people:
            try:
                await _step([person], rng)
            except (ConnectionClosed, OSError):
                await person.reconnect(rng)
    return killed


async def _dealt(people: list[Person]) -> None:
    for person in people:
        while person.player.view is None:  # until the deal
            await person.player.recv()


async def _seated(
    cluster: Cluster, seats: list[str | None], at: int = 0, **body: Any
) -> tuple[str, list[Person]]:
    """A table created at process ``at`` (its owner) with two people, each connected to one
    of the other processes (relayed to the owner), dealt; its code and its people."""
    servers = cluster.servers
    grant = create_table(servers[at].url, seats=seats, **body)
    code = grant["code"]
    owner = cluster.owner(code)  # the process that created it
    assert owner == at
    elsewhere = [i for i in range(PROCESSES) if i != owner]
    guest = join_table(servers[elsewhere[1]].url, code, "Bea")
    people = [
        Person(cluster, code, grant["token"], elsewhere[0], f"{code}-ada"),
        Person(cluster, code, guest["token"], elsewhere[1], f"{code}-bea"),
    ]
    for person in people:
        await person.connect()
    await people[0].player.send({"type": "start"})
    await _dealt(people)
    return code, people


async def _record(cluster: Cluster, code: str) -> tuple[int, records.Record]:
    """The game's id and its record, as the database holds it, asked of two processes that
    are up (again of others if one is killed meanwhile by another table's game; without
    holding up the other tables' clients)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        while True:
            live = [cluster.servers[i] for i in cluster.up()]
            with contextlib.suppress(httpx.TransportError):
                info = await client.get(f"{live[0].url}/api/tables/{code}")
                if info.status_code == 200:  # not 503: its owner died as it asked
                    game = info.json()["game_id"]
                    url = live[-1].url  # another process, where there are two
                    answer = await client.get(f"{url}/api/games/{game}/record")
                    if answer.status_code == 200:
                        return int(game), records.loads(answer.text)
            assert loop.time() < deadline, f"table {code}: no process gave its record"
            await asyncio.sleep(0.1)


async def _same_game(
    cluster: Cluster, code: str, people: list[Person], since: list[int] | None = None
) -> records.Record:
    """Checks that the table's game is over and that the database's record is what every
    client saw: every update any client was sent for it (from its message ``since``: the
    deal) is in it at its version (none lost), no action id was answered by two updates
    (none applied twice), the clients' histories are the record, and the record replays;
    returns it."""
    _, record = await _record(cluster, code)
    for n, person in enumerate(people):
        assert person.player.result is not None, f"{person.name}: the game did not finish"
        assert person.player.history == record.actions, person.name
        assert person.player.result == people[0].player.result
        answered: dict[str, int] = {}
        for message in person.messages[since[n] if since else 0 :]:
            if message["type"] != "update":
                continue
            version = message["version"]
            assert record.actions[version - 1] == message["action"], (person.name, version)
            ident = message.get("id")
            if ident is not None:
                assert answered.setdefault(ident, version) == version, (person.name, ident)
    records.replay(record)
    return record


async def _rematch(people: list[Person], rng: random.Random) -> None:
    """The table's host (the role passes on from a player away too long) deals the next game,
    and every person reads up to it; the rematch is said again when no deal answers it (an
    owner killed meanwhile)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    refusals: list[dict[str, Any]] = []
    while any(p.player.result is not None for p in people):
        hosts = [p.player.table and p.player.table["host"] for p in people]
        assert loop.time() < deadline, f"no new game was dealt: hosts {hosts}, {refusals[-3:]}"
        for person in people:
            player = person.player
            try:
                table = player.table
                if player.result is not None and table and table["host"] == player.seat:
                    await player.send({"type": "rematch"})
                while player.result is not None:
                    message = await person.read(2.0)
                    if message is None:
                        break
                    if message["type"] == "error":
                        refusals.append(message)
            except (ConnectionClosed, OSError):
                await person.reconnect(rng)


async def _games_with_kills(
    cluster: Cluster, code: str, people: list[Person], rng: random.Random, kills: int
) -> tuple[int, int]:
    """Plays games at the table while its owner is killed ``kills`` times at random
    moments, each game to its end and checked (``_same_game``), a rematch after any that
    ended before the kills were done; returns the kills and the games."""
    killed = games = 0
    since = [0] * len(people)
    while True:
        killed += await _play(people, rng, cluster, code, kills=kills - killed)
        await _same_game(cluster, code, people, since)
        games += 1
        if killed >= kills:
            return killed, games
        since = [len(p.messages) for p in people]
        await _rematch(people, rng)


async def test_owners_killed_at_four_tables_at_once_lose_nothing(
    cluster: Cluster,
) -> None:
    """Four tables played at once, each with two people relayed to its owner: official
    with an easy bot and a hard one (decided in the workers), classic, official with a hard
    bot, official. Each table's owner is killed (SIGKILL) at a random moment, and
    started again while the games go on; a process killed for one table takes the others it
    owned down with it. A game over before its table's kills are done is followed by
    another (a rematch), each checked to the end."""
    games = [
        await _seated(cluster, [None, None, "easy", "hard"], options={"target_score": 10}),
        await _seated(cluster, [None, None], at=1, rules="classic", options=SHORT_CLASSIC),
        await _seated(cluster, [None, None, "hard"], at=2, options={"target_score": 10}),
        await _seated(cluster, [None, None], options={"target_score": 10}),
    ]
    try:
        played = await asyncio.gather(
            *(
                _games_with_kills(cluster, code, people, random.Random(26 + n), KILLS)
                for n, (code, people) in enumerate(games)
            )
        )
    finally:
        await cluster.restarted()
    assert [kills for kills, _ in played] == [KILLS] * len(games)
    for _, people in games:
        for person in people:
            await person.player.close()


async def test_sigterm_hands_the_tables_over_and_relayed_clients_stay_connected(
    cluster: Cluster,
) -> None:
    """Draining: the owner is stopped with SIGTERM mid-game; another process takes the table
    at once, and the two people, relayed from the other processes, play on to the end on the
    connections they had (no reconnect), seeing the game the database holds."""
    rng = random.Random(28)
    code, people = await _seated(cluster, [None, None, "easy"], options={"target_score": 20})
    owner = cluster.owner(code)
    assert owner is not None
    for _ in range(4):
        await _step(people, rng)
    said = len(cluster.servers[owner].output)  # what it logged before (other tests' too)
    cluster.servers[owner].stop()  # SIGTERM: the tables are handed over before it exits
    assert "Traceback" not in "".join(cluster.servers[owner].output[said:])
    await cluster.new_owner(code, owner)
    while any(p.player.result is None for p in people):
        await _step(people, rng)  # a closed connection fails the test here
    assert [p.reconnects for p in people] == [0, 0]
    await _same_game(cluster, code, people)
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


async def test_a_client_spreading_over_three_processes_meets_the_limits_of_one(
    cluster: Cluster,
) -> None:
    """The per-client counters are in Redis: a client's account requests spread over the
    three processes meet the budget they would meet at one (``ACCOUNTS`` a minute, then 429
    at every process), as its chat lines at two tables owned by two processes, through a
    third, meet one ``client_chat`` budget; another client's budgets are untouched."""
    servers = cluster.servers

    def accounts(address: str, at: list[int]) -> list[int]:
        """The statuses of account requests from ``address`` to the processes ``at``."""
        transport = httpx.HTTPTransport(local_address=address)
        statuses = []
        with httpx.Client(transport=transport, timeout=TIMEOUT) as client:
            for i in at:
                answer = client.get(f"{servers[i].url}/api/account/relying-party")
                if answer.status_code == 429:
                    assert answer.json()["code"] == "rate_limited", answer.text
                    assert int(answer.headers["retry-after"]) >= 1
                statuses.append(answer.status_code)
        return statuses

    spread = [i % PROCESSES for i in range(ACCOUNTS)]
    assert accounts(SPREAD, spread) == [200] * ACCOUNTS
    assert accounts(SPREAD, list(range(PROCESSES))) == [429] * PROCESSES  # at every one
    assert accounts(ALONE, [1] * (ACCOUNTS + 1)) == [200] * ACCOUNTS + [429]  # as on one
    assert accounts(OTHER, list(range(PROCESSES))) == [200] * PROCESSES  # its own budget

    # Chat: two tables, owned by p0 and p1, each counting the lines it is sent; one client
    # writes at both through p2.
    tables = [create_table(servers[i].url, seats=[None, "easy"]) for i in (0, 1)]
    assert [cluster.owner(t["code"]) for t in tables] == [0, 1]
    chatters = [
        await WsPlayer(servers[2].ws_url, t["code"], t["token"], SPREAD).connect() for t in tables
    ]
    for n in range(CLIENT_CHAT):
        chatter = chatters[n % 2]
        await chatter.send({"type": "chat", "text": f"line {n}"})
        line = await chatter.expect("chat")
        assert line["text"] == f"line {n}", line
    for chatter in chatters:  # past the budget at either owner
        await chatter.send({"type": "chat", "text": "one too many"})
        refused = await chatter.expect("error")
        assert refused["code"] == "chat_rate_limited", refused
    other = await WsPlayer(
        servers[2].ws_url, tables[0]["code"], tables[0]["token"], OTHER
    ).connect()
    await other.send({"type": "chat", "text": "another client"})
    assert (await other.expect("chat"))["text"] == "another client"
    for player in [*chatters, other]:
        await player.close()


async def test_a_clients_spectators_on_three_processes_are_bounded_as_on_one(
    cluster: Cluster,
) -> None:
    """One address opens spectators of a table through the three processes in turn (most
    relayed to its owner): past ``SOCKETS`` open on all of them together, every process
    refuses the next as one process refuses a client at its cap (503 before the WebSocket
    opens); once some are closed, as many open again."""
    servers = cluster.servers
    table = create_table(servers[0].url, seats=[None, "easy"])
    code = table["code"]

    async def spectator(i: int) -> WsPlayer:
        return await WsPlayer(servers[i % PROCESSES].ws_url, code, None, AUDIENCE).connect()

    audience = [await spectator(i) for i in range(SOCKETS)]
    for i in range(PROCESSES):
        with pytest.raises(InvalidStatus) as refused:
            await spectator(i)
        assert refused.value.response.status_code == 503
        assert b"too many connections from this client" in refused.value.response.body
    for gone in audience[:2]:
        await gone.close()
    counted = redis.Redis.from_url(cluster.redis_url)
    key = sockets_key(AUDIENCE)
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while counted.zcard(key) > SOCKETS - 2:  # their processes let them go
        assert asyncio.get_running_loop().time() < deadline, "two closed, still counted"
        await asyncio.sleep(0.05)
    counted.close()
    audience[:2] = [await spectator(1), await spectator(2)]  # the slots are free again
    with pytest.raises(InvalidStatus):
        await spectator(0)
    for watcher in audience:
        await watcher.close()


async def test_a_postgresql_stop_mid_game_refuses_actions_then_the_game_goes_on(
    cluster: Cluster, postgres: tuple[PostgresCluster, str]
) -> None:
    """PostgreSQL stopped mid-game: a person's action (relayed to the owner) is refused with
    ``storage`` and a resync at the same version, nothing changes, every process says it is
    not ready (naming the database); PostgreSQL started again, the same three processes (none
    restarted) are ready again by themselves, the action is accepted and the game goes on
    to its end, as the database holds it."""
    pg, _ = postgres
    rng = random.Random(30)
    code, people = await _seated(cluster, [None, None, "easy"], options={"target_score": 20})
    pids = cluster.pids()
    owner = cluster.owner(code)
    # Play until it is a person's turn: nobody else acts then (the bot waits for its turn).
    for _ in range(200):
        await _step(people, rng)
        mover = next(
            (
                p
                for p in people
                if p.player.view is not None
                and p.player.view["turn"] == p.player.seat
                and p.player.choice(rng) is not None
            ),
            None,
        )
        if mover is not None:
            break
    else:
        raise AssertionError("never a person's turn")
    logged = [len(server.output) for server in cluster.servers]
    pg.halt()  # fast: every connection cut, as an operator's stop
    try:
        states = [await person.sync() for person in people]  # the game as it stands
        version = states[0]["version"]
        assert states[1]["version"] == version
        action = mover.player.choice(rng)
        assert action is not None, "the person's turn went by"
        refused_id = mover.next_id()
        await mover.player.send(
            {"type": "action", "action": action, "version": version, "id": refused_id}
        )
        # Refused, and the game sent again as the database has it (to everyone, then to
        # the sender once more after the refusal): unchanged.
        while (refused := await mover.next_message())["type"] != "error":
            assert refused["type"] != "update" and refused.get("version", version) == version
        assert refused["code"] == "storage" and refused["id"] == refused_id, refused
        resync = await mover.next_message()
        assert resync["type"] == "state" and resync["version"] == version, resync
        await cluster.ready(False, "database")
        assert [(await person.sync())["version"] for person in people] == [version, version]
    finally:
        if not pg.running():
            pg.resume()
    await cluster.ready(True)
    for server, start in zip(cluster.servers, logged, strict=True):
        # The scan for free tables said its failure once (not each second), then its end.
        log = "".join(server.output[start:])
        assert log.count("looking for tables without an owner failed") <= 1, log[-3000:]
        if "looking for tables without an owner failed" in log:
            await _logged(server, start, "looking for tables without an owner works again")
    assert cluster.owner(code) == owner  # kept its table all along
    again = mover.next_id()
    await mover.player.send({"type": "action", "action": action, "version": version, "id": again})
    accepted = await mover.answer(again)
    assert accepted["type"] == "update" and accepted["version"] == version + 1, accepted
    await _play(people, rng, cluster, code)
    assert cluster.pids() == pids  # none restarted
    await _same_game(cluster, code, people)
    assert not any(
        m.get("id") == refused_id for p in people for m in p.messages if m["type"] == "update"
    )
    for person in people:
        await person.player.close()


async def _logged(server: ServerProcess, start: int, text: str) -> None:
    """Waits until ``server`` logged ``text`` past its line ``start``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not any(text in line for line in server.output[start:]):
        assert loop.time() < deadline, f"never logged {text!r}"
        await asyncio.sleep(0.05)


async def test_http_requests_needing_a_stopped_postgresql_are_refused_with_503(
    cluster: Cluster, postgres: tuple[PostgresCluster, str]
) -> None:
    """While PostgreSQL is stopped, a request that needs it (a new table, the lobby's list)
    is refused with 503 and a code (the database did not answer; nothing changed), as the
    WebSocket refuses an action with ``storage`` and the agent API with 503."""
    pg, _ = postgres
    url = cluster.servers[1].url
    pg.halt()
    try:
        await cluster.ready(False, "database")
        answers = []
        for method, path, body in [
            ("POST", "/api/tables", {"name": "Zed", "seats": [None, "easy"]}),
            ("GET", "/api/tables", None),
        ]:
            async with httpx.AsyncClient(timeout=TIMEOUT) as client:  # a connection each
                answers.append(await client.request(method, f"{url}{path}", json=body))
    finally:
        if not pg.running():
            pg.resume()
    await cluster.ready(True)
    for answer in answers:
        assert answer.status_code == 503, (answer.request.url, answer.status_code, answer.text)
        assert answer.json()["code"] in ("storage", "busy"), answer.text


async def test_a_redis_restart_mid_game_loses_nothing_and_the_game_goes_on(
    cluster: Cluster,
) -> None:
    """Redis restarted without its data (the leases and epoch counters, the relays' streams,
    the forwarded messages, the jobs and the workers' notes gone) while an action of a
    relayed person is on its way: the table is claimed anew (a new epoch in the database),
    the game goes on to its end on the same three processes (none restarted), the hard bot
    still has its decisions made by the workers, each client sees the game the database
    holds, and nothing acknowledged is lost."""
    rng = random.Random(29)
    code, people = await _seated(
        cluster, [None, None, "easy", "hard"], at=2, options={"target_score": 20}
    )
    pids = cluster.pids()
    logged = [len(server.output) for server in cluster.servers]
    for _ in range(2):  # a few actions: far from the game's end
        await _step(people, rng)
    epoch = cluster.table_epoch(code)
    store = cluster.store
    store.stop()
    mover: Person | None = None
    ident = ""
    try:
        # While Redis is away, whoever may act sends an action, which its process cannot
        # pass on to the owner yet.
        mover = next((p for p in people if p.player.choice(rng) is not None), None)
        if mover is not None:
            ident = mover.next_id()
            action = mover.player.choice(rng)
            await mover.player.send(
                {"type": "action", "action": action, "version": mover.player.version, "id": ident}
            )
        await cluster.ready(False, "Redis")  # every process finds it gone
    finally:
        store.start()
    await cluster.ready(True)
    await cluster.claimed(code, epoch)  # the lease Redis forgot, taken again
    if mover is not None:
        await mover.answer(ident, 15.0)  # its update or refusal, or a resync: the game goes on
    await _play(people, rng, cluster, code, stall=15.0)
    assert cluster.pids() == pids  # none restarted
    await _same_game(cluster, code, people)
    for server, start in zip(cluster.servers, logged, strict=True):
        log = "".join(server.output[start:])
        assert "no dos bot-worker is running" not in log, log[-3000:]
    for person in people:
        await person.player.close()


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
    ada = Person(cluster, code, grant["token"], owner, "ada")  # on the owner itself
    bea = Person(cluster, code, guest["token"], other, "bea")  # relayed to it
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
    await _play(people, rng, cluster, code)
    record = await _same_game(cluster, code, people)
    epochs = cluster.epochs(game_id)
    assert len(epochs) == len(record.actions)
    assert epochs == sorted(epochs)  # never an older owner after a newer one
    assert all(e <= old_epoch for e in epochs[:committed]), (committed, epochs)
    assert all(e > old_epoch for e in epochs[committed:]), (committed, epochs)
    woke = "".join(servers[owner].output)
    assert f"table {code}: lease lost" in woke, woke[-3000:]
    for person in people:
        await person.player.close()


LOCKOUT_KILLS = 3
"""Owner kills of the lock-out test (``bench/failover.py --kills 100`` runs a hundred)."""
FINAL = {4000, 4003, 4400, 4401, 4404}
"""The close codes after which the browser gives its seat up (``js/net.js``)."""


class Browser:
    """A person's page as the browser has it: one page id (``?page=``) on every connection,
    and after a close it connects again through any live process, unless the close is final
    (``locked_out``)."""

    def __init__(self, cluster: Cluster, code: str, token: str, page: str) -> None:
        self.cluster, self.code, self.token, self.page = cluster, code, token, page
        self.player: WsPlayer | None = None
        self.locked_out: list[tuple[int, str]] = []

    async def connect(self, rng: random.Random) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            at = rng.choice(self.cluster.up())
            player = WsPlayer(self.cluster.servers[at].ws_url, self.code, self.token)
            player.url += f"?page={self.page}"
            try:
                self.player = await player.connect()
                return
            except (OSError, WebSocketException, TimeoutError, AssertionError):
                assert loop.time() < deadline, f"{self.page}: no process took it"
                await asyncio.sleep(0.1)

    async def holds_its_seat(self, rng: random.Random, seat: int) -> None:
        """Asks the full state until its connection answers it, connecting again after a
        close as the browser does; a final close is recorded (the browser would stop)."""
        while True:
            assert self.player is not None
            try:
                await self.player.send({"type": "sync"})
                await self.player.expect("state")
                assert self.player.seat == seat
                return
            except ConnectionClosed as closed:
                said = closed.rcvd
                if said is not None and said.code in FINAL:
                    self.locked_out.append((said.code, said.reason))
                    return
            await self.connect(rng)


async def test_people_reconnecting_through_any_process_keep_their_seats_over_failovers(
    cluster: Cluster,
) -> None:
    """Two people at a table, their pages connecting through random processes. Its owner is
    killed again and again, and both networks drop with it: each page connects again at once,
    as the browser does, through any process (one that is not the table's next owner relays
    it to the dead one until the table is adopted). Each connection is welcomed once a move,
    no one's connection is ever closed for good (4000, "replaced", which the browser takes
    as final), and each holds its seat after every failover."""
    rng = random.Random(41)
    grant = create_table(cluster.servers[0].url, seats=[None, None])
    code = grant["code"]
    guest = join_table(cluster.servers[1].url, code, "Bea")
    browsers = [
        Browser(cluster, code, grant["token"], "page-ada-0001"),
        Browser(cluster, code, guest["token"], "page-bea-0002"),
    ]
    for browser in browsers:
        await browser.connect(rng)
    try:
        for _ in range(LOCKOUT_KILLS):
            before = [b.player for b in browsers]
            seen = [len(b.player.messages) for b in browsers if b.player is not None]
            assert cluster.kill_owner(code)
            # Both networks drop too: each page comes again at once, through any process
            # (one that is not the table's next owner finds the dead one holding it still).
            for browser in browsers:
                assert browser.player is not None
                await browser.player.close()
            await asyncio.gather(*(browser.connect(rng) for browser in browsers))
            for seat, browser in enumerate(browsers):
                await browser.holds_its_seat(rng, seat)
            assert [b.locked_out for b in browsers] == [[], []]
            await cluster.restarted()
            for seat, browser in enumerate(browsers):
                await browser.holds_its_seat(rng, seat)
                assert browser.player is not None
                since = seen[seat] if browser.player is before[seat] else 0
                said = [m["type"] for m in browser.player.messages[since:]]
                assert said.count("welcome") <= 1, said  # one welcome a connection a move
    finally:
        await cluster.restarted()
        for browser in browsers:
            if browser.player is not None:
                await browser.player.close()
