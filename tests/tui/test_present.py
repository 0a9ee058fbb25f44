"""What the table shows, in words, from the controller's state."""

from __future__ import annotations

from collections import Counter

import pytest

from dos.bots.registry import LEVELS
from dos.i18n import text
from dos.rules.official import parse_action
from dos.rules.official.cards import parse_card
from dos.tui import present
from dos.tui.clock import ManualClock
from dos.tui.controller import HUMAN, GameController

from .conftest import FAST, bots, controller


def test_the_header_names_round_target_and_level() -> None:
    game = controller(seed=1, lang="de", target_score=150)
    assert (
        present.header(game) == "DOS · Runde 1 · wer zuerst 150 Punkte hat, gewinnt · Bots: leicht"
    )


@pytest.mark.parametrize("level", present.LEVELS)
def test_the_header_names_every_level_in_the_players_language(level: str) -> None:
    game = GameController(level=level, lang="ja", clock=ManualClock(), timing=FAST)
    assert present.header(game).endswith(text("ja", f"tui.level_{level}"))
    assert "expert" in present.LEVELS
    assert tuple(LEVELS) == present.LEVELS


def test_opponents_show_name_size_score_turn_and_dealer() -> None:
    game = controller(players=3, seed=1)
    lines = present.opponent_lines(game)
    assert [line.seat for line in lines] == [1, 2]
    for line in lines:
        assert game.names[line.seat] in line.text
        assert text("en", "game.cards_count", count=len(game.state.hands[line.seat])) in line.text
        assert line.to_play == (game.state.turn == line.seat)
        assert (text("en", "game.dealer") in line.text) == (game.state.dealer == line.seat)


def test_the_status_names_whose_turn_and_the_phase() -> None:
    game = controller(seed=3)
    assert game.human_turn
    assert present.status_line(game).startswith("Your turn · Phase: match or draw · Draw Pile: ")
    game.submit(parse_action("draw"))
    assert "Phase: drew: match, or lay a card" in present.status_line(game)


def test_an_opponent_who_forgot_is_marked_and_announced() -> None:
    clock = ManualClock()
    game = controller(seed=6, clock=clock, bots=bots(1, call=0.0, catch=0.0))
    for _ in range(400):
        if 1 in game.dos_open():
            break
        if game.summary is not None:
            game.resume()
        elif game.human_turn:
            game.submit(next(a for a in game.legal() if a.kind.name not in ("CALL", "CATCH")))
        clock.advance(0.1)
        game.tick()
    line = present.opponent_lines(game)[0]
    assert line.dos_open and "⚠" in line.text
    assert text("en", "tui.catch_prompt", player="Bot 1") in present.alerts(game)
    assert HUMAN not in game.dos_open() or present.alerts(game)[0] == text("en", "tui.dos_prompt")


def test_hints_follow_the_selection() -> None:
    r5, dos, b3 = parse_card("R5"), parse_card("DOS"), parse_card("B3")
    actions = [
        parse_action("R5+DOS@0"),
        parse_action("B3@1"),
        parse_action("draw"),
    ]
    assert present.hinted_targets(actions, Counter()) == {0, 1}
    assert present.hinted_targets(actions, Counter([r5, dos])) == {0}
    assert present.hinted_cards(actions, Counter()) == {r5, dos, b3}
    assert present.hinted_cards(actions, Counter([r5])) == {r5, dos}
