"""The MCP endpoint fuzzed (``POST /mcp``, streamable HTTP, stateless, one JSON answer per
request): hypothesis-made ``tools/call`` requests of every tool the server lists, with
arguments built from each tool's ``inputSchema`` (valid, wrong-typed, missing, extra, huge,
NaN and Infinity as numbers and as strings, negative and huge integers, odd unicode, deeply
nested values) and seat tokens valid, forged or made up; then malformed JSON-RPC envelopes
(wrong ``jsonrpc``, missing or odd ``id``, batches, params that are no object, unknown
methods, raw text and bytes).

Invariants, after every request:

- never a 5xx, never a traceback (nor an ``ERROR`` line) in the server's output;
- always a JSON body (but ``202 Accepted``, empty, for a notification or a response: a message
  that asks no answer); a JSON-RPC answer is a result or an error; a tool that fails answers
  a result with ``isError`` (a refusal names its code) or a JSON-RPC error, never the SDK's
  bare ``Error executing tool NAME`` (an exception the tool did not expect);
- a forged, foreign or made-up token opens no seat: its call is an error;
- a seat's answer holds only that seat's hand: the text's ``your hand`` and the JSON view's
  ``hand`` have as many cards as ``hand sizes`` gives the seat, and, checked at the end against
  the records of the games played (every hand of every version, replayed), they are the
  seat's own cards at that version; the JSON view has only the keys of a seat view;
- a call that is refused, or that cannot act, changes nothing: both seats' version and view
  stay as they were; an accepted action moves the game by one version;
- the server still serves a normal game afterwards (a game against a bot, over ``/mcp``).

The explicit cases at the end: a ``wait`` whose timeout is no number and a ``GET`` that asks
for an event stream (both bugs until ce202c8), other methods; a prompt that does not exist
(the SDK logged a traceback for it), a body over the limit and one not declared JSON (both
answered as plain text), each a JSON answer now.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agents.test_mcp import TOOLS as LISTED_TOOLS
from dos.agents.text import FORMAT
from server.support import HTTP, ServerProcess, create_table, hands_by_version, join_table
from support import VIEW_KEYS

HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
"""What a streamable-HTTP client sends (``/mcp`` answers JSON, not a stream)."""
CLIENT_TIMEOUT = 15.0
"""Seconds a request may take: a fuzzed ``wait`` is kept under a second (``_guard_wait``)."""
MAX_WAIT = 30.0
"""The longest wait (``dos.agents.service.MAX_WAIT_SECONDS``)."""
SHORT_WAIT = 0.05
"""The longest a fuzzed ``wait`` of a real seat lasts (``_guard_wait``): nothing but the
fuzzed requests moves the fuzzed table (no bots), so a longer one would only time out later."""
BODY_LIMIT = 16384
"""The server reads request bodies up to this many bytes (413 past it: see the explicit case)."""

NOT_FUZZED = {"leave_table"}
"""Listed, not fuzzed on the shared table: leaving hands a seat to the stand-in bot, which then
moves the game on its own (tests/agents/test_leave.py tests it)."""
TOOLS = LISTED_TOOLS - NOT_FUZZED
"""The tools fuzzed: every tool the server lists (``tests/agents/test_mcp.py``) but those."""
ACTING = {"act", "call_dos", "catch", "start_game"}
"""The tools that may change the fuzzed table."""
TEXT_KEYS = {
    "rules",
    "table",
    "status",
    "game",
    "version",
    "change",
    "seat",
    "phase",
    "round",
    "dealer",
    "turn",
    "target score",
    "scores",
    "hand sizes",
    "center row",
    "matched this turn",
    "color bonuses",
    "draw pile",
    "discard top",
    "dos open",
    "penalty cards owed",
    "last round",
    "your hand",
    "result",
}
"""The keys of an official seat's canonical text (docs/agents.md), but ``player N``: only
``your hand`` names cards of a hand."""

METHODS = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "sampling/createMessage",
    "roots/list",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
    "tools/call ",
    "TOOLS/LIST",
    "",
]
"""Methods for the envelopes: MCP's, a client's (the server does not serve them) and near
misses. ``prompts/get`` is left out: its traceback is ``test_prompts_get_of_an_unknown_name``."""


# --- values that are built when sent -------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A value of the fuzzed table, looked up when the request is sent: ``token`` (``host``,
    ``guest``, ``lobby`` or a forgery, see ``Table.token``), ``version`` and ``change`` (the
    table's, plus ``arg``), ``legal`` (the ``arg``-th legal action of the calling seat),
    ``code`` (``game`` or ``lobby``)."""

    kind: str
    arg: Any


@dataclass(frozen=True)
class Big:
    """A long string, ``size`` times ``unit``, cut to fit the body limit (hypothesis would
    otherwise print kilobytes)."""

    size: int
    unit: str


@dataclass(frozen=True)
class Deep:
    """JSON nested ``depth`` deep, written as text when sent (deeper than ``json`` writes)."""

    depth: int
    opener: str
    closer: str


