"""The review of one seat's play in a finished game (official rules; docs/review.md).

Every turn decision of the seat (a match, ``draw``, ``lay``, ``end``, ``place``) with more than
one legal choice is judged from **the seat's view at that moment only**
(``dos.rules.official.view``): each legal choice is valued by ``sage``'s machinery
(``dos.review.estimate``: its sampler, its compiled rollouts, its game values), the best one
found, then the best and the chosen one valued again on fresh samples, paired, so that the
figures reported are not those of the best of many noisy estimates (the winner's curse). A
decision's **cost** is the win chance the choice gave up: the larger of the round's and the
game's, each the paired difference of the means. It is sorted by ``THRESHOLDS`` when the cost
is also more than ``CONFIDENCE`` standard errors above zero.

DOS calls and catches are reflexes, not choices of a turn: they are counted apart
(``Obligations``), from the record alone.

Given the record, the seat and the seed, the review is the same every time: each decision's
samples come from a generator of its own, seeded by the seed, the game and the decision.

>>> from dos.records import record_of
>>> from dos.rules.official import Options, new_game, apply, parse_action
>>> state = new_game(Options(players=2, target_score=20), seed=3)
>>> for text in ("draw",):
...     apply(state, parse_action(text))
>>> review = review_record(record_of("official", state, seed=3), state.turn ^ 1, samples=8)
>>> review.seat
1
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from dos import ruleset
from dos.bots.base import turn_choices
from dos.errors import DosError, RecordError
from dos.records import Record, replay, start
from dos.review.estimate import Values, estimate
from dos.rules.official import Action, Kind, SeatView, State, apply, parse_action, view
from dos.seats import check_seat

SAMPLES: Final = 1000
"""Determinizations per decision, for each stage (docs/review.md: speed)."""
THRESHOLDS: Final = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
"""Win chance lost from which a decision is a blunder, a mistake, an inaccuracy."""
CONFIDENCE: Final = 2.0
"""Standard errors by which a cost must exceed zero to be judged at all."""
MARKS: Final = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
"""The marks of the text rendering (chess's, so no words need translating)."""
VERSION: Final = 1
"""Changes when the same settings would give another review (the cache's key)."""

_TURN_KINDS: Final = frozenset((Kind.MATCH, Kind.DRAW, Kind.LAY, Kind.END, Kind.PLACE))


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn decision of the reviewed seat: the index of its action in the record, the
    seat's view just before it (all the review may read), and the action taken."""

    index: int
    view: SeatView
    action: Action


@dataclass(frozen=True, slots=True)
class Entry:
    """The review of one decision. Chances are in [0, 1]; ``round_*`` of going out first in
    this round, ``game_*`` of winning the game; ``*_before`` is the best choice's value (the
    chance before the decision, well played), ``*_chosen`` the chosen one's."""

    index: int
    round: int
    choices: int
    chosen: str
    best: str
    round_before: float
    game_before: float
    round_chosen: float
    game_chosen: float
    loss: float
    """The win chance lost: the larger of the round's and the game's losses (0 or more)."""
    error: float
    """The standard error of ``loss``."""
    judgement: str | None
    """``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or ``None``."""

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON (chances rounded to 4 decimals)."""
        return {
            "index": self.index,
            "round": self.round,
            "choices": self.choices,
            "chosen": self.chosen,
            "best": self.best,
            "round_before": round(self.round_before, 4),
            "game_before": round(self.game_before, 4),
            "round_chosen": round(self.round_chosen, 4),
            "game_chosen": round(self.game_chosen, 4),
            "loss": round(self.loss, 4),
            "error": round(self.error, 4),
            "judgement": self.judgement,
        }


@dataclass(frozen=True, slots=True)
class Obligation:
    """A DOS obligation (RULES.md §6) the reviewed seat could have settled and did not: its
    own call missed (``kind`` ``"call"``), or another seat's catch missed (``"catch"``).
    ``opened`` is the index of the action after which it opened, ``closed`` of the one that
    closed it (``None``: still open at the record's end), ``owner`` the seat that owed it,
    ``how`` what closed it: ``"call"``, ``"catch"`` (by whom: ``by``), ``"hand"`` (the hand
    changed) or ``"open"``."""

    kind: str
    owner: int
    opened: int
    closed: int | None
    how: str
    by: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The obligation as JSON."""
        return {
            "kind": self.kind,
            "owner": self.owner,
            "opened": self.opened,
            "closed": self.closed,
            "how": self.how,
            "by": self.by,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one seat of one game."""

    seat: int
    players: int
    target: int
    samples: int
    seed: int
    entries: tuple[Entry, ...]
    forced: int
    """Decisions with a single legal choice (not judged)."""
    calls_made: int
    catches_made: int
    missed: tuple[Obligation, ...] = field(default=())

    @property
    def missed_calls(self) -> int:
        """DOS calls the seat owed and did not make."""
        return sum(1 for o in self.missed if o.kind == "call")

    @property
    def missed_catches(self) -> int:
        """Catches the seat had time for and did not make."""
        return sum(1 for o in self.missed if o.kind == "catch")

    def count(self, judgement: str) -> int:
        """How many decisions were judged ``judgement``."""
        return sum(1 for e in self.entries if e.judgement == judgement)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON (docs/review.md). The summary is made of the entries as the JSON
        gives them (rounded), so a review read back from its JSON (``from_json``: the cache,
        the server's parts) writes the very same JSON."""
        entries = [e.to_json() for e in self.entries]
        return {
            "format": "dos-review",
            "version": VERSION,
            "seat": self.seat,
            "players": self.players,
            "target": self.target,
            "samples": self.samples,
            "seed": self.seed,
            "thresholds": {name: limit for name, limit in THRESHOLDS},
            "summary": {
                "decisions": len(self.entries),
                "forced": self.forced,
                "inaccuracies": self.count("inaccuracy"),
                "mistakes": self.count("mistake"),
                "blunders": self.count("blunder"),
                "calls_made": self.calls_made,
                "missed_calls": self.missed_calls,
                "catches_made": self.catches_made,
                "missed_catches": self.missed_catches,
                "average_loss": round(sum(e["loss"] for e in entries) / len(entries), 4)
                if entries
                else 0.0,
            },
            "entries": entries,
            "missed": [o.to_json() for o in self.missed],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """The review ``to_json`` wrote (for the cache)."""
        return cls(
            seat=data["seat"],
            players=data["players"],
            target=data["target"],
            samples=data["samples"],
            seed=data["seed"],
            entries=tuple(Entry(**e) for e in data["entries"]),
            forced=data["summary"]["forced"],
            calls_made=data["summary"]["calls_made"],
            catches_made=data["summary"]["catches_made"],
            missed=tuple(Obligation(**o) for o in data["missed"]),
        )

    def render(self) -> str:
        """The review for the terminal, in numbers and the game's notation only (no words,
        so nothing to translate; docs/review.md explains the columns): one line a decision —
        index, round, chosen action, best action, round and game chances before it (%),
        the loss (points of %), its mark (``?!``, ``?``, ``??``); a summary line
        ``?! n  ? n  ?? n  dos made/missed  catch made/missed``."""
        rows = []
        for e in self.entries:
            mark = MARKS.get(e.judgement or "", "")
            best = "=" if e.best == e.chosen else e.best
            rows.append(
                f"{e.index:>4} {e.round:>2} {e.chosen:<14} {best:<14} "
                f"{100 * e.round_before:5.1f} {100 * e.game_before:5.1f} "
                f"{-100 * e.loss:6.1f} {mark}".rstrip()
            )
        summary = (
            f"?! {self.count('inaccuracy')}  ? {self.count('mistake')}  "
            f"?? {self.count('blunder')}  dos {self.calls_made}/{self.missed_calls}  "
            f"catch {self.catches_made}/{self.missed_catches}"
        )
        return "\n".join([*rows, summary]) + "\n"


def reviewed(rules: str) -> bool:
    """Whether games of the rule set ``rules`` can be reviewed: its registry entry's
    ``reviews``, which a rule set told in the official rules' actions and views offers; an
    unknown name cannot.

    >>> reviewed("official"), reviewed("classic"), reviewed("poker")
    (True, False, False)
    """
    entry = ruleset.find(rules)
    return entry is not None and entry.reviews


def reviewed_rules() -> str:
    """The rule sets whose games can be reviewed, in words.

    >>> reviewed_rules()
    'official'
    """
    return " and ".join(entry.name for entry in ruleset.entries() if entry.reviews)


def decisions(record: Record, seat: int) -> tuple[list[Decision], list[Obligation], int, int]:
    """Replays ``record`` (of a rule set that can be reviewed, ``reviewed``) and returns the
    seat's turn decisions (each with the seat's view before it, nothing else of the state),
    the obligations it missed, and the calls and catches it made. Raises ``RecordError`` for
    a record that does not replay or cannot be reviewed, ``ValueError`` for a seat the game
    does not have."""
    if not reviewed(record.rules):
        raise RecordError(f"the review reads {reviewed_rules()} games, not {record.rules!r} ones")
    state: State = start(record)
    check_seat(seat, state.options.players)
    found: list[Decision] = []
    tracker = _Obligations(seat)
    for index, text in enumerate(record.actions):
        try:
            action = parse_action(text)
        except DosError as error:
            raise RecordError(f"action {index + 1} {text!r}: {error}") from None
        actor = state.turn if action.seat is None else action.seat
        if actor == seat and action.kind in _TURN_KINDS and action.seat in (None, seat):
            found.append(Decision(index, view(state, seat), action))
        before = state.dos_open
        hands = [len(h) for h in state.hands]
        try:
            apply(state, action)
        except DosError as error:
            raise RecordError(f"action {index + 1} {text!r}: {error}") from None
        tracker.step(index, actor=actor, action=action, before=before, hands=hands, state=state)
    tracker.finish()
    return found, tracker.missed, tracker.calls, tracker.catches


def review_record(
    record: Record,
    seat: int,
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of ``seat`` in ``record`` (see the module docstring). With ``progress``, the
    decisions are reviewed one at a time (the same review: each decision's samples come from
    its own seed) and ``progress(done, total)`` is called after each."""
    if samples < 2:
        raise ValueError("samples: at least 2")
    replay(record)  # the whole record checked first, its result line included
    found, missed, calls, catches = decisions(record, seat)
    key = game_key(record)
    if progress is None:
        entries, forced = review_decisions(found, samples=samples, seed=seed, game=key)
    else:
        entries, forced = [], 0
        for done, decision in enumerate(found, 1):
            judged, single = review_decisions([decision], samples=samples, seed=seed, game=key)
            entries += judged
            forced += single
            progress(done, len(found))
    options = start(record).options
    return Review(
        seat=seat,
        players=options.players,
        target=options.target_score,
        samples=samples,
        seed=seed,
        entries=tuple(entries),
        forced=forced,
        calls_made=calls,
        catches_made=catches,
        missed=tuple(missed),
    )


review_game = review_record
"""``review_record`` under the name the package documents for reviewing a game from Python
(``dos.review``, docs/review.md); the package's own callers use ``review_record``."""


def review_decisions(
    found: Sequence[Decision], *, samples: int, seed: int, game: str
) -> tuple[list[Entry], int]:
    """The entries of the decisions that had a choice, and how many had none."""
    entries = []
    forced = 0
    for decision in found:
        entry = judge(decision, samples=samples, rng=decision_rng(seed, game, decision))
        if entry is None:
            forced += 1
        else:
            entries.append(entry)
    return entries, forced


def decision_rng(seed: int, game: str, decision: Decision) -> random.Random:
    """The generator of one decision's samples: from the review's seed, the game, the seat
    and the decision's index, so that a review is the same every time, and the same decision
    gets the same samples whatever else is reviewed."""
    return random.Random(f"dos-review:{seed}:{game}:{decision.view.seat}:{decision.index}")


def game_key(record: Record) -> str:
    """What tells one game's deal from another's: its seed, or a hash of its position."""
    if record.seed is not None:
        return f"seed={record.seed}"
    text = json.dumps(record.position, sort_keys=True)
    return "position=" + hashlib.sha256(text.encode()).hexdigest()[:16]


def judge(decision: Decision, *, samples: int, rng: random.Random) -> Entry | None:
    """The entry of one decision, judged from its view only; ``None`` when it had a single
    legal choice."""
    seen = decision.view
    choices = turn_choices(seen)
    if len(choices) < 2:
        return None
    chosen = _as_choice(decision.action, choices)
    first = estimate(seen, choices, rng, samples)
    best = max(range(len(first)), key=lambda k: (first[k].game, first[k].round, -k))
    best_action = choices[best]
    if best_action == chosen:
        (again,) = estimate(seen, [chosen], rng, samples)
        loss = error = 0.0
        best_values = chosen_values = again
    else:
        best_values, chosen_values = estimate(seen, [best_action, chosen], rng, samples)
        loss, error = _loss(best_values, chosen_values)
    judgement = None
    if loss > CONFIDENCE * error:
        judgement = next((name for name, limit in THRESHOLDS if loss >= limit), None)
    return Entry(
        index=decision.index,
        round=seen.round,
        choices=len(choices),
        chosen=str(decision.action),
        best=str(best_action) if best_action != chosen else str(decision.action),
        round_before=best_values.round,
        game_before=best_values.game,
        round_chosen=chosen_values.round,
        game_chosen=chosen_values.game,
        loss=loss,
        error=error,
        judgement=judgement,
    )


def _as_choice(action: Action, choices: list[Action]) -> Action:
    """The legal choice ``action`` is: itself, or itself without designations (the estimate
    lets the engine designate, which gives the best colour result, RULES.md §3)."""
    if action in choices:
        return action
    plain = action._replace(designations=(), seat=None)
    if plain in choices:
        return plain
    raise RecordError(f"action {str(action)!r} is not among the seat's turn choices")


def _loss(best: Values, chosen: Values) -> tuple[float, float]:
    """The win chance lost, round or game (the larger paired mean difference, at least 0),
    and its standard error."""
    found = []
    for one, other in ((best.rounds, chosen.rounds), (best.games, chosen.games)):
        gains = [a - b for a, b in zip(one, other, strict=True)]
        n = len(gains)
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
        found.append((mean, spread / math.sqrt(n)))
    mean, error = max(found)
    return max(0.0, mean), error


class _Obligations:
    """Follows the DOS obligations of a replay (RULES.md §6) for one seat: its own calls made
    and missed, and the catches it made and missed. An obligation is *exposed* when it stayed
    open across at least one later action (there was time to call or catch). A catch is
    missed when another seat's exposed obligation closed (or the record ended) without the
    reviewed seat catching it; its own call is missed when its obligation was caught, or was
    exposed and closed otherwise than by its call (a hand that became two and changed at the
    very next action, as in a run of matches, owed nothing anyone could act on)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.opened: dict[int, int] = {}
        """Owner -> the index of the action after which the obligation opened."""
        self.missed: list[Obligation] = []
        self.calls = 0
        self.catches = 0

    def step(
        self,
        index: int,
        *,
        actor: int,
        action: Action,
        before: int,
        hands: list[int],
        state: State,
    ) -> None:
        """Takes in action ``index`` by ``actor``; ``before`` and ``hands``: the open
        obligations and the hand sizes before it, ``state`` the game after it."""
        after = state.dos_open
        seat = self.seat
        if action.kind == Kind.CALL and actor == seat:
            self.calls += 1
        if action.kind == Kind.CATCH and actor == seat:
            self.catches += 1
        for owner in range(len(hands)):
            was = before >> owner & 1
            now = after >> owner & 1
            reopened = was and now and len(state.hands[owner]) != hands[owner]
            if was and (not now or reopened):
                self._close(owner, index, actor, action)
            if now and (not was or reopened):
                self.opened[owner] = index

    def _close(self, owner: int, index: int, actor: int, action: Action) -> None:
        opened = self.opened.pop(owner, None)
        if opened is None:
            return
        if action.kind == Kind.CALL and actor == owner:
            how, by = "call", owner
        elif action.kind == Kind.CATCH and action.target == owner:
            how, by = "catch", actor
        else:
            how, by = "hand", None
        self._judge(owner, opened, index, how, by)

    def _judge(self, owner: int, opened: int, closed: int | None, how: str, by: int | None) -> None:
        seat = self.seat
        # Exposed: the obligation outlived the next action, so a catch (or a call) had time.
        exposed = closed is None or closed > opened + 1
        if owner == seat:
            if how != "call" and (how == "catch" or exposed):
                self.missed.append(Obligation("call", owner, opened, closed, how, by))
            return
        if exposed and not (how == "catch" and by == seat):
            self.missed.append(Obligation("catch", owner, opened, closed, how, by))

    def finish(self) -> None:
        for owner, opened in sorted(self.opened.items()):
            self._judge(owner, opened, None, "open", None)
        self.opened.clear()
