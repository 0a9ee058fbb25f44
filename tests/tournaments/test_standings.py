"""Points by place and the standings' tie-breaks (``dos.tournaments.scoring``,
``dos.tournaments.standings``)."""

from __future__ import annotations

import pytest

from dos.tournaments.field import Entrant, Game
from dos.tournaments.scoring import ARENA, ARENA_STREAKS, SWISS
from dos.tournaments.standings import standings


def people(*ids: str) -> list[Entrant]:
    return [Entrant(p, p.upper(), 0.0) for p in ids]


def test_swiss_points_count_the_players_beaten() -> None:
    assert [SWISS.points(r, 4) for r in range(4)] == [3.0, 2.0, 1.0, 0.0]
    assert [SWISS.points(r, 2) for r in range(2)] == [1.0, 0.0]


def test_arena_points_by_place() -> None:
    assert [ARENA.points(r, 4) for r in range(4)] == [4.0, 2.0, 1.0, 0.0]
    assert [ARENA.points(r, 2) for r in range(2)] == [2.0, 0.0]


def test_a_rank_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rank 2"):
        SWISS.points(2, 2)
    with pytest.raises(ValueError, match="5 seats"):
        SWISS.points(0, 5)


def test_ties_are_broken_by_the_opponents_points() -> None:
    games = [
        Game(1, ("a", "b"), (0, 1)),
        Game(1, ("c", "d"), (0, 1)),
        Game(2, ("b", "d"), (0, 1)),
        Game(2, ("a", "c"), (1, 0)),
    ]
    rows = standings(people("a", "b", "c", "d"), games, SWISS, 2)
    # a and b have 1 point each: a met b (1) and c (2) = 3, b met a (1) and d (0) = 1.
    assert [r.player_id for r in rows] == ["c", "a", "b", "d"]
    assert [r.place for r in rows] == [1, 2, 3, 4]


def test_a_tied_first_place_counts_as_first_for_points_not_for_firsts() -> None:
    rows = standings(people("a", "b"), [Game(1, ("a", "b"), (0, 0))], SWISS, 2)
    assert [(r.points, r.firsts) for r in rows] == [(1.0, 0), (1.0, 0)]


def test_a_game_under_way_counts_nothing_but_shows_who_plays() -> None:
    rows = standings(people("a", "b", "c"), [Game(1, ("a", "b"))], ARENA, 2)
    assert [(r.player_id, r.playing, r.points) for r in rows][:2] == [
        ("a", True, 0.0),
        ("b", True, 0.0),
    ]


def test_the_streak_bonus_doubles_wins_after_two_in_a_row() -> None:
    games = [Game(n, ("a", "b"), (0, 1)) for n in range(1, 5)]
    games.append(Game(5, ("a", "b"), (1, 0)))
    games.append(Game(6, ("a", "b"), (0, 1)))
    with_bonus = {
        r.player_id: r.points for r in standings(people("a", "b"), games, ARENA_STREAKS, 2)
    }
    without = {r.player_id: r.points for r in standings(people("a", "b"), games, ARENA, 2)}
    assert without["a"] == 10.0  # five wins of 2
    assert with_bonus["a"] == 2 + 2 + 4 + 4 + 0 + 2  # the streak ends with the loss


def test_a_game_of_someone_not_entered_is_refused() -> None:
    with pytest.raises(ValueError, match="not entered: x"):
        standings(people("a"), [Game(1, ("a", "x"), (0, 1))], SWISS, 2)
