"""An arena's window and pairing (``dos.tournaments.arena``)."""

from __future__ import annotations

import pytest

from dos.tournaments.arena import Window, pair_waiting
from dos.tournaments.field import Entrant, Game


def field(count: int) -> list[Entrant]:
    return [Entrant(f"p{i}", f"P{i}", float(count - i)) for i in range(count)]


def test_the_window_is_open_from_its_start_up_to_its_end() -> None:
    window = Window(10.0, 20.0)
    assert [window.phase(t) for t in (9.9, 10.0, 19.9, 20.0)] == [
        "before",
        "open",
        "open",
        "over",
    ]


def test_a_window_ends_after_it_starts() -> None:
    with pytest.raises(ValueError, match="ends after"):
        Window(10.0, 10.0)


def test_waiting_players_are_seated_by_score_then_rating() -> None:
    people = field(6)
    games = [Game(1, ("p4", "p5"), (0, 1))]  # p4 has 2 points now
    tables = pair_waiting(people, games, {"p1", "p2", "p3", "p4"}, seats=2, number=2)
    assert [g.seats for g in tables] == [("p4", "p1"), ("p2", "p3")]
    assert [g.round for g in tables] == [2, 3]


def test_fewer_than_a_table_wait() -> None:
    tables = pair_waiting(field(5), [], {"p0", "p1", "p2"}, seats=4, number=1)
    assert tables == []


def test_the_last_opponent_is_passed_over_while_others_wait() -> None:
    people = field(4)
    games = [Game(1, ("p0", "p1"), (0, 1)), Game(2, ("p2", "p3"), (0, 1))]
    tables = pair_waiting(people, games, {"p0", "p1", "p2", "p3"}, seats=2, number=3)
    assert {frozenset(g.seats) for g in tables} == {
        frozenset(("p0", "p2")),
        frozenset(("p1", "p3")),
    }


def test_the_last_opponent_is_paired_again_when_nobody_else_waits() -> None:
    people = field(2)
    games = [Game(1, ("p0", "p1"), (0, 1))]
    assert [g.seats for g in pair_waiting(people, games, {"p0", "p1"}, seats=2, number=2)] == [
        ("p0", "p1")
    ]


def test_blocked_players_are_never_seated_together_and_wait_instead() -> None:
    blocked = {frozenset(("p0", "p1"))}
    tables = pair_waiting(field(3), [], {"p0", "p1", "p2"}, seats=2, number=1, blocked=blocked)
    assert [g.seats for g in tables] == [("p0", "p2")]
    alone = pair_waiting(field(2), [], {"p0", "p1"}, seats=2, number=1, blocked=blocked)
    assert alone == []


def test_players_who_left_are_not_seated() -> None:
    people = [*field(2), Entrant("gone", "Gone", 99.0, active=False)]
    tables = pair_waiting(people, [], {"p0", "p1", "gone"}, seats=2, number=1)
    assert [g.seats for g in tables] == [("p0", "p1")]
