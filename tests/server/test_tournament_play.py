"""Tournaments played to their standings on an in-process server, across a restart: an arena
of 8 players (2 people at the table page's WebSocket, 6 agents through the agent API) and a
Swiss of 3 rounds; the arena's window on the server's injected clock, every deal from a known
seed, every move the first legal one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from dos.house import create_app
from dos.server.app import ServerConfig
from dos.server.clock import ManualClock
from dos.server.deals import Deals
from dos.server.net.limits import Limits
from dos.server.tables.settings import Settings

OPEN: list[Player] = []
"""The players whose table page is open."""

ARENA_SECONDS = 30.0
"""The arena's window: shorter than a turn timer, so moving the clock past it times no turn
out."""


@contextmanager
def server(data: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The whole server (tables, agents, tournaments) on ``data``, started and stopped."""
    settings = Settings(
        bot_delay=0, grace_seconds=3600, pause_seconds=0, clock=clock, deals=Deals(seed=2026)
    )
    config = ServerConfig(
        data=data,
        settings=settings,
        sqlite_synchronous="OFF",
        limits=Limits().with_changes(["off"]),
    )
    with TestClient(create_app(config)) as client:
        try:
            yield client
        finally:  # a failed test's open pages closed: the server stops without waiting on them
            while OPEN:
                OPEN.pop().stand_up()