def _deep_text(deep: Deep) -> str:
    inside = "0" if deep.opener.endswith(":") else ""
    return deep.opener * deep.depth + inside + deep.closer * deep.depth


def dumps(value: Any) -> str:
    """``value`` as JSON text: NaN and Infinity as JavaScript writes them, ``Big`` and
    ``Deep`` built (ASCII: every character escaped, lone surrogates included)."""
    built: dict[str, str] = {}

    def walk(item: Any) -> Any:
        if isinstance(item, Big):
            unit = json.dumps(item.unit)[1:-1]
            return unit * max(1, min(item.size, (BODY_LIMIT - 2000) // max(1, len(unit))))
        if isinstance(item, Deep):
            marker = f"\x00deep{len(built)}\x00"
            built[json.dumps(marker)] = _deep_text(item)
            return marker
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    text = json.dumps(walk(value), allow_nan=True)
    for marker, deep in built.items():
        text = text.replace(marker, deep)
    return text


# --- strategies ----------------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_unicode = st.one_of(
    st.text(alphabet="\ud800\udfff\u202e\u200b\x00\ufeff\u0301é€🎲\n\t\\\"'", max_size=20),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.sampled_from(["🎲" * 50, "\u202eAda", "Ada\x00", "\ud83c", "'; DROP TABLE x; --"]),
)
_odd = st.one_of(
    _json,
    _unicode,
    st.sampled_from(
        [
            float("nan"),
            float("inf"),
            float("-inf"),
            "NaN",
            "nan",
            "Infinity",
            "-Infinity",
            "inf",
            "1e400",
            "-0",
            " 1 ",
            "0x10",
            "1_000",
            -1,
            -(2**63) - 1,
            2**63,
            2**64 + 1,
            -(10**40),
            10**400,
            1e308,
            -1e-320,
            True,
            [],
            {},
            "",
        ]
    ),
    st.builds(Big, st.sampled_from([100, 1000, 4096, 12000]), st.sampled_from(["x", "é", "🎲"])),
    st.builds(
        lambda depth, pair: Deep(depth, *pair),
        st.one_of(st.sampled_from([1, 64, 199, 200, 201, 1000, 3000]), st.integers(1, 4000)),
        st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"":', "}]")]),
    ),
)
"""Values of any type but the expected one, or of it at its edges."""

TOKEN_KINDS = [
    "host",
    "guest",
    "lobby",
    "player",
    "other-seat",
    "other-table",
    "other-player",
    "bad-signature",
    "bad-stamp",
    "spliced",
    "truncated",
    "padded",
]
VALID_TOKENS = {"host", "guest", "lobby"}
FORGED_REFUSALS = (
    "refused (bad_token)",
    "refused (expired_token)",
    "refused (no_table)",
    "validation error",
    "refused (bad_request)",
)
"""How a call with a token that opens nothing may fail, but for its other arguments (then
the SDK's ``validation error`` before the tool runs, or the service's ``bad_request``, which
checks an argument such as ``wait``'s timeout before the token, as the HTTP API does)."""
"""Token kinds that open a seat (``lobby``: a guest of another table, still in its lobby)."""


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight says."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


_tokens = weighted(
    (6, st.sampled_from(["host", "guest"]).map(lambda kind: Ref("token", kind))),
    (3, st.sampled_from(TOKEN_KINDS).map(lambda kind: Ref("token", kind))),
    (
        1,
        st.one_of(
            st.text(max_size=60),
            st.builds(lambda t: "v1." + t, st.text(max_size=40)),
            st.sampled_from(["a.b.c", "..", "eyJ0IjoiIn0.x.y", "Bearer x", " " * 10]),
        ),
    ),
)
_actions = weighted(
    (7, st.integers(0, 100).map(lambda i: Ref("legal", i))),
    (
        2,
        st.sampled_from(
            [
                "draw",
                "end",
                "dos",
                "catch 0",
                "catch 1",
                "0: dos",
                "1: draw",
                "R7@0",
                "R7@99",
                "lay B3",
                "place G7",
                "R5+DOS@1",
                "W=G",
                "react 3 100ms",
                "",
            ]
        ),
    ),
    (1, st.text(max_size=40)),
)
_versions = weighted(
    (4, st.sampled_from([0, 0, 0, -1, 1, 3]).map(lambda d: Ref("version", d))),
    (1, st.integers(-5, 10**6)),
)
_changes = st.one_of(
    st.none(), st.sampled_from([0, -1, 1]).map(lambda d: Ref("change", d)), st.integers(-5, 10**6)
)
_levels = st.sampled_from([None, "easy", "medium", "hard", "expert", "sage", "EASY", ""])
SEMANTIC: dict[str, st.SearchStrategy[Any]] = {
    "token": _tokens,
    "version": _versions,
    "change": _changes,
    "action": _actions,
    "seat": st.one_of(st.integers(-1, 4), st.none()),
    "code": st.one_of(
        st.sampled_from(["game", "lobby"]).map(lambda which: Ref("code", which)),
        st.text(max_size=20),
        st.sampled_from(["ZZZZZZ", "abcdef", "A" * 300]),
    ),
    "name": st.one_of(st.sampled_from(["Ada", "Bob", "Claude", " ", ""]), st.text(max_size=70)),
    "rules": st.sampled_from(["official", "classic", "Official", "uno", ""]),
    "bots": st.one_of(st.none(), st.lists(_levels, max_size=5)),
    "target_score": st.one_of(st.none(), st.sampled_from([1, 20, 0, -1, 100000, 100001])),
    "public": st.booleans(),
    "rated": st.booleans(),
    "player_token": st.one_of(
        st.none(), st.just(Ref("token", "player")), st.text(max_size=40), _tokens
    ),
    "options": st.one_of(
        st.none(),
        st.dictionaries(
            st.sampled_from(["target_score", "players", "dealer_starts", "reaction_time_ms", "x"]),
            _scalars,
            max_size=3,
        ),
    ),
    "offset": st.one_of(st.integers(-10, 100), st.integers()),
    "timeout": weighted(
        (3, st.one_of(st.floats(0, 0.3), st.sampled_from([0, "0.1", "0"]))),
        (
            2,
            st.sampled_from(
                ["NaN", float("nan"), "Infinity", float("inf"), float("-inf"), "1e400", 30.5, -1]
            ),
        ),
    ),
    "until": st.sampled_from(["turn", "change", "TURN", "", "always"]),
}
"""Values that mean something to the server, by argument name (a name not here gets values
from its JSON schema)."""


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that fit a tool's JSON schema (what the SDK derives from the tool's types)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of(*[from_schema(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        return st.text(max_size=40)
    if kind == "integer":
        return st.integers(-(2**40), 2**40)
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {})), max_size=4)
    if kind == "object":
        return st.dictionaries(st.text(max_size=10), _scalars, max_size=3)
    return _json


