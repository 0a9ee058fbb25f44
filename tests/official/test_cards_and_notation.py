"""The cards (RULES.md §1) and the notation of cards and actions."""

from __future__ import annotations

from collections import Counter

import pytest

from dos.errors import NotationError
from dos.rules.official import Action, Kind, parse_action
from dos.rules.official.cards import (
    DEALER_DRAW_VALUE,
    DECK_SIZE,
    NUMBER,
    POINTS,
    WILD_DOS,
    card_name,
    full_deck,
    parse_card,
)

COLOURS = "BGRY"
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)
EVERY_CARD_NAME = {f"{c}{n}" for c in COLOURS for n in NUMBERS} | {f"{c}#" for c in COLOURS}
EVERY_CARD_NAME |= {"DOS"}


def test_the_deck_has_108_cards() -> None:
    assert len(full_deck()) == 108
    assert DECK_SIZE == 108


@pytest.mark.parametrize("colour", COLOURS)
def test_each_colour_has_three_each_of_1_3_4_5_two_each_of_6_to_10_and_two_wild_numbers(
    colour: str,
) -> None:
    held = Counter(card_name(t) for t in full_deck())
    for n in (1, 3, 4, 5):
        assert held[f"{colour}{n}"] == 3
    for n in (6, 7, 8, 9, 10):
        assert held[f"{colour}{n}"] == 2
    assert held[f"{colour}#"] == 2
    assert sum(count for name, count in held.items() if name.startswith(colour)) == 24


def test_the_deck_has_twelve_wild_dos_cards() -> None:
    assert Counter(card_name(t) for t in full_deck())["DOS"] == 12


def test_every_card_of_the_deck_has_a_name_and_reads_back() -> None:
    assert {card_name(t) for t in full_deck()} == EVERY_CARD_NAME
    for name in EVERY_CARD_NAME:
        assert card_name(parse_card(name)) == name


@pytest.mark.parametrize("text", ["R2", "B2", "G2", "Y2"])
def test_there_is_no_printed_2(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_wild_dos_is_always_2() -> None:
    assert NUMBER[WILD_DOS] == 2


@pytest.mark.parametrize(
    ("text", "name"), [("r7", "R7"), (" b10 ", "B10"), ("y#", "Y#"), ("dos", "DOS"), ("Dos", "DOS")]
)
def test_card_notation_is_case_insensitive(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["R0", "R11", "P7", "7", "R", "", "WILD", "DOS2", "R#4"])
def test_unknown_card_notation_is_rejected(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


@pytest.mark.parametrize(
    ("name", "points"),
    [("B1", 1), ("G5", 5), ("R7", 7), ("Y10", 10), ("DOS", 20), ("R#", 40), ("B#", 40)],
)
def test_cards_left_in_hand_score_face_value_wild_dos_20_wild_number_40(
    name: str, points: int
) -> None:
    assert POINTS[parse_card(name)] == points


@pytest.mark.parametrize(("name", "value"), [("B1", 1), ("Y10", 10), ("DOS", 0), ("G#", 0)])
def test_wild_cards_count_as_zero_in_the_draw_for_dealer(name: str, value: int) -> None:
    assert DEALER_DRAW_VALUE[parse_card(name)] == value


# Every line of the notation table of dos/rules/official/actions.py, with its canonical form.
NOTATION_TABLE = [
    ("R7@0", "R7@0"),
    ("R5+DOS@1", "R5+DOS@1"),
    ("R#=4+B3@0", "B3+R#=4@0"),
    ("DOS=R+R5@1", "R5+DOS=R@1"),
    ("draw", "draw"),
    ("lay B3", "lay B3"),
    ("end", "end"),
    ("place G7", "place G7"),
    ("dos", "dos"),
    ("catch 2", "catch 2"),
    ("2: catch 0", "2: catch 0"),
]


@pytest.mark.parametrize(("text", "canonical"), NOTATION_TABLE)
def test_every_action_of_the_notation_table_reads_back_from_its_canonical_form(
    text: str, canonical: str
) -> None:
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r7@0", "R7@0"),
        ("r5+dos@1", "R5+DOS@1"),
        ("r#=4+b3@0", "B3+R#=4@0"),
        ("dos=r+r5@1", "R5+DOS=R@1"),
        ("DRAW", "draw"),
        ("Lay b3", "lay B3"),
        ("END", "end"),
        ("PLACE g7", "place G7"),
        ("DOS", "dos"),
        ("Catch 2", "catch 2"),
        ("2:CATCH 0", "2: catch 0"),
        (" r#=4 + b3 @ 0 ", "B3+R#=4@0"),
        ("3:  Dos", "3: dos"),
    ],
)
def test_action_notation_is_case_insensitive_and_written_canonically(
    text: str, canonical: str
) -> None:
    action = parse_action(text)
    assert str(action) == canonical
    assert action == parse_action(canonical)


def test_the_order_of_the_cards_of_a_match_does_not_matter() -> None:
    assert parse_action("DOS+R5@1") == parse_action("R5+DOS@1")
    assert parse_action("B3+R#=4@0") == parse_action("R#=4+B3@0")


def test_a_match_names_its_cards_and_the_center_row_index_of_its_target() -> None:
    action = parse_action("R5+DOS@1")
    assert action.kind == Kind.MATCH
    assert action.cards == (parse_card("R5"), WILD_DOS)
    assert action.target == 1
    assert action.seat is None


def test_designations_are_kept_with_their_card() -> None:
    action = parse_action("DOS=G+R#=4@0")
    by_card = dict(zip(action.cards, action.designations, strict=True))
    assert by_card[parse_card("R#")] == 4
    assert by_card[WILD_DOS] == COLOURS.index("G")


def test_an_out_of_turn_action_names_its_seat_first() -> None:
    assert parse_action("2: catch 0") == Action(Kind.CATCH, target=0, seat=2)
    assert parse_action("1: dos") == Action(Kind.CALL, seat=1)
    assert str(Action(Kind.CALL, seat=3)) == "3: dos"


def test_a_lay_and_a_placement_name_one_card() -> None:
    assert parse_action("lay B3") == Action(Kind.LAY, (parse_card("B3"),))
    assert parse_action("place DOS") == Action(Kind.PLACE, (WILD_DOS,))
