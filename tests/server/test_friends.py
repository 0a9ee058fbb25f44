"""Friends over HTTP, in process: following, friendships both agree to, presence (hidden
presence never leaves the server), and challenges between friends with their refusals
(a stranger, a forged or guest identity, a challenge not one's own, the limits), down to
both players seated at the challenge's table. One server on SQLite for the module, on a
manual clock; each test makes its own players."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dos.server.app import ServerConfig, create_app
from dos.server.clock import ManualClock
from dos.server.net.limits import Limits
from dos.server.people.blocks import add_block
from dos.server.people.friends import CHALLENGE_SECONDS, MAX_OPEN_CHALLENGES
from dos.server.people.friends_store import KEPT_SECONDS
from dos.server.people.presence import ONLINE_SECONDS
from dos.server.people.relying_party import RelyingParty
from dos.server.service import Service
from dos.server.storage.models import ChallengeRow
from dos.server.tables.settings import Settings

CLOCK = ManualClock()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data: Path = tmp_path_factory.mktemp("friends")
    config = ServerConfig(
        data=data,
        settings=Settings(bot_delay=0, grace_seconds=0.2, pause_seconds=0, clock=CLOCK),
        limits=Limits().with_changes(["off"]),
        relying_party=RelyingParty("localhost"),
    )
    with TestClient(create_app(config)) as running:
        yield running


def service(client: TestClient) -> Service:
    found: Service = client.app.state.service  # type: ignore[attr-defined]
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Player:
    """A player of the server in process, by their token."""

    def __init__(self, client: TestClient, player_id: str, account: bool = True) -> None:
        self.client = client
        self.id = player_id
        self.token = service(client).signer.player_token(player_id)
        if account:
            made = client.post("/api/account/recovery", headers=self.headers)
            assert made.status_code == 200, made.text

    @property
    def headers(self) -> dict[str, str]:
        return bearer(self.token)

    def call(self, method: str, path: str, status: int = 200, **body: Any) -> Any:
        answer = self.client.request(
            method, path, headers=self.headers, json=body if body else None
        )
        assert answer.status_code == status, answer.text
        return answer.json()

    def overview(self) -> dict[str, Any]:
        return dict(self.call("GET", "/api/friends"))

    def pulse(self, where: str = "site", code: str | None = None) -> dict[str, Any]:
        return dict(self.call("POST", "/api/friends/pulse", where=where, code=code))


_NUMBERS = itertools.count(1)


def player(client: TestClient, account: bool = True) -> Player:
    return Player(client, f"p_friend{next(_NUMBERS)}", account)


def friends(client: TestClient) -> tuple[Player, Player]:
    """Two players who both agreed to be friends."""
    ada, bea = player(client), player(client)
    assert ada.call("PUT", f"/api/friends/{bea.id}")["status"] == "asked"
    assert bea.call("PUT", f"/api/friends/{ada.id}")["status"] == "friends"
    return ada, bea


def refused(answer: Any, status: int, code: str, field: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code, body
    if field is not None:
        assert body["field"] == field, body


# --- friendships and follows ---------------------------------------------------------------------


def test_a_friendship_takes_both_and_either_ends_it(client: TestClient) -> None:
    ada, bea = player(client), player(client)
    ada.call("PUT", f"/api/friends/{bea.id}")
    assert [p["player_id"] for p in ada.overview()["requests_out"]] == [bea.id]
    assert [p["player_id"] for p in bea.overview()["requests_in"]] == [ada.id]
    assert ada.overview()["friends"] == []  # asked is not agreed
    assert ada.call("PUT", f"/api/friends/{bea.id}")["status"] == "already"  # asking twice
    assert bea.call("PUT", f"/api/friends/{ada.id}")["status"] == "friends"
    assert [p["player_id"] for p in ada.overview()["friends"]] == [bea.id]
    assert bea.call("DELETE", f"/api/friends/{ada.id}")["changed"] is True
    assert ada.overview()["friends"] == [] and bea.overview()["friends"] == []


def test_a_friend_is_named_as_they_sat_down_last(client: TestClient) -> None:
    ada, bea = friends(client)
    assert [p["name"] for p in ada.overview()["friends"]] == [None]  # never sat down
    for name in ("Bea", "Beatrix"):
        body = {"name": name, "seats": [None, None], "player_token": bea.token}
        assert client.post("/api/tables", json=body).status_code == 201
        client.portal.call(CLOCK.advance, 1)  # type: ignore[union-attr]
    assert [p["name"] for p in ada.overview()["friends"]] == ["Beatrix"]


def test_following_is_one_sided(client: TestClient) -> None:
    ada, bea = player(client), player(client)
    ada.call("PUT", f"/api/friends/follows/{bea.id}")
    assert [p["player_id"] for p in ada.overview()["following"]] == [bea.id]
    assert bea.overview()["following"] == [] and bea.overview()["requests_in"] == []
    assert ada.call("DELETE", f"/api/friends/follows/{bea.id}")["changed"] is True


def test_guests_and_strangers_to_the_server_are_refused(client: TestClient) -> None:
    ada, guest = player(client), player(client, account=False)
    refused(client.get("/api/friends"), 401, "no_token", "authorization")
    refused(client.get("/api/friends", headers=bearer("forged.token")), 401, "bad_token")
    refused(client.get("/api/friends", headers=guest.headers), 403, "sign_in_needed")
    refused(client.put(f"/api/friends/{guest.id}", headers=ada.headers), 404, "no_player")
    refused(client.put(f"/api/friends/{ada.id}", headers=ada.headers), 400, "not_yourself")


# --- presence ------------------------------------------------------------------------------------


def presence_of(viewer: Player, other: Player, kind: str = "friends") -> dict[str, Any]:
    found = [p for p in viewer.overview()[kind] if p["player_id"] == other.id]
    assert len(found) == 1
    return dict(found[0]["presence"])


def test_friends_and_followers_see_where_a_player_is(client: TestClient) -> None:
    ada, bea = friends(client)
    fan = player(client)
    fan.call("PUT", f"/api/friends/follows/{bea.id}")
    assert presence_of(ada, bea) == {"state": "offline", "code": None}  # never seen
    bea.pulse("table", "k7m2qx")
    assert presence_of(ada, bea) == {"state": "playing", "code": "K7M2QX"}
    assert presence_of(fan, bea, "following") == {"state": "playing", "code": "K7M2QX"}
    bea.pulse("watching", "ABCDEF")
    assert presence_of(ada, bea) == {"state": "watching", "code": "ABCDEF"}
    bea.pulse("site", "ABCDEF")  # on the site: no table named
    assert presence_of(ada, bea) == {"state": "online", "code": None}


def test_a_hidden_presence_is_offline_to_everyone(client: TestClient) -> None:
    ada, bea = friends(client)
    bea.pulse("table", "SECRET")
    bea.call("PUT", "/api/friends/presence", hidden=True)
    assert bea.overview()["hidden"] is True
    bea.pulse("table", "SECRET")
    answer = client.get("/api/friends", headers=ada.headers)
    assert presence_of(ada, bea) == {"state": "offline", "code": None}
    assert "SECRET" not in answer.text
    bea.call("PUT", "/api/friends/presence", hidden=False)
    assert presence_of(ada, bea)["state"] == "playing"


def test_a_player_not_seen_for_a_while_is_offline(client: TestClient) -> None:
    ada, bea = friends(client)
    bea.pulse()
    assert presence_of(ada, bea)["state"] == "online"
    client.portal.call(CLOCK.advance, ONLINE_SECONDS + 1)  # type: ignore[union-attr]
    assert presence_of(ada, bea)["state"] == "offline"


# --- challenges ----------------------------------------------------------------------------------


def challenge(by: Player, to: Player, status: int = 201, **terms: Any) -> Any:
    body = {"to": to.id, "name": "Ada", "rules": "official", "bots": [], **terms}
    return by.call("POST", "/api/friends/challenges", status, **body)


def test_accepted_challenge_seats_both_at_its_table(client: TestClient) -> None:
    ada, bea = friends(client)
    calm = ada.pulse()["poll_ms"]
    made = challenge(ada, bea, bots=["easy"], rated=True)
    assert made["status"] == "open"
    assert ada.pulse()["poll_ms"] < calm  # awaiting the answer: sooner
    invitations = bea.pulse()["challenges"]
    assert [(c["id"], c["name"], c["bots"]) for c in invitations] == [(made["id"], "Ada", ["easy"])]
    grant = bea.call("POST", f"/api/friends/challenges/{made['id']}/accept", name="Bea")
    assert grant["seat"] == 1 and grant["player_id"] == bea.id
    table = grant["table"]
    assert [s["name"] for s in table["seats"]][:2] == ["Ada", "Bea"]
    assert len(table["seats"]) == 3 and table["rated"] is True
    (outcome,) = ada.pulse()["outcomes"]
    assert outcome["challenge"]["status"] == "accepted"
    landing = outcome["landing"]
    assert landing["code"] == grant["code"] and landing["seat"] == 0
    claim = service(client).signer.read_seat(landing["token"])
    assert (claim.code, claim.seat, claim.player_id) == (grant["code"], 0, ada.id)
    assert bea.pulse()["challenges"] == []  # answered: no longer an invitation
    again = client.post(
        f"/api/friends/challenges/{made['id']}/accept", headers=bea.headers, json={"name": "Bea"}
    )
    refused(again, 404, "no_challenge")


def test_the_challenger_is_told_of_a_decline_and_of_an_expiry(client: TestClient) -> None:
    ada, bea = friends(client)
    declined = challenge(ada, bea)
    bea.call("POST", f"/api/friends/challenges/{declined['id']}/decline")
    statuses = {o["challenge"]["id"]: o["challenge"]["status"] for o in ada.pulse()["outcomes"]}
    assert statuses == {declined["id"]: "declined"}
    left = challenge(ada, bea)
    client.portal.call(CLOCK.advance, CHALLENGE_SECONDS)  # type: ignore[union-attr]
    statuses = {o["challenge"]["id"]: o["challenge"]["status"] for o in ada.pulse()["outcomes"]}
    assert statuses[left["id"]] == "expired"
    assert bea.pulse()["challenges"] == []
    late = client.post(
        f"/api/friends/challenges/{left['id']}/accept", headers=bea.headers, json={"name": "Bea"}
    )
    refused(late, 404, "no_challenge")


def test_challenges_a_day_old_are_forgotten_at_the_next(client: TestClient) -> None:
    ada, bea = friends(client)
    old = challenge(ada, bea)
    client.portal.call(CLOCK.advance, KEPT_SECONDS + 1)  # type: ignore[union-attr]
    challenge(ada, bea)
    db = service(client).db
    kept = client.portal.call(db.read, lambda session: session.get(ChallengeRow, old["id"]))  # type: ignore[union-attr]
    assert kept is None


def test_only_a_friend_is_challenged_and_only_they_answer(client: TestClient) -> None:
    ada, bea = friends(client)
    stranger = player(client)
    stranger.call("PUT", f"/api/friends/follows/{bea.id}")  # following is not friendship
    body = {"to": bea.id, "name": "Eve"}
    refused(
        client.post("/api/friends/challenges", headers=stranger.headers, json=body),
        403,
        "not_friends",
        "to",
    )
    made = challenge(ada, bea)
    for someone in (stranger, ada):  # neither is the one challenged
        taken = client.post(
            f"/api/friends/challenges/{made['id']}/accept",
            headers=someone.headers,
            json={"name": "Eve"},
        )
        refused(taken, 404, "no_challenge")
    forged = {**body, "challenger": ada.id}  # a body never says who asks
    smuggled = client.post("/api/friends/challenges", headers=stranger.headers, json=forged)
    assert smuggled.status_code == 422
    refused(
        client.delete(f"/api/friends/challenges/{made['id']}", headers=bea.headers),
        404,
        "no_challenge",
    )
    assert ada.call("DELETE", f"/api/friends/challenges/{made['id']}")["status"] == "cancelled"


def test_a_block_stops_friend_requests_and_challenges(client: TestClient) -> None:
    ada, bea = friends(client)
    stranger = player(client)
    db = service(client).db
    client.portal.call(db.call, add_block, bea.id, ada.id, CLOCK.time())  # type: ignore[union-attr]
    client.portal.call(db.call, add_block, bea.id, stranger.id, CLOCK.time())  # type: ignore[union-attr]
    body = {"to": bea.id, "name": "Ada"}
    refused(
        client.post("/api/friends/challenges", headers=ada.headers, json=body),
        403,
        "blocked_player",
        "to",
    )
    refused(
        client.put(f"/api/friends/{bea.id}", headers=stranger.headers),
        403,
        "blocked_player",
        "player_id",
    )


def test_open_challenges_are_limited(client: TestClient) -> None:
    ada, bea = friends(client)
    challenge(ada, bea)
    refused(
        client.post(
            "/api/friends/challenges", headers=ada.headers, json={"to": bea.id, "name": "Ada"}
        ),
        409,
        "challenge_open",
        "to",
    )
    for _ in range(MAX_OPEN_CHALLENGES - 1):
        other = player(client)
        ada.call("PUT", f"/api/friends/{other.id}")
        other.call("PUT", f"/api/friends/{ada.id}")
        challenge(ada, other)
    last = player(client)
    ada.call("PUT", f"/api/friends/{last.id}")
    last.call("PUT", f"/api/friends/{ada.id}")
    body = {"to": last.id, "name": "Ada"}
    refused(
        client.post("/api/friends/challenges", headers=ada.headers, json=body),
        409,
        "too_many_challenges",
    )


def test_a_challenge_names_a_table_the_server_can_make(client: TestClient) -> None:
    ada, bea = friends(client)
    for terms, field in (({"rules": "chess"}, "rules"), ({"bots": ["godlike"]}, "bots.0")):
        body = {"to": bea.id, "name": "Ada", **terms}
        refused(
            client.post("/api/friends/challenges", headers=ada.headers, json=body),
            400,
            "bad_request",
            field,
        )


def test_a_challenge_whose_table_is_refused_stays_open(tmp_path: Path) -> None:
    config = ServerConfig(
        data=tmp_path,
        settings=Settings(bot_delay=0, grace_seconds=0.2, pause_seconds=0),
        limits=Limits().with_changes(["off", "create=1/hour"]),
        relying_party=RelyingParty("localhost"),
    )
    with TestClient(create_app(config)) as limited:
        ada, bea = friends(limited)
        made = challenge(ada, bea)
        assert limited.post("/api/tables", json={"name": "Bea"}).status_code == 201  # the hour's
        accept = f"/api/friends/challenges/{made['id']}/accept"
        refused_table = limited.post(accept, headers=bea.headers, json={"name": "Bea"})
        assert refused_table.status_code == 429 and refused_table.json()["code"] == "rate_limited"
        assert [c["id"] for c in bea.pulse()["challenges"]] == [made["id"]]  # open again
