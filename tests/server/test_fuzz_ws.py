"""The WebSocket protocol fuzzed: property-based messages of every client type
(``hello``, ``action``, ``start``, ``rematch``, ``back``, ``sync``, ``ping``), unknown types,
wrong field types, huge, nested and odd-unicode values, raw text and binary frames, sent on a
live server.

Invariants, after every message:

- the connection is never dropped without a close code; a documented one is fine (4401 bad
  token, 4429 flood, 1009 frame too big; 4400 protocol before ``hello``) and the client
  reconnects;
- every refusal is an ``error`` with a documented ``code`` (never ``internal``), and every
  message but a well-formed ``back`` gets an answer;
- a refusal changes nothing: the table's version and the seat's view (``sync``) are as before;
  when an action is accepted, every seat hears the same ``update``;
- the server keeps serving another table meanwhile: its client gets ``pong``.

Plus explicit cases: deeply nested JSON is ``bad_json`` and the
connection stays; ``too_big`` counts bytes, not characters; a frame over 64 KiB is closed
with 1009 (which the client must see); shutdown closes with 1001.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from server.support import ServerProcess, WsPlayer, create_table, join_table

ERROR_CODES = {
    "bad_json",
    "bad_message",
    "unknown_type",
    "too_big",
    "rate_limited",
    "protocol",
    "hello_required",
    "bad_token",
    "expired_token",
    "not_seated",
    "not_host",
    "bad_state",
    "not_your_seat",
    "not_playing",
    "stale",
    "notation",
    "illegal",
}
"""The error codes of docs/protocol.md, but ``internal`` (a bug) and ``storage`` (a database
failure, which a fuzzed message must not cause)."""

CLOSE_CODES = {4401, 4429, 1009}
"""Close codes a fuzzed message may bring on a greeted connection."""
FIRST_CLOSE_CODES = CLOSE_CODES | {4400}
"""... and on a connection whose first message it is (a ``hello`` of another protocol)."""

WS_LIMIT = 65536
"""Frames over this many bytes close the connection with 1009."""

CURRENT = "\x00current version\x00"
"""Stands for the version the client holds (replaced before sending)."""

TYPES = ["hello", "action", "start", "rematch", "back", "sync", "ping"]

# --- strategies ---------------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_actions = st.sampled_from(
    ["draw", "end", "dos", "catch 0", "catch 1", "0: dos", "1: catch 0", "R7@0", "lay B3", ""]
)
_field_values = st.one_of(
    _json,
    st.just(CURRENT),
    _actions,
    st.text(max_size=300),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
    st.text(alphabet="\ud800\udfff\u202e\u200b\x00\ufeffé€🎲", max_size=40),
    st.integers(min_value=0, max_value=3),
)
_typed = st.builds(
    lambda kind, fields, extra: {**extra, "type": kind, **fields},
    st.one_of(
        st.sampled_from(TYPES),
        st.sampled_from(["launch", "", "PING", "Sync", "pong", "update", "error", "welcome"]),
        _json,
    ),
    st.dictionaries(
        st.sampled_from(["action", "version", "id", "token", "protocol"]), _field_values, max_size=4
    ),
    st.dictionaries(st.text(max_size=8), _json, max_size=2),
)
_bare = st.builds(lambda kind: {"type": kind}, st.sampled_from(TYPES))


_nested = st.tuples(
    st.integers(min_value=1, max_value=3000),
    st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"":', "}]")]),
    st.sampled_from(["", "0", '"x"']),
)
"""Nesting depth, brackets and the innermost value (the text is built when sent)."""
_huge = st.tuples(
    st.sampled_from([64, 65, 1000, 1366, 2048, 4000, 4096, 4097, 20000, 65536]),
    st.sampled_from(["x", "é", "€", "🎲"]),
    st.sampled_from(["id", "action", "token", "extra"]),
    st.sampled_from(["ping", "action", "hello", "sync"]),
    st.booleans(),
)
"""Length, character, field, type and ASCII escaping of a big message (built when sent:
hypothesis would otherwise print 60 kB values). Frames stay under 64 KiB: a bigger one
closes the connection, which has a test of its own."""


def _nested_text(depth: int, brackets: tuple[str, str], inside: str) -> str:
    opener, closer = brackets
    return opener * depth + (inside or ("" if opener == "[" else "0")) + closer * depth


def _huge_text(size: int, unit: str, field: str, kind: str, ascii_only: bool) -> str:
    width = len(json.dumps(unit, ensure_ascii=ascii_only).encode()) - 2
    size = min(size, (WS_LIMIT - 100) // width)
    return json.dumps({"type": kind, field: unit * size}, ensure_ascii=ascii_only)


@st.composite
def _message(draw: st.DrawFn) -> tuple[str, Any]:
    """A message to send: ``("json", dict)``, ``("text", str)``, ``("bytes", bytes)``,
    ``("nested", ...)``, ``("huge", ...)`` (built by ``_wire``), or ``("legal", index)``."""
    kind = draw(st.integers(0, 9), label="kind")
    if kind <= 3:
        return "json", draw(_typed)
    if kind == 4:
        return "json", draw(_bare)
    if kind == 5:
        return "nested", draw(_nested)
    if kind == 6:
        return "huge", draw(_huge)
    if kind == 7:
        return "text", draw(st.text(max_size=200))
    if kind == 8:
        return "bytes", draw(st.binary(max_size=200))
    return "legal", draw(st.integers(0, 10**6))  # the game moves on: a legal action


# --- helpers ------------------------------------------------------------------------------------


async def _until_pong(player: WsPlayer, tag: str) -> tuple[list[dict[str, Any]], int | None]:
    """Pings ``player``; the messages it got before the ``pong``. If the connection closes
    instead: those messages and the close code (``-1``: closed without a close frame)."""
    received: list[dict[str, Any]] = []
    try:
        await player.send({"type": "ping", "id": tag})
        while True:
            message = await player.recv()
            if message["type"] == "pong" and message.get("id") == tag:
                return received, None
            received.append(message)
    except ConnectionClosed as closed:
        return received, closed.rcvd.code if closed.rcvd is not None else -1


def _wire(kind: str, value: Any, player: WsPlayer) -> tuple[str | bytes, Any]:
    """The frame to send, and the message as the server should read it (``None``: not a
    JSON object)."""
    if kind == "legal":
        legal = player.view["legal"] if player.view else []
        action = legal[value % len(legal)] if legal else "draw"
        value = {"type": "action", "action": action, "version": CURRENT, "id": "legal"}
        kind = "json"
    if kind == "json":
        message = {k: (player.version if v == CURRENT else v) for k, v in value.items()}
        return json.dumps(message), message
    if kind == "nested":
        value = _nested_text(*value)
    elif kind == "huge":
        value = _huge_text(*value)
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        data = None
    return value, data if isinstance(data, dict) else None


def _silent_ok(message: Any) -> bool:
    """Whether the server may answer nothing: a well-formed ``back``."""
    return isinstance(message, dict) and message == {"type": "back"}


class Fuzzed:
    """The fuzzed table (two seats, playing) and a bystander table."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.code = ""
        self.tokens: list[str] = []
        self.players: list[WsPlayer] = []
        self.bystander: WsPlayer | None = None
        self.states: list[dict[str, Any]] = []
        """The last ``state`` each seat got on ``sync``."""
        self.tags = 0

    async def open(self) -> None:
        host = create_table(self.server.url, name="Ada", seats=[None, None])
        guest = join_table(self.server.url, host["code"], "Bob")
        self.code, self.tokens = host["code"], [host["token"], guest["token"]]
        for token in self.tokens:
            self.players.append(await WsPlayer(self.server.ws_url, self.code, token).connect())
        await self.players[0].send({"type": "start"})
        for player in self.players:
            await player.expect("state")
        other = create_table(self.server.url, name="Cy", seats=[None, None])
        self.bystander = await WsPlayer(self.server.ws_url, other["code"], other["token"]).connect()
        self.states = [await self.sync(player) for player in self.players]

    def tag(self) -> str:
        self.tags += 1
        return f"t{self.tags}"

    async def sync(self, player: WsPlayer) -> dict[str, Any]:
        await player.send({"type": "sync"})
        return await player.expect("state")

    async def reconnect(self, seat: int) -> None:
        player = WsPlayer(self.server.ws_url, self.code, self.tokens[seat])
        self.players[seat] = await player.connect()

    async def step(self, seat: int, kind: str, value: Any) -> None:
        """Sends one fuzzed message from ``seat`` and checks every invariant."""
        player = self.players[seat]
        frame, message = _wire(kind, value, player)
        before = self.states
        closed: int | None
        try:
            await player.send(frame)
        except ConnectionClosed as error:  # closed while sending a frame over the limit
            received: list[dict[str, Any]] = []
            closed = error.rcvd.code if error.rcvd is not None else -1
        else:
            received, closed = await _until_pong(player, self.tag())
        for answer in received:
            if answer["type"] == "error":
                assert answer["code"] in ERROR_CODES, (frame[:300], answer)
                assert answer["message"], answer
        if closed is not None:
            assert closed in CLOSE_CODES, f"closed with {closed} after {frame[:300]!r}"
            await self.reconnect(seat)
            player = self.players[seat]
        elif not _silent_ok(message):
            assert received, f"no answer to {frame[:300]!r}"
        updates = [m for m in received if m["type"] == "update"]
        assert len(updates) <= 1, updates
        others = [p for p in self.players if p is not player]
        for other in others:
            seen, gone = await _until_pong(other, self.tag())
            assert gone is None, f"seat {other.seat} was closed ({gone}) by {frame[:300]!r}"
            assert [m["action"] for m in seen if m["type"] == "update"] == [
                m["action"] for m in updates
            ]
        self.states = [await self.sync(p) for p in self.players]
        for now, then in zip(self.states, before, strict=True):
            if not updates:
                assert now["version"] == then["version"], frame[:300]
                assert now["view"] == then["view"], frame[:300]
                assert now["result"] == then["result"], frame[:300]
            else:
                assert now["version"] == then["version"] + 1
        if updates:
            assert updates[0]["seat"] == seat
        assert self.bystander is not None
        _, gone = await _until_pong(self.bystander, self.tag())
        assert gone is None, "the other table's client was closed"

    async def close(self) -> None:
        for player in [*self.players, self.bystander]:
            if player is not None:
                await player.close()


