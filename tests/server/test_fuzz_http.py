"""The HTTP API fuzzed from its own OpenAPI document (schemathesis), and explicit bad
requests: never a 5xx; every bad request gets a 4xx JSON body
``{"code": "...", "message": "...", "field": "..." or null}``.

The fuzzing runs against the shared test server (``server`` fixture): its OpenAPI document is
read from ``/openapi.json``; each operation gets a bounded number of generated requests, valid
and invalid (``derandomize``: the same requests every run).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from server.support import HTTP, TIMEOUT, ServerProcess, create_table

# --- schemathesis -------------------------------------------------------------------------------
#
# Schemathesis' own pytest integration (``schema.parametrize()``, ``from_fixture``) needs a
# pytest internal that pytest 9 no longer has (``Function._nodeid``), so each operation's
# strategy (``APIOperation.as_strategy``) is run under hypothesis' ``given`` here, in both
# generation modes: requests that fit the document, and requests that do not.

NO_INPUT = [
    ("GET", "/api/learn"),
    ("GET", "/api/health"),
    ("GET", "/api/info"),
    ("GET", "/api/agent/seat"),
    ("POST", "/api/agent/seat/start"),
    ("POST", "/api/agent/seat/leave"),
    ("GET", "/api/agent/seat/record"),
    ("GET", "/api/account/relying-party"),
    ("POST", "/api/account/sign-in/begin"),
]
"""The operations without any input: only requests that fit the document (every other
operation's parameters and body have a type, bounds or a pattern to get wrong)."""
OPERATIONS = [
    ("GET", "/api/health"),
    ("GET", "/api/info"),
    ("GET", "/api/tables"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{code}"),
    ("POST", "/api/tables/{code}/join"),
    ("GET", "/api/tables/{code}/games"),
    ("GET", "/api/games/{game_id}/record"),
    ("GET", "/api/games/{game_id}/replay"),
    ("POST", "/api/games/{game_id}/review"),
    ("GET", "/api/games/{game_id}/review"),
    ("GET", "/api/players/{player_id}/results"),
    ("GET", "/api/leaderboard"),
    ("GET", "/api/players/{player_id}"),
    ("GET", "/api/i18n/{lang}"),
    ("GET", "/api/i18n/{lang}/{namespace}"),
    ("GET", "/api/learn"),
    ("POST", "/api/learn/{lesson_id}"),
    ("GET", "/api/agent/seat"),
    ("POST", "/api/agent/seat/actions"),
    ("POST", "/api/agent/seat/start"),
    ("POST", "/api/agent/seat/leave"),
    ("GET", "/api/agent/seat/wait"),
    ("GET", "/api/agent/seat/record"),
    ("GET", "/api/agent/rules/{name}"),
    ("GET", "/api/account/relying-party"),
    ("GET", "/api/account"),
    ("POST", "/api/account/passkeys/begin"),
    ("POST", "/api/account/passkeys/finish"),
    ("DELETE", "/api/account/passkeys/{credential_id}"),
    ("POST", "/api/account/recovery"),
    ("POST", "/api/account/sign-in/begin"),
    ("POST", "/api/account/sign-in/finish"),
    ("POST", "/api/account/sign-in/recovery"),
    ("POST", "/api/account/sign-out"),
    ("GET", "/api/friends"),
    ("POST", "/api/friends/pulse"),
    ("PUT", "/api/friends/presence"),
    ("PUT", "/api/friends/follows/{player_id}"),
    ("DELETE", "/api/friends/follows/{player_id}"),
    ("POST", "/api/friends/challenges"),
    ("POST", "/api/friends/challenges/{challenge_id}/accept"),
    ("POST", "/api/friends/challenges/{challenge_id}/decline"),
    ("DELETE", "/api/friends/challenges/{challenge_id}"),
    ("PUT", "/api/friends/{player_id}"),
    ("DELETE", "/api/friends/{player_id}"),
    ("POST", "/api/queue"),
    ("POST", "/api/queue/status"),
    ("POST", "/api/queue/leave"),
    ("GET", "/api/tournaments"),
    ("POST", "/api/tournaments"),
    ("GET", "/api/tournaments/{tournament_id}"),
    ("POST", "/api/tournaments/{tournament_id}/join"),
    ("POST", "/api/tournaments/{tournament_id}/leave"),
    ("POST", "/api/tournaments/{tournament_id}/start"),
    ("POST", "/api/tournaments/{tournament_id}/drop"),
    ("POST", "/api/tournaments/{tournament_id}/add"),
    ("POST", "/api/tournaments/{tournament_id}/seat"),
    ("GET", "/api/moderation"),
    ("POST", "/api/moderation/relation"),
    ("POST", "/api/moderation/warnings"),
    ("POST", "/api/moderation/blocks"),
    ("DELETE", "/api/moderation/blocks/{player_id}"),
    ("POST", "/api/moderation/mutes"),
    ("DELETE", "/api/moderation/mutes/{player_id}"),
    ("POST", "/api/moderation/reports"),
    ("GET", "/api/admin"),
    ("POST", "/api/admin/actions"),
    ("POST", "/api/admin/tables/{code}/close"),
]
"""The operations of the document (a test below checks that it lists no other)."""

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture(scope="module")
def api_schema(server: ServerProcess) -> Any:
    """The running server's OpenAPI document."""
    return schemathesis.openapi.from_url(f"{server.url}/openapi.json")


def test_the_document_lists_the_operations_fuzzed(api_schema: Any) -> None:
    listed = {
        (result.ok().method.upper(), result.ok().path) for result in api_schema.get_all_operations()
    }
    assert listed == set(OPERATIONS)


FUZZED = [
    (method, path, mode)
    for method, path in OPERATIONS
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode == GenerationMode.POSITIVE or (method, path) not in NO_INPUT
]


@pytest.mark.parametrize(
    ("method", "path", "mode"), FUZZED, ids=[f"{m} {p} {mode.value}" for m, p, mode in FUZZED]
)
def test_the_api_never_fails_with_a_server_error(
    api_schema: Any, server: ServerProcess, method: str, path: str, mode: GenerationMode
) -> None:
    """Generated requests: no 5xx; documented answers fit their schema and content type
    (answers the document does not list, such as 429, are only checked for being no server
    error); a 4xx carries the JSON error body."""
    operation = api_schema[path][method]

    @settings(
        max_examples=15,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a live server: no shrinking
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case: Any) -> None:
        response = case.call(base_url=server.url, timeout=TIMEOUT)
        case.validate_response(response, checks=CHECKS)
        if 400 <= response.status_code < 500 and path != "/api/i18n/{lang}":
            _check_error_body(response)

    check()


# --- the explicit bad requests ----------------------------------------------------------------

ERROR_KEYS = {"code", "message", "field"}


def _check_error_body(response: httpx.Response | Any, field: str | None = "any") -> dict[str, Any]:
    """A 4xx with the JSON error body; ``field`` (unless ``"any"``) is the field it names."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    assert set(body) >= ERROR_KEYS, body
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["message"], str) and body["message"], body
    assert body["field"] is None or isinstance(body["field"], str), body
    if field != "any":
        assert body["field"] == field, body
    return body


def _post(url: str, raw: str) -> httpx.Response:
    """POSTs ``raw`` as the JSON body, byte for byte (escapes stay escapes)."""
    return HTTP.post(
        url,
        content=raw.encode("ascii"),
        headers={"content-type": "application/json"},
        timeout=TIMEOUT,
    )


@pytest.fixture(scope="module")
def lobby(server: ServerProcess) -> dict[str, Any]:
    """A table in the lobby with open seats."""
    return create_table(server.url, name="Host", seats=[None, None, None])


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('{"name": "\\ud800"}', "name"),
        ('{"name": "Ada\\udfff"}', "name"),
        ('{"name": "Ada", "player_token": "\\ud800"}', "player_token"),
        ('{"name": "Ada", "player_token": "v1.\\udbff\\udbff"}', "player_token"),
        ('{"name": "Ada", "turn_seconds": 1e400}', "turn_seconds"),
        ('{"name": "Ada", "turn_seconds": -1e400}', "turn_seconds"),
        ('{"name": "Ada", "turn_seconds": NaN}', "any"),
        ('{"name": "Ada", "options": {"target_score": 1e400}}', "any"),
        ('{"name": "Ada", "options": {"target_score": 99999999999999999999999}}', None),
        ('{"name": "Ada", "seats": [null, "\\ud800"]}', "any"),
        ('{"name": "Ada", "rules": "\\ud800"}', "any"),
        ('{"name": "Ada", "options": {"\\ud800": 1}}', "any"),
        ("[" * 2000 + "]" * 2000, "any"),
        ('{"name": "Ada", "seats": [' + "[" * 1500 + "]" * 1500 + "]}", "any"),
    ],
)
def test_bad_create_bodies_get_a_json_4xx(
    server: ServerProcess, raw: str, field: str | None
) -> None:
    """``field`` ``None``: a body the server may accept; only no 5xx is asked of it."""
    response = _post(f"{server.url}/api/tables", raw)
    if field is None:
        assert response.status_code < 500, (response.status_code, response.text)
        if response.status_code >= 400:
            _check_error_body(response)
    else:
        _check_error_body(response, field)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ('{"name": "\\ud800"}', "name"),
        ('{"name": "Ada", "player_token": "\\ud800"}', "player_token"),
        ('{"name": "Ada", "seat": 9223372036854775808}', "any"),
        ('{"name": "Ada", "seat": 1e400}', "any"),
        ('{"name": "Ada", "seat": -1}', "any"),
    ],
)
def test_bad_join_bodies_get_a_json_4xx(
    server: ServerProcess, lobby: dict[str, Any], raw: str, field: str
) -> None:
    _check_error_body(_post(f"{server.url}/api/tables/{lobby['code']}/join", raw), field)
    table = HTTP.get(f"{server.url}/api/tables/{lobby['code']}", timeout=TIMEOUT).json()
    assert [s["name"] for s in table["seats"]] == ["Host", None, None]


@pytest.mark.parametrize(
    "path",
    [
        f"/api/games/{2**63}/record",
        f"/api/games/{2**63}/replay",
        f"/api/games/{2**64 + 1}/record",
        f"/api/games/-{2**63 + 1}/replay",
        f"/api/games/{10**400}/record",
        "/api/games/1e400/record",
        "/api/games/%00/record",
        "/api/tables/%00",
        "/api/tables/%F0%9F%8E%B2",
        "/api/tables/%ED%A0%80",
        "/api/tables/" + "A" * 300,
        "/api/tables/" + "A" * 300 + "/games",
        "/api/i18n/%00",
        "/api/i18n/" + "x" * 300,
        "/api/i18n/..%2F..%2Fetc%2Fpasswd",
    ],
)
def test_bad_lookups_get_a_json_4xx(server: ServerProcess, path: str) -> None:
    _check_error_body(HTTP.get(server.url + path, timeout=TIMEOUT))


@pytest.mark.parametrize(
    "player_id", ["%00", "p" * 5000, "%ED%A0%80", "%F0%9F%8E%B2", "'; DROP TABLE x; --"]
)
def test_odd_player_ids_are_no_server_error(server: ServerProcess, player_id: str) -> None:
    """An unknown player has no results (an empty list, or a 4xx with the error body)."""
    response = HTTP.get(f"{server.url}/api/players/{player_id}/results", timeout=TIMEOUT)
    assert response.status_code < 500, (response.status_code, response.text)
    if response.status_code >= 400:
        _check_error_body(response)


@pytest.mark.parametrize(
    "path",
    [
        "/static/%00",
        "/static/a%00b.js",
        "/static/" + "a" * 300,
        "/static/" + "a/" * 300,
        "/static/../../../../etc/passwd",
        "/static/..%2F..%2F..%2Fetc%2Fpasswd",
        "/static/%ED%A0%80",
        "/t/%00",
    ],
)
def test_bad_static_paths_are_no_server_error(server: ServerProcess, path: str) -> None:
    response = HTTP.get(server.url + path, timeout=TIMEOUT)
    assert response.status_code < 500, (path, response.status_code, response.text)
    assert "root:" not in response.text  # nothing outside the static folder
    # The client removes dot segments first (``/static/../../etc/passwd`` asks ``/etc/passwd``:
    # a page's address naming nothing, answered with the client's page and 404).
    if response.request.url.path.startswith("/static/"):
        _check_error_body(response)
    elif response.request.url.path == "/etc/passwd":
        assert response.status_code == 404


def test_the_table_list_is_paginated(server: ServerProcess) -> None:
    """docs/protocol.md: ``GET /api/tables?offset=&limit=`` gives one page of the
    public tables and their ``total``; ``limit`` is at most 50; bad paging parameters get a
    4xx with the JSON error body, never a 5xx."""
    for number in range(3):
        create_table(server.url, name=f"P{number}", seats=[None, "easy"], public=True)
    first = HTTP.get(f"{server.url}/api/tables?offset=0&limit=2", timeout=TIMEOUT).json()
    second = HTTP.get(f"{server.url}/api/tables?offset=2&limit=2", timeout=TIMEOUT).json()
    assert len(first["tables"]) == 2 and first["total"] >= 3, first
    assert 1 <= len(second["tables"]) <= 2, second
    codes = {t["code"] for t in first["tables"]}
    assert not codes & {t["code"] for t in second["tables"]}
    clamped = HTTP.get(f"{server.url}/api/tables?limit=51", timeout=TIMEOUT)
    assert clamped.status_code < 500, clamped.text
    if clamped.status_code == 200:  # at most 50 a page: more is refused, or cut to 50
        assert len(clamped.json()["tables"]) <= 50
    else:
        _check_error_body(clamped)
    for query in [
        "?limit=0",
        "?limit=-1",
        f"?limit={2**63}",
        "?limit=abc",
        "?offset=-5",
        "?offset=x",
        "?limit=1e400",
        "?offset=%00",
    ]:
        response = HTTP.get(f"{server.url}/api/tables{query}", timeout=TIMEOUT)
        _check_error_body(response)
    for query in [f"?offset={2**63}", f"?offset={10**30}", "?cursor=%00", "?x=" + "z" * 2000]:
        response = HTTP.get(f"{server.url}/api/tables{query}", timeout=TIMEOUT)
        assert response.status_code < 500, (query, response.status_code, response.text)
        if response.status_code >= 400:
            _check_error_body(response)


@pytest.fixture(scope="module")
def limiting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the limits of the two tests below (3 creates and 3 joins a minute, 5
    look-ups a day, a 1 s request deadline and 3 connections a client; set, not the defaults, so
    that a handful of requests reach them). Each test is a client of its own there
    (``loopback``: the limits are per client address)."""
    limits = [
        "create=3/minute",
        "join=3/minute",
        "lookup=5/day",
        "header_seconds=1",
        "client_connections=3",
    ]
    own = ServerProcess(
        tmp_path_factory.mktemp("limited"), None, *[a for x in limits for a in ("--limit", x)]
    )
    own.start()
    yield own
    own.stop()


def test_creates_joins_and_lookups_are_rate_limited_per_client(
    limiting: ServerProcess, loopback: str
) -> None:
    """Past its limit a client gets 429 with the JSON error body ``rate_limited``
    (here 3 creates, 3 joins and 5 look-ups a minute)."""
    transport = httpx.HTTPTransport(local_address=loopback)
    with httpx.Client(base_url=limiting.url, timeout=TIMEOUT, transport=transport) as client:
        body = {"name": "Ada", "seats": [None, None, None, None]}
        creates = [client.post("/api/tables", json=body) for _ in range(10)]
        code = creates[0].json()["code"]
        joins = [client.post(f"/api/tables/{code}/join", json={"name": "Bob"}) for _ in range(10)]
        lookups = [client.get("/api/tables") for _ in range(20)]
    for answers in (creates, joins, lookups):
        assert answers[0].status_code < 400, answers[0].text
        limited = [a for a in answers if a.status_code == 429]
        assert limited, [a.status_code for a in answers]
        assert _check_error_body(limited[0])["code"] == "rate_limited"
        assert all(a.status_code < 500 for a in answers)


def _read_all(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (a reset counts as closed)."""
    sock.settimeout(TIMEOUT)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def test_slow_clients_are_timed_out_and_connections_capped(
    limiting: ServerProcess, loopback: str
) -> None:
    """A request not sent whole in time is answered 408 (or the connection closed),
    and a client past its connection cap has its new connections closed at once (here a
    1 s request deadline and 3 connections a client)."""
    host, port = limiting.url.removeprefix("http://").rsplit(":", 1)

    def connect() -> socket.socket:
        return socket.create_connection(
            (host, int(port)), timeout=TIMEOUT, source_address=(loopback, 0)
        )

    held: list[socket.socket] = []
    try:
        with connect() as slow:
            slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # never finished
            answer = _read_all(slow)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:200]
        with connect() as silent:
            assert _read_all(silent)[:12] in (b"", b"HTTP/1.1 408")
        for _ in range(3):
            sock = connect()
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(TIMEOUT)
            assert sock.recv(12) == b"HTTP/1.1 200"  # served, and kept open (keep-alive)
            held.append(sock)
        with connect() as extra:
            with contextlib.suppress(OSError):
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _read_all(extra) == b"", "a fourth connection of the client was served"
    finally:
        for sock in held:
            sock.close()
