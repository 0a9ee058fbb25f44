"""The WebSocket protocol's and the HTTP bodies' common parts: the protocol's version, the
largest client message, the base of every model, the field types several share, and the
refusal of a message.

The models themselves, one module per direction: ``dos.server.protocol.client_messages`` (what a
client sends on its WebSocket, validated there), ``dos.server.protocol.server_messages`` (what the
server sends, and the table's shapes both send), ``dos.server.protocol.http_bodies`` (the HTTP API's
bodies and answers). ``docs/protocol.md`` shows their JSON schemas
(``dos.server.protocol.schemas``); the browser client's types are generated from them
(``dos.server.protocol.typescript``).

>>> str(ProtocolError("too_big", "message of 5000 bytes"))
'too_big: message of 5000 bytes'
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from dos.server.protocol.names import NAME_MAX, display_name

PROTOCOL_VERSION = 1
"""The protocol version; a client says which it speaks in ``hello``."""

MAX_MESSAGE_BYTES = 4096
"""The largest client message the server reads; a larger one is refused with ``too_big``."""

DisplayName = Annotated[
    str, Field(min_length=1, max_length=4 * NAME_MAX), AfterValidator(display_name)
]
"""A display name: ``dos.server.protocol.names.display_name`` normalises it or refuses it."""
Token = Annotated[str, Field(min_length=1, max_length=1024, pattern=r"^[A-Za-z0-9._\-]+$")]
"""A signed token as the server writes it (URL-safe ASCII)."""


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ProtocolModel(BaseModel):
    """The base of every message and body: unknown fields are refused, and a model, once
    made, does not change."""

    model_config = ConfigDict(extra="forbid", frozen=True)