def _fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a live server: no shrinking
        suppress_health_check=list(HealthCheck),
    )


# --- the properties -----------------------------------------------------------------------------


def test_any_message_on_a_playing_table(server: ServerProcess) -> None:
    """Fuzzed messages from either seat of a table in play (and legal actions now and then,
    so that the game moves on): the invariants of the module hold after each."""
    with asyncio.Runner() as runner:
        table = Fuzzed(server)
        runner.run(table.open())

        @_fuzz_settings(150)
        @given(seat=st.integers(0, 1), message=_message())
        def check(seat: int, message: tuple[str, Any]) -> None:
            runner.run(table.step(seat, *message))

        try:
            check()
            first, second = table.players
            assert first.version == second.version == table.states[0]["version"]
        finally:
            runner.run(table.close())


def test_any_first_message_on_a_new_connection(server: ServerProcess) -> None:
    """A fresh connection's first message, fuzzed (``hello`` with any protocol and token, or
    anything else): it is welcomed, refused with a documented error, or closed with a
    documented code; an open connection then says ``hello`` (a second one is refused) and is
    answered ``pong``. The table is unchanged."""
    host = create_table(server.url, name="Ada", seats=[None, "easy"])
    code = host["code"]
    tokens = st.one_of(
        st.none(),
        st.just(host["token"]),
        st.just(host["player_token"]),
        st.text(max_size=300),
        st.builds(lambda t: host["token"][:-3] + t, st.text(min_size=1, max_size=3)),
        st.builds(lambda t: "v1." + t, st.text(max_size=80)),
    )
    hellos = st.builds(
        lambda protocol, token: {"type": "hello", "protocol": protocol, "token": token},
        st.one_of(st.just(1), st.integers(), _json),
        tokens,
    )

    with asyncio.Runner() as runner:
        before = runner.run(_table_info(server, code))

        @_fuzz_settings(120)
        @given(message=st.one_of(st.tuples(st.just("json"), hellos), _message()))
        def check(message: tuple[str, Any]) -> None:
            runner.run(_first_message(server, code, *message))

        check()
        assert runner.run(_table_info(server, code)) == before


