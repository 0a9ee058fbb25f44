"""The tutorial's lessons as data: what a lesson is (``Lesson``, ``Step``), the order they are
taught in (``ORDER``), and reading them from their JSON files in ``lessons/``
(``docs/learn.md`` says how to write one); a file that cannot be used is a ``LessonError``
naming the lesson and the field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dos.errors import DosError, PositionError
from dos.rules.official import State, from_position

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
