"""The guided first game: short scripted deals that teach the official rules one at a time.

A lesson (``Lesson``) is a position in the project's own position format (docs/positions.md),
the seat the learner plays, and its steps: what to do (a catalog key), the action(s) that do
it (notation, docs/notation.md) and the other seats' scripted actions that follow it. The
lessons are JSON files in ``lessons/``, in the order of ``ORDER``; ``docs/learn.md`` says how
to write one.

``run(lesson, actions)`` is the whole tutorial, and it is pure: from a lesson and the
learner's actions so far it gives what the learner sees (``Answer``): their own view (never
another seat's hidden cards), the step's prompt, the hand cards, Center Row cards, buttons and
seats that do the step, and whether the last action was refused, and why. The real engine
(``dos.rules.official``) is the one judge: an illegal action is refused with the engine's own
reason in the catalog's words (``dos.i18n.explain``), and a legal one that is not the step's
goal with the step's own explanation.

>>> from dos.i18n.explain import render
>>> first = lesson("single_number_match")
>>> answer = run(first, [])
>>> answer.status, answer.step, render("en", answer.prompt).startswith("A Single Number")
('play', 0, True)
>>> answer.view["hand"][answer.lit.hand[0]], answer.view["center"][answer.lit.center[0]]
('B7', 'R7')
>>> wrong = run(first, ["B7@1"])
>>> wrong.status, wrong.accepted, wrong.explanation is not None
('wrong', 0, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from dos.errors import DosError, IllegalActionError, NotationError, PositionError
from dos.i18n.explain import OFFICIAL_WORDS, Words, words
from dos.rules.official import RULES, Action, Kind, State, from_position, parse_action, view
from dos.rules.official.cards import NAMES
from dos.rules.official.views import phase_name

ORDER: tuple[str, ...] = (
    "single_number_match",
    "double_number_match",
    "colour_bonus",
    "double_color_match",
    "wild_cards",
    "draw_then_play",
    "dos_call",
    "round_end",
)
"""The lessons, one concept each, in the order they are taught."""

MAX_ACTIONS = 64
"""The most learner actions one answer replays (no lesson needs a tenth of it)."""


class LessonError(DosError, ValueError):
    """A lesson file that cannot be used: the message names the lesson and the field."""


class LessonInputError(DosError, ValueError):
    """Learner input that is not an action at all (not notation, too long): ``index`` says
    which of the actions it is."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson: its prompt, the learner's actions that do it, the explanation of
    any other legal action, and the other seats' actions that follow it."""

    prompt: str
    """The catalog key of what to do (``learn.<key>``)."""
    goals: tuple[str, ...]
    """The learner's actions that complete the step, in notation."""
    wrong: str
    """The catalog key that explains a legal action that is not one of ``goals``."""
    then: tuple[str, ...] = ()
    """The other seats' scripted actions applied after the step, in notation (``1: draw``)."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """A scripted deal: a position, the learner's seat, its steps (``docs/learn.md``)."""

    id: str
    title: str
    """The catalog key of the lesson's name."""
    done: str
    """The catalog key said when the lesson is finished (``{points}`` and ``{score}`` are
    filled when a round has ended)."""
    seat: int
    position: dict[str, Any]
    steps: tuple[Step, ...]

    def start(self) -> State:
        """The lesson's starting state (a fresh one each time)."""
        return from_position(self.position)

    def to_json(self) -> dict[str, Any]:
        """What a lesson list shows: its id, name and number of steps."""
        return {"id": self.id, "title": self.title, "steps": len(self.steps)}


