"""A recorded classic game, one action at a time: the states and the log in words (``dos play
--replay`` of a classic record, and the log of a resumed classic game).

>>> from dos import records, ruleset
>>> from dos.rules.classic import apply, legal_actions, new_game
>>> state = new_game(seed=3)
>>> for _ in range(4):
...     apply(state, legal_actions(state)[0])
>>> replay = ClassicReplay(records.record_of("classic", state, seed=3), "en")
>>> replay.go(4)
>>> replay.state == state, len(replay.log) >= 5
(True, True)
>>> replay.go(0)
>>> replay.log == replay.log[:1] and replay.step == 0
True
"""

from __future__ import annotations

from collections.abc import Sequence

from dos import records, ruleset
from dos.errors import RecordError
from dos.i18n import text
from dos.rules.classic import RULES, State, apply, parse_action
from dos.tui.classic.words import Before, log_lines, log_start


class ClassicReplay:
    """A classic record's game, one action at a time (each step checked by the engine).

    ``seen_by``: the seat whose drawn cards the log names (the person's, in a resumed game);
    ``None`` names every drawn card (a replay shows every hand)."""

    def __init__(
        self,
        record: records.Record,
        lang: str,
        names: Sequence[str] | None = None,
        *,
        seen_by: int | None = None,
    ) -> None:
        played = ruleset.find(record.rules)
        if played is None or played.rules() is not RULES:  # it steps through this engine alone
            raise RecordError(f"line 1: rules: a classic record is needed, not {record.rules!r}")
        self.record = record
        self.lang = lang
        self.seen_by = seen_by
        self.actions = [parse_action(a) for a in record.actions]
        start: State = records.start(record)
        self.names = list(names or record.players or [])
        if len(self.names) != start.players:
            self.names = [text(lang, "game.bot_name", number=seat) for seat in range(start.players)]
        self.states: list[State] = [start]
        self.lines: list[str] = [log_start(lang, self.names, start)]
        self.ends: list[int] = [1]
        """How many lines of ``lines`` the log has after each number of actions."""
        self.step = 0

    @property
    def state(self) -> State:
        """The game after ``step`` actions."""
        return self.states[self.step]

    @property
    def log(self) -> list[str]:
        """The log in words after ``step`` actions (the start line first)."""
        return self.lines[: self.ends[self.step]]

    def go(self, step: int) -> None:
        """Moves to the game after ``step`` actions (clamped to the record)."""
        step = max(0, min(step, len(self.actions)))
        while len(self.states) <= step:
            state = self.states[-1]
            action = self.actions[len(self.states) - 1]
            seat = state.turn if action.seat is None else action.seat
            after = state.copy()
            before = Before.of(after, seat)
            apply(after, action)
            seen = self.seen_by is None or seat == self.seen_by
            self.lines += log_lines(self.lang, self.names, before, action, after, seen=seen)
            self.ends.append(len(self.lines))
            self.states.append(after)
        self.step = step
