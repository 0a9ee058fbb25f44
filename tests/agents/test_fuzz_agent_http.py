"""The HTTP agent API fuzzed (``/api/agent/...``): every operation of the server's OpenAPI
document under ``/api/agent``, its requests made by schemathesis (that fit the document, and
that do not), sent with a valid seat token, a forged one, another kind of token, or none,
on a table in play. Actions are legal now and then, so that the game moves on.

Invariants, after every request:

- never a 5xx, never a traceback (nor an ``ERROR`` line) in the server's output; a documented
  answer fits its schema and content type; every 4xx is the JSON error body
  ``{"code", "message", "field"}`` with a documented code;
- a forged, foreign or missing token opens no seat: 401 ``bad_token`` or ``expired_token``
  (or a 4xx for the request's other faults), never a seat's view;
- a seat's view holds only that seat's hand: ``hand`` has as many cards as ``hand_sizes``
  gives the seat, the text's ``your hand`` is the same, and, checked at the end against the
  records of the games played, it is the seat's own hand at that version;
- a refused request changes nothing: both seats' version and view stay as they were;
- the server still serves a normal game afterwards (an agent against a bot).

The shared checks (the canonical text, the JSON view, the records, the forged tokens) are
those of ``tests/server/test_fuzz_mcp.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import given
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from server.support import ServerProcess, create_table, join_table
from server.test_fuzz_mcp import (
    MAX_WAIT,
    SHORT_WAIT,
    TOKEN_KINDS,
    VALID_TOKENS,
    Watch,
    check_hands_against_records,
    check_text,
    check_view,
    forge,
    fuzz_settings,
)

TIMEOUT = 15.0
"""Seconds a request may take (a long poll of a real seat is kept under a second)."""

OPERATIONS = [
    ("GET", "/api/agent/seat"),
    ("POST", "/api/agent/seat/actions"),
    ("POST", "/api/agent/seat/start"),
    ("GET", "/api/agent/seat/wait"),
    ("GET", "/api/agent/seat/record"),
    ("GET", "/api/agent/rules/{name}"),
]
"""The agent API's operations fuzzed (a test below checks that the document has no other)."""
NOT_FUZZED = [("POST", "/api/agent/seat/leave")]
"""Listed, not fuzzed on the shared table: leaving hands a seat to the stand-in bot, which then
moves the game on its own (tests/agents/test_leave.py tests it)."""
SEAT_PATHS = {path for _, path in OPERATIONS if path.startswith("/api/agent/seat")}
"""The operations that act for the seat of the token."""
NO_INPUT = {("GET", "/api/agent/seat"), ("POST", "/api/agent/seat/start")}
"""Operations without parameters or body: only requests that fit the document."""

ERROR_CODES = {
    "bad_request",
    "bad_json",
    "bad_name",
    "bad_seat",
    "notation",
    "bad_token",
    "expired_token",
    "not_your_seat",
    "not_host",
    "not_seated",
    "no_table",
    "no_seat",
    "stale",
    "not_playing",
    "bad_state",
    "illegal",
    "not_found",
    "method_not_allowed",
    "too_big",
    "unsupported_media_type",
}
"""The codes of a refused agent request (docs/agents.md, docs/protocol.md); never
``internal`` (a bug), ``storage`` (a database failure) nor ``rate_limited`` (no limits here)."""

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]

HEADER_FORMS = [
    ("Bearer {}", True),
    ("Bearer {}", True),
    ("Bearer {}", True),
    ("Bearer {}", True),
    ("bearer {}", True),
    ("BEARER  {}", True),
    ("Basic {}", False),
    ("Digest {}", False),
    ("{}", False),
    ("Bearer\t{}", False),
]
"""How the token is sent in ``Authorization``, and whether the form opens the seat of a
valid token."""