@st.composite
def tool_calls(draw: st.DrawFn, tools: dict[str, dict[str, Any]]) -> tuple[str, Any]:
    """A tool's name and its arguments: all valid (by meaning or by schema; half the calls),
    one of them of another type, at an edge or missing (a third), or each at random; now and
    then extra ones, or no object at all."""
    name = draw(st.sampled_from(sorted(tools)), label="tool")
    schema = tools[name]
    shape = draw(st.integers(0, 19), label="shape")
    if shape == 0:
        return name, draw(
            st.one_of(
                st.none(), _json, st.builds(Deep, st.integers(1, 300), st.just("["), st.just("]"))
            )
        )
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    spoiled = draw(st.sampled_from(sorted(props)), label="spoiled") if props else None
    args: dict[str, Any] = {}
    for prop, sub in props.items():
        if shape >= 16:  # every argument at random
            mode = draw(st.integers(0, 9), label=prop)
        elif shape >= 10 and prop == spoiled:  # one argument odd or missing
            mode = draw(st.integers(7, 9), label=prop)
        elif prop not in required and draw(st.integers(0, 3), label=f"{prop} given") == 0:
            continue  # an optional argument left to its default
        else:
            mode = 0
        if mode <= 6:
            args[prop] = draw(SEMANTIC.get(prop, from_schema(sub)), label=prop)
        elif mode <= 8:
            args[prop] = draw(_odd, label=prop)
        # else: missing
    if shape == 1:
        args.update(draw(st.dictionaries(st.text(max_size=12), _odd, min_size=1, max_size=3)))
    return name, args


_envelope_ids = weighted(
    (6, st.one_of(st.integers(-(2**31), 2**31), st.text(max_size=12))),
    (
        3,
        st.one_of(
            st.none(),
            st.booleans(),
            st.floats(),
            st.lists(st.integers(), max_size=2),
            st.sampled_from([2**64, -(2**70), 10**400, "1", {"id": 1}]),
        ),
    ),
)
_param_fields = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.sampled_from(sorted(TOOLS)), _scalars),
        "arguments": _json,
        "uri": st.one_of(st.sampled_from(["dos://x", "file:///etc/passwd", ""]), _scalars),
        "cursor": _scalars,
        "level": st.sampled_from(["debug", "error", "x"]),
        "protocolVersion": st.sampled_from(["2025-06-18", "2024-11-05", "1999", ""]),
        "capabilities": _json,
        "clientInfo": st.one_of(
            st.fixed_dictionaries({"name": st.text(max_size=10), "version": st.text(max_size=5)}),
            _json,
        ),
        "_meta": _json,
        "requestId": _scalars,
        "progressToken": _scalars,
        "progress": _scalars,
        "reason": _scalars,
    },
)
_params = weighted(
    (6, _param_fields),
    (
        3,
        st.one_of(
            st.none(),
            _json,
            st.builds(
                lambda depth, pair: Deep(depth, *pair),
                st.integers(1, 3000),
                st.sampled_from([("[", "]"), ('{"a":', "}")]),
            ),
        ),
    ),
)


