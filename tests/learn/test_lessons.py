"""The tutorial's lessons and their runner (``dos.learn``): every lesson is a valid
position that round-trips and is walkable by its goals; the engine judges every move; the
learner sees only their own view."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dos import learn
from dos.i18n import LANGS, text
from dos.i18n.explain import render
from dos.rules.official import RULES, from_position, legal_actions, parse_action, view

LESSONS = learn.lessons()


def goals_before(lesson: learn.Lesson, step: int) -> list[str]:
    return [s.goals[0] for s in lesson.steps[:step]]


def test_the_lessons_teach_one_concept_each_in_order() -> None:
    assert [lesson.id for lesson in LESSONS] == list(learn.ORDER)
    assert learn.ORDER == (
        "single_number_match",
        "double_number_match",
        "colour_bonus",
        "double_color_match",
        "wild_cards",
        "draw_then_play",
        "dos_call",
        "round_end",
    )


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_lesson_passes_its_checks(lesson: learn.Lesson) -> None:
    assert learn.check(lesson) == []


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_position_is_valid_and_round_trips(lesson: learn.Lesson) -> None:
    state = from_position(lesson.position)
    saved = RULES.to_position(state)
    assert RULES.to_position(from_position(saved)) == saved
    assert state.turn == lesson.seat  # every lesson opens on the learner's turn


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_each_goal_is_legal_where_its_step_stands(lesson: learn.Lesson) -> None:
    state = lesson.start()
    for step in lesson.steps:
        legal = {str(a) for a in legal_actions(state, lesson.seat)}
        for goal in step.goals:
            bound = RULES.by_seat(state, parse_action(goal), lesson.seat)
            assert str(bound) in legal, (lesson.id, goal)
        RULES.apply(state, RULES.by_seat(state, parse_action(step.goals[0]), lesson.seat))
        for scripted in step.then:
            action = parse_action(scripted)
            RULES.apply(state, action._replace(seat=None) if action.seat == state.turn else action)


def lit_action(answer: learn.Answer) -> str:
    """The action a learner makes by pressing what the answer lights, first choice first."""
    lit = answer.lit
    hand = answer.view["hand"]
    if "catch" in lit.buttons:
        return f"catch {lit.seats[0]}"
    if lit.buttons and lit.buttons[0] in ("lay", "place"):
        return f"{lit.buttons[0]} {hand[lit.hand[0]]}"
    if lit.buttons:
        return lit.buttons[0]
    return "+".join(hand[i] for i in lit.hand) + f"@{lit.center[0]}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_pressing_the_lit_cards_and_buttons_walks_the_lesson(lesson: learn.Lesson) -> None:
    actions: list[str] = []
    answer = learn.run(lesson, actions)
    while answer.status == "play":
        assert answer.lit != learn.Lit(), (lesson.id, answer.step)
        actions.append(lit_action(answer))
        answer = learn.run(lesson, actions)
        assert answer.explanation is None, (lesson.id, actions)
    assert answer.status == "finished"
    assert len(actions) == len(lesson.steps)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_the_learner_sees_only_their_own_view(lesson: learn.Lesson) -> None:
    state = lesson.start()
    for number in range(len(lesson.steps) + 1):
        answer = learn.run(lesson, goals_before(lesson, number))
        shown = answer.view
        assert set(shown) == set(view(state, lesson.seat).to_json())
        assert "hands" not in shown and "draw_pile" not in shown
        assert len(shown["hand"]) == shown["hand_sizes"][lesson.seat]
        assert shown["seat"] == lesson.seat


def test_every_text_of_a_lesson_is_in_every_language() -> None:
    keys = {key for lesson in LESSONS for key in (lesson.title, lesson.done)}
    keys |= {
        key for lesson in LESSONS for step in lesson.steps for key in (step.prompt, step.wrong)
    }
    for lang in LANGS:
        for key in keys:
            params = {"points": 1, "score": 2, "cards": "R5"} if key == "learn.round_done" else {}
            assert text(lang, key, **params)


# --- judging moves --------------------------------------------------------------------------

SINGLE = learn.lesson("single_number_match")


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing() -> None:
    start = learn.run(SINGLE, [])
    answer = learn.run(SINGLE, ["B7@1"])  # a 7 on a green 5
    assert (answer.status, answer.step, answer.accepted) == ("wrong", 0, 0)
    assert answer.explanation is not None
    assert answer.explanation.key == "game.err_no_number_match"
    assert answer.view == start.view
    assert answer.prompt == start.prompt and answer.lit == start.lit


def test_a_legal_move_that_is_not_the_step_gets_the_steps_explanation() -> None:
    answer = learn.run(SINGLE, ["draw"])
    assert answer.status == "wrong"
    assert answer.explanation is not None and answer.explanation.key == SINGLE.steps[0].wrong
    assert len(answer.view["hand"]) == 6  # the draw was not made


def test_a_refused_action_stops_the_replay() -> None:
    answer = learn.run(SINGLE, ["draw", "B7@0"])
    assert (answer.status, answer.accepted, answer.step) == ("wrong", 0, 0)
    later = learn.run(SINGLE, ["B7@0", "draw", "Y5@1"])
    assert (later.status, later.accepted, later.step) == ("wrong", 1, 1)


def test_an_action_after_the_end_is_refused() -> None:
    done = goals_before(SINGLE, len(SINGLE.steps))
    answer = learn.run(SINGLE, [*done, "draw"])
    assert answer.status == "wrong" and answer.accepted == len(done)
    assert answer.explanation is not None and answer.explanation.key == "learn.err_finished"


def test_an_action_for_another_seat_is_refused() -> None:
    answer = learn.run(SINGLE, ["1: draw"])
    assert answer.status == "wrong"
    assert answer.explanation is not None and answer.explanation.key == "game.err_not_your_turn"


def test_text_that_is_not_notation_is_an_input_error_naming_its_index() -> None:
    with pytest.raises(learn.LessonInputError) as caught:
        learn.run(SINGLE, ["B7@0", "R11@0"])
    assert caught.value.index == 1
    with pytest.raises(learn.LessonInputError):
        learn.run(SINGLE, ["draw"] * (learn.MAX_ACTIONS + 1))


def test_a_match_written_with_designations_is_the_same_move() -> None:
    wild = learn.lesson("wild_cards")
    answer = learn.run(wild, ["B5+DOS=B@0"])  # the Wild DOS as blue: no bonus either way
    assert answer.status == "play" and answer.step == 1


def bonus_lesson() -> learn.Lesson:
    data: dict[str, Any] = {
        "title": "learn.colour_title",
        "done": "learn.colour_done",
        "seat": 0,
        "position": {
            "players": 2,
            "dealer": 1,
            "turn": 0,
            "hands": [["R5", "DOS", "B10", "G10", "Y10"], ["Y6", "G8", "B9"]],
            "center": ["R7", "G1"],
            "draw_pile": ["B1", "G3", "Y8"],
            "discard": [],
            "scores": [0, 0],
        },
        "steps": [
            {"prompt": "learn.colour_step1", "goals": ["R5+DOS@0"], "wrong": "learn.colour_wrong1"}
        ],
    }
    return learn.parse_lesson("bonus", data)


def test_a_designation_that_declines_the_bonus_is_not_the_steps_move() -> None:
    lesson = bonus_lesson()
    assert learn.run(lesson, ["R5+DOS@0"]).step == 1
    declined = learn.run(lesson, ["R5+DOS=B@0"])  # legal, but no Double Color Match
    assert declined.status == "wrong"
    assert declined.explanation is not None and declined.explanation.key == "learn.colour_wrong1"


# --- what the lessons show ----------------------------------------------------------------


def test_the_other_seats_moves_are_reported_with_the_center_before_them() -> None:
    wild = learn.lesson("wild_cards")
    answer = learn.run(wild, goals_before(wild, 2))
    assert [(m.seat, m.action) for m in answer.moves] == [(1, "draw"), (1, "lay Y6")]
    assert answer.moves[0].center == tuple(answer.view["center"][:2])
    assert learn.run(wild, goals_before(wild, 3)).moves == ()


def test_a_double_color_match_makes_every_other_player_draw() -> None:
    lesson = learn.lesson("double_color_match")
    before = learn.run(lesson, goals_before(lesson, 1)).view["hand_sizes"]
    after = learn.run(lesson, goals_before(lesson, 2)).view["hand_sizes"]
    assert after[1:] == [size + 1 for size in before[1:]]


def test_a_missed_dos_is_caught_for_two_penalty_cards() -> None:
    lesson = learn.lesson("dos_call")
    before = learn.run(lesson, goals_before(lesson, 2))
    assert before.view["dos_open"] == [1] and before.lit.seats == (1,)
    after = learn.run(lesson, goals_before(lesson, 3))
    assert after.view["hand_sizes"][1] == before.view["hand_sizes"][1] + 2


def test_going_out_scores_the_cards_left_in_the_other_hands() -> None:
    lesson = learn.lesson("round_end")
    answer = learn.run(lesson, goals_before(lesson, 1))
    assert answer.status == "finished"
    # R10 + Wild DOS + Wild # + Y4 (RULES.md §7): 10 + 20 + 40 + 4.
    params = dict(answer.prompt.params)
    assert (params["points"], params["score"]) == (74, 224)
    # ... the cards the learner never saw are named (they make the points)
    cards = params["cards"]
    assert isinstance(cards, tuple)
    shown = sorted(render("en", card) for card in cards)
    assert shown == ["Wild DOS", "blue Wild #", "red 10", "yellow 4"]
    assert answer.view["winner"] == lesson.seat


def test_the_answer_as_json_names_its_lesson_and_progress() -> None:
    answer = learn.run(SINGLE, ["B7@0"]).to_json()
    assert answer["lesson"] == SINGLE.id
    assert (answer["number"], answer["lessons"]) == (1, len(learn.ORDER))
    assert (answer["step"], answer["steps"], answer["status"]) == (1, 2, "play")
    assert answer["prompt"] == {"key": SINGLE.steps[1].prompt, "params": {}}
    assert answer["lit"]["center"] == [1]


# --- lesson files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(colour="red"), "unknown field 'colour'"),
        (lambda d: d.update(seat="0"), ".seat"),
        (lambda d: d.update(seat=5), ".seat"),
        (lambda d: d["position"].update(turn=9), ".position"),
        (lambda d: d.update(steps=[]), ".steps"),
        (lambda d: d["steps"][0].update(goals=[]), ".steps[0].goals"),
        (lambda d: d["steps"][0].update(prompt="single_step1"), ".steps[0].prompt"),
        (lambda d: d["steps"][0].update(then="draw"), ".steps[0].then"),
    ],
)
def test_a_broken_lesson_file_is_refused_naming_the_field(change: Any, field: str) -> None:
    data = {
        "title": SINGLE.title,
        "done": SINGLE.done,
        "seat": SINGLE.seat,
        "position": copy.deepcopy(SINGLE.position),
        "steps": [
            {"prompt": s.prompt, "goals": list(s.goals), "wrong": s.wrong} for s in SINGLE.steps
        ],
    }
    change(data)
    with pytest.raises(learn.LessonError) as caught:
        learn.parse_lesson("broken", data)
    assert str(caught.value).startswith("lesson broken")
    assert field in str(caught.value)


def test_a_lesson_whose_goal_is_not_legal_fails_its_check() -> None:
    lesson = bonus_lesson()
    broken = learn.Lesson(
        lesson.id,
        lesson.title,
        lesson.done,
        lesson.seat,
        lesson.position,
        (learn.Step("learn.colour_step1", ("B10@0",), "learn.colour_wrong1"),),
    )
    assert any("does not do the step" in problem for problem in learn.check(broken))


def test_the_dos_lesson_teaches_calling_with_the_move() -> None:
    lesson = learn.lesson("dos_call")
    first = learn.run(lesson, [])
    assert first.lit.dos_with_move  # the move leaves two cards: "DOS! with this move"
    assert not learn.run(lesson, goals_before(lesson, 2)).lit.dos_with_move
    # The move with its call (what the toggle sends): no DOS! step, straight to the catch.
    with_move = learn.run(lesson, [lesson.steps[0].goals[0], "dos"])
    assert (with_move.status, with_move.step, with_move.accepted) == ("play", 2, 2)
    assert with_move.view["dos_open"] == [1] and with_move.lit.seats == (1,)
