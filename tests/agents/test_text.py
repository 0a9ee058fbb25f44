"""The canonical text of a seat's view (``dos.agents.text``): golden examples of both rule
sets at the moments that matter, and a meaning for every legal action of random games.

To rewrite the golden files after an intended change of the format (and raise ``FORMAT``)::

    DOS_UPDATE_GOLDEN=1 .venv/bin/pytest tests/agents/test_text.py
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dos import ruleset
from dos.agents.text import FORMAT, LAST_ACTIONS, TABLE_EXAMPLE, described, meaning, past, render
from dos.bots.registry import LEVELS
from dos.server.tables.history import brief, public
from support import check_golden

GOLDEN = Path(__file__).parent / "golden"

Moment = Callable[[dict[str, Any]], bool]

OFFICIAL_MOMENTS: dict[str, Moment] = {
    "the deal": lambda v: True,
    "matching": lambda v: v["phase"] == "matching",
    "after a draw": lambda v: v["phase"] == "drawn",
    "placing a bonus card": lambda v: v["phase"] == "placing",
    "a DOS call open": lambda v: bool(v["dos_open"]),
    "a round won": lambda v: bool(v["round_results"]),
    "game over": lambda v: v["phase"] == "over",
}
CLASSIC_MOMENTS: dict[str, Moment] = {
    "the deal": lambda v: True,
    "a pending draw": lambda v: v["pending"] > 0,
    "a reaction test": lambda v: v["phase"] == "reaction",
    "a place taken": lambda v: bool(v["ranking"]),
    "game over": lambda v: v["phase"] == "over",
}


def table_for(rules: str, players: int) -> dict[str, Any]:
    seats = TABLE_EXAMPLE["seats"][:players]
    status = "playing"
    return {**TABLE_EXAMPLE, "rules": rules, "seats": seats, "status": status}


def snapshots(rules_name: str, players: int, seed: int, options: dict[str, Any]) -> str:
    """A seeded random game; the text of the seat to act (or the seat that may call or
    catch) at the first moment of each kind."""
    rules = ruleset.get(rules_name)
    moments = OFFICIAL_MOMENTS if rules_name == "official" else CLASSIC_MOMENTS
    state = rules.new_game({**options, "players": players}, seed)
    rng = random.Random(seed)
    table = table_for(rules_name, players)
    found: list[str] = []
    seen: set[str] = set()
    version = 0
    played: list[tuple[int, int, str, dict[str, Any]]] = []
    while True:
        seat = rules.turn(state)
        if rules_name == "official" and state.dos_open:
            seat = next(s for s in range(players) if not state.dos_open >> s & 1)
        view = rules.view_json(state, seat)
        over = rules.is_over(state)
        result = rules.result(state) if over else None
        for name, moment in moments.items():
            if name not in seen and moment(view):
                seen.add(name)
                last = [
                    past(rules_name, v, by, action, seat, before=before)
                    for v, by, action, before in played[-LAST_ACTIONS:]
                ]
                text = render(
                    {**table, "status": "finished" if over else "playing"},
                    seat,
                    version=version,
                    change=version + 1,
                    view=view,
                    result=result,
                    last=last,
                )
                found.append(f"## {name}\n{text}\n")
        if over:
            break
        action = rng.choice(rules.all_legal_actions(state))
        by = rules.turn(state) if action.seat is None else action.seat
        played.append((version, by, str(action), brief(public(rules, state))))
        rules.apply(state, action)
        version += 1
    assert seen == set(moments), set(moments) - seen
    return "\n".join(found)


@pytest.mark.parametrize(
    ("name", "rules", "players", "seed", "options"),
    [
        ("official_3p_seed11", "official", 3, 11, {"target_score": 40}),
        ("classic_3p_seed4", "classic", 3, 4, {}),
    ],
)
def test_golden_texts(
    name: str, rules: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    check_golden(GOLDEN / f"{name}.txt", snapshots(rules, players, seed, options), name)


def test_the_lobby_has_no_game_and_nothing_to_do() -> None:
    table = {**TABLE_EXAMPLE, "status": "lobby", "game": 0}
    text = render(table, 0, version=0, change=3, view=None, result=None)
    assert text.splitlines() == [
        f"DOS {FORMAT}",
        "rules: official",
        "table: K7M2QX",
        "status: lobby",
        "game: 0",
        "version: 0",
        "change: 3",
        "seat: 0",
        "player 0: Ada (host, you)",
        "player 1: medium bot",
        "player 2: Bo",
        "player 3: hard bot",
        "phase: lobby (no game yet: you start it (start))",
        "last actions:",
        "legal:",
    ]


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_bot_seat_says_its_level(level: str) -> None:
    seats = [dict(seat) for seat in TABLE_EXAMPLE["seats"]]
    seats[3]["bot"] = level
    table = {**TABLE_EXAMPLE, "status": "lobby", "game": 0, "seats": seats}
    lines = render(table, 0, version=0, change=3, view=None, result=None).splitlines()
    assert f"player 3: {level} bot" in lines
    assert "expert" in LEVELS


@pytest.mark.parametrize("rules_name", ruleset.NAMES)
def test_every_legal_action_has_a_one_line_meaning(rules_name: str) -> None:
    rules = ruleset.get(rules_name)
    for seed in range(3):
        state = rules.new_game({"players": 3}, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if rules.is_over(state):
                break
            for seat in range(3):
                view = rules.view_json(state, seat)
                for action in view["legal"]:
                    line = meaning(rules_name, view, action)
                    assert line and "\n" not in line and "{" not in line, (action, line)
            rules.apply(state, rng.choice(rules.all_legal_actions(state)))


def test_the_documented_example_is_the_text_of_its_position() -> None:
    from dos.rules.official import RULES, new_game

    docs = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text("utf-8")
    example = docs.split("## The canonical text of a seat's view", 1)[1]
    shown = example.split("```\n", 2)[1].splitlines()
    view = RULES.view_json(new_game(seed=3), 2)
    actual = render(TABLE_EXAMPLE, 2, version=0, change=1, view=view, result=None).splitlines()
    cut = shown.index("legal:") + 1
    assert shown[:cut] == actual[: actual.index("legal:") + 1]
    assert set(shown[cut:]) <= set(actual)


def test_the_last_actions_are_told_in_words_of_public_facts() -> None:
    """``last actions``: one line per action, its seat, its notation (without the seat's
    prefix) and its words, "you" for the reader; a draw never says which card."""
    before = {"center": ["R7", "B3"], "phase": "matching", "pending": 0}
    last = [
        past("official", 16, 1, "draw", 2, before=before),
        past("official", 17, 2, "R5+DOS@0", 2, before=before),
        past("official", 18, 1, "1: catch 2", 2, before=before),
        past("official", 19, 0, "end", 2, before={**before, "phase": "placing"}),
    ]
    table = {**TABLE_EXAMPLE, "status": "playing"}
    from dos.rules.official import RULES, new_game

    view = RULES.view_json(new_game(seed=3), 2)
    lines = render(table, 2, version=20, change=21, view=view, result=None, last=last)
    section = lines.split("\nlast actions:\n", 1)[1].split("\nlegal:\n", 1)[0]
    assert section.splitlines() == [
        "- 16 seat 1: draw | seat 1 drew a card",
        "- 17 seat 2: R5+DOS@0 | you matched red 5 and Wild DOS as red onto red 7: "
        "Double Color Match",
        '- 18 seat 1: catch 2 | seat 1 caught you, who had not called "DOS!": two penalty cards',
        "- 19 seat 0: end | seat 0 placed no more bonus cards",
    ]
    assert described("classic", "draw", 1, 0, {"pending": 4}) == (
        "seat 1 drew 4 cards; the turn is lost"
    )
    assert described("classic", "1: timeout", 1, 1) == "you let the reaction test run out"


@pytest.mark.parametrize("rules_name", ruleset.NAMES)
def test_every_action_has_words_for_every_reader(rules_name: str) -> None:
    rules = ruleset.get(rules_name)
    for seed in range(3):
        state = rules.new_game({"players": 3}, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if rules.is_over(state):
                break
            action = rng.choice(rules.all_legal_actions(state))
            by = rules.turn(state) if action.seat is None else action.seat
            before = brief(public(rules, state))
            for reader in range(3):
                words = described(rules_name, str(action), by, reader, before)
                who = "you" if by == reader else f"seat {by}"
                assert words.startswith(f"{who} ") and "\n" not in words, (action, words)
                assert "{" not in words and not words.endswith("."), words
            rules.apply(state, action)
