"""The tutorial's runner: from a lesson and the learner's actions so far, what the learner
sees (``Answer``), with the real engine as the one judge; and ``check``, which walks a lesson
by its goals (``dos.learn`` has the whole story)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dos.errors import IllegalActionError, NotationError
from dos.i18n.explain import OFFICIAL_WORDS, Words, card_words, words
from dos.learn.lesson_files import MAX_ACTIONS, ORDER, Lesson, LessonInputError, Step
from dos.rules.official import RULES, Action, Kind, State, from_position, parse_action, view
from dos.rules.official.cards import NAMES
from dos.rules.official.views import phase_name


@dataclass(frozen=True, slots=True)
class Lit:
    """What does the step: hand and Center Row indexes, buttons, seats (a catch)."""

    hand: tuple[int, ...] = ()
    center: tuple[int, ...] = ()
    buttons: tuple[str, ...] = ()
    """``draw``, ``lay``, ``place``, ``end``, ``dos``, ``catch``: the buttons to press."""
    seats: tuple[int, ...] = ()
    dos_with_move: bool = False
    """The step's move leaves the learner two cards: "DOS! with this move" (the toggle, key W)
    calls DOS! with it, so that nobody can catch them in between (RULES.md §6)."""

    def to_json(self) -> dict[str, Any]:
        """As JSON lists (and the toggle's flag)."""
        return {
            "hand": list(self.hand),
            "center": list(self.center),
            "buttons": list(self.buttons),
            "seats": list(self.seats),
            "dos_with_move": self.dos_with_move,
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


_LAYS = frozenset({Kind.MATCH, Kind.LAY, Kind.PLACE})
"""The moves that put cards from the hand on the table."""


def _lit(state: State, seat: int, goals: Sequence[Action]) -> Lit:
    hand: list[int] = []
    center: list[int] = []
    buttons: list[str] = []
    seats: list[int] = []
    with_move = False
    for goal in goals:
        if goal.kind in _LAYS and len(state.hands[seat]) - len(goal.cards) == 2:
            with_move = True
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
    return Lit(tuple(sorted(hand)), tuple(sorted(center)), tuple(buttons), tuple(seats), with_move)


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
    """The lesson's last words; after a round, its points and the cards left in the other
    hands that make them (the learner never saw those hands)."""
    if state.round_results:
        result = state.round_results[-1]
        left = [c for seat, hand in enumerate(result.hands) if seat != result.winner for c in hand]
        return words(
            lesson.done,
            points=result.points,
            score=state.scores[lesson.seat],
            cards=tuple(card_words(c) for c in left),
        )
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