@dataclass(frozen=True, slots=True)
class Lit:
    """What does the step: hand and Center Row indexes, buttons, seats (a catch)."""

    hand: tuple[int, ...] = ()
    center: tuple[int, ...] = ()
    buttons: tuple[str, ...] = ()
    """``draw``, ``lay``, ``place``, ``end``, ``dos``, ``catch``: the buttons to press."""
    seats: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As JSON lists."""
        return {
            "hand": list(self.hand),
            "center": list(self.center),
            "buttons": list(self.buttons),
            "seats": list(self.seats),
        }


@dataclass(frozen=True, slots=True)
class Move:
    """Another seat's scripted action, with what a client needs to say it in words: the
    Center Row and the phase just before it."""

    seat: int
    action: str
    center: tuple[str, ...]
    phase: str

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "seat": self.seat,
            "action": self.action,
            "center": list(self.center),
            "phase": self.phase,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """Where the learner stands in a lesson after their actions so far."""

    lesson: Lesson
    status: str
    """``play`` (the step waits for the learner), ``wrong`` (the last action was refused:
    ``explanation`` says why) or ``finished``."""
    step: int
    """The step the learner is on (``len(steps)`` when finished)."""
    accepted: int
    """How many of the actions were taken; a refused one and any after it were not."""
    prompt: Words
    explanation: Words | None
    lit: Lit
    view: dict[str, Any]
    """The learner's own view (``SeatView.to_json``): no other seat's hidden cards."""
    moves: tuple[Move, ...] = field(default=())
    """The other seats' actions since the learner's last accepted action."""

    def to_json(self) -> dict[str, Any]:
        """As JSON (the ``/api/learn/{lesson}`` answer, docs/learn.md)."""
        return {
            "lesson": self.lesson.id,
            "title": self.lesson.title,
            "number": ORDER.index(self.lesson.id) + 1 if self.lesson.id in ORDER else 0,
            "lessons": len(ORDER),
            "status": self.status,
            "step": self.step,
            "steps": len(self.lesson.steps),
            "accepted": self.accepted,
            "seat": self.lesson.seat,
            "prompt": self.prompt.json(),
            "explanation": None if self.explanation is None else self.explanation.json(),
            "lit": self.lit.to_json(),
            "view": self.view,
            "moves": [move.to_json() for move in self.moves],
        }


# --- loading --------------------------------------------------------------------------------


def _strings(data: object, where: str) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        raise LessonError(f"{where}: expected a list of actions in notation")
    return tuple(data)


def _text_key(data: dict[str, Any], name: str, where: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.startswith("learn."):
        raise LessonError(f"{where}.{name}: expected a catalog key 'learn.…'")
    return value


def parse_lesson(lesson_id: str, data: object) -> Lesson:
    """A lesson from its JSON, each field checked (``LessonError`` names the one at fault);
    the position is checked by the engine (``from_position``)."""
    where = f"lesson {lesson_id}"
    if not isinstance(data, dict):
        raise LessonError(f"{where}: expected an object")
    known = {"title", "done", "seat", "position", "steps"}
    for name in data:
        if name not in known:
            raise LessonError(f"{where}: unknown field {name!r}")
    seat = data.get("seat")
    if type(seat) is not int:
        raise LessonError(f"{where}.seat: expected a seat number")
    position = data.get("position")
    if not isinstance(position, dict):
        raise LessonError(f"{where}.position: expected a position object")
    try:
        state = from_position(position)
    except PositionError as error:
        raise LessonError(f"{where}.position: {error}") from None
    if not 0 <= seat < state.options.players:
        raise LessonError(f"{where}.seat: no seat {seat} in a {state.options.players}-seat game")
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise LessonError(f"{where}.steps: expected a list of steps")
    steps = []
    for index, raw in enumerate(raw_steps):
        at = f"{where}.steps[{index}]"
        if not isinstance(raw, dict):
            raise LessonError(f"{at}: expected an object")
        for name in raw:
            if name not in ("prompt", "goals", "wrong", "then"):
                raise LessonError(f"{at}: unknown field {name!r}")
        goals = _strings(raw.get("goals"), f"{at}.goals")
        if not goals:
            raise LessonError(f"{at}.goals: at least one action")
        steps.append(
            Step(
                prompt=_text_key(raw, "prompt", at),
                goals=goals,
                wrong=_text_key(raw, "wrong", at),
                then=_strings(raw.get("then", []), f"{at}.then"),
            )
        )
    return Lesson(
        id=lesson_id,
        title=_text_key(data, "title", where),
        done=_text_key(data, "done", where),
        seat=seat,
        position=position,
        steps=tuple(steps),
    )


@cache
def lessons() -> tuple[Lesson, ...]:
    """Every lesson, in the order they are taught (``ORDER``)."""
    folder = resources.files(__package__).joinpath("lessons")
    found = []
    for lesson_id in ORDER:
        entry = folder.joinpath(f"{lesson_id}.json")
        try:
            data = json.loads(entry.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise LessonError(f"lesson {lesson_id}: {error}") from None
        found.append(parse_lesson(lesson_id, data))
    return tuple(found)


def lesson(lesson_id: str) -> Lesson:
    """The lesson called ``lesson_id``; ``KeyError`` if there is none."""
    for candidate in lessons():
        if candidate.id == lesson_id:
            return candidate
    raise KeyError(lesson_id)


# --- running --------------------------------------------------------------------------------


def _bound(state: State, text: str, seat: int) -> Action | None:
    """``text`` as an action of ``seat`` (``None``: it names another seat)."""
    return RULES.by_seat(state, parse_action(text), seat)


def _scripted(state: State, text: str) -> Action:
    action = parse_action(text)
    return action._replace(seat=None) if action.seat == state.turn else action


def _same_move(a: Action, b: Action) -> bool:
    """The same kind, target and cards (designations aside: the engine's own pick is the
    best colour result, so a plain match and one written out can be the same move)."""
    return (a.kind, a.target, a.seat, sorted(a.cards)) == (
        b.kind,
        b.target,
        b.seat,
        sorted(b.cards),
    )


def _applied(state: State, action: Action) -> State:
    after = state.copy()
    RULES.apply(after, action)
    return after


def _is_goal(state: State, action: Action, goals: Sequence[Action]) -> bool:
    """Whether ``action`` (legal here) does the step: a goal's move with the goal's result."""
    after = None
    for goal in goals:
        if not _same_move(action, goal):
            continue
        after = after or RULES.to_position(_applied(state, action))
        if RULES.to_position(_applied(state, goal)) == after:
            return True
    return False


def _indexes(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    """Where ``cards`` are in ``hand`` (a card held twice is found at two places)."""
    taken: list[int] = []
    for card in cards:
        for index, held in enumerate(hand):
            if held == card and index not in taken:
                taken.append(index)
                break
    return taken


_BUTTONS = {
    Kind.DRAW: "draw",
    Kind.LAY: "lay",
    Kind.PLACE: "place",
    Kind.END: "end",
    Kind.CALL: "dos",
    Kind.CATCH: "catch",
}


def _lit(state: State, seat: int, goals: Sequence[Action]) -> Lit:
    hand: list[int] = []
    center: list[int] = []
    buttons: list[str] = []
    seats: list[int] = []
    for goal in goals:
        for index in _indexes(state.hands[seat], goal.cards):
            if index not in hand:
                hand.append(index)
        if goal.kind == Kind.MATCH and goal.target not in center:
            center.append(goal.target)
        button = _BUTTONS.get(goal.kind)
        if button is not None and button not in buttons:
            buttons.append(button)
        if goal.kind == Kind.CATCH and goal.target not in seats:
            seats.append(goal.target)
    return Lit(tuple(sorted(hand)), tuple(sorted(center)), tuple(buttons), tuple(seats))


def _follow(state: State, step: Step, moves: list[Move]) -> None:
    """Applies the other seats' scripted actions of ``step``."""
    for text in step.then:
        action = _scripted(state, text)
        seat = state.turn if action.seat is None else action.seat
        before = Move(
            seat,
            str(action._replace(seat=None)),
            tuple(NAMES[c] for c in state.center),
            phase_name(state.phase, state.drew, bool(state.matched)),
        )
        RULES.apply(state, action)
        moves.append(before)


