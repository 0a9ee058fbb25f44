"""Each connection's view of the game, as JSON text, built once per change for everyone.

A seat's view is the rule set's ``view_json``: public facts plus the seat's own ``hand`` and
``legal`` actions (the only private parts; a spectator gets neither). After every action each
connection needs its view, so the public part is built and serialized once and each seat's
private part is added to it. Both parts come from the rule set's registry entry
(``Entry.public_view``, ``Entry.private_view``): straight from the state where the rule set
offers it (the official one: ``tests/server/test_views.py`` checks that it equals
``view_json``), else through ``view_json``.
"""

from __future__ import annotations

import json
from typing import Any

from dos import ruleset
from dos.ruleset import PRIVATE, RuleSet

__all__ = ["PRIVATE", "Views", "head"]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Views:
    """The views of one state, built lazily: ``text(seat)`` is the view of ``seat`` (``None``:
    a spectator) as JSON text, without the history unless ``history``."""

    def __init__(self, rules: RuleSet[Any, Any], state: Any, history: bool = False) -> None:
        self.rules = rules
        self.entry = ruleset.entry(rules.name)
        self.state = state
        self.history = history
        self._public: str | None = None
        self._texts: dict[int | None, str] = {}

    def _public_inner(self) -> str:
        if self._public is None:
            public = self.entry.public_view(self.state, self.history)
            self._public = _dumps(public)[1:-1]
        return self._public

    def text(self, seat: int | None) -> str:
        """The view of ``seat`` as JSON text (built once per seat)."""
        known = self._texts.get(seat)
        if known is None:
            known = self._texts[seat] = self._text(seat)
        return known

    def _text(self, seat: int | None) -> str:
        inner = self._public_inner()
        if seat is None:
            return "{" + inner + ',"seat":null}'
        private = self.entry.private_view(self.state, seat)
        hand, legal = private["hand"], private["legal"]
        return "{" + inner + f',"seat":{seat},"hand":{_dumps(hand)},"legal":{_dumps(legal)}}}'

    def message(self, kind: str, viewer: int | None, /, **fields: Any) -> str:
        """A server message of type ``kind`` with ``fields`` and the view of seat ``viewer``."""
        return self.with_head(head(kind, **fields), viewer)

    def with_head(self, prefix: str, viewer: int | None) -> str:
        """A message from its ``head(...)`` and the view of seat ``viewer``."""
        return prefix + self.text(viewer) + "}"

    def data(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` as a dict."""
        value: dict[str, Any] = json.loads(self.text(seat))
        return value


def head(kind: str, **fields: Any) -> str:
    """The start of a message with a view: everything but the view, which follows it.

    >>> head("update", version=3) + "{}" + "}"
    '{"type":"update","version":3,"view":{}}'
    """
    return _dumps({"type": kind, **fields})[:-1] + ',"view":'
