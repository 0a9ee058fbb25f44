"""Your player on any device: passkeys and recovery codes keep a player's id (and
its results and ratings) beyond one browser; forged, replayed and misdirected answers are
refused, each with the code of the rule it broke.

The browser is played by ``SoftAuthenticator``: a passkey made here with ``cryptography``
(an ECDSA P-256 key), whose answers are built byte for byte as WebAuthn says (authenticator
data, ``clientDataJSON``, a ``none`` attestation in CBOR, signatures over both). The server
runs in process (``TestClient``), on SQLite and on PostgreSQL where it is installed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from sqlalchemy import select
from webauthn.helpers import encode_cbor

from dos.ratings.policy import MIN_TARGET
from dos.server.app import ServerConfig, create_app
from dos.server.net.limits import Limits
from dos.server.people.accounts import CEREMONY_SECONDS, Ceremonies, recovery_digest
from dos.server.people.passkeys import PasskeyError
from dos.server.people.relying_party import RelyingParty
from dos.server.storage.database import Database
from dos.server.storage.models import AccountRow
from dos.server.storage.table_store import (
    StoredGame,
    StoredSeat,
    StoredTable,
    finish_game,
    insert_game,
    insert_table,
)
from dos.server.tables.settings import Settings

ORIGIN = "http://localhost:8000"
UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One passkey in software: what a browser and its authenticator send back."""

    def __init__(self, rp_id: str = "localhost", origin: str = ORIGIN) -> None:
        self.rp_id = rp_id
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.sign_count = 0
        self.user_handle = b""

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def create(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        flags: int = UP | UV | AT,
        rp_id: str | None = None,
    ) -> dict[str, Any]:
        """The new credential for registration ``options`` (``navigator.credentials.create``)."""
        self.user_handle = unb64(options["user"]["id"])
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        auth_data = (
            hashlib.sha256((rp_id or self.rp_id).encode()).digest()
            + bytes([flags])
            + self.sign_count.to_bytes(4, "big")
            + bytes(16)  # AAGUID: none
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + self._cose_key()
        )
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        flags: int = UP | UV,
        count: int | None = None,
        key: ec.EllipticCurvePrivateKey | None = None,
        kind: str = "webauthn.get",
    ) -> dict[str, Any]:
        """The answer to sign-in ``options`` (``navigator.credentials.get``)."""
        self.sign_count += 1
        client_data = self._client_data(kind, options["challenge"], origin)
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([flags])
            + (self.sign_count if count is None else count).to_bytes(4, "big")
        )
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = (key or self.key).sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(self.user_handle),
            },
        }


# --- the server, in process ----------------------------------------------------------------------


def _app(data: Path, database: str | None, *limits: str) -> TestClient:
    config = ServerConfig(
        data=data,
        database=database,
        settings=Settings(bot_delay=0, grace_seconds=0.2, pause_seconds=0),
        limits=Limits().with_changes(["off", *limits]),
        relying_party=RelyingParty("localhost"),
    )
    return TestClient(create_app(config))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A server on SQLite."""
    with _app(tmp_path, None) as running:
        yield running


def database_of(client: TestClient) -> Database:
    """The database of the server in process."""
    db: Database = client.app.state.service.db  # type: ignore[attr-defined]
    return db


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def guest(client: TestClient, name: str = "Ada") -> dict[str, Any]:
    """A guest's seat grant (``player_id``, ``player_token``): they created a table."""
    answer = client.post("/api/tables", json={"name": name, "seats": [None, "easy"]})
    assert answer.status_code == 201, answer.text
    grant: dict[str, Any] = answer.json()
    return grant


def register(client: TestClient, token: str, passkey: SoftAuthenticator, **create: Any) -> Any:
    begun = client.post("/api/account/passkeys/begin", json={"name": "Ada"}, headers=bearer(token))
    assert begun.status_code == 200, begun.text
    ceremony = begun.json()
    credential = passkey.create(ceremony["options"], **create)
    return client.post(
        "/api/account/passkeys/finish",
        json={"ceremony": ceremony["ceremony"], "credential": credential},
        headers=bearer(token),
    )


def begin_sign_in(client: TestClient) -> dict[str, Any]:
    begun = client.post("/api/account/sign-in/begin")
    assert begun.status_code == 200, begun.text
    ceremony: dict[str, Any] = begun.json()
    return ceremony


def finish_sign_in(client: TestClient, ceremony: dict[str, Any], credential: dict[str, Any]) -> Any:
    return client.post(
        "/api/account/sign-in/finish",
        json={"ceremony": ceremony["ceremony"], "credential": credential},
    )


