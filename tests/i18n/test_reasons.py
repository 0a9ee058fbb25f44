"""A refusal's words come from the engine's own refusal: the message and its translation
always give the same reason."""

from __future__ import annotations

import random

import pytest

from dos import ruleset
from dos.errors import IllegalActionError
from dos.i18n import LANGS, catalog
from dos.i18n.explain import reason_for, refusal, render
from dos.rules.official import Phase, State, new_game, parse_action


def _start_of_turn(seed: int) -> State:
    state = new_game(seed=seed)
    assert state.phase == Phase.TURN and not state.drew and not state.matched
    return state


def test_a_lay_before_drawing_is_refused_as_draw_first_even_without_the_card() -> None:
    # Drawing first is what the player must do: its key, not "not in hand", says so.
    state = _start_of_turn(1)
    card = next(c for c in ("B3", "G3", "R3", "Y3", "B4") if c not in _hand(state))
    reason = reason_for("official", state, state.turn, parse_action(f"lay {card}"))
    assert reason.key == "game.err_draw_first"


def test_catching_oneself_is_refused_as_such() -> None:
    # Its own key and message, not "nobody has an open DOS!".
    state = _start_of_turn(1)
    reason = reason_for("official", state, 0, parse_action("0: catch 0"))
    assert reason.key == "game.err_catch_yourself"


def _hand(state: State) -> list[str]:
    from dos.rules.official.cards import NAMES

    return [NAMES[c] for c in state.hands[state.turn]]


_OFFICIAL = ["draw", "end", "dos", "catch 0", "catch 1", "catch 5", "lay B3", "place R7"]
_OFFICIAL += [f"{c}@{i}" for c in ("B1", "G5", "R#", "DOS", "Y10") for i in (0, 1, 2, 7)]
_OFFICIAL += ["B1+G3@0", "R5+DOS=R@1", "R#=4+B3@0", "2: catch 0", "1: dos", "1: draw"]
_CLASSIC = ["draw", "timeout", "react 2 300ms", "react 3 100ms", "R7", "B+2", "W=R", "W+4=B"]
_CLASSIC += ["GS", "YR", "B0", "1: draw", "2: R7"]


@pytest.mark.parametrize(
    ("rules", "texts"),
    [("official", _OFFICIAL), ("classic", _CLASSIC)],
    ids=["official", "classic"],
)
def test_every_refusal_along_random_games_has_its_own_words(rules: str, texts: list[str]) -> None:
    """Along random games, each refused action's words are the catalog's text for the very
    reason the engine gave (never the catch-all), and that text exists in every language."""
    rule_set = ruleset.get(rules)
    rng = random.Random(7)
    namespace = "classic" if rules == "classic" else "game"
    seen: set[str] = set()
    for seed in range(6):
        state = rule_set.new_game({"players": 3}, seed)
        for _ in range(150):
            if rule_set.is_over(state):
                break
            for text in texts:
                action = rule_set.parse_action(text)
                seat = rule_set.turn(state) if action.seat is None else action.seat
                if seat >= 3:
                    continue
                error = refusal(rules, state, seat, action)
                if error is None:
                    continue
                assert isinstance(error, IllegalActionError)
                reason = reason_for(rules, state, seat, action)
                assert reason.key in (f"{namespace}.err_{error.reason}", f"game.err_{error.reason}")
                for lang in LANGS:
                    assert reason.key in catalog(lang)
                    assert render(lang, reason)
                seen.add(error.reason)
            legal = rule_set.legal_actions(state)
            rule_set.apply(state, rng.choice(legal))
    assert "not_allowed" not in seen
    assert len(seen) >= 5
