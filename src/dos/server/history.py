"""The game's actions with what a log needs to tell them in words: sent on every connect.

A client writes its log from the updates it receives; one that was away (a reload, a dropped
connection, a second tab) missed some. So after each ``state`` the server sends ``log``: every
action of the current game with its seat and a brief of the public view just before it (the
Center Row, the phase, the turn, the scores...), and the brief of the view now; the client
tells them in words exactly as it tells updates. Only public facts: no hand is in a brief;
the one private fact is, for the connecting seat's own draws, the cards it drew (``drawn``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dos.server.views import official_public

BRIEF_KEYS = (
    "round",
    "dealer",
    "turn",
    "phase",
    "hand_sizes",
    "center",
    "bonuses",
    "scores",
    "winner",
    "pending",
    "top",
    "colour",
)
"""The public view's keys a log line may need."""


def public(rules: Any, state: Any) -> dict[str, Any]:
    """The public part of a view of ``state`` (no hand, no legal actions)."""
    if rules.name == "official":
        return official_public(state)
    full: dict[str, Any] = rules.view_json(state, 0)
    return {k: v for k, v in full.items() if k not in ("seat", "hand", "legal")}


def brief(view: dict[str, Any]) -> dict[str, Any]:
    """What a log line needs of a public view: ``BRIEF_KEYS``, the number of rounds
    finished and the last round's winner and points."""
    out = {k: view[k] for k in BRIEF_KEYS if k in view}
    results = view.get("round_results")
    if results is not None:
        out["rounds"] = len(results)
        if results:
            out["result"] = {"winner": results[-1]["winner"], "points": results[-1]["points"]}
    return out


def _hand(rules: Any, state: Any, seat: int) -> list[str]:
    hand: list[str] = rules.view_json(state, seat)["hand"]
    return hand


def _new_cards(before: list[str], after: list[str]) -> list[str]:
    left = list(before)
    fresh = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            fresh.append(card)
    return fresh


def log_entries(
    rules: Any,
    options: Any,
    seed: int,
    actions: Sequence[str],
    seats: Sequence[int],
    *,
    viewer: int | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each action with its seat and the brief before it, and the brief after the last one,
    by replaying the game from its seed (the engine is deterministic). The draws of
    ``viewer`` (the connecting seat) also say which cards it drew."""
    state = rules.new_game(options, seed)
    entries = []
    for text, seat in zip(actions, seats, strict=True):
        before = brief(public(rules, state))
        own_draw = seat == viewer and text.split(":")[-1].strip() == "draw"
        held = _hand(rules, state, seat) if own_draw else []
        rules.apply(state, rules.parse_action(text))
        entry: dict[str, Any] = {"action": text, "seat": seat, "before": before}
        if own_draw:
            entry["drawn"] = _new_cards(held, _hand(rules, state, seat))
        entries.append(entry)
    return entries, brief(public(rules, state))