@st.composite
def envelopes(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON-RPC message, most of it well formed (a request), some of it not."""
    message: dict[str, Any] = {}
    if draw(st.integers(0, 9), label="jsonrpc?") < 8:
        message["jsonrpc"] = "2.0"
    elif draw(st.booleans(), label="has jsonrpc"):
        message["jsonrpc"] = draw(
            st.one_of(st.sampled_from(["1.0", "2", "2.0 ", 2.0, 2]), _scalars)
        )
    if draw(st.integers(0, 9), label="id?") < 8:
        message["id"] = draw(_envelope_ids)
    if draw(st.integers(0, 9), label="method?") < 9:
        message["method"] = draw(
            weighted((8, st.sampled_from(METHODS)), (1, st.text(max_size=20)), (1, _scalars))
        )
    if draw(st.integers(0, 9), label="params?") < 7:
        message["params"] = draw(_params)
    if draw(st.integers(0, 19), label="response?") == 0:
        message[draw(st.sampled_from(["result", "error"]))] = draw(_json)
    if draw(st.integers(0, 19), label="extra?") == 0:
        message.update(draw(st.dictionaries(st.text(max_size=8), _json, max_size=2)))
    return message


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str, Any]:
    """A request body: ``("json", value)`` (a message, a batch, or any JSON), ``("text",
    str)``, ``("bytes", bytes)`` or ``("deep", Deep)``."""
    kind = draw(st.integers(0, 11), label="kind")
    if kind <= 6:
        return "json", draw(envelopes())
    if kind == 7:
        return "json", draw(st.lists(envelopes(), max_size=3))
    if kind == 8:
        return "json", draw(_json)
    if kind == 9:
        return "text", draw(st.text(max_size=200))
    if kind == 10:
        return "bytes", draw(st.binary(max_size=200))
    return "deep", draw(
        st.builds(
            lambda depth, pair: Deep(depth, *pair),
            st.integers(1, 5000),
            st.sampled_from(
                [("[", "]"), ('{"a":', "}"), ('{"jsonrpc":"2.0","id":1,"params":', "}")]
            ),
        )
    )


# --- the client and the checks -------------------------------------------------------------------


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a live server: no shrinking
        suppress_health_check=list(HealthCheck),
    )


class Watch:
    """The server's output since the last look: no traceback, no ``ERROR`` line."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.seen = len(server.output)

    def check(self, what: str, settle: float = 0.0) -> None:
        if settle:
            time.sleep(settle)
        lines = self.server.output[self.seen :]
        self.seen += len(lines)
        bad = [i for i, line in enumerate(lines) if "Traceback" in line or line.startswith("ERROR")]
        assert not bad, f"the server logged a failure after {what}:\n" + "".join(lines[bad[0] :])


class Mcp:
    """Raw JSON-RPC over ``POST /mcp``."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=CLIENT_TIMEOUT, headers=HEADERS)
        self.ids = 0

    def close(self) -> None:
        self.http.close()

    def post(self, body: str | bytes, **headers: str) -> httpx.Response:
        return self.http.post("/mcp", content=body, headers=headers or None)

    def request(self, method: str, params: Any) -> httpx.Response:
        self.ids += 1
        return self.post(
            dumps({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        )

    def call(self, tool: str, **args: Any) -> dict[str, Any]:
        """A tool's result (an ``isError`` result too)."""
        answer = self.request("tools/call", {"name": tool, "arguments": args})
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()["result"]
        return result

    def ok(self, tool: str, **args: Any) -> dict[str, Any]:
        """A tool's result, failing on a tool error."""
        result = self.call(tool, **args)
        assert not result["isError"], (tool, args, result["content"])
        return result


def text_of(result: dict[str, Any]) -> str:
    content = result.get("content") or [{}]
    return str(content[0].get("text", ""))


def check_jsonrpc(sent: Any, response: httpx.Response) -> Any:
    """The checks every answer passes; returns its JSON (``None`` for a 202)."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if response.status_code == 202:  # a message that asks no answer
        assert response.content == b"", response.text[:500]
        assert isinstance(sent, dict) and sent.get("jsonrpc") == "2.0", sent
        ident = sent.get("id")
        assert "result" in sent or "error" in sent or not _good_id(ident), sent
        return None
    assert response.headers.get("content-type", "").startswith("application/json"), (
        response.status_code,
        response.headers.get("content-type"),
        response.text[:300],
    )
    body = response.json()
    assert isinstance(body, dict), body
    if "jsonrpc" not in body:  # the server's own error body (a limit, say)
        assert isinstance(body.get("code"), str) and body.get("message"), body
        return body
    assert body["jsonrpc"] == "2.0", body
    assert ("result" in body) != ("error" in body), body
    if "error" in body:
        assert isinstance(body["error"].get("code"), int), body
        assert isinstance(body["error"].get("message"), str), body
    if response.status_code == 200 and isinstance(sent, dict) and _good_id(sent.get("id")):
        assert body["id"] == sent["id"], (sent.get("id"), body["id"])
    return body


def _good_id(ident: Any) -> bool:
    return isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool))


HAND_SIZES = re.compile(r"(\d+):(\d+)")
PAST_LINE = re.compile(r"- \d+ seat \d+: [^|\n]+ \| (you|seat \d+) [^\n]+")
"""A line of ``last actions`` (its words: public facts; another seat's draw never names the
card, the reader's own does)."""


def check_text(text: str, seat: int) -> tuple[int, int, list[str]] | None:
    """Checks a seat's canonical text (only its own hand, as many cards as its hand size;
    the last actions in their grammar, another seat's draw without its card); returns
    ``(game number, version, sorted hand)``, or ``None`` before the first game."""
    lines = text.split("\n")
    assert lines[0] == f"DOS {FORMAT}", text[:200]
    fields: dict[str, str] = {}
    last = lines.index("last actions:")
    legal = lines.index("legal:")
    assert last < legal, text
    for line in lines[1:last]:
        key, _, value = line.partition(": ")
        assert key in TEXT_KEYS or re.fullmatch(r"player \d+", key), line
        fields[key] = value
    for line in lines[last + 1 : legal]:
        assert PAST_LINE.fullmatch(line), line
        if line.split(": ", 1)[1].startswith("draw |") and " | you " not in line:
            assert line.endswith(("drew a card", "the turn is lost")), line  # another's draw
    assert legal - last - 1 <= 20, text
    assert all(line.startswith("- ") for line in lines[legal + 1 :]), text
    assert fields["seat"] == str(seat), (fields["seat"], seat)
    if "your hand" not in fields:
        assert "hand sizes" not in fields and fields["game"] == "0", text
        return None
    hand = [] if fields["your hand"] == "-" else fields["your hand"].split()
    sizes = {int(s): int(n) for s, n in HAND_SIZES.findall(fields["hand sizes"])}
    assert sizes[seat] == len(hand), (sizes, hand)
    return int(fields["game"]), int(fields["version"]), sorted(hand)


def check_view(answer: dict[str, Any], seat: int) -> tuple[int, int, list[str]] | None:
    """Checks a seat's JSON view (``look_json``, the agent API's ``AgentView``); returns
    ``(game id, version, sorted hand)``, or ``None`` before the first game."""
    assert answer["seat"] == seat, answer["seat"]
    view = answer["view"]
    if view is None:
        return None
    assert set(view) <= VIEW_KEYS - {"history"}, set(view) - VIEW_KEYS
    assert view["seat"] == seat
    assert len(view["hand"]) == view["hand_sizes"][seat], view
    return int(answer["table"]["game_id"]), int(answer["version"]), sorted(view["hand"])


def check_hands_against_records(
    url: str,
    code: str,
    by_number: set[tuple[int, int, int, tuple[str, ...]]],
    by_id: set[tuple[int, int, int, tuple[str, ...]]],
) -> int:
    """Every hand an answer showed is its seat's own at that version, by the records of the
    table's finished games (``by_number``: game number, version, seat, hand; ``by_id``: the
    same by game id); returns how many were checked."""
    games = HTTP.get(f"{url}/api/tables/{code}/games", timeout=CLIENT_TIMEOUT).json()["games"]
    numbers = {g["number"]: g["game_id"] for g in games}
    checked = 0
    for game in games:
        if game["status"] != "finished":
            continue
        record = HTTP.get(f"{url}/api/games/{game['game_id']}/record", timeout=CLIENT_TIMEOUT)
        hands = hands_by_version(record.text)
        for number, version, seat, hand in by_number:
            if numbers.get(number) == game["game_id"]:
                assert list(hand) == hands[version][seat], (number, version, seat)
                checked += 1
        for game_id, version, seat, hand in by_id:
            if game_id == game["game_id"]:
                assert list(hand) == hands[version][seat], (game_id, version, seat)
                checked += 1
    return checked


# --- the fuzzed tables ---------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def forge(token: str, kind: str, other: str, lobby_code: str) -> str:
    """A token that must open nothing, made from a real one (``payload.stamp.signature``)."""
    payload, stamp, signature = token.split(".")
    claim = json.loads(_unb64(payload))
    if kind == "other-seat":
        claim["s"] = 1 - int(claim.get("s", 0))
    elif kind == "other-table":
        claim["t"] = lobby_code
    elif kind == "other-player":
        claim["p"] = "p_" + "A" * 12
    elif kind == "bad-signature":
        return f"{payload}.{stamp}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    elif kind == "bad-stamp":
        return f"{payload}.{_b64(b'0000')}.{signature}"
    elif kind == "spliced":
        head, *_ = other.split(".")
        return f"{head}.{stamp}.{signature}"
    elif kind == "truncated":
        return token[:-5]
    elif kind == "padded":
        return token + "x"
    return f"{_b64(json.dumps(claim, separators=(',', ':')).encode())}.{stamp}.{signature}"


class Table:
    """The fuzzed table (two guests, playing, to 1 point: a game ends now and then and the
    host deals a rematch) and a table in its lobby (a guest at seat 1, seats 2 and 3 open)."""

    def __init__(self, server: ServerProcess, mcp: Mcp) -> None:
        self.server = server
        self.mcp = mcp
        host = create_table(server.url, name="Ada", seats=[None, None], options={"target_score": 1})
        guest = join_table(server.url, host["code"], "Bob")
        self.code = host["code"]
        self.seats: dict[str, tuple[str, int]] = {
            "host": (host["token"], 0),
            "guest": (guest["token"], 1),
        }
        lobby = create_table(server.url, name="Cy", seats=[None, None, None, None])
        lobby_guest = join_table(server.url, lobby["code"], "Di")
        self.lobby_code = lobby["code"]
        self.seats["lobby"] = (lobby_guest["token"], 1)
        self.player_token: str = host["player_token"]
        self.mcp.ok("start_game", token=host["token"])
        self.by_number: set[tuple[int, int, int, tuple[str, ...]]] = set()
        self.by_id: set[tuple[int, int, int, tuple[str, ...]]] = set()
        self.views = self.look()

    def token(self, kind: str) -> str:
        if kind in self.seats:
            return self.seats[kind][0]
        if kind == "player":
            return self.player_token
        host, guest = self.seats["host"][0], self.seats["guest"][0]
        return forge(host, kind, guest, self.lobby_code)

    def look(self) -> dict[str, dict[str, Any]]:
        """Both seats' ``look_json``, checked."""
        views = {}
        for kind in ("host", "guest"):
            token, seat = self.seats[kind]
            answer = self.mcp.ok("look_json", token=token)["structuredContent"]
            sample = check_view(answer, seat)
            if sample is not None:
                self.by_id.add((sample[0], sample[1], seat, tuple(sample[2])))
            views[kind] = answer
        return views

    def resolve(self, tool: str, args: Any) -> tuple[Any, str | None]:
        """The arguments with their ``Ref`` values looked up; the token's kind (``None``:
        no token, or one the fuzz made up)."""
        if not isinstance(args, dict):
            return args, None
        kind = args["token"].arg if isinstance(args.get("token"), Ref) else None
        caller = kind if kind in ("host", "guest") else "host"
        view = self.views[caller]
        out: dict[str, Any] = {}
        for key, value in args.items():
            if not isinstance(value, Ref):
                out[key] = value
            elif value.kind == "token":
                out[key] = self.token(value.arg)
            elif value.kind == "version":
                out[key] = view["version"] + value.arg
            elif value.kind == "change":
                out[key] = view["change"] + value.arg
            elif value.kind == "legal":
                legal = view["view"]["legal"] if view["view"] else []
                out[key] = legal[value.arg % len(legal)] if legal else "draw"
            else:
                out[key] = self.code if value.arg == "game" else self.lobby_code
        if tool == "wait" and kind in VALID_TOKENS:
            _guard_wait(out)
        return out, kind

    def step(self, tool: str, args: Any) -> None:
        """Calls the tool with fuzzed arguments and checks every invariant."""
        sent, kind = self.resolve(tool, args)
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
        message["params"] = {"name": tool, "arguments": sent}
        body = dumps(message)
        what = f"tools/call {tool} {body[:400]}"
        started = time.monotonic()
        response = self.mcp.post(body)
        assert time.monotonic() - started < CLIENT_TIMEOUT - 5, what
        if len(body.encode()) > BODY_LIMIT:
            assert response.status_code == 413, what
            return
        answer = check_jsonrpc(message, response)
        assert answer is not None, what
        result = answer.get("result")
        failed = result is None or result["isError"]
        if result is not None:
            text = text_of(result)
            assert text != f"Error executing tool {tool}", f"an unexpected failure of {what}"
        if kind is not None and kind not in VALID_TOKENS:
            assert failed, f"a forged token ({kind}) was served: {what}"
            if result is not None:
                assert any(why in text_of(result) for why in FORGED_REFUSALS), what
        if not failed and kind in VALID_TOKENS:
            seat = self.seats[kind][1]
            assert result is not None
            text = text_of(result)
            if text.startswith(f"DOS {FORMAT}\n"):
                assert result["structuredContent"]["text"] == text, what
                sample = check_text(text, seat)
                if sample is not None and kind != "lobby":
                    self.by_number.add((sample[0], sample[1], seat, tuple(sample[2])))
            if tool == "look_json":
                sample = check_view(result["structuredContent"], seat)
                if sample is not None and kind != "lobby":
                    self.by_id.add((sample[0], sample[1], seat, tuple(sample[2])))
        before = self.views
        self.views = self.look()
        acted = tool in ACTING and not failed and kind in ("host", "guest")
        for who in ("host", "guest"):
            now, then = self.views[who], before[who]
            if not acted:
                assert now["version"] == then["version"], (who, what)
                assert now["view"] == then["view"], (who, what)
            elif tool != "start_game":
                # DOS with the move (docs/protocol.md): a move that leaves its seat an open DOS
                # obligation is followed by the seat's call, committed with it: two versions.
                steps = now["version"] - then["version"]
                if sent.get("dos") is True and steps == 2:
                    actor = self.views[kind]["view"]
                    assert actor and len(actor["hand"]) == 2, (who, what)  # its call followed
                else:
                    assert steps == 1, (who, what)

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
                    action = calls[0] if calls else rng.choice(turn)
                    token = self.seats[kind][0]
                    self.mcp.ok("act", token=token, action=action, version=view["version"])
                    break
        raise AssertionError("the game did not end")


def _guard_wait(args: dict[str, Any]) -> None:
    """A ``wait`` of a real seat is kept short: a timeout the server would wait out for over
    ``SHORT_WAIT`` (up to 30 s, or none given: 30 s) becomes ``SHORT_WAIT``. Anything else
    (NaN, Infinity, over 30, negative, not a number) it refuses at once."""
    value = args.get("timeout", 30.0)
    seconds = math.nan
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            seconds = float(value.strip())
    if SHORT_WAIT < seconds <= MAX_WAIT:
        args["timeout"] = SHORT_WAIT


def play_a_bot_game(mcp: Mcp, rng: random.Random) -> str:
    """A whole game against an easy bot over ``/mcp`` (to 1 point); the final text."""
    grant = text_of(mcp.ok("create_table", name="After", bots=["easy"], target_score=1))
    found = re.search(r"^token: (\S+)$", grant, re.MULTILINE)
    assert found, grant
    token = found.group(1)
    mcp.ok("start_game", token=token)
    for _ in range(3000):
        seat = mcp.ok("look_json", token=token)["structuredContent"]
        if seat["result"] is not None:
            return text_of(mcp.ok("look", token=token))
        legal = seat["view"]["legal"]
        calls = [a for a in legal if a.endswith("dos")]
        turn = [a for a in legal if ":" not in a and not a.startswith("catch")]
        if calls or turn:
            action = calls[0] if calls else rng.choice(turn)
            mcp.call("act", token=token, action=action, version=seat["version"])
        else:
            since = {"version": seat["version"], "change": seat["change"], "timeout": 5}
            mcp.ok("wait", token=token, **since)
    raise AssertionError("the game against the bot did not end")


# --- the properties ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mcp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own: its output is this module's alone (instant bots, no limits)."""
    process = ServerProcess(tmp_path_factory.mktemp("mcp-fuzz"), None)
    process.start()
    yield process
    process.stop()


@pytest.fixture
def mcp(mcp_server: ServerProcess) -> Iterator[Mcp]:
    client = Mcp(mcp_server.url)
    yield client
    client.close()


def listed_tools(mcp: Mcp) -> dict[str, dict[str, Any]]:
    answer = mcp.request("tools/list", {})
    return {t["name"]: t["inputSchema"] for t in answer.json()["result"]["tools"]}


def test_the_server_lists_the_tools_fuzzed(mcp: Mcp) -> None:
    assert set(listed_tools(mcp)) == TOOLS | NOT_FUZZED


def test_any_tool_call(mcp_server: ServerProcess, mcp: Mcp) -> None:
    """Every tool, with fuzzed arguments, on a table in play: the module's invariants hold
    after each call; then the game is played to its end, every hand shown is checked against
    the records, and a game against a bot is played."""
    tools = {name: schema for name, schema in listed_tools(mcp).items() if name in TOOLS}
    watch = Watch(mcp_server)
    table = Table(mcp_server, mcp)

    @fuzz_settings(300)
    @given(call=tool_calls(tools))
    def check(call: tuple[str, Any]) -> None:
        table.step(*call)
        watch.check(f"tools/call {call[0]}")

    check()

    rng = random.Random(3)
    table.finish(rng)
    checked = check_hands_against_records(mcp_server.url, table.code, table.by_number, table.by_id)
    assert checked >= 20, checked
    assert "status: finished" in play_a_bot_game(mcp, rng)
    watch.check("the last game", settle=0.3)


def test_any_envelope(mcp_server: ServerProcess, mcp: Mcp) -> None:
    """Malformed JSON-RPC (and some well formed): the answer invariants hold after each;
    then the server answers ``ping`` and ``tools/list`` and plays a game against a bot."""
    watch = Watch(mcp_server)

    @fuzz_settings(200)
    @given(body=bodies())
    def check(body: tuple[str, Any]) -> None:
        kind, value = body
        if kind == "json":
            raw: str | bytes = dumps(value)
        elif kind == "deep":
            raw = _deep_text(value)
        else:
            raw = value
        response = mcp.post(raw)
        size = len(raw.encode() if isinstance(raw, str) else raw)
        if size > BODY_LIMIT:
            assert response.status_code == 413
        else:
            check_jsonrpc(value if kind == "json" else None, response)
        watch.check(f"the body {str(raw)[:300]!r}")

    check()
    assert mcp.request("ping", {}).json()["result"] == {}
    assert set(listed_tools(mcp)) == TOOLS | NOT_FUZZED
    assert "status: finished" in play_a_bot_game(mcp, random.Random(4))
    watch.check("the last game", settle=0.3)


# --- the explicit cases --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "timeout",
    ["NaN", float("nan"), "nan", "Infinity", float("inf"), float("-inf")],
    ids=["NaN", "nan-number", "nan", "Infinity", "inf-number", "-inf-number"],
)
def test_a_wait_with_a_timeout_that_is_no_number(
    mcp_server: ServerProcess, mcp: Mcp, timeout: Any
) -> None:
    """Refused, or the wait ends with the next change (made 0.5 s later); never a failure
    inside the server (before ce202c8, NaN reached asyncio: uvloop's 'cannot convert float
    NaN to integer', a traceback and a bare 'Error executing tool wait')."""
    watch = Watch(mcp_server)
    host = create_table(mcp_server.url, name="Ada", seats=[None, None])
    guest = join_table(mcp_server.url, host["code"], "Bob")
    mcp.ok("start_game", token=host["token"])
    view = mcp.ok("look_json", token=host["token"])["structuredContent"]
    turn = view["view"]["turn"]
    mover = (host, guest)[turn]

    def move() -> None:
        time.sleep(0.5)
        with httpx.Client(base_url=mcp_server.url, headers=HEADERS) as other:
            arguments = {"token": mover["token"], "action": "draw", "version": view["version"]}
            body = {"name": "act", "arguments": arguments}
            other.post(
                "/mcp",
                content=dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": body}),
            )

    mover_thread = threading.Thread(target=move)
    mover_thread.start()
    args = {"token": guest["token"], "version": view["version"], "until": "change"}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    message["params"] = {"name": "wait", "arguments": {**args, "timeout": timeout}}
    raw = dumps(message)
    response = mcp.post(raw)
    mover_thread.join()
    result = check_jsonrpc(message, response)["result"]
    assert text_of(result) != "Error executing tool wait", text_of(result)
    watch.check(f"a wait with the timeout {timeout}", settle=0.3)


def test_prompts_get_of_an_unknown_name(mcp_server: ServerProcess, mcp: Mcp) -> None:
    watch = Watch(mcp_server)
    response = mcp.request("prompts/get", {"name": "x"})
    body = check_jsonrpc({"jsonrpc": "2.0", "id": mcp.ids}, response)
    assert "error" in body
    watch.check("prompts/get of an unknown name", settle=0.3)


def test_a_body_over_the_limit_gets_a_json_answer(mcp: Mcp) -> None:
    raw = dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "rules", "arguments": {"rules": "x" * 20000}},
        }
    )
    response = mcp.post(raw)
    assert response.status_code == 413
    assert response.headers.get("content-type", "").startswith("application/json"), response.text
    assert isinstance(response.json(), dict)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_declared_json_gets_a_json_answer(
    mcp_server: ServerProcess, content_type: str | None
) -> None:
    headers = {"accept": HEADERS["accept"]}
    if content_type is not None:
        headers["content-type"] = content_type
    raw = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    response = HTTP.post(
        f"{mcp_server.url}/mcp", content=raw, headers=headers, timeout=CLIENT_TIMEOUT
    )
    assert 400 <= response.status_code < 500, response.status_code
    assert response.headers.get("content-type", "").startswith("application/json"), response.text
    assert isinstance(response.json(), dict)


