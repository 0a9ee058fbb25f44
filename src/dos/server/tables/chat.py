"""Table chat: short texts and quick reactions, sent through the table's WebSocket, and kept
with the table.

The author is the connection's seat (from its seat token), never a field of the message;
spectators read, and write only when the host allows it. A text is at most ``TEXT_MAX``
characters after trimming, and every character of it must render, by the one rule of names
(``dos.server.protocol.names.hidden_character``: no control, invisible or tag characters, no pile of
combining marks). Each connection may send 5 messages in 10 seconds (``Limits.chat``) and
each client 10 in 10 seconds over all its connections together (``Limits.client_chat``), so
reconnecting renews nothing (``Client.allow_chat``). Clients show texts as text, never as
HTML.

The chat is kept: each accepted line is stored with its table (``dos_chat_lines``, the latest
``HISTORY_MAX`` lines of each table; older ones are deleted as new ones come) and only then
sent to everyone, so what people saw and what the table keeps agree, line for line and in
order. A line the database refuses is sent to nobody: its author is told (``storage``) and
the table goes on. Everyone at the table reads the chat, so every connection gets the lines
kept so far as it opens (``chat_history``), and a table loaded after a restart has them back
(``load_authored_lines``, read as it is loaded). The chat of a table that expires is deleted
with it (``expire_with_chat``; its games stay).

Each line is kept with its author's player id, never sent: a player sees none of the lines of
those they block or mute, nor of those who block them
(``dos.server.people.moderation.hidden_authors``, learnt as they connect, ``ChatRoom.learn``),
neither as they are said nor in the history; a player muted or banned on the server by an
admin may not chat (``muted``, ``dos.server.people.admins``). A spectator is a player here
when their ``hello`` names their player (``Hello.player``); an anonymous one has no author id,
and nothing is filtered for them.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from dos.server.clock import SYSTEM_CLOCK, Clock
from dos.server.people.admins import standing
from dos.server.people.moderation import hidden_authors
from dos.server.protocol.names import hidden_character
from dos.server.protocol.server_messages import server_message
from dos.server.storage.models import ChatLineRow
from dos.server.storage.table_store import expire_table

if TYPE_CHECKING:
    from dos.server.net.connections import Client
    from dos.server.storage.database import Database
    from dos.server.tables.table import Table

log = logging.getLogger(__name__)

TEXT_MAX = 200
"""The longest chat text, in characters."""
REACTIONS = ("gg", "nice", "oops", "wow", "thanks", "hurry")
"""The quick reactions; each client says them in its own language (``web.reaction_*``)."""
HISTORY_MAX = 200
"""The chat lines a table keeps: the latest ones, stored with the table and sent to each
connection as it opens (``chat_history``). A client that keeps no more than this shows the
same lines as everyone else."""

Line = dict[str, Any]
"""One chat line as the ``chat`` message has it, without ``type``: ``seat``, ``name``,
``text``, ``reaction``; as stored and loaded, with its author's ``player_id`` too
(``AUTHOR``), which is never sent."""
AUTHOR = "player_id"
"""The key of a kept line's author (``public`` leaves it out)."""


def public(line: Line) -> Line:
    """The line as clients get it: without its author's player id.

    >>> public({"seat": 0, "name": "Ada", "text": "hi", "reaction": None, "player_id": "p_a"})
    {'seat': 0, 'name': 'Ada', 'text': 'hi', 'reaction': None}
    """
    return {key: value for key, value in line.items() if key != AUTHOR}


# --- the repository: functions of a session (run by ``Database``) -----------------------------


def store_line(session: Session, code: str, line: Line, at: float, keep: int = HISTORY_MAX) -> None:
    """Stores a line of ``code``'s chat (with its author, ``AUTHOR``, if it has one), said at
    ``at`` (the caller's time: the table's clock), and deletes the lines before the latest
    ``keep``."""
    session.add(
        ChatLineRow(
            table_code=code,
            seat=line["seat"],
            name=line["name"],
            player_id=line.get(AUTHOR),
            text=line["text"],
            reaction=line["reaction"],
            at=at,
        )
    )
    session.flush()
    oldest_gone = session.scalar(
        select(ChatLineRow.id)
        .where(ChatLineRow.table_code == code)
        .order_by(ChatLineRow.id.desc())
        .offset(keep)
        .limit(1)
    )
    if oldest_gone is not None:
        session.execute(
            delete(ChatLineRow).where(ChatLineRow.table_code == code, ChatLineRow.id <= oldest_gone)
        )


def load_lines(session: Session, code: str, keep: int = HISTORY_MAX) -> list[Line]:
    """The latest ``keep`` lines of ``code``'s chat, oldest first."""
    rows = session.scalars(
        select(ChatLineRow)
        .where(ChatLineRow.table_code == code)
        .order_by(ChatLineRow.id.desc())
        .limit(keep)
    ).all()
    return [
        {"seat": row.seat, "name": row.name, "text": row.text, "reaction": row.reaction}
        for row in reversed(rows)
    ]


