"""Every kind of action in words, in every language."""

from __future__ import annotations

import pytest

from dos.i18n import LANGS, text
from dos.i18n.describe import Before, card_name, cards_text, describe
from dos.rules.official import Phase, parse_action
from dos.rules.official.cards import WILD_DOS, parse_card

CENTER = [parse_card("R7"), parse_card("B3"), WILD_DOS]
NAMES = ["Ada", "Bo", "Cy"]
ACTIONS = [
    "R7@0",
    "R5+DOS@0",
    "B1+G1@2",
    "B3+R#=4@0",
    "draw",
    "lay B3",
    "end",
    "place G7",
    "dos",
    "2: dos",
    "1: catch 0",
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("notation", ACTIONS)
def test_every_action_has_a_sentence_naming_the_player(lang: str, notation: str) -> None:
    action = parse_action(notation)
    sentence = describe(lang, action, Before(CENTER, turn=0), NAMES)
    seat = 0 if action.seat is None else action.seat
    assert NAMES[seat] in sentence
    assert "{" not in sentence


def test_a_match_names_its_cards_target_and_kind() -> None:
    sentence = describe("en", parse_action("R5+DOS@0"), Before(CENTER, turn=1), NAMES)
    assert sentence == "Bo matched red 5 and Wild DOS as red onto red 7: Double Color Match."


def test_a_match_in_german_uses_the_rule_sheets_words() -> None:
    sentence = describe("de", parse_action("R7@0"), Before(CENTER, turn=0), NAMES)
    assert sentence == "Ada: rote 7 auf rote 7 — Einfaches Bedienen einer Farbe."


def test_a_double_on_a_wild_dos_target_earns_no_colour_bonus() -> None:
    sentence = describe("en", parse_action("B1+G1@2"), Before(CENTER, turn=0), NAMES)
    assert sentence.endswith("onto Wild DOS: Double Number Match.")


def test_own_draw_names_the_card_and_others_do_not() -> None:
    draw = parse_action("draw")
    mine = describe("fr", draw, Before(CENTER, turn=0), NAMES, drawn=parse_card("Y4"))
    theirs = describe("fr", draw, Before(CENTER, turn=0), NAMES)
    assert mine == "Ada tire 4 jaune."
    assert theirs == "Ada tire une carte."


def test_end_while_placing_declines_the_bonus_cards() -> None:
    before = Before(CENTER, turn=0, phase=Phase.PLACING)
    assert describe("en", parse_action("end"), before, NAMES) == ("Ada placed no more bonus cards.")


def test_a_catch_names_both_players() -> None:
    sentence = describe("nl", parse_action("1: catch 0"), Before(CENTER, turn=0), NAMES)
    assert sentence == 'Bo betrapt Ada, die geen "DOS!" riep: twee strafkaarten.'


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_a_name(lang: str) -> None:
    names = {card_name(lang, card) for card in range(WILD_DOS + 1)}
    assert len(names) == WILD_DOS + 1
    assert text(lang, "game.wild_dos") in names


def test_two_cards_are_joined_in_words() -> None:
    assert cards_text("it", [parse_card("B3"), parse_card("Y#")], [-1, 4]) == (
        "3 blu e Jolly # giallo come 4"
    )