class Table:
    """The fuzzed table (two guests, playing, to 1 point: a game ends now and then and the
    host deals a rematch) and a table in its lobby (a guest at seat 1)."""

    def __init__(self, server: ServerProcess) -> None:
        self.url = server.url
        host = create_table(server.url, name="Ada", seats=[None, None], options={"target_score": 1})
        guest = join_table(server.url, host["code"], "Bob")
        lobby = create_table(server.url, name="Cy", seats=[None, None, None])
        lobby_guest = join_table(server.url, lobby["code"], "Di")
        self.code, self.lobby_code = host["code"], lobby["code"]
        self.seats: dict[str, tuple[str, int]] = {
            "host": (host["token"], 0),
            "guest": (guest["token"], 1),
            "lobby": (lobby_guest["token"], 1),
        }
        self.player_token: str = host["player_token"]
        self.http = httpx.Client(base_url=server.url, timeout=TIMEOUT)
        started = self.agent("POST", "/api/agent/seat/start", "host")
        assert started.status_code == 200, started.text
        self.samples: set[tuple[int, int, int, tuple[str, ...]]] = set()
        self.views = self.look()

    def token(self, kind: str) -> str:
        if kind in self.seats:
            return self.seats[kind][0]
        if kind == "player":
            return self.player_token
        return forge(self.seats["host"][0], kind, self.seats["guest"][0], self.lobby_code)

    def agent(self, method: str, path: str, kind: str, **kwargs: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.token(kind)}"}
        return self.http.request(method, path, headers=headers, **kwargs)

    def sample(self, answer: dict[str, Any], seat: int) -> None:
        """Checks a seat's ``AgentView`` and keeps its hand for the records."""
        found = check_view(answer, seat)
        text = check_text(answer["text"], seat)
        if found is None:
            assert text is None
            return
        assert text is not None and (text[1], text[2]) == (found[1], found[2])
        assert sorted(answer["view"]["legal"]) == sorted(a["action"] for a in answer["legal"])
        self.samples.add((found[0], found[1], seat, tuple(found[2])))

    def look(self) -> dict[str, dict[str, Any]]:
        """Both seats' views, checked."""
        views = {}
        for kind in ("host", "guest"):
            answer = self.agent("GET", "/api/agent/seat", kind)
            assert answer.status_code == 200, answer.text
            views[kind] = answer.json()
            self.sample(views[kind], self.seats[kind][1])
        return views

    def finish(self, rng: random.Random) -> None:
        """Plays the game on to its end (both seats, at random, DOS calls first)."""
        for _ in range(5000):
            views = self.look()
            if views["host"]["result"] is not None:
                self.views = views
                return
            for kind, view in views.items():
                legal = view["view"]["legal"]
                calls = [a for a in legal if a.endswith("dos")]
                turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
                if calls or (turn and view["view"]["turn"] == self.seats[kind][1]):
                    move = {"action": calls[0] if calls else rng.choice(turn)}
                    move["version"] = view["version"]
                    answer = self.agent("POST", "/api/agent/seat/actions", kind, json=move)
                    assert answer.status_code == 200, answer.text
                    break
        raise AssertionError("the game did not end")


def _guard_wait(query: dict[str, Any]) -> None:
    """A long poll of a real seat is kept short: a timeout the server would wait out for over
    ``SHORT_WAIT`` (none given: 30 s) becomes ``SHORT_WAIT``."""
    value = query.get("timeout", MAX_WAIT)
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return
    if SHORT_WAIT < seconds <= MAX_WAIT:
        query["timeout"] = SHORT_WAIT


def content_type(response: Any) -> str:
    """The content type of schemathesis' answer (its headers are lists)."""
    found = {k.lower(): v for k, v in response.headers.items()}.get("content-type", [""])
    return str(found[0] if isinstance(found, list) else found)


def check_error_body(response: Any, what: str) -> dict[str, Any]:
    """A 4xx with the JSON error body and a documented code."""
    assert content_type(response).startswith("application/json"), what
    body: dict[str, Any] = response.json()
    assert {"code", "message", "field"} <= set(body), (body, what)
    assert body["code"] in ERROR_CODES, (body, what)
    assert isinstance(body["message"], str) and body["message"], (body, what)
    assert body["field"] is None or isinstance(body["field"], str), (body, what)
    return body


