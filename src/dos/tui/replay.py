"""A recorded game, one action at a time: the states and the log in words (``dos play
--replay``, and the log of a resumed game); and the review of one seat of it
(``review_seat``, docs/review.md: the same as ``dos review``, decision by decision, so that
the terminal can show its progress)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dos import records
from dos.i18n import text
from dos.i18n.describe import Before, describe
from dos.review import SAMPLES, Entry, Review, review_record
from dos.rules.official import State, apply, parse_action


class Replay:
    """A record's game, one action at a time (each step checked by the engine)."""

    def __init__(
        self,
        record: records.Record,
        lang: str,
        names: Sequence[str] | None = None,
        review_samples: int = SAMPLES,
    ) -> None:
        self.record = record
        self.review_samples = review_samples
        """Samples a decision and stage of a review (``dos review --iterations``)."""
        self.review: SeatReview | None = None
        """The review of a seat, once made (``review_seat``)."""
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


@dataclass(frozen=True, slots=True)
class SeatReview:
    """A seat's review (``dos.review.Review``), with its entries by the step they were made at
    (an entry's ``index``: the actions before the decision, so the replay's step)."""

    seat: int
    review: Review

    def at(self, step: int) -> Entry | None:
        """The reviewed decision made at ``step``, if any."""
        return next((e for e in self.review.entries if e.index == step), None)

    def mistakes(self) -> list[Entry]:
        """The judged decisions, in the order of the game."""
        return [e for e in self.review.entries if e.judgement is not None]


def review_seat(
    record: records.Record,
    seat: int,
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SeatReview:
    """The review of ``seat`` in ``record`` (``dos.review.review_record``), one decision at a
    time; ``progress(done, total)`` after each. CPU work of seconds: the terminal runs it on a
    worker thread."""
    review = review_record(record, seat, samples=samples, seed=seed, progress=progress)
    return SeatReview(seat, review)