def test_a_get_for_an_event_stream_is_answered_at_once(mcp_server: ServerProcess) -> None:
    """No stream is opened (before ce202c8 it opened one that never ended)."""
    headers = {"accept": "text/event-stream"}
    response = HTTP.get(f"{mcp_server.url}/mcp", headers=headers, timeout=3.0)
    assert response.status_code < 500
    assert response.headers.get("content-type", "").startswith("application/json")


@pytest.mark.parametrize(
    "accept", ["application/json", "text/html", "*/*", "application/json, text/event-stream"]
)
def test_other_methods_get_a_json_answer(mcp_server: ServerProcess, accept: str) -> None:
    """``GET`` without a stream asked for, ``DELETE`` (no sessions), ``PUT``: a JSON 4xx."""
    url = f"{mcp_server.url}/mcp"
    answers = [HTTP.delete(url, headers={"accept": accept}, timeout=CLIENT_TIMEOUT)]
    answers.append(HTTP.put(url, headers={"accept": accept}, timeout=CLIENT_TIMEOUT))
    if "event-stream" not in accept:
        answers.append(HTTP.get(url, headers={"accept": accept}, timeout=CLIENT_TIMEOUT))
    for response in answers:
        assert 400 <= response.status_code < 500, (response.status_code, response.text)
        assert response.headers.get("content-type", "").startswith("application/json")
        assert isinstance(response.json(), dict)
