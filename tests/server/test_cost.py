"""No request may stall the other tables: what one request costs the event loop stays within a
bound on a large stored history, measured with the loop's own clock (``cost.LoopMeter``: the
CPU time of the loop's thread in each callback), while the server goes on serving others.

Each test writes a long history into a fresh database, starts the whole application in this
process, and asks what a stranger may ask: a spectator's connect to a long game, a page of its
log, a replay of a long finished game.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from server.cost import InProcessServer, LoopMeter, long_game

pytestmark = pytest.mark.asyncio

BOUND = 0.025
"""The most CPU seconds one callback of the event loop may take (a few milliseconds is what
a request costs; a replay of a long game on the loop took seconds)."""
LONG = 2000
"""Actions of the long game (a replay of it costs the loop about a second)."""
FRIEND = "p_bea"
"""The busy player's friend, whom they challenge, report, mute and block."""


@pytest.fixture
def meter() -> Iterator[LoopMeter]:
    with LoopMeter().installed() as installed:
        yield installed


async def _messages(url: str, until: str, first: dict[str, Any] | None = None) -> list[Any]:
    """Connects as a spectator (or sends ``first`` after the hello) and reads until a
    message of type ``until``."""
    seen = []
    async with connect(url, max_size=2**24, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": None}))
        sent = first is None
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            seen.append(message)
            if message["type"] == until and sent:
                return seen
            if message["type"] == "log" and not sent:
                await ws.send(json.dumps(first))
                sent = True


def _check(meter: LoopMeter) -> None:
    assert meter.worst < BOUND, f"one callback took {meter.worst:.3f} s: {meter.what}"


async def test_a_spectator_of_a_long_game_costs_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    long_game(tmp_path, LONG)
    with InProcessServer(tmp_path, meter) as server:
        meter.reset()
        seen = await _messages(f"{server.ws_url}/ws/LONG22", "log")
        _check(meter)
        log = seen[-1]
        assert log["total"] == LONG and log["first"] == LONG - len(log["entries"])
        assert 0 < len(log["entries"]) <= 200
        # A second connect finds the log ready: cheaper still.
        meter.reset()
        await _messages(f"{server.ws_url}/ws/LONG22", "log")
        _check(meter)


async def test_an_old_page_of_the_log_is_replayed_off_the_loop(
    tmp_path: Path, meter: LoopMeter
) -> None:
    long_game(tmp_path, LONG)
    with InProcessServer(tmp_path, meter) as server:
        await _messages(f"{server.ws_url}/ws/LONG22", "log")
        meter.reset()
        request = {"type": "log", "before": 150}
        seen = await _messages(f"{server.ws_url}/ws/LONG22", "log", request)
        _check(meter)
        page = seen[-1]
        assert page["first"] == 0 and len(page["entries"]) == 150
        assert page["total"] == LONG


async def test_old_pages_cost_the_client_its_replay_budget(
    tmp_path: Path, meter: LoopMeter
) -> None:
    long_game(tmp_path, LONG)
    with InProcessServer(tmp_path, meter, "work=1000/day") as server:
        request = {"type": "log", "before": 900}
        first = await _messages(f"{server.ws_url}/ws/LONG22", "log", request)
        assert first[-1]["first"] == 700
        refused = await _messages(f"{server.ws_url}/ws/LONG22", "error", request)
        assert refused[-1]["code"] == "rate_limited"


async def test_a_replay_of_a_long_game_costs_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    game_id = long_game(tmp_path, LONG, finished=True)
    with InProcessServer(tmp_path, meter) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            meter.reset()
            answer = await client.get(f"/api/games/{game_id}/replay")
            assert answer.status_code == 200, answer.text
            _check(meter)
            body = answer.json()
            assert body["total"] == LONG + 1 and len(body["frames"]) <= 200


async def test_a_record_of_a_long_game_costs_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    game_id = long_game(tmp_path, LONG, finished=True)
    with InProcessServer(tmp_path, meter) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            meter.reset()
            answer = await client.get(f"/api/games/{game_id}/record")
            assert answer.status_code == 200
            _check(meter)
            lines = answer.text.splitlines()  # the header, the deals, the actions, the result
            assert sum(line.startswith('{"action"') for line in lines) == LONG


async def test_resyncs_and_agent_looks_at_a_long_game_cost_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    long_game(tmp_path, LONG)
    with InProcessServer(tmp_path, meter) as server:
        token = server.app.state.service.signer.seat_token("LONG22", 0, "p_ada")
        auth = {"authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            meter.reset()
            look = await client.get("/api/agent/seat", headers=auth)
            assert look.status_code == 200 and look.json()["version"] == LONG
            _check(meter)
        meter.reset()
        seen = await _messages(f"{server.ws_url}/ws/LONG22", "state", {"type": "sync"})
        _check(meter)
        assert seen[-1]["version"] == LONG


async def test_many_long_polls_woken_at_once_cost_the_loop_little_each(
    tmp_path: Path, meter: LoopMeter
) -> None:
    long_game(tmp_path, LONG)
    waiters = 300
    with InProcessServer(tmp_path, meter) as server:
        service = server.app.state.service
        ada = service.signer.seat_token("LONG22", 0, "p_ada")
        auth = {"authorization": f"Bearer {ada}"}
        limits = httpx.Limits(max_connections=waiters + 10)
        async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as client:
            params = {"version": LONG, "timeout": 30, "until": "change"}
            polls = [
                asyncio.ensure_future(
                    client.get("/api/agent/seat/wait", params=params, headers=auth)
                )
                for _ in range(waiters)
            ]
            bob = service.signer.seat_token("LONG22", 1, "p_bob")
            look = await client.get("/api/agent/seat", headers={"authorization": f"Bearer {bob}"})
            legal = [a for a in look.json()["view"]["legal"] if ":" not in a]
            table = service.tables["LONG22"]
            mover = table.rules.turn(table.current.state)
            mover_token = ada if mover == 0 else bob
            if mover == 0:
                look = await client.get("/api/agent/seat", headers=auth)
                legal = [a for a in look.json()["view"]["legal"] if ":" not in a]
            meter.reset()
            acted = await client.post(
                "/api/agent/seat/actions",
                json={"action": legal[0], "version": LONG},
                headers={"authorization": f"Bearer {mover_token}"},
            )
            assert acted.status_code == 200, acted.text
            answers = await asyncio.gather(*polls)
            _check(meter)
            assert all(a.json()["version"] == LONG + 1 for a in answers)
            per_waiter = meter.total / waiters
            assert per_waiter < 0.002, f"{per_waiter * 1000:.2f} ms of the loop per waiter"


async def test_a_player_with_a_long_history_costs_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    """20,000 rated games of one player: their page, results and the board."""
    from dos.server.storage.database import Database, database_url
    from dos.server.storage.schema import migrate
    from server.test_player_pages import PLAYER, fill_busy

    db = Database(database_url(None, tmp_path))
    migrate(db.engine)
    fill_busy(db, 20_000)
    db.engine.dispose()
    with InProcessServer(tmp_path, meter) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            for path in (
                f"/api/players/{PLAYER}",
                f"/api/players/{PLAYER}/results",
                "/api/leaderboard",
            ):
                meter.reset()
                answers = await asyncio.gather(*(client.get(path) for _ in range(10)))
                assert all(a.status_code == 200 for a in answers), answers[0].text
                _check(meter)
                assert len(answers[0].content) < 200_000, (path, len(answers[0].content))


async def test_every_endpoint_and_message_costs_the_loop_little(
    tmp_path: Path, meter: LoopMeter
) -> None:
    """Every GET of the OpenAPI document (so an endpoint added later is measured too), the
    writes, the WebSocket messages and an MCP call, on a server holding a long game in play, a
    long finished game and a player with thousands of rated games, who has an account, is an
    admin, has a friend they challenged, reported, muted and blocked, organises a tournament
    and waits in the queue."""
    from dos.server.people.admins import grant
    from dos.server.storage.database import Database, database_url
    from dos.server.storage.schema import migrate
    from server.test_player_pages import PLAYER, fill_busy

    db = Database(database_url(None, tmp_path))
    migrate(db.engine)
    fill_busy(db, 5_000)  # games 1-5,003 (its ids are its own)
    db.run_sync(grant, PLAYER, 1.0)
    db.engine.dispose()
    long_game(tmp_path, LONG)
    finished = long_game(tmp_path, LONG, seed=2, code="DONE33", finished=True)
    with InProcessServer(tmp_path, meter) as server:
        signer = server.app.state.service.signer
        ada = signer.seat_token("LONG22", 0, "p_ada")
        auth = {"authorization": f"Bearer {ada}"}
        busy = signer.player_token(PLAYER)
        member = {"authorization": f"Bearer {busy}"}
        friend = {"authorization": f"Bearer {signer.player_token(FRIEND)}"}
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:

            async def measured(
                method: str, path: str, headers: dict[str, str], body: Any = None
            ) -> Any:
                meter.reset()
                answer = await client.request(method, path, json=body, headers=headers)
                assert answer.status_code < 300, (path, answer.text)
                assert meter.worst < BOUND, (path, meter.worst, meter.what)
                return answer.json()

            for person in (member, friend):
                await measured("POST", "/api/account/recovery", person)
            await measured("PUT", f"/api/friends/{FRIEND}", member)
            await measured("PUT", f"/api/friends/{PLAYER}", friend)
            await measured("POST", "/api/friends/pulse", friend, {"where": "site"})
            await measured("PUT", "/api/friends/presence", member, {"hidden": False})
            proposal = {"to": FRIEND, "name": "Busy", "bots": ["easy"]}
            dare = await measured("POST", "/api/friends/challenges", member, proposal)
            accept = f"/api/friends/challenges/{dare['id']}/accept"
            seat = await measured("POST", accept, friend, {"name": "Bea"})
            cup = {"name": "Busy", "title": "Cup", "format": "swiss", "rounds": 2}
            made = await measured("POST", "/api/tournaments", {}, {**cup, "player_token": busy})
            entry = {"name": "Bea", "player_token": signer.player_token(FRIEND)}
            await measured("POST", f"/api/tournaments/{made['id']}/join", {}, entry)
            queued = {"name": "Busy", "player_token": busy}
            await measured("POST", "/api/queue", {}, queued)
            await measured("POST", "/api/queue/status", {}, {"player_token": busy})
            about = {"player_id": FRIEND}
            await measured("POST", "/api/moderation/relation", member, about)
            await measured("POST", "/api/moderation/reports", member, {**about, "reason": "spam"})
            await measured("POST", "/api/moderation/mutes", member, about)
            await measured("POST", "/api/moderation/blocks", member, about)
            warning = {"action": "warn", "player_id": FRIEND, "reason": "spam"}
            await measured("POST", "/api/admin/actions", member, warning)
            await measured("POST", "/api/moderation/warnings", friend)
            values = {"code": "LONG22", "game_id": finished, "player_id": PLAYER, "lang": "en"}
            values["name"] = "official"
            values["namespace"] = "learn"
            values["tournament_id"] = made["id"]
            paths = [
                path.format(**values)
                for path, operations in server.app.openapi()["paths"].items()
                if "get" in operations
            ]
            assert len(paths) >= 18, paths
            personal = ("/api/friends", "/api/moderation", "/api/admin")
            for path in paths:
                meter.reset()
                params = {"version": LONG, "timeout": 0} if path.endswith("/wait") else {}
                headers = member if path.startswith(personal) else auth
                answer = await client.get(path, params=params, headers=headers)
                assert answer.status_code < 500, (path, answer.text)
                found = not path.startswith((*personal, "/api/tournaments"))
                assert found or answer.status_code == 200, (path, answer.text)
                assert meter.worst < BOUND, (path, meter.worst, meter.what)
            await measured("POST", "/api/queue/leave", {}, {"player_token": busy})
            await measured("DELETE", f"/api/moderation/blocks/{FRIEND}", member)
            await measured("DELETE", f"/api/moderation/mutes/{FRIEND}", member)
            await measured(
                "POST", f"/api/admin/tables/{seat['code']}/close", member, {"reason": "spam"}
            )
            writes: list[tuple[str, dict[str, Any]]] = [
                ("/api/tables", {"name": "Cy", "seats": [None, "easy"]}),
                ("/api/tables/LONG22/join", {"name": "Di"}),
                ("/api/agent/seat/start", {}),
                ("/api/agent/seat/actions", {"action": "draw", "version": LONG}),
            ]
            for path, body in writes:
                meter.reset()
                answer = await client.post(path, json=body, headers=auth)
                assert answer.status_code < 500, (path, answer.text)
                assert meter.worst < BOUND, (path, meter.worst, meter.what)
            meter.reset()
            mcp = await client.post(
                "/mcp",
                json={
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "look", "arguments": {"token": ada}},
                },
                headers={"accept": "application/json, text/event-stream"},
            )
            assert mcp.status_code == 200 and "your hand" in mcp.text
            _check(meter)
        async with connect(f"{server.ws_url}/ws/LONG22", max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": ada}))
            for message in (
                {"type": "ping", "id": "p"},
                {"type": "chat", "text": "gg"},
                {"type": "action", "action": "R7@99", "version": 0, "id": "x"},
                {"type": "sync"},
                {"type": "log"},
            ):
                meter.reset()
                await ws.send(json.dumps(message))
                await asyncio.wait_for(ws.recv(), 30)
                assert meter.worst < BOUND, (message, meter.worst, meter.what)
