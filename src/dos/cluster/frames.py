"""What every frame between a server's processes shares: a typed message, read in one place.

The frames a relaying process sends a table's owner are ``dos.cluster.to_owner``; what the
owner sends back, ``dos.cluster.from_owner``. Each is a frozen model of its own (as the
client protocol's messages are, ``dos.server.protocol.client_messages`` and ``server_messages``),
written as JSON by ``Frame.encode`` and read back by its module's ``decode``, which refuses
anything else with ``FrameError``: its reason said in words, for the log line that drops the
frame (a frame from a process of another version, or a bug), never a traceback that ends a
loop.

>>> from dos.cluster.from_owner import Text, decode_side
>>> decode_side(Text(t="hi").encode())
Text(t='hi')
>>> decode_side({"t": 7})
Traceback (most recent call last):
...
dos.cluster.frames.FrameError: a relayed connection's frame: Text.t: Input should be a valid string
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

T = TypeVar("T")


class FrameError(ValueError):
    """A frame that is not one of its direction's messages: ``reason`` says what is wrong."""

    def __init__(self, what: str, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{what}: {reason}")


class Frame(BaseModel):
    """A message between processes: frozen, and nothing but its fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def encode(self) -> dict[str, Any]:
        """As the bus carries it: a JSON value, under the fields' wire names, those unset
        (``None``) left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def read(adapter: TypeAdapter[T], what: str, value: Any) -> T:
    """``value`` read as ``adapter``'s type; ``FrameError`` naming ``what`` and the first
    thing wrong otherwise."""
    try:
        return adapter.validate_python(value)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        reason = f"{where}: {first['msg']}" if where else str(first["msg"])
        raise FrameError(what, reason) from None