def play_a_bot_game(url: str, rng: random.Random) -> dict[str, Any]:
    """An agent plays a whole game against an easy bot (to 1 point); the result."""
    with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        table = {"name": "After", "seats": [None, "easy"], "options": {"target_score": 1}}
        grant = http.post("/api/tables", json=table).json()
        http.headers["authorization"] = f"Bearer {grant['token']}"
        seat = http.post("/api/agent/seat/start").json()
        for _ in range(3000):
            if seat["result"] is not None:
                result: dict[str, Any] = seat["result"]
                return result
            legal = seat["view"]["legal"]
            calls = [a for a in legal if a.endswith("dos")]
            turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
            if calls or turn:
                move = {"action": calls[0] if calls else rng.choice(turn)}
                answer = http.post("/api/agent/seat/actions", json={**move, **_at(seat)})
                if answer.status_code == 200:
                    seat = answer.json()
                    continue
            since = {**_at(seat), "change": seat["change"], "until": "turn", "timeout": 5}
            seat = http.get("/api/agent/seat/wait", params=since).json()
    raise AssertionError("the game against the bot did not end")


def _at(seat: dict[str, Any]) -> dict[str, Any]:
    return {"version": seat["version"]}


# --- the properties ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own: its output is this module's alone (instant bots, no limits)."""
    process = ServerProcess(tmp_path_factory.mktemp("agent-fuzz"), None)
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def api_schema(fuzz_server: ServerProcess) -> Any:
    """The running server's OpenAPI document."""
    return schemathesis.openapi.from_url(f"{fuzz_server.url}/openapi.json")


@pytest.fixture(scope="module")
def table(fuzz_server: ServerProcess) -> Iterator[Table]:
    played = Table(fuzz_server)
    yield played
    played.http.close()


def test_the_document_lists_the_agent_operations_fuzzed(api_schema: Any) -> None:
    listed = {
        (result.ok().method.upper(), result.ok().path) for result in api_schema.get_all_operations()
    }
    agent = {(m, p) for m, p in listed if p.startswith("/api/agent/")}
    assert agent == set(OPERATIONS + NOT_FUZZED)


_tokens = st.integers(0, 9).flatmap(
    lambda weight: (
        st.sampled_from(["host", "guest"])
        if weight < 6
        else st.just("lobby")
        if weight == 6
        else st.sampled_from([k for k in TOKEN_KINDS if k not in VALID_TOKENS])
        if weight < 9
        else st.one_of(
            st.just("none"),
            st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=80).map(
                lambda text: "text:" + text
            ),
        )
    )
)
"""Whose token the request carries: a seat's, a forgery or another token (``forge``), none,
or made-up text."""

FUZZED = [
    (method, path, mode)
    for method, path in OPERATIONS
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode == GenerationMode.POSITIVE or (method, path) not in NO_INPUT
]


@pytest.mark.parametrize("fuzzed", FUZZED, ids=[f"{m} {p} {mode.value}" for m, p, mode in FUZZED])
def test_any_agent_request(
    api_schema: Any,
    fuzz_server: ServerProcess,
    table: Table,
    fuzzed: tuple[str, str, GenerationMode],
) -> None:
    """Generated requests of one operation, with every kind of token: the module's
    invariants hold after each."""
    method, path, mode = fuzzed
    operation = api_schema[path][method]
    watch = Watch(fuzz_server)

    @fuzz_settings(40)
    @given(
        case=operation.as_strategy(generation_mode=mode),
        kind=_tokens,
        form=st.sampled_from(HEADER_FORMS),
        legal=st.integers(0, 99),
    )
    def check(case: Any, kind: str, form: tuple[str, bool], legal: int) -> None:
        step(table, case, kind, form, legal)
        watch.check(f"{method} {path}")

    check()


