"""A toy rule set, "count to N": each seat in turn adds 1 or 2 to a running total; whoever
reaches the target wins. It implements ``dos.ruleset.RuleSet`` and registers one ``Entry``
with no bots, no fast core, no codec, no terminal, no hints, no reviews, no ratings: what a
rule set added through the registry alone is, and what the server and the clients must play
without a line of their own.

Importing this module registers it (once: importing it again, or under another name, finds it
registered). A server plays it when told to load it, from the project's root::

    PYTHONPATH=tests DOS_RULESETS=toy_rules dos serve
    DOS_RULESETS=tests.toy_rules python -m dos serve    # the root is on the import path

(``tests`` is no package: ``tests.toy_rules`` is found as a namespace package's module only
where the root is on the import path, as ``python -m`` puts it; ``PYTHONPATH=tests`` with
``toy_rules`` works everywhere, and is how the suite imports it.)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from dos import ruleset
from dos.errors import IllegalActionError, NotationError, PositionError

TOY = "count-toy"
"""The toy's name."""


class Add(NamedTuple):
    """Adds ``amount`` (1 or 2) to the total; ``seat`` as in ``2: add 1`` (``None``: the seat
    to act)."""

    amount: int
    seat: int | None = None

    def __str__(self) -> str:
        prefix = "" if self.seat is None else f"{self.seat}: "
        return f"{prefix}add {self.amount}"


@dataclass
class CountState:
    """A game of counting: the seats, the target, the total and whose turn it is."""

    players: int
    target: int
    total: int = 0
    turn: int = 0
    winner: int | None = None
    history: list[Add] = field(default_factory=list)


class CountRules:
    """The toy rule set behind the ``RuleSet`` interface."""

    name = TOY

    def new_game(self, options: dict[str, Any] | None, seed: int) -> CountState:
        options = dict(options or {})
        players = options.pop("players", 2)
        target = options.pop("target", 5)
        if options:
            raise ValueError(f"unknown options: {', '.join(options)}")
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError("players: 2 to 4")
        if not isinstance(target, int) or not 1 <= target <= 99:
            raise ValueError("target: 1 to 99")
        return CountState(players, target, turn=seed % players)

    def options_json(self, state: CountState) -> dict[str, Any]:
        return {"players": state.players, "target": state.target}

    def parse_action(self, text: str) -> Add:
        seat, _, rest = text.rpartition(":")
        words = rest.split()
        if len(words) != 2 or words[0] != "add" or words[1] not in ("1", "2"):
            raise NotationError(f"not an action: {text!r} (add 1, add 2)")
        if not seat:
            return Add(int(words[1]))
        if not seat.strip().isdigit():
            raise NotationError(f"not a seat: {seat!r}")
        return Add(int(words[1]), int(seat))

    def by_seat(self, state: CountState, action: Add, seat: int) -> Add | None:
        if action.seat is not None and action.seat != seat:
            return None
        return action._replace(seat=None if seat == state.turn else seat)

    def legal_actions(self, state: CountState, seat: int | None = None) -> list[Add]:
        if self.is_over(state) or (seat is not None and seat != state.turn):
            return []
        return [Add(1), Add(2)]

    def all_legal_actions(self, state: CountState) -> list[Add]:
        return self.legal_actions(state)

    def apply(self, state: CountState, action: Add) -> None:
        if self.is_over(state):
            raise IllegalActionError("the game is over", "game_over")
        if action.seat is not None and action.seat != state.turn:
            raise IllegalActionError("not your turn", "not_your_turn")
        state.total += action.amount
        state.history.append(action)
        if state.total >= state.target:
            state.winner = state.turn
        else:
            state.turn = (state.turn + 1) % state.players

    def copy(self, state: CountState) -> CountState:
        return replace(state, history=list(state.history))

    def is_over(self, state: CountState) -> bool:
        return state.winner is not None

    def turn(self, state: CountState) -> int:
        return state.turn

    def players(self, state: CountState) -> int:
        return state.players

    def rounds_played(self, state: CountState) -> int:
        return 1 if self.is_over(state) else 0

    def result(self, state: CountState) -> dict[str, Any]:
        return {"winner": state.winner, "rounds": self.rounds_played(state)}

    def to_position(self, state: CountState) -> dict[str, Any]:
        return {
            "rules": TOY,
            "options": self.options_json(state),
            "total": state.total,
            "turn": state.turn,
            "winner": state.winner,
            "history": [str(a) for a in state.history],
        }

    def from_position(self, data: object) -> CountState:
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object")
        try:
            state = self.new_game(data["options"], 0)
            state.total, state.turn, state.winner = data["total"], data["turn"], data["winner"]
            state.history = [self.parse_action(a) for a in data["history"]]
        except (KeyError, ValueError) as error:
            raise PositionError(f"not a {TOY} position: {error}") from None
        return state

    def view_json(self, state: CountState, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "options": self.options_json(state),
            "turn": state.turn,
            "phase": "over" if self.is_over(state) else "counting",
            "total": state.total,
            "winner": state.winner,
            "history": [str(a) for a in state.history],
            "hand": [],
            "legal": [str(a) for a in self.legal_actions(state, seat)],
        }


RULES = CountRules()
"""The toy engine."""

ENTRY = ruleset.Entry(name=TOY, rules=lambda: RULES, summary="count to a target, 1 or 2 a go")
"""The toy's registry entry: an engine and a summary, and nothing else."""


def register() -> ruleset.Entry:
    """Registers the toy unless a toy is registered already; the toy's entry either way."""
    found = ruleset.find(TOY)
    if found is None:
        ruleset.register(ENTRY)
        return ENTRY
    return found


register()
