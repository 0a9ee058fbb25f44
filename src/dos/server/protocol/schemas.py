"""The JSON schemas ``docs/protocol.md`` shows, generated from the protocol's models:
``python -m dos.server.protocol.schemas`` prints them as that page's Markdown section
(``tests/server/test_units.py`` checks that the page shows the current ones).

>>> sorted(schemas()["Ping"]["properties"])
['id', 'type']
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from dos.server.protocol.client_messages import (
    ActionMessage,
    AllowHints,
    Back,
    Chat,
    ChatSpectators,
    Continue,
    Hello,
    HintRequest,
    Ping,
    Rematch,
    Start,
    Sync,
)
from dos.server.protocol.http_bodies import CreateTable, JoinTable, SeatGrant
from dos.server.protocol.server_messages import (
    ChatHistory,
    ChatLine,
    ChatRules,
    ErrorMessage,
    HintMessage,
    LogMessage,
    Pause,
    Pong,
    State,
    TableMessage,
    Timer,
    Update,
    Welcome,
)


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON schema of every message and body, by name (for ``docs/protocol.md``)."""
    models: list[type[BaseModel]] = [
        Hello,
        ActionMessage,
        Start,
        Rematch,
        Back,
        Sync,
        Ping,
        Continue,
        Chat,
        ChatSpectators,
        HintRequest,
        AllowHints,
        Welcome,
        State,
        Update,
        TableMessage,
        Timer,
        ErrorMessage,
        Pong,
        Pause,
        LogMessage,
        ChatLine,
        ChatRules,
        ChatHistory,
        HintMessage,
        CreateTable,
        JoinTable,
        SeatGrant,
    ]
    return {model.__name__: model.model_json_schema() for model in models}


def schemas_markdown() -> str:
    """The schemas as the Markdown section of ``docs/protocol.md``."""
    parts = []
    for name, schema in schemas().items():
        parts.append(f"### {name}\n\n```json\n{json.dumps(schema, indent=2)}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":  # pragma: no cover
    print(schemas_markdown(), end="")