def refused(answer: Any, status: int, code: str, field: str | None = "any") -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code, body
    if field != "any":
        assert body["field"] == field, body


def finished_game(db: Database, player_id: str, name: str) -> None:
    """A rated game the player won against a hard bot, stored."""
    seats = [StoredSeat(0, name, None, player_id), StoredSeat(1, None, "hard", None)]
    code = "H" + os.urandom(4).hex().upper()
    table = StoredTable(code, "official", {}, False, "lobby", 0, None, 0, 1.0, seats)
    options = {"players": 2, "target_score": MIN_TARGET}
    game = StoredGame(0, 1, "official", options, 7, [name, "hard bot"], "", None)
    db.run_sync(insert_table, table)
    game_id = db.run_sync(insert_game, code, game, seats)
    db.run_sync(finish_game, code, game_id, {"winner": 0, "scores": [MIN_TARGET, 0]}, time.time())


# --- registration and sign-in --------------------------------------------------------------------


def test_a_guest_keeps_their_player_id_history_and_ratings_on_a_new_device(
    database: str, tmp_path: Path
) -> None:
    passkey = SoftAuthenticator()
    with _app(tmp_path, database) as client:
        grant = guest(client)
        player_id = grant["player_id"]
        finished_game(database_of(client), player_id, "Ada")
        before = client.get(f"/api/players/{player_id}/results").json()
        assert before["games"] == 1
        registered = register(client, grant["player_token"], passkey)
        assert registered.status_code == 200, registered.text
        account = registered.json()
        assert account["player_id"] == player_id and account["registered"] is True
        assert [p["id"] for p in account["passkeys"]] == [b64(passkey.credential_id)]

        # A new device: nothing in its storage, nothing typed.
        ceremony = begin_sign_in(client)
        assert ceremony["options"]["allowCredentials"] == []
        assert ceremony["options"]["userVerification"] == "required"
        signed_in = finish_sign_in(client, ceremony, passkey.get(ceremony["options"]))
        assert signed_in.status_code == 200, signed_in.text
        body = signed_in.json()
        assert body["player_id"] == player_id
        assert body["name"] == "Ada"
        assert body["account"]["passkeys"][0]["used_at"] is not None
        # The new token is the player's: it joins tables as them, and their past is theirs.
        joined = client.post(
            "/api/tables", json={"name": "Ada", "player_token": body["player_token"]}
        )
        assert joined.json()["player_id"] == player_id
        assert client.get(f"/api/players/{player_id}/results").json() == before
        assert client.get(f"/api/players/{player_id}").status_code == 200  # rated


