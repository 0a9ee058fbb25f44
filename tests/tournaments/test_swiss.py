"""A Swiss round's pairing (``dos.tournaments.swiss``)."""

from __future__ import annotations

import pytest

from dos.tournaments.field import Entrant, Game, met
from dos.tournaments.swiss import pair_round, seat_tables


def field(count: int) -> list[Entrant]:
    """Players p0..p(count-1), p0 rated highest."""
    return [Entrant(f"p{i}", f"P{i}", float(count - i)) for i in range(count)]


def play_out(games: list[Game]) -> list[Game]:
    """Each table won in seat order (the first seat first)."""
    return [g if g.bye else Game(g.round, g.seats, tuple(range(len(g.seats)))) for g in games]


def test_the_first_round_pairs_by_rating_top_down() -> None:
    tables = pair_round(field(8), [], seats=4, number=1)
    assert [g.seats for g in tables] == [("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7")]


def test_later_rounds_pair_by_points_before_rating() -> None:
    people = field(4)
    first = [Game(1, ("p0", "p1"), (1, 0)), Game(1, ("p2", "p3"), (1, 0))]
    second = pair_round(people, first, seats=2, number=2)
    assert [g.seats for g in second] == [("p1", "p3"), ("p0", "p2")]


def test_no_pair_meets_twice_while_the_field_allows_it() -> None:
    people = field(6)
    games: list[Game] = []
    for number in range(1, 6):
        games += play_out(pair_round(people, games, seats=2, number=number))
    assert max(met(games).values()) == 1  # five rounds of six: everyone met everyone once


def test_a_group_round_repeats_as_few_pairs_as_possible() -> None:
    people = field(8)
    games: list[Game] = []
    for number in range(1, 3):
        games += play_out(pair_round(people, games, seats=4, number=number))
    # Two tables of four, twice: a second split of eight into fours repeats at least 4
    # pairs (two of each first table meet again at each second table); no pair thrice.
    assert max(met(games).values()) <= 2
    assert sum(1 for n in met(games).values() if n > 1) == 4


def test_the_players_left_over_get_a_bye_lowest_ranked_first() -> None:
    tables = pair_round(field(5), [], seats=2, number=1)
    assert [g.seats for g in tables if g.bye] == [("p4",)]
    assert all(len(g.seats) == 2 for g in tables if not g.bye)


def test_nobody_gets_a_second_bye_while_another_has_had_none() -> None:
    people = field(3)
    games: list[Game] = []
    for number in range(1, 4):
        games += play_out(pair_round(people, games, seats=2, number=number))
    assert sorted(g.seats[0] for g in games if g.bye) == ["p0", "p1", "p2"]


def test_a_bye_is_worth_a_first_place() -> None:
    from dos.tournaments.scoring import SWISS
    from dos.tournaments.standings import standings

    rows = standings(field(1), [Game(1, ("p0",), bye=True)], SWISS, 4)
    assert rows[0].points == 3.0 and rows[0].byes == 1 and rows[0].games == 0


def test_dropped_players_are_not_paired_and_added_ones_are() -> None:
    people = field(4)
    games = play_out(pair_round(people, [], seats=2, number=1))
    people[1] = Entrant("p1", "P1", 3.0, active=False)
    people.append(Entrant("late", "Late", 0.0))
    second = pair_round(people, games, seats=2, number=2)
    seated = {p for g in second for p in g.seats}
    assert "p1" not in seated and "late" in seated


def test_players_who_block_each_other_are_never_seated_together() -> None:
    block = {frozenset(("p0", "p1"))}
    tables = pair_round(field(4), [], seats=2, number=1, blocked=block)
    assert all({"p0", "p1"} - set(g.seats) for g in tables)
    assert not any(g.bye for g in tables)


def test_a_player_blocked_by_everyone_sits_out_with_a_bye() -> None:
    block = {frozenset(("p3", other)) for other in ("p0", "p1", "p2")}
    tables, stranded = seat_tables(["p0", "p1", "p2", "p3"], 2, {}, block)
    assert "p3" in stranded and all("p3" not in t for t in tables)


def test_a_table_has_at_least_two_seats() -> None:
    with pytest.raises(ValueError, match="2 seats"):
        pair_round(field(2), [], seats=1, number=1)