def ok(answer: Any, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


class Player:
    """One entrant: a person (their table page's WebSocket) or an agent (the agent API)."""

    def __init__(self, client: TestClient, tournament: str, name: str, *, person: bool) -> None:
        self.client, self.name, self.person = client, name, person
        self.token = ""
        self.player_id = ""
        self.tournament = tournament
        self.grant: dict[str, Any] | None = None
        self.ws: WebSocketTestSession | None = None
        self.view: dict[str, Any] = {}

    def enter(self, answer: dict[str, Any]) -> None:
        self.token, self.player_id = answer["player_token"], answer["player_id"]

    def join(self) -> dict[str, Any]:
        body = {"name": self.name, **({"player_token": self.token} if self.token else {})}
        answer: dict[str, Any] = ok(
            self.client.post(f"/api/tournaments/{self.tournament}/join", json=body)
        )
        self.enter(answer)
        return answer

    def sit(self) -> str | None:
        """Looks up their table under way (as the page does) and opens their seat."""
        seat = ok(
            self.client.post(
                f"/api/tournaments/{self.tournament}/seat", json={"player_token": self.token}
            )
        )["seat"]
        self.grant = seat
        if seat is None:
            return None
        if self.person:
            self.ws = self.client.websocket_connect(f"/ws/{seat['code']}").__enter__()
            OPEN.append(self)
            self.ws.send_json({"type": "hello", "protocol": 1, "token": seat["token"]})
            self.read_until(lambda m: m["type"] == "state")
        else:
            self.look()
        return str(seat["code"])

    def read_until(self, done: Any) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            if message["type"] in ("state", "update"):
                self.view = message
            if done(message):
                return message

    def look(self) -> dict[str, Any]:
        """The seat's view now (a person's: read up to the table's version)."""
        if self.person:
            return self.view
        assert self.grant is not None
        self.view = ok(
            self.client.get(
                "/api/agent/seat", headers={"authorization": f"Bearer {self.grant['token']}"}
            )
        )
        return self.view

    def catch_up(self, version: int) -> None:
        if self.person and self.view["version"] < version:
            self.read_until(lambda m: m["type"] == "update" and m["version"] == version)

    def act(self, action: str, version: int) -> dict[str, Any]:
        """Plays ``action``; the seat's view after it (its ``view`` and ``result``)."""
        if self.person:
            assert self.ws is not None
            self.ws.send_json({"type": "action", "action": action, "version": version, "id": "a"})
            answer = self.read_until(lambda m: m.get("id") == "a")
            assert answer["type"] == "update", answer
        else:
            assert self.grant is not None
            self.view = ok(
                self.client.post(
                    "/api/agent/seat/actions",
                    json={"action": action, "version": version},
                    headers={"authorization": f"Bearer {self.grant['token']}"},
                )
            )
        return self.view

    def stand_up(self) -> None:
        if self.ws is not None:
            self.ws.__exit__(None, None, None)
            self.ws = None
        if self in OPEN:
            OPEN.remove(self)


def play_out(players: list[Player]) -> None:
    """Seats everyone at their table and plays every table to its end, each seat's first
    legal move of its turn."""
    tables: dict[str, list[Player]] = {}
    for player in players:
        code = player.sit()
        if code is not None:
            tables.setdefault(code, []).append(player)
    for seated in tables.values():
        seated.sort(key=lambda p: p.grant["seat"] if p.grant else 0)
        seen = seated[0].look()
        version = seen["version"]
        while seen["result"] is None:
            for player in seated:
                player.catch_up(version)
            mover = seated[seen["view"]["turn"]]
            legal = mover.look()["view"]["legal"]
            move = next(a for a in legal if ":" not in a and not a.startswith("catch"))
            seen = mover.act(move, version)
            version += 1
        for player in seated:
            player.stand_up()


def view(client: TestClient, tournament: str) -> dict[str, Any]:
    return ok(client.get(f"/api/tournaments/{tournament}"))  # type: ignore[no-any-return]


def test_an_arena_and_a_swiss_run_to_their_standings_across_a_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    with server(tmp_path, clock) as client:
        ada = Player(client, "", "Ada", person=True)
        made = ok(
            client.post(
                "/api/tournaments",
                json={
                    "name": "Ada",
                    "title": "Friday arena",
                    "format": "arena",
                    "seats": 4,
                    "minutes": ARENA_SECONDS / 60,
                    "options": {"target_score": 1},
                },
            ),
            201,
        )
        arena = made["id"]
        ada.tournament = arena
        ada.enter(made)
        bea = Player(client, arena, "Bea", person=True)
        bea.join()
        agents = [Player(client, arena, f"Bot{i}", person=False) for i in range(1, 7)]
        for agent in agents:
            agent.join()
        everyone = [ada, bea, *agents]
        first = view(client, arena)
        assert first["status"] == "running" and len(first["tables"]) == 2
        assert {p["name"] for p in first["tables"][0]["players"]} >= {"Ada", "Bea"} or {
            p["name"] for p in first["tables"][1]["players"]
        } >= {"Ada", "Bea"}
        play_out(everyone)
        after_one = view(client, arena)
        assert len(after_one["games"]) == 2 and len(after_one["tables"]) == 2  # paired again

        # A Swiss of 3 rounds for three, organised by Bea: a table and a bye each round.
        swiss_made = ok(
            client.post(
                "/api/tournaments",
                json={
                    "name": "Bea",
                    "title": "Club Swiss",
                    "format": "swiss",
                    "rounds": 3,
                    "options": {"target_score": 1},
                    "player_token": bea.token,
                },
            ),
            201,
        )
        swiss = swiss_made["id"]
        field = [Player(client, swiss, p.name, person=p.person) for p in (ada, bea, agents[0])]
        for entrant, known in zip(field, (ada, bea, agents[0]), strict=True):
            entrant.token = known.token
            entrant.join()
        refused = client.post(f"/api/tournaments/{swiss}/start", json={"player_token": ada.token})
        assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
        ok(client.post(f"/api/tournaments/{swiss}/start", json={"player_token": bea.token}))
        play_out(field)
        stopped_at = clock.time()

    clock = ManualClock(start=stopped_at)
    with server(tmp_path, clock) as client:  # the same data folder: a restarted server
        for player in [*everyone, *field]:
            player.client = client
        resumed = view(client, arena)
        assert resumed["status"] == "running" and len(resumed["tables"]) == 2
        for player in everyone:  # everyone back at their table before the window closes
            player.sit()
        client.portal.call(clock.advance, ARENA_SECONDS)  # type: ignore[union-attr]
        for player in everyone:
            player.stand_up()
        play_out(everyone)
        final = view(client, arena)
        assert final["status"] == "finished" and final["tables"] == []
        assert len(final["games"]) == 4
        points = sorted((row["points"] for row in final["standings"]), reverse=True)
        # Four tables of four, one round to 1 point each: the winner 4, the three others tied
        # at no score share second place, 2 each.
        assert sum(points) == 4 * (4 + 2 + 2 + 2)
        assert [row["place"] for row in final["standings"]] == list(range(1, 9))

        for number in (2, 3):
            started = client.post(
                f"/api/tournaments/{swiss}/start", json={"player_token": bea.token}
            )
            assert ok(started)["round"] == number
            play_out(field)
        done = view(client, swiss)
        assert done["status"] == "finished" and done["round"] == 3
        rows = done["standings"]
        assert [r["byes"] for r in rows] == [1, 1, 1]  # nobody sat out twice
        assert sum(r["points"] for r in rows) == 3 * (1 + 1)  # a table won and a bye a round
        met = [
            frozenset(p["player_id"] for p in g["players"]) for g in done["games"] if not g["bye"]
        ]
        assert len(met) == 3 and len(set(met)) == 3  # every pair met, none twice
        again = client.post(f"/api/tournaments/{swiss}/start", json={"player_token": bea.token})
        assert again.status_code == 409 and again.json()["code"] == "bad_state"