def test_the_registration_options_ask_for_a_discoverable_verified_passkey(
    client: TestClient,
) -> None:
    grant = guest(client)
    passkey = SoftAuthenticator()
    assert register(client, grant["player_token"], passkey).status_code == 200
    options = client.post(
        "/api/account/passkeys/begin", headers=bearer(grant["player_token"])
    ).json()["options"]
    assert options["rp"] == {"id": "localhost", "name": "DOS"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["user"]["name"] == grant["player_id"]  # no name given, no game played yet
    assert unb64(options["user"]["id"]) == passkey.user_handle  # one handle per player
    assert [c["id"] for c in options["excludeCredentials"]] == [b64(passkey.credential_id)]


def test_registering_needs_the_players_own_token(client: TestClient) -> None:
    refused(client.post("/api/account/passkeys/begin"), 401, "no_token", "authorization")
    forged = {"authorization": "Bearer eyJwIjoicF9hZGEifQ.forged.signature"}
    refused(client.post("/api/account/passkeys/begin", headers=forged), 401, "bad_token")
    refused(client.get("/api/account", headers={"authorization": "Basic x"}), 401, "no_token")
    ada, bob = guest(client, "Ada"), guest(client, "Bob")
    begun = client.post("/api/account/passkeys/begin", headers=bearer(ada["player_token"])).json()
    credential = SoftAuthenticator().create(begun["options"])
    # Bob cannot finish Ada's ceremony, nor name a player in the body.
    finished = client.post(
        "/api/account/passkeys/finish",
        json={"ceremony": begun["ceremony"], "credential": credential},
        headers=bearer(bob["player_token"]),
    )
    refused(finished, 400, "bad_ceremony", "ceremony")
    smuggled = client.post(
        "/api/account/passkeys/finish",
        json={"ceremony": "x", "credential": credential, "player_id": ada["player_id"]},
        headers=bearer(bob["player_token"]),
    )
    refused(smuggled, 422, "bad_request", "player_id")


def test_a_replayed_challenge_is_refused(client: TestClient) -> None:
    grant = guest(client)
    passkey = SoftAuthenticator()
    assert register(client, grant["player_token"], passkey).status_code == 200
    ceremony = begin_sign_in(client)
    answer = passkey.get(ceremony["options"])
    assert finish_sign_in(client, ceremony, answer).status_code == 200
    # The same answer again: its ceremony is gone.
    refused(finish_sign_in(client, ceremony, answer), 400, "bad_ceremony", "ceremony")
    # The same answer to a new ceremony: it signs another challenge.
    fresh = begin_sign_in(client)
    refused(
        finish_sign_in(client, fresh, answer),
        400,
        "bad_challenge",
        "credential.response.clientDataJSON",
    )
    # A failed answer uses the ceremony up too.
    refused(finish_sign_in(client, fresh, passkey.get(fresh["options"])), 400, "bad_ceremony")


def test_forged_answers_are_refused(client: TestClient) -> None:
    grant = guest(client)
    passkey = SoftAuthenticator()
    assert register(client, grant["player_token"], passkey).status_code == 200
    ceremony = begin_sign_in(client)
    assert finish_sign_in(client, ceremony, passkey.get(ceremony["options"])).status_code == 200
    other_key = ec.generate_private_key(ec.SECP256R1())
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"key": other_key}, "bad_credential", "credential"),  # signed by another key
        ({"flags": UP}, "bad_credential", "credential"),  # the person was not verified
        ({"origin": "https://evil.example"}, "bad_origin", "credential.response.clientDataJSON"),
        ({"origin": "http://127.0.0.1:8000"}, "bad_origin", "credential.response.clientDataJSON"),
        ({"kind": "webauthn.create"}, "bad_credential", "credential.response.clientDataJSON"),
        ({"count": 1}, "bad_credential", "credential"),  # the counter went back: a clone
    ]
    for change, code, field in cases:
        ceremony = begin_sign_in(client)
        answer = passkey.get(ceremony["options"], **change)
        refused(finish_sign_in(client, ceremony, answer), 400, code, field)
    ceremony = begin_sign_in(client)
    answer = passkey.get(ceremony["options"])
    answer["response"]["userHandle"] = b64(b"someone else")
    refused(finish_sign_in(client, ceremony, answer), 400, "bad_credential")
    ceremony = begin_sign_in(client)
    answer = passkey.get(ceremony["options"])
    answer["id"] = b64(b"another id")
    refused(finish_sign_in(client, ceremony, answer), 400, "bad_credential", "credential.id")
    # Through all of it, the real passkey still signs in.
    ceremony = begin_sign_in(client)
    assert finish_sign_in(client, ceremony, passkey.get(ceremony["options"])).status_code == 200


def test_an_unknown_passkey_signs_nobody_in(client: TestClient) -> None:
    ceremony = begin_sign_in(client)
    stranger = SoftAuthenticator()
    stranger.user_handle = b"x" * 32
    refused(
        finish_sign_in(client, ceremony, stranger.get(ceremony["options"])),
        401,
        "no_credential",
        "credential.id",
    )


def test_a_forged_registration_is_refused(client: TestClient) -> None:
    token = guest(client)["player_token"]
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"origin": "https://evil.example"}, "bad_origin", "credential.response.clientDataJSON"),
        ({"rp_id": "evil.example"}, "bad_credential", "credential"),
        ({"flags": UP | AT}, "bad_credential", "credential"),  # not verified
    ]
    for change, code, field in cases:
        refused(register(client, token, SoftAuthenticator(), **change), 400, code, field)
    begun = client.post("/api/account/passkeys/begin", headers=bearer(token)).json()
    credential = SoftAuthenticator().create(begun["options"])
    credential["response"]["attestationObject"] = b64(b"\xa1\x63fmt\x64none")  # no authData
    answer = client.post(
        "/api/account/passkeys/finish",
        json={"ceremony": begun["ceremony"], "credential": credential},
        headers=bearer(token),
    )
    refused(answer, 400, "bad_credential", "credential")
    assert client.get("/api/account", headers=bearer(token)).json()["registered"] is False


