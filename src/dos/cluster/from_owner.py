"""What a table's owner sends the process that relays to it: the reply to each message
forwarded to it (``dos.cluster.to_owner``), and the frames of each relayed connection's
side, published on that connection's stream (``Bus.publish``).

Replies:

* ``Taken``: the message was handled (for ``OpenSide``, with the epoch the table is held
  under here, for the relay's watch of the lease).
* ``Moved``: this process does not hold the table (any more): nothing was done; the relay
  asks the table's next owner.
* ``Refused``: the message was not one this process reads (``FrameError``): nothing was done,
  and the relay gives its connection up.
* ``HttpResponse``: the forwarded HTTP request's response (the body in base64).

A side's frames: ``Text`` (a message for the client) and ``Close`` (the side closed, with its
close code and reason; the last frame of a stream). On the Redis bus each reply rides in an
``Answer`` (``decode_answer``).

>>> decode_reply({"ok": True, "epoch": 7})
Taken(ok=True, epoch=7)
>>> Moved().encode()
{'moved': True}
>>> decode_side(Close(close=(4013, "moved")).encode())
Close(close=(4013, 'moved'))
"""

from __future__ import annotations

import base64
import json
from typing import Any, Literal

from pydantic import TypeAdapter

from dos.cluster.frames import Frame, FrameError, read
from dos.server.hosting.bus import encode


class Taken(Frame):
    """Handled; for an opened side, the epoch the table is held under (``None``: not
    told)."""

    ok: Literal[True] = True
    epoch: int | None = None


class Moved(Frame):
    """This process does not hold the table: nothing was done, ask its next owner."""

    moved: Literal[True] = True


class Refused(Frame):
    """Not a message this process reads (``refused``: why): nothing was done."""

    refused: str


class HttpResponse(Frame):
    """The response to a forwarded HTTP request (the body in base64)."""

    status: int
    headers: list[tuple[str, str]]
    body: str

    @classmethod
    def of(cls, status: int, headers: list[tuple[str, str]], content: bytes) -> HttpResponse:
        """The response ``status`` with ``headers`` and the body ``content``."""
        return cls(status=status, headers=headers, body=base64.b64encode(content).decode("ascii"))

    @property
    def content(self) -> bytes:
        """The response's body."""
        return base64.b64decode(self.body)


class Text(Frame):
    """A message for the relayed connection's client."""

    t: str


class Close(Frame):
    """The owner's side closed: its close code and reason."""

    close: tuple[int, str]


Reply = Taken | Moved | Refused
"""The owner's reply to ``OpenSide``, ``ClientFrame`` and ``CloseSide``."""
HttpReply = HttpResponse | Moved | Refused
"""The owner's reply to ``HttpRequest``."""
SideFrame = Text | Close
"""A frame of a relayed connection's side."""

_REPLY: TypeAdapter[Reply] = TypeAdapter(Reply)
_HTTP_REPLY: TypeAdapter[HttpReply] = TypeAdapter(HttpReply)
_SIDE_FRAME: TypeAdapter[SideFrame] = TypeAdapter(SideFrame)


def decode_reply(value: Any) -> Reply:
    """The owner's reply ``value`` to a connection's message; ``FrameError`` if none."""
    return read(_REPLY, "an owner's reply", value)


def decode_http_reply(value: Any) -> HttpReply:
    """The owner's reply ``value`` to an HTTP request; ``FrameError`` if none."""
    return read(_HTTP_REPLY, "an owner's HTTP reply", value)


def decode_side(value: Any) -> SideFrame:
    """A frame ``value`` of a relayed connection's stream; ``FrameError`` if none."""
    return read(_SIDE_FRAME, "a relayed connection's frame", value)


class Answer(Frame):
    """An owner's answer to a message queued for it on the Redis bus (``dos.cluster.bus``):
    its handler's reply, or why the handler failed (``error``)."""

    reply: Any = None
    error: str | None = None

    def dumps(self) -> str:
        """As its reply key holds it: JSON text; ``TypeError`` when the reply is not JSON."""
        if self.error is not None:
            return encode({"error": self.error})
        return encode({"reply": self.reply})


_ANSWER: TypeAdapter[Answer] = TypeAdapter(Answer)


def decode_answer(value: Any) -> Answer:
    """The answer ``value`` (JSON text, or its value); ``FrameError`` if none."""
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value)
        except ValueError as error:
            raise FrameError("an owner's answer", f"not JSON ({error})") from None
    return read(_ANSWER, "an owner's answer", value)
