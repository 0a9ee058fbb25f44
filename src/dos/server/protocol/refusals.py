"""What a table refuses: one exception, ``RefusedError``, with the code of ``docs/protocol.md``.

Every refusal leaves the table as it was. The WebSocket answers it with an ``error`` message,
the agent API and MCP with their own error forms, all from its ``code`` (and, for an illegal
action, its ``reason`` in catalog words).

>>> str(RefusedError("stale", "the game is at version 3"))
'stale: the game is at version 3'
"""

from __future__ import annotations

from dos.i18n.explain import Words


class RefusedError(Exception):
    """A request the table refuses; nothing changed. ``code`` as in ``docs/protocol.md``."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: Words | None = None,
        field: str | None = None,
        retry: int | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry = retry
        """For ``rate_limited``: whole seconds until the client may ask again."""
        self.reason = reason
        """For ``illegal``: why, as a catalog key and its placeholders (``dos.i18n.explain``)."""
        self.field = field
        """The request field at fault, if one is (``seats.2``, ``options``)."""