def test_one_passkey_belongs_to_one_player(client: TestClient) -> None:
    passkey = SoftAuthenticator()
    ada, bob = guest(client, "Ada"), guest(client, "Bob")
    assert register(client, ada["player_token"], passkey).status_code == 200
    refused(
        register(client, bob["player_token"], passkey), 409, "credential_taken", "credential.id"
    )


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ("{broken", 400, "bad_json", None),
        ('{"ceremony": "c"}', 422, "bad_request", "credential"),
        (
            '{"ceremony": "c", "credential": {"id": "a", "rawId": "a", "type": "public-key",'
            ' "response": {"clientDataJSON": "%%%", "authenticatorData": "a", "signature": "a"}}}',
            422,
            "bad_request",
            "credential.response.clientDataJSON",
        ),
        (
            '{"ceremony": "c", "credential": {"id": "a", "rawId": "a", "type": "password",'
            ' "response": {"clientDataJSON": "a", "authenticatorData": "a", "signature": "a"}}}',
            422,
            "bad_request",
            "credential.type",
        ),
        ('{"ceremony": "no such", "credential": {}}', 422, "bad_request", "ceremony"),
    ],
)
def test_broken_sign_in_bodies_name_their_field(
    client: TestClient, body: str, status: int, code: str, field: str | None
) -> None:
    answer = client.post(
        "/api/account/sign-in/finish",
        content=body.encode(),
        headers={"content-type": "application/json"},
    )
    refused(answer, status, code, field)


def test_an_answer_that_is_not_webauthn_is_refused_not_a_crash(client: TestClient) -> None:
    junk = {"clientDataJSON": b64(b"\xff\x00"), "authenticatorData": "AAAA", "signature": "AAAA"}
    for response in (junk, {**junk, "clientDataJSON": b64(b"[1, 2]")}):
        ceremony = begin_sign_in(client)
        credential = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": response}
        refused(finish_sign_in(client, ceremony, credential), 401, "no_credential")
    grant = guest(client)
    passkey = SoftAuthenticator()
    assert register(client, grant["player_token"], passkey).status_code == 200
    for broken in ({"authenticatorData": "AAAA"}, {"signature": "AAAA"}):
        ceremony = begin_sign_in(client)
        answer = passkey.get(ceremony["options"])
        answer["response"].update(broken)
        refused(finish_sign_in(client, ceremony, answer), 400, "bad_credential", "credential")


def test_the_ceremony_is_short_lived_and_of_one_kind() -> None:
    now = [0.0]
    ceremonies = Ceremonies(clock=lambda: now[0])
    handle, _ = ceremonies.open("register", "p_ada", b"h")
    with pytest.raises(PasskeyError) as other_kind:
        ceremonies.take(handle, "sign_in")
    assert other_kind.value.code == "bad_ceremony"
    handle, _ = ceremonies.open("sign_in")
    now[0] = CEREMONY_SECONDS + 1
    with pytest.raises(PasskeyError) as expired:
        ceremonies.take(handle, "sign_in")
    assert "expired" in expired.value.message
    small = Ceremonies(most=2, clock=lambda: 0.0)
    first, _ = small.open("sign_in")
    small.open("sign_in")
    small.open("sign_in")
    assert len(small) == 2
    with pytest.raises(PasskeyError):
        small.take(first, "sign_in")  # the oldest was dropped


# --- the player's passkeys -----------------------------------------------------------------------


def test_a_player_lists_and_removes_their_own_passkeys(client: TestClient) -> None:
    ada, bob = guest(client, "Ada"), guest(client, "Bob")
    phone, laptop = SoftAuthenticator(), SoftAuthenticator()
    token = register(client, ada["player_token"], phone).json()["player_token"]
    assert register(client, token, laptop).status_code == 200
    listed = client.get("/api/account", headers=bearer(token)).json()
    assert [p["id"] for p in listed["passkeys"]] == [
        b64(phone.credential_id),
        b64(laptop.credential_id),
    ]
    path = f"/api/account/passkeys/{b64(phone.credential_id)}"
    refused(client.delete(path, headers=bearer(bob["player_token"])), 404, "no_passkey")
    kept = client.delete(path, headers=bearer(token))
    assert [p["id"] for p in kept.json()["passkeys"]] == [b64(laptop.credential_id)]
    ceremony = begin_sign_in(client)
    refused(finish_sign_in(client, ceremony, phone.get(ceremony["options"])), 401, "no_credential")
    guest_view = client.get("/api/account", headers=bearer(bob["player_token"])).json()
    assert guest_view["registered"] is False and guest_view["passkeys"] == []


# --- recovery codes ------------------------------------------------------------------------------


