"""Which games a tournament plays: lineups, rotated seatings, duplicated deals, bad input."""

from __future__ import annotations

from collections import Counter

import pytest

from dos.arena.schedule import (
    TournamentError,
    deal_seeds,
    lineup,
    make_schedule,
    seating,
)

KNOWN = ["a", "b", "c", "d"]


@pytest.mark.parametrize(
    ("bots", "players", "expected"),
    [
        (["a", "b"], 2, ("a", "b")),
        (["a", "b"], 4, ("a", "b", "b", "b")),
        (["a", "b", "c"], 3, ("a", "b", "c")),
        (["a", "b", "c"], 5, ("a", "b", "c", "c", "c")),
    ],
)
def test_every_name_but_the_last_takes_one_seat_and_the_last_fills_the_rest(
    bots: list[str], players: int, expected: tuple[str, ...]
) -> None:
    assert lineup(bots, players) == expected


def test_rotation_r_puts_the_first_bot_of_the_lineup_at_seat_r() -> None:
    base = ("a", "b", "c", "c")
    assert [seating(base, r) for r in range(4)] == [
        ("a", "b", "c", "c"),
        ("c", "a", "b", "c"),
        ("c", "c", "a", "b"),
        ("b", "c", "c", "a"),
    ]


@pytest.mark.parametrize(("bots", "players"), [(["a", "b"], 2), (["a", "b"], 4), (KNOWN, 6)])
def test_every_bot_sits_in_every_seat_equally_and_every_deal_is_played_in_every_rotation(
    bots: list[str], players: int
) -> None:
    games = players * 5
    schedule = make_schedule(bots, players, games, seed=7, known=KNOWN)
    assert [spec.index for spec in schedule] == list(range(games))
    base = lineup(bots, players)
    for name in bots:
        per_seat = Counter(
            seat for spec in schedule for seat, bot in enumerate(spec.seating) if bot == name
        )
        assert set(per_seat) == set(range(players))
        assert len(set(per_seat.values())) == 1  # equally often
        assert sum(per_seat.values()) == games * base.count(name)
    by_deal: dict[int, list[int]] = {}
    for spec in schedule:
        assert spec.deal == spec.index // players
        assert spec.rotation == spec.index % players
        assert spec.seating == seating(base, spec.rotation)
        assert spec.options.players == players
        by_deal.setdefault(spec.seed, []).append(spec.rotation)
    assert len(by_deal) == games // players  # one seed per deal, no two deals alike
    assert all(rotations == list(range(players)) for rotations in by_deal.values())


def test_deal_seeds_are_reproducible_53_bit_and_unrelated_for_nearby_seeds() -> None:
    seeds = deal_seeds(1, 1000)
    assert seeds == deal_seeds(1, 1000)
    assert deal_seeds(1, 10) == seeds[:10]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**53 for s in seeds)
    assert not set(seeds) & set(deal_seeds(2, 1000))


def test_the_options_carry_the_target_score() -> None:
    (spec, _) = make_schedule(["a", "b"], 2, 2, target_score=50, known=KNOWN)
    assert (spec.options.players, spec.options.target_score) == (2, 50)


@pytest.mark.parametrize(
    ("bots", "players", "games", "message"),
    [
        (["a", "zzz"], 2, 2, "--bots: unknown bot 'zzz' (known: a, b, c, d)"),
        (["a", ""], 2, 2, "--bots: unknown bot '(empty)'"),
        (["a"], 2, 2, "--bots: name at least two bots"),
        (["a", "a"], 2, 2, "--bots: each bot may be named once"),
        (["a", "b", "c"], 2, 2, "--bots: 3 bots do not fit 2 seats"),
        (["a", "b"], 1, 2, "--players: must be from 2 to 10, not 1"),
        (["a", "b"], 11, 22, "--players: must be from 2 to 10, not 11"),
        (["a", "b"], 2, 0, "--games: must be at least 1, not 0"),
        (["a", "b"], 2, -4, "--games: must be at least 1, not -4"),
        (["a", "b"], 2, 3, "--games: must be a multiple of 2 (every deal"),
        (["a", "b"], 4, 2, "try 4"),
        (["a", "b"], 3, 2000, "try 1998 or 2001"),
    ],
)
def test_bad_input_is_rejected_with_a_message_naming_the_option(
    bots: list[str], players: int, games: int, message: str
) -> None:
    with pytest.raises(TournamentError) as error:
        make_schedule(bots, players, games, known=KNOWN)
    assert message in str(error.value)


def test_a_target_score_below_one_is_rejected() -> None:
    with pytest.raises(TournamentError, match="--target: must be at least 1"):
        make_schedule(["a", "b"], 2, 2, target_score=0, known=KNOWN)


def test_by_default_the_registry_names_are_the_known_ones() -> None:
    assert len(make_schedule(["random", "easy"], 2, 2)) == 2
    with pytest.raises(TournamentError, match="unknown bot 'a'"):
        make_schedule(["a", "b"], 2, 2)
