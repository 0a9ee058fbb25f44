"""The WebSocket's dispatch (dos.server.http.conversation): one handler per client message type."""

from __future__ import annotations

import typing

from dos.server.http.conversation import HANDLERS
from dos.server.protocol.client_messages import CLIENT_TYPES, ClientMessage


def _client_message_types() -> set[type]:
    union = typing.get_args(ClientMessage)[0]
    return set(typing.get_args(union))


def test_every_client_message_type_has_its_handler() -> None:
    assert set(HANDLERS) == _client_message_types()


def test_the_handlers_cover_the_protocol_s_type_names() -> None:
    names = {model.model_fields["type"].annotation.__args__[0] for model in HANDLERS}
    assert names == set(CLIENT_TYPES)