def load_authored_lines(session: Session, code: str, keep: int = HISTORY_MAX) -> list[Line]:
    """The latest ``keep`` lines of ``code``'s chat, oldest first, each with its author."""
    rows = session.scalars(
        select(ChatLineRow)
        .where(ChatLineRow.table_code == code)
        .order_by(ChatLineRow.id.desc())
        .limit(keep)
    ).all()
    return [
        {
            "seat": row.seat,
            "name": row.name,
            "text": row.text,
            "reaction": row.reaction,
            AUTHOR: row.player_id,
        }
        for row in reversed(rows)
    ]


def delete_lines(session: Session, code: str) -> None:
    """Deletes ``code``'s chat."""
    session.execute(delete(ChatLineRow).where(ChatLineRow.table_code == code))


def expire_with_chat(session: Session, code: str, game_id: int | None, at: float) -> None:
    """Expires a table as stored (``dos.server.storage.table_store.expire_table``: nobody came back
    to it) and deletes its chat, in one transaction: a table's chat goes with it."""
    expire_table(session, code, game_id, at)
    delete_lines(session, code)


# --- the room ---------------------------------------------------------------------------------


class ChatRefusedError(Exception):
    """A chat message the table refuses: ``code`` and a message (as ``ErrorMessage``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ChatRoom:
    """The chat of one table: who may write, and the lines kept.

    Without a database (``db`` None) the lines are kept in memory only.

    >>> room = ChatRoom(lines=[{"seat": 0, "name": "Ada", "text": "hi", "reaction": None}])
    >>> room.history_message()
    '{"type":"chat_history","lines":[{"seat":0,"name":"Ada","text":"hi","reaction":null}]}'
    """

    def __init__(
        self,
        code: str = "",
        db: Database | None = None,
        lines: Iterable[Line] = (),
        spectators: bool = False,
        *,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.code = code
        self.db = db
        self.clock = clock
        """The table's clock: the time its lines are stored with."""
        self.spectators = spectators
        """Whether spectators may write (the host decides)."""
        kept = list(lines)
        self.lines: deque[Line] = deque(map(public, kept), maxlen=HISTORY_MAX)
        """The lines kept, oldest first, as stored and sent."""
        self.authors: deque[str | None] = deque(
            (line.get(AUTHOR) for line in kept), maxlen=HISTORY_MAX
        )
        """The author of each line kept (``AUTHOR``; ``None``: unknown or an anonymous
        spectator)."""
        self.hidden: dict[str, frozenset[str]] = {}
        """For each player connected here who blocks or mutes anyone, whose lines they do
        not see (``learn``)."""
        self._history: str | None = None
        self._order = asyncio.Lock()

    def rules_message(self) -> str:
        """The ``chat_rules`` message: whether spectators may write."""
        return server_message("chat_rules", spectators=self.spectators)

    def history_message(self, reader: str | None = None) -> str:
        """The ``chat_history`` message: the lines kept, oldest first, but those ``reader``
        does not see (``learn``); built once a change for everyone who sees them all."""
        hidden = self.hidden.get(reader or "")
        if hidden:
            lines = [
                line
                for line, author in zip(self.lines, self.authors, strict=True)
                if author not in hidden
            ]
            return server_message("chat_history", lines=lines)
        if self._history is None:
            self._history = server_message("chat_history", lines=list(self.lines))
        return self._history

    async def learn(self, reader: str | None) -> None:
        """Reads whose lines ``reader`` does not see (those they block or mute), for their
        connections here from now on."""
        if reader is None or self.db is None:
            return
        hidden = await self.db.read(hidden_authors, reader)
        if hidden:
            self.hidden[reader] = hidden
        else:
            self.hidden.pop(reader, None)

    async def say(
        self, table: Table, client: Client, text: str | None, reaction: str | None
    ) -> None:
        """Checks one chat message of ``client``, stores it, then sends it to everyone at the
        table; raises ``ChatRefusedError`` (``storage``: the database refused it, and nobody
        was sent it)."""
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
        author = client.player_id
        if author is not None and self.db is not None:
            held = await self.db.read(standing, author, self.clock.time())
            if held.muted:
                raise ChatRefusedError("muted", "an admin muted you on this server for a while")
        seat = client.seat
        name = None if seat is None else table.seats[seat].name
        line: Line = {"seat": seat, "name": name, "text": text, "reaction": reaction}
        # One line at a time, in the order they came: stored, then kept and sent at once (no
        # await between), so a connection opening meanwhile gets each line exactly once, in
        # its history or as a ``chat``.
        async with self._order:
            if self.db is not None:
                try:
                    authored = line if author is None else {**line, AUTHOR: author}
                    await self.db.call(store_line, self.code, authored, self.clock.time())
                except Exception:
                    log.exception("table %s: could not store a chat line", self.code)
                    raise ChatRefusedError(
                        "storage", "the database refused the chat line; nobody was sent it"
                    ) from None
            self.lines.append(line)
            self.authors.append(author)
            self._history = None
            message = server_message("chat", **line)
            for each in table.audience.clients():
                if author is None or author not in self.hidden.get(each.player_id or "", ()):
                    each.send(message)

    def allow_spectators(self, table: Table, client: Client, allowed: bool) -> None:
        """The host lets spectators write, or not; everyone is told."""
        if client.seat != table.host:
            raise ChatRefusedError("not_host", "only the host decides who may chat")
        self.spectators = allowed
        message = self.rules_message()
        for each in table.audience.clients():
            each.send(message)
