"""What a process sends a table's owner, forwarded over the bus (``Bus.forward``): one typed
message per thing asked, told apart by ``kind``.

* ``HttpRequest``: an HTTP request about the table, run whole by the owner's application.
* ``OpenSide``: a client's WebSocket relayed here: the owner opens its side of it (a
  conversation over a ``dos.cluster.remote_socket.RemoteSocket``).
* ``ClientFrame``: the client's next frame, for that side.
* ``CloseSide``: the relay let go of the connection: its side ends.

On the Redis bus each rides in a ``Forwarded`` envelope (``decode_forwarded``). What the
owner answers is ``dos.cluster.from_owner``. ``decode`` reads any of them back from the bus,
and refuses anything else (``FrameError``).

>>> frame = ClientFrame.of("ABCDEF", "c1", '{"type":"ping"}')
>>> frame.encode()
{'kind': 'ws_frame', 'code': 'ABCDEF', 'conn': 'c1', 'frame': {'text': '{"type":"ping"}'}}
>>> decode(frame.encode()) == frame
True
>>> decode({"kind": "ws_dance", "code": "ABCDEF"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dos.cluster.frames.FrameError: a message for a table's owner: Input tag 'ws_dance' found ...
"""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from dos.cluster.frames import Frame, FrameError, read
from dos.server.hosting.bus import encode


class HttpRequest(Frame):
    """An HTTP request about table ``code``, for its owner to run (the body in base64)."""

    kind: Literal["http"] = "http"
    code: str
    method: str
    path: str
    query: str
    headers: list[tuple[str, str]]
    body: str
    client: tuple[str, int]

    @property
    def content(self) -> bytes:
        """The request's body."""
        return base64.b64decode(self.body)


class OpenSide(Frame):
    """Open the owner's side of connection ``conn`` to table ``code``: its client's address
    (``client``, for the limits), the owner id of the process that relays it (``relay``),
    and the lineage of the relayed connection (``lineage``: its page's, or its own, the same
    for each side it opens; ``dos.server.net.connections``)."""

    kind: Literal["ws_open"] = "ws_open"
    code: str
    conn: str
    client: str
    relay: str
    lineage: str | None = None


class TextFrame(Frame):
    """A text frame of the client."""

    text: str


class BinaryFrame(Frame):
    """A binary frame of the client, in base64."""

    data: str = Field(alias="bytes")


class ClientFrame(Frame):
    """The client's next frame on connection ``conn``."""

    kind: Literal["ws_frame"] = "ws_frame"
    code: str
    conn: str
    frame: TextFrame | BinaryFrame

    @classmethod
    def of(cls, code: str, conn: str, payload: str | bytes) -> ClientFrame:
        """The frame ``payload`` (text, or bytes) of connection ``conn``."""
        if isinstance(payload, str):
            return cls(code=code, conn=conn, frame=TextFrame(text=payload))
        data = base64.b64encode(payload).decode("ascii")
        return cls(code=code, conn=conn, frame=BinaryFrame.model_validate({"bytes": data}))

    @property
    def payload(self) -> str | bytes:
        """The frame as the client sent it: text, or bytes."""
        if isinstance(self.frame, TextFrame):
            return self.frame.text
        return base64.b64decode(self.frame.data)


class CloseSide(Frame):
    """The relay let go of connection ``conn``: its side at the owner ends."""

    kind: Literal["ws_close"] = "ws_close"
    code: str
    conn: str


ToOwner = Annotated[HttpRequest | OpenSide | ClientFrame | CloseSide, Field(discriminator="kind")]
"""Any message for a table's owner."""

_TO_OWNER: TypeAdapter[ToOwner] = TypeAdapter(ToOwner)


def decode(value: Any) -> ToOwner:
    """The message ``value`` (as the bus delivers it) is; ``FrameError`` if none."""
    return read(_TO_OWNER, "a message for a table's owner", value)


class Forwarded(Frame):
    """Any message for an owner as the Redis bus queues it (``dos.cluster.bus``): ``id``
    names the key its answer goes to, ``table`` orders it after the table's earlier ones."""

    id: str
    table: str
    message: Any

    def dumps(self) -> str:
        """As the owner's list holds it: JSON text; ``TypeError`` (nothing queued) when the
        message is not JSON."""
        return encode({"id": self.id, "table": self.table, "message": self.message})


_FORWARDED: TypeAdapter[Forwarded] = TypeAdapter(Forwarded)


def decode_forwarded(value: Any) -> Forwarded:
    """The queued message ``value`` (JSON text, or its value); ``FrameError`` if none."""
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value)
        except ValueError as error:
            raise FrameError("a queued message", f"not JSON ({error})") from None
    return read(_FORWARDED, "a queued message", value)