def _done_words(lesson: Lesson, state: State) -> Words:
    if state.round_results:
        result = state.round_results[-1]
        return words(lesson.done, points=result.points, score=state.scores[lesson.seat])
    return words(lesson.done)


def run(lesson: Lesson, actions: Sequence[str]) -> Answer:
    """Where the learner stands after ``actions`` (notation, the learner's own: a seat prefix
    is not needed): each is judged in turn, and the first refused one stops the replay.

    Raises ``LessonInputError`` for an action that is not notation, or past ``MAX_ACTIONS``.
    """
    if len(actions) > MAX_ACTIONS:
        raise LessonInputError(f"at most {MAX_ACTIONS} actions", MAX_ACTIONS)
    state = lesson.start()
    seat = lesson.seat
    step = 0
    accepted = 0
    explanation: Words | None = None
    moves: list[Move] = []
    for index, text in enumerate(actions):
        try:
            action = _bound(state, text, seat)
        except NotationError as error:
            raise LessonInputError(str(error), index) from None
        if step >= len(lesson.steps):
            explanation = words("learn.err_finished")
            break
        current = lesson.steps[step]
        if action is None:
            explanation = OFFICIAL_WORDS.error_words(
                IllegalActionError("not your seat", "not_your_turn"), text
            )
            break
        try:
            after = _applied(state, action)
        except (IllegalActionError, NotationError) as error:
            refusal = (
                error
                if isinstance(error, IllegalActionError)
                else IllegalActionError(str(error), "not_allowed")
            )
            explanation = OFFICIAL_WORDS.error_words(refusal, action)
            break
        goals = [g for g in (_bound(state, goal, seat) for goal in current.goals) if g]
        if not _is_goal(state, action, goals):
            explanation = words(current.wrong)
            break
        state = after
        moves = []
        _follow(state, current, moves)
        step += 1
        accepted = index + 1
    finished = step >= len(lesson.steps)
    if finished:
        prompt = _done_words(lesson, state)
        lit = Lit()
    else:
        current = lesson.steps[step]
        prompt = words(current.prompt)
        goals = [g for g in (_bound(state, goal, seat) for goal in current.goals) if g]
        lit = _lit(state, seat, goals)
    status = "wrong" if explanation is not None else "finished" if finished else "play"
    return Answer(
        lesson=lesson,
        status=status,
        step=step,
        accepted=accepted,
        prompt=prompt,
        explanation=explanation,
        lit=lit,
        view=view(state, seat).to_json(),
        moves=tuple(moves),
    )


def check(lesson: Lesson) -> list[str]:
    """What is wrong with ``lesson`` (empty: nothing): its position must round-trip, every
    goal must be legal where its step stands and every scripted action after it too, the
    lesson must be walkable by its goals (each one, not only the first), and the learner
    must never see another seat's hand in the view."""
    problems: list[str] = []
    state = lesson.start()
    again = from_position(RULES.to_position(state))
    if RULES.to_position(again) != RULES.to_position(state):
        problems.append(f"{lesson.id}: the position does not round-trip")
    done: list[str] = []
    for number, step in enumerate(lesson.steps):
        for goal in step.goals:
            answer = run(lesson, [*done, goal])
            if answer.status == "wrong" or answer.step != number + 1:
                problems.append(f"{lesson.id}: step {number}: goal {goal!r} does not do the step")
        answer = run(lesson, done)
        if answer.step != number or answer.status != "play":
            problems.append(f"{lesson.id}: step {number} is not reached by the goals before it")
            break
        done.append(step.goals[0])
    if run(lesson, done).status != "finished":
        problems.append(f"{lesson.id}: the goals do not finish the lesson")
    return problems
