"""The frames between a server's processes (``dos.cluster.to_owner``,
``dos.cluster.from_owner``): each read back as it was written, on the wire as the processes
have always written them, and a malformed one refused with its reason, never a traceback
that ends the loop reading it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from redis.asyncio import Redis

from dos.cluster import from_owner, to_owner
from dos.cluster.bus import RedisBus, requests_key
from dos.cluster.frames import Frame, FrameError
from dos.cluster.from_owner import (
    Answer,
    Close,
    HttpResponse,
    Moved,
    Refused,
    Taken,
    Text,
    decode_answer,
    decode_http_reply,
    decode_reply,
    decode_side,
)
from dos.cluster.owner_side import OwnerSide, Sides
from dos.cluster.to_owner import ClientFrame, CloseSide, Forwarded, HttpRequest, OpenSide
from dos.server.hosting.bus import LocalBus
from server.support import TIMEOUT

TO_OWNER: list[Frame] = [
    HttpRequest(
        code="ABCDEF",
        method="POST",
        path="/api/tables/ABCDEF/join",
        query="x=1",
        headers=[("content-type", "application/json")],
        body="e30=",
        client=("10.0.0.7", 51234),
    ),
    OpenSide(code="ABCDEF", conn="c1", client="10.0.0.7", relay="web-2:7:aa"),
    ClientFrame.of("ABCDEF", "c1", '{"type":"ping","id":"1"}'),
    ClientFrame.of("ABCDEF", "c1", b"\x00\xff binary"),
    CloseSide(code="ABCDEF", conn="c1"),
]


@pytest.mark.parametrize("message", TO_OWNER, ids=lambda m: type(m).__name__)
def test_every_message_for_an_owner_reads_back_as_written(message: Frame) -> None:
    assert to_owner.decode(message.encode()) == message


def test_a_binary_frame_reads_back_as_its_bytes() -> None:
    frame = to_owner.decode(ClientFrame.of("ABCDEF", "c1", b"\x00\xff").encode())
    assert isinstance(frame, ClientFrame) and frame.payload == b"\x00\xff"


@pytest.mark.parametrize(
    ("frame", "decode"),
    [
        (Taken(epoch=7), decode_reply),
        (Taken(), decode_reply),
        (Moved(), decode_reply),
        (Refused(refused="kind: unknown"), decode_reply),
        (HttpResponse.of(200, [("content-type", "text/plain")], b"ok"), decode_http_reply),
        (Moved(), decode_http_reply),
        (Text(t='{"type":"pong"}'), decode_side),
        (Close(close=(4013, "the table moved")), decode_side),
    ],
    ids=lambda item: type(item).__name__ if isinstance(item, Frame) else item.__name__,
)
def test_every_frame_of_an_owner_reads_back_as_written(frame: Frame, decode: Any) -> None:
    assert decode(frame.encode()) == frame


def test_the_frames_are_on_the_wire_as_processes_of_every_version_write_them() -> None:
    """A rolling upgrade runs processes of two versions side by side: the JSON is the one
    they have always exchanged."""
    assert OpenSide(code="A", conn="c", client="h", relay="r").encode() == {
        "kind": "ws_open",
        "code": "A",
        "conn": "c",
        "client": "h",
        "relay": "r",
    }
    assert ClientFrame.of("A", "c", b"\x01").encode() == {
        "kind": "ws_frame",
        "code": "A",
        "conn": "c",
        "frame": {"bytes": "AQ=="},
    }
    assert CloseSide(code="A", conn="c").encode() == {"kind": "ws_close", "code": "A", "conn": "c"}
    assert Taken(epoch=3).encode() == {"ok": True, "epoch": 3}
    assert Taken().encode() == {"ok": True}
    assert Moved().encode() == {"moved": True}
    assert Text(t="hi").encode() == {"t": "hi"}
    assert Close(close=(1000, "")).encode() == {"close": [1000, ""]}
    assert decode_reply({"ok": True, "epoch": None}) == Taken()


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ({"kind": "ws_dance", "code": "A", "conn": "c"}, "does not match any of the expected"),
        ({"kind": "ws_close", "code": "A"}, "conn: Field required"),
        ({"kind": "ws_close", "code": "A", "conn": "c", "more": 1}, "more: Extra inputs"),
        ({"kind": "ws_frame", "code": "A", "conn": "c", "frame": {}}, "frame"),
        ({"code": "A"}, "Unable to extract tag using discriminator 'kind'"),
        ("ws_open", "valid dictionary"),
        (None, "valid dictionary"),
    ],
)
def test_a_malformed_message_for_an_owner_is_refused_with_its_reason(
    value: Any, reason: str
) -> None:
    with pytest.raises(FrameError) as refused:
        to_owner.decode(value)
    assert reason in refused.value.reason


@pytest.mark.parametrize(
    "value", [{"t": 7}, {"close": [4013]}, {"close": ["x", "y"]}, {"t": "a", "close": [1, ""]}]
)
def test_a_malformed_frame_of_a_side_is_refused(value: Any) -> None:
    with pytest.raises(FrameError, match="a relayed connection's frame"):
        decode_side(value)


def test_the_redis_bus_envelopes_read_back_and_refuse_what_is_not_one() -> None:
    forwarded = Forwarded(id="9f", table="A#c", message={"kind": "ws_close"})
    assert to_owner.decode_forwarded(forwarded.dumps()) == forwarded
    assert decode_answer(Answer(reply={"ok": True}).dumps()) == Answer(reply={"ok": True})
    assert decode_answer(Answer(error="boom").dumps()).error == "boom"
    for broken in ("not json", '{"id": "9f"}', b"[1, 2]"):
        with pytest.raises(FrameError):
            to_owner.decode_forwarded(broken)
    with pytest.raises(FrameError):
        from_owner.decode_answer('{"reply": 1, "why": "?"}')


@pytest.mark.asyncio
async def test_an_owner_refuses_a_malformed_message_and_serves_the_next(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A message forwarded to an owner that is none of its messages is answered
    ``Refused``, its reason logged in a line (no traceback); the owner goes on serving."""

    class Owning:
        bus = LocalBus()
        owner = "o1"
        clock = None

        def owns(self, code: str) -> bool:
            return False

    node = Owning()
    side = OwnerSide(node, None, Sides(), None, None)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING):
        refused = await side.handle("A#c", {"kind": "ws_dance"})
    assert decode_reply(refused) == Refused(refused=refused["refused"])
    [said] = [r for r in caplog.records if r.name == "dos.cluster.owner_side"]
    assert said.levelname == "WARNING" and said.exc_info is None
    assert "ws_dance" in said.getMessage()
    assert await side.handle("A#c", CloseSide(code="A", conn="c").encode()) == {"ok": True}
    assert await side.handle("A#c", ClientFrame.of("A", "c", "x").encode()) == {"moved": True}


@pytest.mark.asyncio
async def test_a_redis_owner_drops_an_unreadable_envelope_and_serves_the_next(
    redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    bus = RedisBus(redis, block_ms=100)

    async def echo(table: str, message: Any) -> Any:
        return {"echo": message}

    async with bus.serve("o1", echo):
        await redis.rpush(requests_key("o1"), "not an envelope")
        reply = await asyncio.wait_for(bus.forward("o1", "A", {"n": 1}, timeout=TIMEOUT), TIMEOUT)
    await bus.close()
    assert reply == {"echo": {"n": 1}}
    [dropped] = [r for r in caplog.records if "was dropped" in r.getMessage()]
    assert dropped.levelname == "WARNING" and dropped.exc_info is None
