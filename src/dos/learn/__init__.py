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

from dos.learn.lesson_files import (
    MAX_ACTIONS,
    ORDER,
    Lesson,
    LessonError,
    LessonInputError,
    Step,
    lesson,
    lessons,
    parse_lesson,
)
from dos.learn.runner import Answer, Lit, Move, check, run

__all__ = [
    "MAX_ACTIONS",
    "ORDER",
    "Answer",
    "Lesson",
    "LessonError",
    "LessonInputError",
    "Lit",
    "Move",
    "Step",
    "check",
    "lesson",
    "lessons",
    "parse_lesson",
    "run",
]
