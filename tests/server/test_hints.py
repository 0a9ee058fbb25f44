"""Hints at the table (docs/protocol.md, "Hints"): the ``expert`` level's
action for the seat's own view, only where hints are allowed, to the asker only, bounded."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dos.bots.registry import make_player
from dos.play.bot import Budget, turn_choices
from dos.rules.official import Options, apply, new_game, view
from dos.rules.official.views import view_from_json
from dos.server.hosting.jobs import run_job
from dos.server.tables.hint_job import choose_hint, hint_json, hint_seed
from dos.server.tables.hints import Hints, check_hint
from server.support import HTTP, ServerProcess, WsPlayer, create_table, join_table

ITERATIONS = 24
"""The hint's search iterations on the test servers: enough to search, cheap to run."""


def _env() -> dict[str, str]:
    return {"DOS_HINT_ITERATIONS": str(ITERATIONS), "DOS_JOB_WORKERS": "1"}


def _start(data: Path, *args: str) -> ServerProcess:
    process = ServerProcess(data, None, *args, env=_env())
    process.start()
    return process


@pytest.fixture(scope="module")
def hinting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose hints search ``ITERATIONS`` iterations, and which allows a client two
    hints a minute (no other limit). Each test is a client of its own there (``loopback``:
    the limit is per client address)."""
    process = _start(
        tmp_path_factory.mktemp("hints"), "--limit", "off", "--limit", "hints=2/minute"
    )
    yield process
    process.stop()


def _seed(server: ServerProcess, game_id: int) -> int:
    """The deal's seed of a game, read from the server's database (a test may; clients never
    learn it before the game's end)."""
    with sqlite3.connect(server.data / "dos.sqlite3") as db:
        (seed,) = db.execute("select seed from dos_games where id = ?", (game_id,)).fetchone()
    return int(seed)


async def _my_turn(player: WsPlayer) -> None:
    """Reads messages until it is this seat's turn to choose and nothing can move the game but
    this seat: its own DOS call made first, and a bot's open DOS obligation caught (a bot calls
    late, or never: its call would move the game while a hint is searched, which then answers
    ``hint_stale``; either the catch or the call closes it)."""
    while True:
        view = player.view
        if view is not None and player.result is None:
            legal: list[str] = view["legal"]
            calls = [a for a in legal if a.endswith("dos") or a.startswith("catch")]
            if calls:
                await player.act(calls[0])
                continue
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            if view["turn"] == player.seat and turn:
                return
        await player.recv()


async def _answer(player: WsPlayer) -> dict[str, Any]:
    """The next ``hint`` or ``error`` on this connection."""
    while True:
        message = await player.recv()
        if message["type"] in ("hint", "error"):
            return message


def _full_view(player: WsPlayer) -> dict[str, Any]:
    assert player.view is not None
    return {**player.view, "history": player.history}


@pytest.mark.asyncio
async def test_a_hint_at_a_casual_table_is_the_experts_action(
    hinting: ServerProcess, loopback: str
) -> None:
    grant = create_table(hinting.url, seats=[None, "easy"], rated=False)
    assert grant["table"]["hints"] is True  # casual, one person
    ada = await WsPlayer(hinting.ws_url, grant["code"], grant["token"], loopback).connect()
    watcher = await WsPlayer(hinting.ws_url, grant["code"], None, loopback).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await _my_turn(ada)
    await ada.send({"type": "hint"})
    hint = await _answer(ada)
    assert hint["type"] == "hint", hint
    assert hint["version"] == ada.version

    assert ada.table is not None
    seen = view_from_json(_full_view(ada))
    seed = hint_seed(_seed(hinting, ada.table["game_id"]), ada.version, 0)
    expected = choose_hint(seen, seed, ITERATIONS)
    assert hint["action"] == str(expected)
    assert hint["reason"] == hint_json(seen, expected)["reason"]
    assert hint["reason"]["key"].startswith("game.hint_reason_")
    assert hint["action"] in ada.view["legal"]  # type: ignore[index]

    await ada.send({"type": "hint"})  # the same request: the same hint
    again = await _answer(ada)
    assert {**again} == {**hint}

    # Never seen by anyone else: the watcher's messages up to a round trip hold no hint.
    await watcher.send({"type": "ping", "id": "after"})
    await watcher.expect("pong", id="after")
    assert not [m for m in watcher.messages if m["type"] == "hint"]
    await ada.close()
    await watcher.close()


@pytest.mark.asyncio
async def test_no_hint_at_a_rated_table(random_server: ServerProcess, loopback: str) -> None:
    # A seeded server's tables are never rated: this one deals at random.
    grant = create_table(random_server.url, seats=[None, "easy"], rated=True)
    assert grant["table"]["hints"] is False
    ada = await WsPlayer(random_server.ws_url, grant["code"], grant["token"], loopback).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await _my_turn(ada)
    await ada.send({"type": "hint"})
    refused = await _answer(ada)
    assert refused["type"] == "error"
    assert refused["code"] == "hint_rated"
    assert refused["key"] == "game.hint_refused_rated"
    await ada.send({"type": "allow_hints", "allowed": True})  # not even the host
    refused = await _answer(ada)
    assert refused["code"] == "hint_rated"
    await ada.close()


@pytest.mark.asyncio
async def test_with_two_people_only_when_the_host_allows_hints(
    hinting: ServerProcess, loopback: str
) -> None:
    grant = create_table(hinting.url, seats=[None, None], rated=False)
    assert grant["table"]["hints"] is True  # one person so far
    guest = join_table(hinting.url, grant["code"], "Bob")
    assert guest["table"]["hints"] is False
    ada = await WsPlayer(hinting.ws_url, grant["code"], grant["token"], loopback).connect()
    bob = await WsPlayer(hinting.ws_url, grant["code"], guest["token"], loopback).connect()
    await bob.send({"type": "allow_hints", "allowed": True})
    refused = await _answer(bob)
    assert refused["code"] == "not_host"
    await ada.send({"type": "start"})
    await ada.expect("state")
    await bob.expect("state")
    assert ada.view is not None
    turn = ada.view["turn"]
    mover, other = (ada, bob) if turn == 0 else (bob, ada)
    await _my_turn(mover)
    await mover.send({"type": "hint"})
    refused = await _answer(mover)
    assert (refused["code"], refused["key"]) == (
        "hint_not_allowed",
        "game.hint_refused_not_allowed",
    )
    await other.send({"type": "hint"})  # and not one's turn anyway
    refused = await _answer(other)
    assert refused["code"] in ("hint_not_allowed", "hint_not_your_turn")

    await ada.send({"type": "allow_hints", "allowed": True})
    table = await bob.expect("table")
    assert table["table"]["hints"] is True
    await other.send({"type": "hint"})
    refused = await _answer(other)
    assert (refused["code"], refused["key"]) == (
        "hint_not_your_turn",
        "game.hint_refused_not_your_turn",
    )
    await mover.send({"type": "hint"})
    hint = await _answer(mover)
    assert hint["type"] == "hint" and hint["action"] in mover.view["legal"]  # type: ignore[index]
    await ada.close()
    await bob.close()


@pytest.mark.asyncio
async def test_hints_are_rate_limited_per_client(hinting: ServerProcess, loopback: str) -> None:
    grant = create_table(hinting.url, seats=[None, "easy"], rated=False)
    ada = await WsPlayer(hinting.ws_url, grant["code"], grant["token"], loopback).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    await _my_turn(ada)
    answers = []
    for _ in range(3):
        await ada.send({"type": "hint"})
        answers.append(await _answer(ada))
    assert [a["type"] for a in answers[:2]] == ["hint", "hint"]
    assert (answers[2]["type"], answers[2]["code"]) == ("error", "rate_limited")
    assert answers[2]["key"] == "game.hint_refused_rate_limited"
    await ada.close()
    info = HTTP.get(f"{hinting.url}/api/tables/{grant['code']}").json()
    assert info["hints"] is True


# --- the hint's input is the seat's view only ---------------------------------------------------


class _Jobs:
    """Runs jobs in this process, and keeps every payload it was given."""

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []

    def start(self) -> None: ...

    def stop(self) -> None: ...

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        import json

        self.payloads.append(payload)
        return json.loads(run_job(name, json.dumps(payload)))


class _Settings:
    hint_iterations = ITERATIONS


class _Counters:
    def allow(self, kind: str, *key: str) -> bool:
        return True


class _Service:
    def __init__(self) -> None:
        self.jobs = _Jobs()
        self.job_settings = _Settings()
        self.counters = _Counters()


class _Seat:
    def __init__(self, name: str | None, bot: str | None) -> None:
        self.name, self.bot = name, bot


class _Game:
    id = 1
    seed = 11


class _Table:
    """What ``Hints`` reads of a table: a casual official game at ``state``."""

    code = "TEST"
    rated = False
    rules_name = "official"
    hints_allowed = False

    def __init__(self, state: Any) -> None:
        from dos.rules.official import RULES

        self.current = SimpleNamespace(state=state, version=len(state.history), stored=_Game())
        self.rules = RULES
        self.seats = [_Seat("Ada", None), _Seat(None, "easy")]

    def playing(self) -> bool:
        return True


class _Client:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.address = "127.0.0.1"
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def _reshuffled(state: Any, seat: int, rng: random.Random) -> Any:
    """``state`` with the other seats' hands and the draw pile dealt anew from their cards:
    every hidden card may move, and the seat's view stays the same."""
    from dos.rules.official import RULES

    other = RULES.copy(state)
    hidden = [c for s, hand in enumerate(other.hands) if s != seat for c in hand]
    hidden += list(other.draw_pile)
    rng.shuffle(hidden)
    for s, hand in enumerate(other.hands):
        if s != seat:
            size = len(hand)
            hand[:] = hidden[:size]
            del hidden[:size]
    other.draw_pile[:] = hidden
    assert view(other, seat) == view(state, seat)
    return other


@pytest.mark.asyncio
async def test_the_hint_reads_the_seats_view_only() -> None:
    """The hint's job is handed the seat's view and nothing else: with every hidden card dealt
    anew (consistently with that view), the payload and the hint are the same."""
    state = new_game(Options(players=2, target_score=50), seed=21)
    rng = random.Random(3)
    greedy = make_player("greedy")
    checked = 0
    for _ in range(60):
        seat = state.turn
        seen = view(state, seat)
        if checked < 3 and turn_choices(seen) and len(turn_choices(seen)) > 1:
            answers = []
            for dealt in (state, _reshuffled(state, seat, rng), _reshuffled(state, seat, rng)):
                service = _Service()
                hints = Hints(service)  # type: ignore[arg-type]
                table = _Table(dealt)
                client = _Client(seat)
                check_hint(table, seat)  # type: ignore[arg-type]
                hints.ask(table, client)  # type: ignore[arg-type]
                await asyncio.gather(*hints._tasks)
                (payload,) = service.jobs.payloads
                assert payload["view"] == view(state, seat).to_json()
                assert set(payload) == {"view", "seed", "iterations"}
                answers.append(client.sent)
            assert answers[0] == answers[1] == answers[2] and answers[0]
            checked += 1
        apply(
            state, greedy.bot.choose(seen, rng, Budget()) if turn_choices(seen) else seen.legal[0]
        )
        if state.winner is not None:
            break
    assert checked == 3


def test_a_view_survives_its_json() -> None:
    """A job's payload carries the view as JSON: it comes back the same, all game long."""
    state = new_game(Options(players=3, target_score=40), seed=5)
    rng = random.Random(9)
    greedy = make_player("greedy")
    for _ in range(200):
        if state.winner is not None:
            break
        for seat in range(3):
            seen = view(state, seat)
            assert view_from_json(seen.to_json()) == seen
        seen = view(state, state.turn)
        choices = turn_choices(seen)
        apply(state, greedy.bot.choose(seen, rng, Budget()) if choices else seen.legal[0])


# --- the job runner and a busy one --------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_job_runner_refuses_past_its_queue() -> None:
    from dos.server.hosting.jobs import BusyError, JobError, LocalJobs

    runner = LocalJobs(workers=1, queue=1)
    runner.start()
    try:
        first, second = await asyncio.gather(
            runner.run("echo", {"n": 1}), runner.run("echo", {"n": 2}), return_exceptions=True
        )
        assert first == {"n": 1}
        assert isinstance(second, BusyError)
        assert runner.held == 0
        assert await runner.run("echo", {"n": 3}) == {"n": 3}  # room again
        with pytest.raises(JobError, match="unknown job"):
            await runner.run("nothing", {})
    finally:
        await asyncio.to_thread(runner.stop)


class _BusyJobs(_Jobs):
    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        from dos.server.hosting.jobs import BusyError

        raise BusyError("full")


@pytest.mark.asyncio
async def test_a_busy_runner_refuses_the_hint_in_words() -> None:
    import json

    state = new_game(Options(players=2, target_score=50), seed=21)
    service = _Service()
    service.jobs = _BusyJobs()
    hints = Hints(service)  # type: ignore[arg-type]
    client = _Client(state.turn)
    hints.ask(_Table(state), client)  # type: ignore[arg-type]
    await asyncio.gather(*hints._tasks)
    (sent,) = [json.loads(text) for text in client.sent]
    assert (sent["type"], sent["code"], sent["key"]) == (
        "error",
        "hint_busy",
        "game.hint_refused_busy",
    )


# --- every request is answered, even when the game moves on -------------------------------------


class _GatedJobs(_Jobs):
    """Runs a job once ``gate`` opens (the test moves the game on meanwhile); ``started`` is
    set when a job is waiting."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.started = asyncio.Event()

    async def run(self, name: str, payload: dict[str, Any]) -> Any:
        self.started.set()
        await self.gate.wait()
        return await super().run(name, payload)


def _moved_on(table: _Table) -> None:
    """An action of the game (a bot's call out of turn, say): a new version."""
    from dos.rules.official import RULES

    state = table.current.state
    apply(state, RULES.legal_actions(state, table.rules.turn(state))[0])
    table.current.version += 1


async def _asked_while(change: Any) -> dict[str, Any]:
    """What the asking client gets when ``change(table, client)`` happens while its hint's
    job runs."""
    import json

    state = new_game(Options(players=2, target_score=50), seed=21)
    service = _Service()
    jobs = service.jobs = _GatedJobs()
    hints = Hints(service)  # type: ignore[arg-type]
    table = _Table(state)
    client = _Client(state.turn)
    hints.ask(table, client)  # type: ignore[arg-type]
    await asyncio.wait_for(jobs.started.wait(), 10)
    change(table, client)
    jobs.gate.set()
    await asyncio.wait_for(asyncio.gather(*hints._tasks), 30)
    (sent,) = [json.loads(text) for text in client.sent]
    return dict(sent)


@pytest.mark.asyncio
async def test_a_hint_outdated_before_it_is_ready_is_answered_stale() -> None:
    """The game moves on while the hint is worked out: the answer is for a position gone, and
    the player is told so (``hint_stale``), in words, rather than left waiting."""
    sent = await _asked_while(lambda table, client: _moved_on(table))
    assert (sent["type"], sent["code"], sent["key"]) == (
        "error",
        "hint_stale",
        "game.hint_refused_stale",
    )
    assert sent["id"] is None


@pytest.mark.asyncio
async def test_a_hint_whose_game_or_seat_is_gone_is_answered_stale() -> None:
    class Ended:
        id = 2
        seed = 11

    def ended(table: _Table, client: _Client) -> None:
        table.current.stored = Ended()

    def no_game(table: _Table, client: _Client) -> None:
        table.current.stored = None

    def left(table: _Table, client: _Client) -> None:
        client.seat = 1 - client.seat

    for change in (ended, no_game, left):
        sent = await _asked_while(change)
        assert (sent["type"], sent["code"]) == ("error", "hint_stale"), change


@pytest.mark.asyncio
async def test_a_hint_whose_job_is_cancelled_is_answered() -> None:
    """The job's runner cancels the job (not the server's stop): the player hears
    ``hint_failed``."""
    import json

    class Cancelled(_Jobs):
        async def run(self, name: str, payload: dict[str, Any]) -> Any:
            raise asyncio.CancelledError

    state = new_game(Options(players=2, target_score=50), seed=21)
    service = _Service()
    service.jobs = Cancelled()
    hints = Hints(service)  # type: ignore[arg-type]
    client = _Client(state.turn)
    hints.ask(_Table(state), client)  # type: ignore[arg-type]
    await asyncio.gather(*hints._tasks, return_exceptions=True)
    (sent,) = [json.loads(text) for text in client.sent]
    assert (sent["type"], sent["code"]) == ("error", "hint_failed")