def test_a_recovery_code_signs_in_once(database: str, tmp_path: Path) -> None:
    with _app(tmp_path, database) as client:
        grant = guest(client)
        made = client.post("/api/account/recovery", headers=bearer(grant["player_token"]))
        assert made.status_code == 200, made.text
        code = made.json()["code"]
        assert made.json()["account"]["recovery"] is True
        assert made.json()["account"]["registered"] is True
        stored = database_of(client).run_sync(
            lambda session: session.scalars(select(AccountRow.recovery_hash)).all()
        )
        assert stored == [recovery_digest(code)] and code.replace("-", "") not in str(stored)
        typed = code.lower().replace("-", " ")  # as a person may type it
        signed_in = client.post("/api/account/sign-in/recovery", json={"code": typed})
        assert signed_in.status_code == 200, signed_in.text
        assert signed_in.json()["player_id"] == grant["player_id"]
        assert signed_in.json()["account"]["recovery"] is False  # used up
        again = client.post("/api/account/sign-in/recovery", json={"code": code})
        refused(again, 401, "unknown_recovery_code", "code")


def test_a_new_recovery_code_replaces_the_old(client: TestClient) -> None:
    token = guest(client)["player_token"]
    old = client.post("/api/account/recovery", headers=bearer(token)).json()["code"]
    new = client.post("/api/account/recovery", headers=bearer(token)).json()["code"]
    refused(
        client.post("/api/account/sign-in/recovery", json={"code": old}),
        401,
        "unknown_recovery_code",
    )
    assert client.post("/api/account/sign-in/recovery", json={"code": new}).status_code == 200


@pytest.mark.parametrize("code", ["ABCD", "ABCD-EFGH-JKMN-PQRS-TVWU", "Ä" * 20, " "])
def test_what_cannot_be_a_recovery_code_is_refused(client: TestClient, code: str) -> None:
    answer = client.post("/api/account/sign-in/recovery", json={"code": code})
    refused(answer, 400, "bad_recovery_code", "code")


def test_recovery_tries_are_rate_limited(tmp_path: Path) -> None:
    with _app(tmp_path, None, "recover=3/minute") as client:
        answers = [
            client.post("/api/account/sign-in/recovery", json={"code": "0" * 20}) for _ in range(5)
        ]
    assert [a.status_code for a in answers] == [401, 401, 401, 429, 429]
    refused(answers[-1], 429, "rate_limited")
    assert int(answers[-1].headers["retry-after"]) >= 1


# --- signing out ---------------------------------------------------------------------------------


def test_signing_out_ends_this_devices_token_and_only_it(tmp_path: Path) -> None:
    passkey = SoftAuthenticator()
    with _app(tmp_path, None) as client:
        grant = guest(client)
        assert register(client, grant["player_token"], passkey).status_code == 200
        devices = []
        for _ in range(2):
            ceremony = begin_sign_in(client)
            devices.append(
                finish_sign_in(client, ceremony, passkey.get(ceremony["options"])).json()
            )
        phone, laptop = devices
        # Creating a table keeps the session in the token it gives back.
        kept = client.post(
            "/api/tables", json={"name": "Ada", "player_token": phone["player_token"]}
        ).json()["player_token"]
        out = client.post("/api/account/sign-out", headers=bearer(phone["player_token"]))
        assert out.json() == {"signed_out": True}
        for token in (phone["player_token"], kept):
            refused(client.get("/api/account", headers=bearer(token)), 401, "bad_token")
            create = client.post("/api/tables", json={"name": "Ada", "player_token": token})
            refused(create, 401, "bad_token", "player_token")
        assert client.get("/api/account", headers=bearer(laptop["player_token"])).status_code == 200
        # A guest's token has no session: nothing to sign out of.
        other = guest(client, "Bob")["player_token"]
        assert client.post("/api/account/sign-out", headers=bearer(other)).json() == {
            "signed_out": False
        }
    with _app(tmp_path, None) as restarted:  # kept in the database
        refused(restarted.get("/api/account", headers=bearer(kept)), 401, "bad_token")
        assert (
            restarted.get("/api/account", headers=bearer(laptop["player_token"])).status_code == 200
        )


def test_the_relying_party_is_the_servers_config(tmp_path: Path) -> None:
    with _app(tmp_path, None) as client:
        assert client.get("/api/account/relying-party").json() == {"id": "localhost", "name": "DOS"}
    rp = RelyingParty.from_environment({"DOS_RP_ID": "dos.example.org"})
    assert rp.allows("https://dos.example.org") and not rp.allows("http://localhost:8000")
    assert not rp.allows("https://dos.example.org.evil.example")
    with pytest.raises(ValueError, match="DOS_ORIGINS"):
        RelyingParty.from_environment({"DOS_RP_ID": "x.org", "DOS_ORIGINS": "https://x.org/"})
