"""Matchmaking's rules, one behaviour each (``dos.matchmaking.queue``)."""

from __future__ import annotations

import itertools

import pytest

from dos.matchmaking.queue import (
    BAND_EVERY,
    BAND_START,
    BAND_STEP,
    Entry,
    band,
    match,
)


def entry(player: str, since: float = 0.0, **fields: object) -> Entry:
    values: dict[str, object] = {"rules": "official", "seats": 2, "skill": 25.0}
    values.update(fields)
    return Entry(player, player.title(), since=since, **values)  # type: ignore[arg-type]


def seated(tables: list) -> list[list[str]]:  # type: ignore[type-arg]
    return [[p.player for p in table.people] for table in tables]


def test_two_players_of_one_game_are_seated_together() -> None:
    tables, waiting = match([entry("a"), entry("b", since=1.0)], now=1.0)
    assert seated(tables) == [["a", "b"]]
    assert tables[0].bots == 0 and waiting == []


def test_a_player_alone_keeps_waiting() -> None:
    alone = entry("a")
    assert match([alone], now=1000.0) == ([], [alone])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_table_is_made_only_when_its_size_is_filled(seats: int) -> None:
    queue = [entry(f"p{i}", since=float(i), seats=seats) for i in range(seats + 1)]
    short, _ = match(queue[: seats - 1], now=10.0)
    assert short == []
    tables, waiting = match(queue, now=10.0)
    assert [len(t.people) for t in tables] == [seats]
    assert all(t.seats == seats for t in tables)
    assert [e.player for e in waiting] == [f"p{seats}"]


def test_different_rule_sets_or_sizes_never_meet() -> None:
    queue = [entry("a"), entry("b", rules="classic"), entry("c", seats=3), entry("d", seats=3)]
    tables, waiting = match(queue, now=0.0)
    assert seated(tables) == []
    assert len(waiting) == 4


def test_the_band_starts_narrow_and_widens_with_the_wait() -> None:
    e = entry("a", since=50.0)
    assert band(e, 50.0) == BAND_START
    assert band(e, 50.0 + BAND_EVERY - 0.01) == BAND_START
    assert band(e, 50.0 + BAND_EVERY) == BAND_START + BAND_STEP
    assert band(e, 50.0 + 6 * BAND_EVERY) == BAND_START + 6 * BAND_STEP


def test_players_far_apart_meet_only_once_the_band_has_widened() -> None:
    gap = BAND_START + 2 * BAND_STEP
    queue = [entry("a", skill=25.0), entry("b", skill=25.0 + gap)]
    assert match(queue, now=2 * BAND_EVERY - 1)[0] == []
    assert seated(match(queue, now=2 * BAND_EVERY)[0]) == [["a", "b"]]


def test_the_wider_band_of_the_two_decides() -> None:
    gap = BAND_START + BAND_STEP
    old = entry("a", since=0.0, skill=25.0)
    new = entry("b", since=BAND_EVERY, skill=25.0 + gap)  # just joined: its band is narrow
    assert seated(match([old, new], now=BAND_EVERY)[0]) == [["a", "b"]]


def test_everyone_at_a_table_is_within_band_of_everyone() -> None:
    # b fits a, c fits b, but c is too far from a: c is not seated with them.
    queue = [
        entry("a", since=0.0, seats=3, skill=20.0),
        entry("b", since=1.0, seats=3, skill=23.0),
        entry("c", since=2.0, seats=3, skill=26.0),
        entry("d", since=3.0, seats=3, skill=22.0),
    ]
    tables, waiting = match(queue, now=3.0)
    assert seated(tables) == [["a", "b", "d"]]
    assert [e.player for e in waiting] == ["c"]


