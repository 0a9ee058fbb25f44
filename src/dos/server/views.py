"""Each connection's view of the game, as JSON text, built once per change for everyone.

A seat's view is the rule set's ``view_json``: public facts plus the seat's own ``hand`` and
``legal`` actions (the only private parts; a spectator gets neither). After every action each
connection needs its view, so the public part is built and serialized once and each seat's
private part is added to it. For the official rule set the public part is built straight
from the state (``tests/server/test_views.py`` checks that it equals ``view_json``); other
rule sets go through ``view_json`` for each seat.
"""

from __future__ import annotations

import json
from typing import Any

PRIVATE = ("seat", "hand", "legal")
"""The keys of a view that depend on the seat."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Views:
    """The views of one state, built lazily: ``text(seat)`` is the view of ``seat`` (``None``:
    a spectator) as JSON text, without the history unless ``history``."""

    def __init__(self, rules: Any, state: Any, history: bool = False) -> None:
        self.rules = rules
        self.state = state
        self.history = history
        self._public: str | None = None
        self._official = rules.name == "official"
        self._texts: dict[int | None, str] = {}

    def _public_inner(self) -> str:
        if self._public is None:
            if self._official:
                public = official_public(self.state)
                if self.history:
                    public["history"] = [str(a) for a in self.state.history]
            else:
                full = self.rules.view_json(self.state, 0)
                public = {k: v for k, v in full.items() if k not in PRIVATE}
                if not self.history:
                    public.pop("history", None)
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
        if self._official:
            from dos.cards import NAMES
            from dos.rules.official import legal_actions

            hand = [NAMES[c] for c in self.state.hands[seat]]
            legal = [str(a) for a in legal_actions(self.state, seat)]
        else:
            full = self.rules.view_json(self.state, seat)
            hand, legal = full.get("hand"), full.get("legal")
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


def official_public(state: Any) -> dict[str, Any]:
    """The public part of an official view (``SeatView.to_json`` less seat, hand, legal)."""
    from dos.cards import NAMES
    from dos.rules.official.views import phase_name

    players = state.options.players
    return {
        "options": state.options.to_json(),
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": phase_name(state.phase, state.drew, bool(state.matched)),
        "drew": state.drew,
        "hand_sizes": [len(h) for h in state.hands],
        "center": [NAMES[c] for c in state.center],
        "matched": [
            {"target": index, "cards": [NAMES[c] for c in cards]}
            for index, cards in sorted(state.matched.items())
        ],
        "bonuses": {"single": state.single_bonuses, "double": state.double_bonuses},
        "placements_left": state.placements_left,
        "draw_pile_size": len(state.draw_pile),
        "discard": [NAMES[c] for c in state.discard],
        "penalties": list(state.penalties),
        "dos_open": [s for s in range(players) if state.dos_open >> s & 1],
        "scores": list(state.scores),
        "winner": state.winner,
        "round_results": [
            {
                "round": r.round,
                "winner": r.winner,
                "points": r.points,
                "hands": [[NAMES[c] for c in hand] for hand in r.hands],
            }
            for r in state.round_results
        ],
    }
