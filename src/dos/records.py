"""Game records: a game kept as (rule set, options, seed or start position, actions).

The format is JSON Lines, one object a line (``docs/records.md``)::

    {"format": "dos-record", "version": 1, "rules": "official", "options": {...}, "seed": 42}
    {"action": "R7@0"}
    {"action": "2: dos"}
    {"result": {"winner": 1, "scores": [0, 212, 35, 80], "rounds": 4}}

The header has ``seed`` (a game from its deal) or ``position`` (a game from a saved position),
and may add ``players`` (display names) and ``started`` (a timestamp). The ``result`` line is
optional; when present, replaying must reach it. Replaying checks every action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from dos import ruleset
from dos.errors import DosError, RecordError

FORMAT = "dos-record"
VERSION = 1
HEADER_FIELDS = ("format", "version", "rules", "options", "seed", "position", "players")


@dataclass(slots=True)
class Record:
    """A game record in memory."""

    rules: str
    options: dict[str, Any]
    seed: int | None = None
    position: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    players: list[str] | None = None
    lines: list[int] = field(default_factory=list, compare=False)
    result_line: int | None = field(default=None, compare=False)
    """The line number of each action in the text it was read from (for error messages)."""

    def dumps(self) -> str:
        """The record as JSON Lines text."""
        header: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "options": self.options,
        }
        if self.position is not None:
            header["position"] = self.position
        else:
            header["seed"] = self.seed
        if self.players is not None:
            header["players"] = self.players
        lines = [json.dumps(header)]
        lines += [json.dumps({"action": a}) for a in self.actions]
        if self.result is not None:
            lines.append(json.dumps({"result": self.result}))
        return "\n".join(lines) + "\n"


def record_of(
    rules_name: str,
    state: Any,
    seed: int | None = None,
    position: dict[str, Any] | None = None,
    players: list[str] | None = None,
) -> Record:
    """The record of a game played from ``seed`` (or from ``position``) to ``state``."""
    if (seed is None) == (position is None):
        raise ValueError("a record starts from exactly one of a seed and a position")
    rules = ruleset.get(rules_name)
    over = rules.is_over(state)
    return Record(
        rules=rules_name,
        options=rules.options_json(state),
        seed=seed,
        position=position,
        actions=[str(a) for a in state.history],
        result=rules.result(state) if over else None,
        players=players,
    )


def loads(text: str) -> Record:
    """Reads a record; raises ``RecordError`` naming the line and field that are wrong."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise RecordError("line 1: the record is empty; it starts with a header line")
    objects = []
    for number, line in lines:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise RecordError(f"line {number}: not JSON ({error.msg})") from None
        if not isinstance(obj, dict):
            raise RecordError(f"line {number}: must be a JSON object")
        objects.append((number, obj))
    number, header = objects[0]
    for key in header:
        if key not in HEADER_FIELDS:
            known = ", ".join(HEADER_FIELDS)
            raise RecordError(f"line {number}: {key}: unknown header field (known: {known})")
    if header.get("format") != FORMAT:
        raise RecordError(f"line {number}: format: must be {FORMAT!r}")
    if header.get("version") != VERSION:
        raise RecordError(f"line {number}: version: this program reads version {VERSION}")
    rules = header.get("rules")
    if not isinstance(rules, str) or ruleset.find(rules) is None:
        raise RecordError(f"line {number}: rules: must be one of {', '.join(ruleset.names())}")
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"line {number}: options: must be a JSON object")
    seed = header.get("seed")
    position = header.get("position")
    if (seed is None) == (position is None):
        raise RecordError(f"line {number}: give exactly one of seed and position")
    if seed is not None and type(seed) is not int:
        raise RecordError(f"line {number}: seed: must be an integer")
    if position is not None and not isinstance(position, dict):
        raise RecordError(f"line {number}: position: must be a JSON object")
    players = header.get("players")
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"line {number}: players: must be a list of names")
    record = Record(str(rules), options, seed, position, players=players)
    for number, obj in objects[1:]:
        if record.result is not None:
            raise RecordError(f"line {number}: nothing may follow the result line")
        if set(obj) == {"action"} and isinstance(obj["action"], str):
            record.actions.append(obj["action"])
            record.lines.append(number)
        elif set(obj) == {"result"} and isinstance(obj["result"], dict):
            record.result = obj["result"]
            record.result_line = number
        else:
            raise RecordError(
                f'line {number}: expected {{"action": "..."}} or {{"result": {{...}}}}'
            )
    return record


def start(record: Record) -> Any:
    """The state a record starts from."""
    rules = ruleset.get(record.rules)
    try:
        if record.position is not None:
            state = rules.from_position(record.position)
            if rules.options_json(state) != {**rules.options_json(state), **record.options}:
                raise RecordError("line 1: options: disagree with the position's options")
            return state
        return rules.new_game(record.options, record.seed or 0)
    except DosError as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"line 1: {error}") from None


def replay(record: Record, on_step: Any = None) -> Any:
    """Plays a record through, checking every action; returns the final state.

    ``on_step(number, action_text, state)`` is called after each action. Raises
    ``RecordError`` with the line of the first action that does not apply, or when the game's
    result differs from the recorded one.
    """
    rules = ruleset.get(record.rules)
    state = start(record)
    for index, text in enumerate(record.actions):
        line = record.lines[index] if index < len(record.lines) else index + 2
        try:
            rules.apply(state, rules.parse_action(text))
        except DosError as error:
            raise RecordError(f"line {line}: action {text!r}: {error}") from None
        if on_step is not None:
            on_step(index + 1, text, state)
    if record.result is not None and rules.result(state) != record.result:
        line = record.result_line or len(record.actions) + 2
        raise RecordError(
            f"line {line}: result: the record says {record.result}, "
            f"the replay gives {rules.result(state)}"
        )
    return state