def step(table: Table, case: Any, kind: str, form: tuple[str, bool], legal: int) -> None:
    """Sends one generated request with the token of ``kind`` and checks every invariant."""
    if table.views["host"]["result"] is not None and legal % 2:  # a rematch, now and then
        assert table.agent("POST", "/api/agent/seat/start", "host").status_code == 200
        table.views = table.look()
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
    case.headers = headers
    opens = kind in VALID_TOKENS and form[1]
    if opens and kind != "lobby" and case.path == "/api/agent/seat/actions" and legal < 40:
        # A legal action, by a seat that has one (the caller's, if it has).
        movers = [k for k in (kind, "host", "guest") if (table.views[k]["view"] or {}).get("legal")]
        if movers:
            kind = movers[0]
            view = table.views[kind]
            moves = view["view"]["legal"]
            case.body = {"action": moves[legal % len(moves)], "version": view["version"]}
    caller = kind if opens and kind in ("host", "guest") else None
    sent: dict[str, str] = {}
    if kind.startswith("text:"):
        sent["authorization"] = "Bearer " + kind.removeprefix("text:")
    elif kind != "none":
        sent["authorization"] = form[0].format(table.token(kind))
    if opens and case.path == "/api/agent/seat/wait" and isinstance(case.query, dict):
        _guard_wait(case.query)
    what = f"{case.method} {case.formatted_path} {case.query} {str(case.body)[:200]} ({kind})"
    response = case.call(headers=sent, timeout=TIMEOUT)
    case.validate_response(response, checks=CHECKS)
    status = response.status_code
    if 400 <= status < 500:
        body = check_error_body(response, what)
        if status == 401:
            assert body["code"] in ("bad_token", "expired_token"), (body, what)
    if case.path in SEAT_PATHS:
        if not opens:
            assert status >= 400, f"a seat was opened: {what}"
        elif status == 200 and case.path != "/api/agent/seat/record":
            seat = table.seats[kind][1]
            answer = response.json()
            history = (answer["view"] or {}).pop("history", None)
            if history is not None:  # asked for: the game's actions, public (docs/agents.md)
                asked = str((case.query or {}).get("history")).lower()
                assert asked in ("true", "1", "on", "yes", "t", "y"), what
                assert all(isinstance(action, str) for action in history), what
            if kind == "lobby":
                assert answer["code"] == table.lobby_code
                check_view(answer, seat)
                check_text(answer["text"], seat)
            else:
                assert answer["code"] == table.code
                table.sample(answer, seat)
    before = table.views
    table.views = table.look()
    acted = (
        caller is not None
        and status == 200
        and case.path in ("/api/agent/seat/actions", "/api/agent/seat/start")
    )
    for who in ("host", "guest"):
        now, then = table.views[who], before[who]
        if not acted:
            assert now["version"] == then["version"], (who, what)
            assert now["view"] == then["view"], (who, what)
        elif case.path == "/api/agent/seat/actions":
            assert now["version"] == then["version"] + 1, (who, what)


def test_a_body_over_the_limit_gets_the_json_error_body(table: Table) -> None:
    move = {"action": "x" * 20000, "version": 0}
    response = table.agent("POST", "/api/agent/seat/actions", "host", json=move)
    assert response.status_code == 413
    check_error_body(response, "a body of 20 kB")


def test_the_hands_shown_were_the_seats_own_and_a_game_is_still_served(
    fuzz_server: ServerProcess, table: Table
) -> None:
    """After the fuzzing (this test runs last in the module): the game is played to its
    end, every hand the agent API showed is checked against the records, and an agent plays
    a game against a bot."""
    watch = Watch(fuzz_server)
    rng = random.Random(9)
    table.finish(rng)
    checked = check_hands_against_records(fuzz_server.url, table.code, set(), table.samples)
    assert checked >= 20, checked
    result = play_a_bot_game(fuzz_server.url, rng)
    assert result["winner"] in (0, 1)
    watch.check("the last game", settle=0.3)