async def _table_info(server: ServerProcess, code: str) -> dict[str, Any]:
    spectator = await WsPlayer(server.ws_url, code, None).connect()
    assert spectator.table is not None
    info = {**spectator.table, "spectators": None}
    info["seats"] = [{**s, "connected": None} for s in info["seats"]]
    state = (spectator.version, spectator.view, info)
    await spectator.close()
    return {"state": state}


async def _first_message(server: ServerProcess, code: str, kind: str, value: Any) -> None:
    """Sends the fuzzed message first, then ``hello`` (as a spectator) and ``ping``."""
    player = WsPlayer(server.ws_url, code, None)
    await player.connect(hello=False)
    if kind == "legal":
        kind, value = "json", {"type": "action", "action": "draw", "version": 0}
    frame, _ = _wire(kind, value, player)
    try:
        try:
            await player.send(frame)
            await player.send({"type": "hello", "protocol": 1, "token": None})
        except ConnectionClosed as error:
            closed = error.rcvd.code if error.rcvd is not None else -1
            received: list[dict[str, Any]] = []
        else:
            received, closed = await _until_pong(player, "first")
        for answer in received:
            if answer["type"] == "error":
                assert answer["code"] in ERROR_CODES, (frame[:300], answer)
        if closed is not None:
            assert closed in FIRST_CLOSE_CODES, f"closed with {closed} after {frame[:300]!r}"
            return
        kinds = [m["type"] for m in received if m["type"] in ("welcome", "state", "error")]
        errors = [m["code"] for m in received if m["type"] == "error"]
        if kinds == ["welcome", "state", "error"]:  # the fuzzed message was a hello
            assert errors == ["hello_required"], (frame[:300], received)
        else:  # it was refused, then the hello was welcomed
            assert kinds == ["error", "welcome", "state"], (frame[:300], received)
    finally:
        await player.close()


