"""Perft: counting the legal action sequences of a given length from a position.

As in chess engines, a mismatch against a known count is the sharpest test of legal-action
generation; ``divide`` prints the count under each first action to find the culprit.
Counts take every seat's legal actions (``all_legal_actions``), out-of-turn DOS calls and
catches included.
"""

from __future__ import annotations

from typing import Any

from dos import ruleset


def perft(rules_name: str, state: Any, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``state``."""
    rules = ruleset.get(rules_name)
    return _perft(rules, state, depth)


def _perft(rules: ruleset.RuleSet[Any, Any], state: Any, depth: int) -> int:
    actions = rules.all_legal_actions(state)
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    total = 0
    for action in actions:
        child = rules.copy(state)
        rules.apply(child, action)
        total += _perft(rules, child, depth - 1)
    return total


def divide(rules_name: str, state: Any, depth: int) -> list[tuple[str, int]]:
    """For each first action, the perft count of depth ``depth - 1`` below it."""
    rules = ruleset.get(rules_name)
    rows = []
    for action in rules.all_legal_actions(state):
        child = rules.copy(state)
        rules.apply(child, action)
        rows.append((str(action), _perft(rules, child, depth - 1)))
    return rows
