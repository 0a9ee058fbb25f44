"""Game records (dos.records): writing, reading, replaying, and every way a record is bad."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dos import records
from dos.errors import RecordError
from dos.records import Record, loads, record_of, replay
from dos.rules.official import (
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    from_position,
    new_game,
    to_position,
)

SEED = 8


def play(state: State, seed: int, max_steps: int = 100_000) -> State:
    chooser = random.Random(seed)
    for _ in range(max_steps):
        if state.phase == Phase.OVER:
            break
        apply(state, chooser.choice(all_legal_actions(state)))
    return state


@pytest.fixture(scope="module")
def finished() -> State:
    return play(new_game(Options(players=3, target_score=40), SEED), SEED)


@pytest.fixture
def text(finished: State) -> str:
    return record_of("official", finished, seed=SEED).dumps()


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def join(objects: list[Any]) -> str:
    return "\n".join(json.dumps(o) for o in objects) + "\n"


def test_a_record_is_a_header_one_line_per_action_and_the_result(
    finished: State, text: str
) -> None:
    objects = lines_of(text)
    assert objects[0] == {
        "format": "dos-record",
        "version": 1,
        "rules": "official",
        "options": finished.options.to_json(),
        "seed": SEED,
    }
    assert [o["action"] for o in objects[1:-1]] == [str(a) for a in finished.history]
    rounds = len(finished.round_results)
    assert objects[-1] == {
        "result": {"winner": finished.winner, "scores": finished.scores, "rounds": rounds}
    }


def test_writing_and_reading_a_record_gives_it_back(finished: State, text: str) -> None:
    record = record_of("official", finished, seed=SEED, players=["ann", "bob", "cy"])
    assert loads(record.dumps()) == record
    assert loads(text) == record_of("official", finished, seed=SEED)
    assert loads(text).dumps() == text


def test_replay_checks_every_action_and_reaches_the_same_game(finished: State, text: str) -> None:
    steps = []
    final = replay(loads(text), on_step=lambda n, action, state: steps.append((n, action)))
    assert final == finished
    assert steps == [(n, str(a)) for n, a in enumerate(finished.history, 1)]


def test_an_unfinished_game_has_no_result_line_and_replays() -> None:
    state = play(new_game(Options(players=4), 3), 3, max_steps=50)
    record = record_of("official", state, seed=3)
    assert record.result is None
    assert "result" not in record.dumps()
    assert replay(loads(record.dumps())) == state


def test_blank_lines_are_ignored(text: str) -> None:
    spaced = text.replace("\n", "\n\n")
    assert loads(spaced) == loads(text)


# --- tampering ---------------------------------------------------------------------------------


def test_a_tampered_action_fails_naming_its_line(text: str) -> None:
    objects = lines_of(text)
    objects[5] = {"action": "catch 9"}  # line 6
    with pytest.raises(RecordError, match=r"^line 6: action 'catch 9': RULES §6"):
        replay(loads(join(objects)))


def test_an_action_moved_out_of_place_fails_naming_its_line(text: str) -> None:
    objects = lines_of(text)
    index = next(i for i, o in enumerate(objects) if o.get("action") == "draw")
    objects.insert(index, {"action": "draw"})  # drawing twice in one turn
    with pytest.raises(RecordError, match=rf"^line {index + 2}: action 'draw': RULES §3"):
        replay(loads(join(objects)))


def test_unreadable_notation_fails_naming_its_line(text: str) -> None:
    objects = lines_of(text)
    objects[2] = {"action": "R11@0"}
    with pytest.raises(RecordError, match=r"^line 3: action 'R11@0': unknown card 'R11'"):
        replay(loads(join(objects)))


def test_a_tampered_result_fails(finished: State, text: str) -> None:
    objects = lines_of(text)
    assert finished.winner is not None
    objects[-1]["result"]["winner"] = (finished.winner + 1) % 3
    line = len(objects)
    with pytest.raises(RecordError, match=rf"^line {line}: result: the record says"):
        replay(loads(join(objects)))


def test_a_result_for_a_game_that_is_not_over_fails(text: str) -> None:
    objects = lines_of(text)
    del objects[-2]  # the winning action
    with pytest.raises(RecordError, match=r"result: the record says"):
        replay(loads(join(objects)))


def test_missing_actions_after_a_truncated_record_still_replay(text: str) -> None:
    objects = lines_of(text)[:10]
    state = replay(loads(join(objects)))
    assert len(state.history) == 9


def test_a_tampered_action_after_blank_lines_names_its_physical_line(text: str) -> None:
    objects = lines_of(text)
    objects[5] = {"action": "catch 9"}
    spaced = join(objects).replace("\n", "\n\n")  # the bad action is now on line 11
    with pytest.raises(RecordError, match=r"^line 11: "):
        replay(loads(spaced))


# --- malformed records -------------------------------------------------------------------------

HEADER = {"format": "dos-record", "version": 1, "rules": "official", "options": {}, "seed": 1}


def header(**changes: Any) -> dict[str, Any]:
    fields = {**HEADER, **changes}
    return {k: v for k, v in fields.items() if v is not ...}


MALFORMED = [
    ("", r"^line 1: the record is empty"),
    ("\n  \n", r"^line 1: the record is empty"),
    ("not json\n", r"^line 1: not JSON"),
    (join([HEADER]) + "{action: draw}\n", r"^line 2: not JSON"),
    (join([HEADER, ["draw"]]), r"^line 2: must be a JSON object"),
    (join(["header"]), r"^line 1: must be a JSON object"),
    (join([header(format="dos-game")]), r"^line 1: format: must be 'dos-record'"),
    (join([header(format=...)]), r"^line 1: format"),
    (join([header(version=2)]), r"^line 1: version: this program reads version 1"),
    (join([header(rules="uno")]), r"^line 1: rules: must be one of official"),
    (join([header(options=[])]), r"^line 1: options: must be a JSON object"),
    (join([header(seed=...)]), r"^line 1: give exactly one of seed and position"),
    (join([header(position={})]), r"^line 1: give exactly one of seed and position"),
    (join([header(seed="1")]), r"^line 1: seed: must be an integer"),
    (join([header(seed=..., position=[1])]), r"^line 1: position: must be a JSON object"),
    (join([header(players="ann")]), r"^line 1: players: must be a list of names"),
    (join([header(players=["ann", 2])]), r"^line 1: players: must be a list of names"),
    (join([HEADER, {"move": "draw"}]), r'^line 2: expected \{"action": "..."\}'),
    (join([HEADER, {"action": 5}]), r'^line 2: expected \{"action": "..."\}'),
    (join([HEADER, {"action": "draw", "seat": 0}]), r'^line 2: expected \{"action": "..."\}'),
    (join([HEADER, {"result": "won"}]), r'^line 2: expected \{"action": "..."\}'),
    (
        join([HEADER, {"result": {}}, {"action": "draw"}]),
        r"^line 3: nothing may follow the result line",
    ),
    (join([HEADER]) + "\n\nnot json\n", r"^line 4: not JSON"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_a_malformed_record_fails_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_bad_options_in_the_header_fail_on_line_1() -> None:
    record = loads(join([header(options={"players": 2, "colour": "red"})]))
    with pytest.raises(RecordError, match=r"^line 1: options\.colour: unknown option"):
        replay(record)


# --- records that start from a position ------------------------------------------------------


@pytest.fixture(scope="module")
def middle() -> dict[str, Any]:
    state = play(new_game(Options(players=4, target_score=60), 21), 21, max_steps=37)
    assert state.phase != Phase.OVER
    return to_position(state)


def test_a_record_can_start_from_a_position(middle: dict[str, Any]) -> None:
    state = play(from_position(middle), 5)
    record = record_of("official", state, position=middle)
    text = record.dumps()
    head = json.loads(text.splitlines()[0])
    assert head["position"] == middle
    assert "seed" not in head
    assert loads(text) == record
    seen = []
    final = replay(loads(text), on_step=lambda n, a, s: seen.append(to_position(s)))
    assert to_position(final) == to_position(state)
    assert final.history == state.history
    assert len(seen) == len(state.history)
    assert records.start(loads(text)) == from_position(middle)


def test_a_record_whose_options_disagree_with_its_position_fails(middle: dict[str, Any]) -> None:
    record = Record("official", {"target_score": 500}, position=middle)
    with pytest.raises(RecordError, match=r"^line 1: options: disagree with the position"):
        replay(loads(record.dumps()))


def test_a_record_with_a_bad_position_fails_on_line_1_naming_the_field(
    middle: dict[str, Any],
) -> None:
    record = Record("official", {}, position={**middle, "turn": 9})
    with pytest.raises(RecordError, match=r"^line 1: turn: must be an integer"):
        replay(loads(record.dumps()))


def test_an_unknown_header_field_is_rejected_by_name() -> None:
    with pytest.raises(RecordError, match=r"^line 1: sede: unknown header field"):
        loads(join([{**HEADER, "sede": 2}]))


def test_a_record_needs_exactly_one_start() -> None:
    state = new_game(seed=3)
    with pytest.raises(ValueError, match="exactly one of a seed and a position"):
        record_of("official", state)