# --- the explicit cases (items 2 and 10) --------------------------------------------------------

NESTED = {
    "lists 2000 deep": ("[" * 2000 + "]" * 2000, {"bad_json"}),
    "lists 1500 deep": ("[" * 1500 + "0" + "]" * 1500, {"bad_json"}),
    "a ping with a nested id": (
        '{"type": "ping", "id": ' + "[" * 1900 + "]" * 1900 + "}",
        {"bad_json"},
    ),
    "an action 1500 deep": (
        '{"type": "action", "version": 0, "action": ' + "[" * 1500 + "]" * 1500 + "}",
        {"bad_json"},
    ),
    # Objects cannot nest past the parser's limit within 4096 bytes: any refusal will do.
    "objects 800 deep": ('{"":' * 800 + "0" + "}" * 800, {"bad_json", "unknown_type"}),
    "lists and objects 500 deep": ('[{"a":' * 500 + "0" + "}]" * 500, {"bad_json", "bad_message"}),
    "a ping with an id 800 objects deep": (
        '{"type": "ping", "id": ' + '{"":' * 800 + "0" + "}" * 800 + "}",
        {"bad_json", "bad_message"},
    ),
}
"""Nested JSON within 4096 bytes, and the refusals it may get."""


@pytest.mark.asyncio
@pytest.mark.parametrize(("text", "codes"), list(NESTED.values()), ids=list(NESTED))
async def test_deeply_nested_json_is_refused_and_the_connection_stays(
    server: ServerProcess, text: str, codes: set[str]
) -> None:
    assert len(text.encode()) <= 4096
    host = create_table(server.url, name="Ada", seats=[None, "easy"])
    player = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await player.send(text)
    received, closed = await _until_pong(player, "after")
    assert closed is None, f"closed with {closed}"
    errors = [m["code"] for m in received if m["type"] == "error"]
    assert len(errors) == 1 and errors[0] in codes, received
    await player.close()


TOO_BIG = {
    "é in a ping id": json.dumps({"type": "ping", "id": "é" * 2100}, ensure_ascii=False),
    "€ in an action": json.dumps(
        {"type": "action", "action": "€" * 1400, "version": 0}, ensure_ascii=False
    ),
    "🎲 in a token": json.dumps({"type": "hello", "token": "🎲" * 1100}, ensure_ascii=False),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("text", list(TOO_BIG.values()), ids=list(TOO_BIG))
async def test_too_big_counts_bytes_not_characters(server: ServerProcess, text: str) -> None:
    """Fewer than 4096 characters, more than 4096 bytes in UTF-8: ``too_big``."""
    assert len(text) < 4096 < len(text.encode())
    host = create_table(server.url, name="Ada", seats=[None, "easy"])
    player = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    await player.send(text)
    received, closed = await _until_pong(player, "after")
    assert closed is None, f"closed with {closed}"
    assert [m["code"] for m in received if m["type"] == "error"] == ["too_big"], received
    await player.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [WS_LIMIT + 1, 1_000_000])
