"""Game records: a game kept as (rule set, options, seed or start position, actions).

The format is JSON Lines, one object a line (``docs/records.md``)::

    {"format": "dos-record", "version": 1, "rules": "official", "options": {...}, "seed": 42}
    {"deal": {"round": 1, "dealer": 0, "hands": [...], "center": [...], "draw_pile": [...]}}
    {"action": "R7@0"}
    {"action": "2: dos"}
    {"result": {"winner": 1, "scores": [0, 212, 35, 80], "rounds": 4}}

The header has ``seed`` (a game from its deal) or ``position`` (a game from a saved position),
and may add ``players`` (display names), ``commitment`` and ``salt`` (the commitment to the
seed published before the game and the salt that opens it: ``dos.records.commitment``). A
``deal`` line shows a round's deal where it was dealt (``dos.records.deals``); deal lines are
optional. The ``result`` line is optional; when present, replaying must reach it. Replaying
checks every action and every deal shown; ``dos.records.verify`` checks the commitment too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from dos import ruleset
from dos.errors import DosError, RecordError
from dos.records.commitment import is_commitment, is_salt
from dos.records.deals import Deal, DealMismatchError, deal_of, difference

FORMAT = "dos-record"
VERSION = 1
HEADER_FIELDS = (
    "format",
    "version",
    "rules",
    "options",
    "seed",
    "position",
    "players",
    "commitment",
    "salt",
)


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
    commitment: str | None = None
    """The commitment to ``seed`` published before the game (``dos.records.commitment``)."""
    salt: str | None = None
    """The salt that, with ``seed``, opens ``commitment``."""
    deals: list[Deal] = field(default_factory=list)
    """The deals the record shows, in the order of play."""
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
        if self.commitment is not None:
            header["commitment"] = self.commitment
        if self.salt is not None:
            header["salt"] = self.salt
        lines = [json.dumps(header)]
        deals = sorted(self.deals, key=lambda deal: deal.at)
        shown = 0
        for index, action in enumerate([*self.actions, None]):
            while shown < len(deals) and deals[shown].at == index:
                lines.append(json.dumps({"deal": deals[shown].cards}))
                shown += 1
            if action is not None:
                lines.append(json.dumps({"action": action}))
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
    commitment = header.get("commitment")
    if commitment is not None and not is_commitment(commitment):
        raise RecordError(f"line {number}: commitment: must be 64 lowercase hexadecimal digits")
    salt = header.get("salt")
    if salt is not None and not is_salt(salt):
        raise RecordError(f"line {number}: salt: must be 32 lowercase hexadecimal digits")
    record = Record(
        str(rules), options, seed, position, players=players, commitment=commitment, salt=salt
    )
    for number, obj in objects[1:]:
        if record.result is not None:
            raise RecordError(f"line {number}: nothing may follow the result line")
        if set(obj) == {"action"} and isinstance(obj["action"], str):
            record.actions.append(obj["action"])
            record.lines.append(number)
        elif set(obj) == {"deal"} and isinstance(obj["deal"], dict):
            record.deals.append(Deal(len(record.actions), obj["deal"], number))
        elif set(obj) == {"result"} and isinstance(obj["result"], dict):
            record.result = obj["result"]
            record.result_line = number
        else:
            raise RecordError(
                f'line {number}: expected {{"action": "..."}}, {{"deal": {{...}}}} '
                'or {"result": {...}}'
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


def replay(record: Record, on_step: Any = None, on_deal: Any = None) -> Any:
    """Plays a record through, checking every action and every deal it shows; returns the
    final state.

    ``on_step(number, action_text, state)`` is called after each action, ``on_deal(deal,
    shown)`` at each deal: ``deal`` as the engine dealt it (``Deal``), ``shown`` the record's
    (``None``: it shows none). Raises ``RecordError`` with the line of the first action that
    does not apply, ``DealMismatchError`` for a deal shown that is not the engine's, and
    ``RecordError`` when the game's result differs from the recorded one.
    """
    rules = ruleset.get(record.rules)
    state = start(record)
    shown = _shown_deals(record)
    rounds = rules.rounds_played(state)
    if record.position is None:
        _deal(rules, state, rounds + 1, 0, shown=shown, on_deal=on_deal)
    for index, text in enumerate(record.actions):
        line = record.lines[index] if index < len(record.lines) else index + 2
        try:
            rules.apply(state, rules.parse_action(text))
        except DosError as error:
            raise RecordError(f"line {line}: action {text!r}: {error}") from None
        if on_step is not None:
            on_step(index + 1, text, state)
        played = rules.rounds_played(state)
        if played > rounds and not rules.is_over(state):
            _deal(rules, state, played + 1, index + 1, shown=shown, on_deal=on_deal)
        rounds = played
    if shown:
        deal = min(shown.values(), key=lambda d: d.at)
        raise RecordError(f"line {deal.line}: deal: no round is dealt at this point of the game")
    if record.result is not None and rules.result(state) != record.result:
        line = record.result_line or len(record.actions) + 2
        raise RecordError(
            f"line {line}: result: the record says {record.result}, "
            f"the replay gives {rules.result(state)}"
        )
    return state


def with_deals(record: Record) -> Record:
    """``record`` showing every deal of its game (replayed: the actions must apply; its
    result is left for ``replay`` to check)."""
    dealt: list[Deal] = []
    actions_only = _without_deals(record)
    actions_only.result = None
    replay(actions_only, on_deal=lambda deal, _shown: dealt.append(deal))
    copy = _without_deals(record)
    copy.deals = dealt
    return copy


def _without_deals(record: Record) -> Record:
    return Record(
        record.rules,
        record.options,
        record.seed,
        record.position,
        record.actions,
        record.result,
        record.players,
        record.commitment,
        record.salt,
        [],
        record.lines,
        record.result_line,
    )


def _shown_deals(record: Record) -> dict[int, Deal]:
    shown: dict[int, Deal] = {}
    for deal in record.deals:
        if deal.at in shown:
            raise RecordError(f"line {deal.line}: deal: a second deal at the same point")
        shown[deal.at] = deal
    return shown


def _deal(
    rules: Any, state: Any, number: int, at: int, *, shown: dict[int, Deal], on_deal: Any
) -> None:
    """Checks the deal of round ``number``, dealt after ``at`` actions, against the one the
    record shows there (taken out of ``shown``)."""
    dealt = Deal(at, deal_of(rules, state, number))
    deal = shown.pop(at, None)
    if deal is not None:
        found = difference(deal.cards, dealt.cards)
        if found is not None:
            raise DealMismatchError(number, deal.line, found)
    if on_deal is not None:
        on_deal(dealt, deal)