@pytest.mark.parametrize("direction", ["a blocked b", "b blocked a"])
def test_a_blocked_pair_is_never_seated_together(direction: str) -> None:
    blocked_by_a = frozenset({"b"}) if direction == "a blocked b" else frozenset()
    blocked_by_b = frozenset({"a"}) if direction == "b blocked a" else frozenset()
    queue = [entry("a", blocked=blocked_by_a), entry("b", since=1.0, blocked=blocked_by_b)]
    assert match(queue, now=10_000.0)[0] == []
    # ... and each is seated with someone else who comes.
    tables, _ = match([*queue, entry("c", since=2.0)], now=10_000.0)
    assert seated(tables) == [["a", "c"]]


def test_a_block_keeps_a_pair_apart_at_larger_tables_too() -> None:
    queue = [
        entry("a", seats=3, blocked=frozenset({"c"})),
        entry("b", since=1.0, seats=3),
        entry("c", since=2.0, seats=3),
        entry("d", since=3.0, seats=3),
    ]
    tables, waiting = match(queue, now=3.0)
    assert seated(tables) == [["a", "b", "d"]]
    assert [e.player for e in waiting] == ["c"]


def test_the_longest_waiting_are_seated_first() -> None:
    queue = [entry("late", since=9.0), entry("first", since=1.0), entry("second", since=2.0)]
    tables, waiting = match(queue, now=9.0)
    assert seated(tables) == [["first", "second"]]
    assert [e.player for e in waiting] == ["late"]


def test_a_tie_in_waiting_is_broken_by_player_id_whatever_the_queue_order() -> None:
    queue = [entry("c"), entry("a"), entry("b")]
    for order in itertools.permutations(queue):
        tables, waiting = match(order, now=0.0)
        assert seated(tables) == [["a", "b"]]
        assert [e.player for e in waiting] == ["c"]


def test_the_host_is_the_longest_waiting() -> None:
    tables, _ = match([entry("b", since=5.0), entry("a", since=1.0)], now=5.0)
    assert tables[0].people[0].player == "a"


def test_bots_never_fill_before_the_wait_the_player_chose() -> None:
    alone = entry("a", seats=3, bots_after=30.0)
    assert match([alone], now=29.99)[0] == []
    tables, waiting = match([alone], now=30.0)
    assert seated(tables) == [["a"]] and tables[0].bots == 2 and waiting == []


def test_bots_never_fill_for_who_chose_never() -> None:
    assert match([entry("a", bots_after=None)], now=1e9)[0] == []


def test_bots_join_only_people_whose_own_wait_is_over() -> None:
    patient = entry("a", since=0.0, seats=3, bots_after=120.0)
    eager = entry("b", since=0.0, seats=3, bots_after=30.0)
    # At 60 s only b's wait for bots is over: b plays with bots; a waits on for people.
    tables, waiting = match([patient, eager], now=60.0)
    assert seated(tables) == [["b"]] and tables[0].bots == 2
    assert waiting == [patient]
    tables, _ = match([patient, eager], now=120.0)
    assert seated(tables) == [["a", "b"]] and tables[0].bots == 1


def test_people_are_preferred_to_bots_when_the_table_fills() -> None:
    queue = [entry("a", bots_after=0.0), entry("b", since=1.0, bots_after=0.0)]
    tables, _ = match(queue, now=1.0)
    assert seated(tables) == [["a", "b"]] and tables[0].bots == 0


@pytest.mark.parametrize(
    ("rated", "expected"), [((True, True), True), ((True, False), False), ((False, False), False)]
)
def test_a_table_is_rated_only_when_everyone_may_play_rated(
    rated: tuple[bool, bool], expected: bool
) -> None:
    queue = [entry("a", rated=rated[0]), entry("b", since=1.0, rated=rated[1])]
    assert match(queue, now=1.0)[0][0].rated is expected


def test_every_player_is_in_one_table_at_most() -> None:
    queue = [entry(f"p{i}", since=float(i % 3), skill=20.0 + i % 5) for i in range(17)]
    tables, waiting = match(queue, now=100.0)
    players = [p.player for t in tables for p in t.people] + [e.player for e in waiting]
    assert sorted(players) == sorted(e.player for e in queue)
