"""Tournament statistics on constructed games whose every figure is worked out by hand."""

from __future__ import annotations

import math

import pytest

from dos.arena.played import PlayedGame
from dos.arena.stats import percentile, summarize, wilson_interval


def game(
    index: int,
    seating: tuple[str, ...],
    winner: int,
    scores: tuple[int, ...],
    times: tuple[tuple[float, ...], ...] | None = None,
) -> PlayedGame:
    """A played game with one decision per seat unless ``times`` says otherwise."""
    players = len(seating)
    times = times or tuple((0.001,) for _ in range(players))
    return PlayedGame(
        index=index,
        deal=index // players,
        rotation=index % players,
        seed=100 + index // players,
        seating=seating,
        winner=winner,
        scores=scores,
        rounds=index + 1,
        decisions=tuple(len(t) for t in times),
        calls=tuple(range(players)),
        caught=(1,) + (0,) * (players - 1),
        decision_seconds=times,
    )


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
        (0, 0, 0.0, 1.0),
    ],
)
def test_wilson_interval_matches_the_textbook_values(
    wins: int, games: int, low: float, high: float
) -> None:
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=5e-5)
    assert 0.0 <= got[0] <= (wins / games if games else 0.0) <= got[1] <= 1.0


def test_wilson_interval_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="11 wins in 10 games"):
        wilson_interval(11, 10)


def test_percentile_interpolates_between_ranks() -> None:
    values = [float(v) for v in range(20, 0, -1)]  # 20..1, unsorted on purpose
    assert percentile(values, 0.5) == 10.5
    assert percentile(values, 0.95) == pytest.approx(19.05)
    assert percentile(values, 0.0) == 1.0
    assert percentile(values, 1.0) == 20.0
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([], 0.5) is None
    with pytest.raises(ValueError, match="between 0 and 1"):
        percentile(values, 95)


def test_two_bots_on_duplicated_deals() -> None:
    games = [
        game(0, ("A", "B"), 0, (200, 30), ((0.1, 0.3), (0.2,))),
        game(1, ("B", "A"), 1, (0, 210), ((0.4,), (0.5,))),
        game(2, ("A", "B"), 1, (50, 205), ((0.6,), (0.7, 0.8, 0.9))),
        game(3, ("B", "A"), 1, (120, 200), ((1.0,), (0.2,))),
    ]
    summary = summarize(games, ["A", "B"])
    a, b = summary.bots
    assert (summary.games, summary.players) == (4, 2)
    assert summary.mean_rounds == 2.5
    assert [(s.seat, s.games, s.wins) for s in summary.seats] == [(0, 4, 1), (1, 4, 3)]

    assert (a.name, a.seats, a.games, a.wins, a.win_rate, a.fair_share) == ("A", 1, 4, 3, 0.75, 0.5)
    assert a.interval == wilson_interval(3, 4)
    assert a.points == (200, 210, 50, 200)
    assert a.mean_points == 165.0
    assert a.margins == (170, 210, -155, 80)
    assert a.mean_margin == 76.25
    assert [(s.seat, s.games, s.wins, s.win_rate) for s in a.per_seat] == [
        (0, 2, 1, 0.5),
        (1, 2, 2, 1.0),
    ]
    # A's decisions: 0.1, 0.3, 0.5, 0.6, 0.2 -> sorted 0.1 0.2 0.3 0.5 0.6
    assert a.decisions == 5
    assert a.decision_median == pytest.approx(0.3)
    assert a.decision_p95 == pytest.approx(0.5 + 0.8 * 0.1)
    # calls are (0, 1) and caught (1, 0) by seat: A sat twice at each seat
    assert (a.calls, a.caught) == (2, 2)

    assert (b.games, b.wins, b.win_rate) == (4, 1, 0.25)
    assert b.mean_points == (30 + 0 + 205 + 120) / 4
    assert b.margins == (-170, -210, 155, -80)
    assert [(s.games, s.wins) for s in b.per_seat] == [(2, 0), (2, 1)]
    # B's decisions: 0.2, 0.4, 0.7, 0.8, 0.9, 1.0
    assert b.decisions == 6
    assert b.decision_median == pytest.approx(0.75)
    assert b.decision_p95 == pytest.approx(0.9 + 0.75 * 0.1)


def test_a_bot_holding_several_seats_counts_each_seat_it_holds() -> None:
    # One "A" against three "B" at 4 seats; "B" wins if any of its seats does.
    games = [
        game(0, ("A", "B", "B", "B"), 2, (10, 40, 200, 0)),
        game(1, ("B", "A", "B", "B"), 1, (5, 220, 0, 60)),
    ]
    summary = summarize(games)
    assert [bot.name for bot in summary.bots] == ["A", "B"]
    a, b = summary.bots
    assert (a.seats, a.games, a.wins, a.fair_share) == (1, 2, 1, 0.25)
    assert a.margins == (10 - 200, 220 - 60)
    assert (b.seats, b.games, b.wins, b.fair_share) == (3, 2, 1, 0.75)
    assert b.points == (40, 200, 0, 5, 0, 60)
    # each B seat against the best A seat (the only other bot)
    assert b.margins == (30, 190, -10, -215, -220, -160)
    assert b.mean_margin == pytest.approx(sum(b.margins) / 6)
    assert [(s.games, s.wins) for s in b.per_seat] == [(1, 0), (1, 0), (2, 1), (2, 0)]
    assert [(s.games, s.wins) for s in a.per_seat] == [(1, 0), (1, 1), (0, 0), (0, 0)]
    assert a.per_seat[2].win_rate is None
    assert b.decisions == 6 and a.decisions == 2


def test_summary_json_keeps_decision_times_apart_from_the_reproducible_figures() -> None:
    games = [game(0, ("A", "B"), 0, (200, 0)), game(1, ("B", "A"), 0, (200, 0))]
    summary = summarize(games)
    outcome = summary.outcome()
    assert "decision_seconds" not in str(outcome)
    full = summary.to_json()
    a = full["bots"][0]
    assert a["name"] == "A" and a["wins"] == 1 and a["games"] == 2
    assert a["ci95"] == list(wilson_interval(1, 2))
    assert math.isclose(a["decision_seconds"]["median"], 0.001)
    assert {k: v for k, v in a.items() if k != "decision_seconds"} == outcome["bots"][0]
    assert summary.bot("B").wins == 1
    with pytest.raises(KeyError):
        summary.bot("C")


def test_no_games_give_empty_figures() -> None:
    summary = summarize([], ["A", "B"])
    assert summary.games == 0 and summary.mean_rounds is None
    assert summary.bots[0].win_rate == 0.0 and summary.bots[0].interval == (0.0, 1.0)
    assert summary.bots[0].mean_points is None and summary.bots[0].decision_p95 is None
