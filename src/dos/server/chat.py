"""Table chat: short texts and quick reactions, sent through the table's WebSocket.

The author is the connection's seat (from its seat token), never a field of the message;
spectators read, and write only when the host allows it. A text is at most ``TEXT_MAX``
characters after trimming, and every character of it must render, by the one rule of names
(``dos.server.names.hidden_character``: no control, invisible or tag characters, no pile of
combining marks). Each connection may send 5 messages in 10 seconds (``Limits.chat``) and
each client 10 in 10 seconds over all its connections together (``Limits.client_chat``), so
reconnecting renews nothing (``Client.allow_chat``). Clients show texts as text, never as
HTML. The chat lives in memory: a server restart forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dos.server.messages import server_message
from dos.server.names import hidden_character

if TYPE_CHECKING:
    from dos.server.connections import Client
    from dos.server.tables import Table

TEXT_MAX = 200
"""The longest chat text, in characters."""
REACTIONS = ("gg", "nice", "oops", "wow", "thanks", "hurry")
"""The quick reactions; each client says them in its own language (``web.reaction_*``)."""


class ChatRefusedError(Exception):
    """A chat message the table refuses: ``code`` and a message (as ``ErrorMessage``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class ChatRoom:
    """The chat of one table: who may write."""

    spectators: bool = False
    """Whether spectators may write (the host decides)."""

    def rules_message(self) -> str:
        """The ``chat_rules`` message: whether spectators may write."""
        return server_message("chat_rules", spectators=self.spectators)

    def say(self, table: Table, client: Client, text: str | None, reaction: str | None) -> None:
        """Checks and broadcasts one chat message of ``client``; raises ``ChatRefusedError``."""
        if client.seat is None and not self.spectators:
            raise ChatRefusedError("chat_not_allowed", "spectators may only read the chat here")
        if (text is None) == (reaction is None):
            raise ChatRefusedError("bad_message", "chat: send either 'text' or 'reaction'")
        if reaction is not None and reaction not in REACTIONS:
            raise ChatRefusedError(
                "bad_message", f"chat.reaction: one of {', '.join(REACTIONS)}, not {reaction!r}"
            )
        if text is not None:
            text = text.strip()
            if not text:
                raise ChatRefusedError("chat_empty", "chat.text: empty")
            if len(text) > TEXT_MAX:
                raise ChatRefusedError(
                    "chat_too_long", f"chat.text: {len(text)} characters; at most {TEXT_MAX}"
                )
            hidden = hidden_character(text)
            if hidden is not None:
                raise ChatRefusedError("bad_message", f"chat.text: {hidden}")
        if not client.allow_chat():
            raise ChatRefusedError("chat_rate_limited", "too many chat messages: wait a little")
        seat = client.seat
        name = None if seat is None else table.seats[seat].name
        out: dict[str, Any] = {"seat": seat, "name": name, "text": text, "reaction": reaction}
        message = server_message("chat", **out)
        for each in table.clients():
            each.send(message)

    def allow_spectators(self, table: Table, client: Client, allowed: bool) -> None:
        """The host lets spectators write, or not; everyone is told."""
        if client.seat != table.host:
            raise ChatRefusedError("not_host", "only the host decides who may chat")
        self.spectators = allowed
        message = self.rules_message()
        for each in table.clients():
            each.send(message)