async def test_a_frame_over_64_kib_is_closed_with_1009(server: ServerProcess, size: int) -> None:
    """Twice each: the client sees the close code 1009, not a reset connection (a server
    that closes the socket with the rest of the frame unread resets it, and the client never
    reads the close frame)."""
    host = create_table(server.url, name="Ada", seats=[None, "easy"])
    codes = []
    for _ in range(2):
        player = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
        frame = json.dumps({"type": "ping", "id": "x" * size})
        try:
            await player.send(frame)
        except ConnectionClosed as error:
            codes.append(error.rcvd.code if error.rcvd is not None else -1)
        else:
            codes.append((await _until_pong(player, "after"))[1])
        await player.close()
    assert codes == [1009, 1009], "-1: no close frame, the connection was reset"


@pytest.mark.asyncio
async def test_shutdown_closes_every_connection_with_1001(tmp_path: Path) -> None:
    """A server stopped (SIGTERM) closes its players' and spectators' connections
    with 1001 and the reason ``server shutting down``."""
    own = ServerProcess(tmp_path / "data", None)
    own.start()
    try:
        host = create_table(own.url, name="Ada", seats=[None, "easy"])
        seated = await WsPlayer(own.ws_url, host["code"], host["token"]).connect()
        watcher = await WsPlayer(own.ws_url, host["code"], None).connect()
        await _until_pong(seated, "ready")
        await _until_pong(watcher, "ready")
        await asyncio.to_thread(own.stop)
        for player in (seated, watcher):
            assert player.ws is not None
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await player.recv()
            assert closed.value.rcvd is not None, "no close frame"
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (
                1001,
                "server shutting down",
            )
    finally:
        own.stop()


@pytest.mark.asyncio
async def test_spectators_joining_one_by_one_cost_linear_table_messages(
    server: ServerProcess,
) -> None:
    """N spectators joining one by one bring O(N) ``table`` messages in all (here at
    most 4 a spectator), not one to everyone at each join (N²/2)."""
    count = 40
    host = create_table(server.url, name="Ada", seats=[None, "easy"])
    seated = await WsPlayer(server.ws_url, host["code"], host["token"]).connect()
    watchers = []
    for _ in range(count):
        watchers.append(await WsPlayer(server.ws_url, host["code"], None).connect())
    total = 0
    for player in [seated, *watchers]:
        _, closed = await _until_pong(player, "count")
        assert closed is None
        total += sum(1 for m in player.messages if m["type"] == "table")
        await player.close()
    assert total <= 4 * count, f"{total} table messages for {count} spectators"


async def _ping_answer(player: WsPlayer, tag: str) -> str:
    """Pings; ``"pong"``, the code of the error refusing the ping, or ``"closed CODE"``."""
    try:
        await player.send({"type": "ping", "id": tag})
        while True:
            message = await player.recv()
            if message["type"] == "pong" and message.get("id") == tag:
                return "pong"
            if message["type"] == "error" and message.get("id") in (tag, None):
                return str(message["code"])
    except ConnectionClosed as closed:
        return f"closed {closed.rcvd.code if closed.rcvd is not None else -1}"


@pytest.mark.asyncio
async def test_reconnecting_does_not_renew_a_clients_message_budget(tmp_path: Path) -> None:
    """The message budget is the client's (its address), not the connection's: once
    spent, a new connection from the same client is refused ``rate_limited`` (or closed
    with 4429) at once (here 20 messages a day, the per-connection limits lifted)."""
    limits = ["client_messages=20/day", "messages=off", "syncs=off"]
    own = ServerProcess(tmp_path / "data", None, *[a for x in limits for a in ("--limit", x)])
    own.start()
    try:
        host = create_table(own.url, name="Ada", seats=[None, "easy"])
        first = await WsPlayer(own.ws_url, host["code"], host["token"]).connect()
        answers = [await _ping_answer(first, f"p{n}") for n in range(25)]
        assert answers[0] == "pong", answers
        assert "rate_limited" in answers or "closed 4429" in answers, answers
        await first.close()
        second = WsPlayer(own.ws_url, host["code"], None)
        await second.connect(hello=False)
        answer = await _ping_answer(second, "again")
        assert answer in ("rate_limited", "closed 4429"), answer
        await second.close()
    finally:
        own.stop()
