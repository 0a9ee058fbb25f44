"""The rules page's worked examples hold in the official engine.

The examples are data, ``dos/web/static/js/rule_examples.json``, which the page draws
(``js/rules.js``). Each example is a position at the start of the player's turn (seat 0 to
act: ``hand``, the other hands, the Center Row, the draw pile, the scores) and the moves it
shows in notation; these tests play them in ``dos.rules.official``: every move must be legal,
and every outcome the page shows (the kind of match, the Center Row after, the cards the
others draw, the DOS penalty, the round's points, the game's winner) must be what the engine
does. A plain pytest: no browser.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from dos.errors import IllegalActionError
from dos.i18n import LANGS, catalog
from dos.rules.official import (
    Kind,
    Options,
    Phase,
    State,
    apply,
    from_position,
    legal_actions,
    new_game,
    parse_action,
)
from dos.rules.official.cards import POINTS, card_name, parse_card, sort_key
from dos.rules.official.matching import MatchKind, match_kind

EXAMPLES: list[dict[str, Any]] = json.loads(
    resources.files("dos.web")
    .joinpath("static", "js", "rule_examples.json")
    .read_text(encoding="utf-8")
)
BY_ID = {example["id"]: example for example in EXAMPLES}

RULES_WITH_AN_EXAMPLE = {
    "deal",
    "single",
    "double",
    "wild_dos",
    "wild_number",
    "bonus",
    "double_color",
    "draw",
    "lay",
    "dos",
    "scoring",
    "game_end",
}
"""Every rule of the official game the page explains (RULES.md §2-§7)."""

KINDS = {
    "single_number_match": MatchKind.SINGLE_NUMBER,
    "single_color_match": MatchKind.SINGLE_COLOR,
    "double_number_match": MatchKind.DOUBLE_NUMBER,
    "double_color_match": MatchKind.DOUBLE_COLOR,
}
"""The page names a match by its ``game.<kind>`` text; the engine by the rulebook's name."""


def names(cards: list[int]) -> list[str]:
    return [card_name(card) for card in cards]


def position(example: dict[str, Any]) -> State:
    """The example's position: seat 0 to act, the last seat dealt."""
    players = example["players"]
    return from_position(
        {
            "players": players,
            "dealer": players - 1,
            "turn": 0,
            "hands": [example["hand"], *example["others"]],
            "center": example["center"],
            "draw_pile": example["draw_pile"],
            "discard": [],
            "scores": example.get("scores", [0] * players),
        }
    )


def matches(state: State) -> list[str]:
    return [str(a) for a in legal_actions(state) if a.kind == Kind.MATCH]


def test_every_rule_has_an_example_and_every_example_its_words() -> None:
    assert {example["rule"] for example in EXAMPLES} == RULES_WITH_AN_EXAMPLE
    assert len(BY_ID) == len(EXAMPLES)  # ids are unique: the page finds each by its id
    for lang in LANGS:
        texts = catalog(lang)
        for example in EXAMPLES:
            assert f"guide.example_{example['id']}" in texts, (lang, example["id"])
            if "kind" in example:
                assert f"game.{example['kind']}" in texts


@pytest.mark.parametrize("example_id", sorted(BY_ID))
def test_every_card_is_a_card_of_the_game(example_id: str) -> None:
    example = BY_ID[example_id]
    shown = [*example["hand"], *example["center"], *example.get("draw_pile", [])]
    for hand in example.get("others", []):
        shown += hand
    for card in shown:
        assert card_name(parse_card(card)) == card  # in canonical notation, as the page parses


def test_the_deal_is_the_engines_deal() -> None:
    example = BY_ID["deal"]
    state = new_game(Options(players=example["players"]), example["seed"])
    assert sorted(example["hand"], key=lambda c: sort_key(parse_card(c))) == example["hand"]
    assert names(sorted(state.hands[state.turn], key=sort_key)) == example["hand"]
    assert names(state.center) == example["center"]
    assert all(len(hand) == 7 for hand in state.hands)


@pytest.mark.parametrize("example_id", sorted(i for i in BY_ID if "moves" in BY_ID[i]))
def test_every_example_plays_as_it_says(example_id: str) -> None:
    example = BY_ID[example_id]
    state = position(example)
    others_before = [len(hand) for hand in state.hands[1:]]
    if example.get("no_match"):
        assert matches(state) == [], "the page says no card matches"
    first = parse_action(example["moves"][0])
    if "kind" in example:
        assert first.kind == Kind.MATCH
        target = state.center[first.target]
        kind = match_kind(first.cards, first.designations, target)
        assert kind == KINDS[example["kind"]]
    hand_before_catch = None
    draws = 0
    for move in example["moves"]:
        action = parse_action(move)
        hand_before = sorted(state.hands[0])
        if action.kind == Kind.CATCH:
            caught = action.target
            assert parse_action(f"{caught}: dos") in legal_actions(state, caught), (
                "the caught player could have called DOS! instead"
            )
            hand_before_catch = len(state.hands[caught])
        apply(state, action)  # an illegal move raises IllegalActionError
        if action.kind == Kind.DRAW:  # the page shows the draw pile's top card as drawn
            drawn = sorted(state.hands[0])
            for card in hand_before:
                drawn.remove(card)
            assert names(drawn) == [example["draw_pile"][draws]]
            draws += 1
        if action.kind == Kind.DRAW and example.get("no_match"):
            assert matches(state) == [], "the drawn card matches nothing either"
            assert any(a.kind == Kind.LAY for a in legal_actions(state))
    if "center_after" in example:
        assert names(state.center) == example["center_after"]
    if "others_draw" in example:
        after = [len(hand) for hand in state.hands[1:]]
        assert after == [n + example["others_draw"] for n in others_before]
    if "penalty" in example:
        assert hand_before_catch is not None
        assert len(state.hands[0]) == hand_before_catch + example["penalty"]
    if "points" in example:
        result = state.round_results[-1]
        assert result.winner == 0
        assert result.points == example["points"]
        assert result.points == sum(POINTS[parse_card(c)] for h in example["others"] for c in h)
    if "winner" in example:
        assert state.phase == Phase.OVER
        assert state.winner == example["winner"]
        assert state.scores[0] == example["scores"][0] + example["points"] >= 200
    else:
        assert state.phase != Phase.OVER


def test_an_example_that_breaks_a_rule_fails_here() -> None:
    """The check can fail: the same position with a wrong sum is refused by the engine."""
    state = position(BY_ID["double"])
    with pytest.raises(IllegalActionError):
        apply(state, parse_action("B3+Y10@0"))
