"""A recorded game, one action at a time: the states and the log in words (``dos play
--replay``, and the log of a resumed game)."""

from __future__ import annotations

from collections.abc import Sequence

from dos import records
from dos.i18n import text
from dos.i18n.describe import Before, describe
from dos.rules.official import State, apply, parse_action


class Replay:
    """A record's game, one action at a time (each step checked by the engine)."""

    def __init__(
        self, record: records.Record, lang: str, names: Sequence[str] | None = None
    ) -> None:
        self.record = record
        self.lang = lang
        self.actions = [parse_action(a) for a in record.actions]
        start = records.start(record)
        self.names = list(names or record.players or [])
        if len(self.names) != start.players:
            self.names = [text(lang, "game.bot_name", number=seat) for seat in range(start.players)]
        self.states: list[State] = [start]
        self.sentences: list[str] = []
        self.step = 0

    @property
    def state(self) -> State:
        """The game after ``step`` actions."""
        return self.states[self.step]

    def go(self, step: int) -> None:
        """Moves to the game after ``step`` actions (clamped to the record)."""
        step = max(0, min(step, len(self.actions)))
        while len(self.states) <= step:
            before = self.states[-1]
            after = before.copy()
            action = self.actions[len(self.states) - 1]
            apply(after, action)
            self.sentences.append(
                describe(
                    self.lang,
                    action,
                    Before(tuple(before.center), before.turn, before.phase),
                    self.names,
                )
            )
            self.states.append(after)
        self.step = step
