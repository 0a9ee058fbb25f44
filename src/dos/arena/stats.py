"""Tournament statistics: pure functions of the played games.

Per bot (a bot holding several seats of a game counts each seat it holds):

* **win rate**: the share of games won by one of its seats, with a Wilson score 95% interval.
  The games are treated as independent trials; duplicate deals make them less so, but they
  pair the games so as to cancel the deal's luck, which makes the interval, if anything, wide.
* **fair share**: the win rate of a bot no better than the others, seats held / players.
* **mean points**: the mean final score of a seat it held.
* **mean margin**: the mean, over the seats it held, of that seat's final score minus the best
  final score of a seat held by another bot.
* **per seat**: games played and won from each seat.
* **decision time**: median and 95th percentile of the wall time of all its decisions (the
  one figure that differs from run to run).
* **rating**: its openskill (Plackett-Luce) rating over the games in schedule order, mu with
  a 95% interval mu ± 1.96 sigma (``dos.ratings.arena``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any

from dos.arena.played import PlayedGame
from dos.ratings.arena import tournament_ratings
from dos.ratings.model import Rating

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval (1.95996...)."""


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / games``; ``(0, 1)`` for no games.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"wilson_interval: {wins} wins in {games} games")
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / denominator
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (0 to 1) by linear interpolation between the closest ranks (as
    numpy's default); ``None`` for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0, 1.0], 0.95)
    (2.5, 4.8)
    """
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"percentile: q must be between 0 and 1, not {q}")
    if not values:
        return None
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean(values: Sequence[float]) -> float | None:
    """The arithmetic mean; ``None`` for no values."""
    return sum(values) / len(values) if values else None


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """Games played and won from one seat."""

    seat: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
        }


@dataclass(frozen=True, slots=True)
class BotSummary:
    """Every figure of one bot over a tournament."""

    name: str
    seats: int
    """Seats it holds in every game."""
    players: int
    games: int
    wins: int
    points: tuple[int, ...] = field(repr=False)
    """The final score of every seat it held, in game order."""
    margins: tuple[int, ...] = field(repr=False)
    """Each of those scores minus the best score of another bot in that game."""
    per_seat: tuple[SeatFigures, ...]
    decisions: int
    decision_median: float | None
    decision_p95: float | None
    calls: int
    caught: int
    rating: Rating = field(default_factory=Rating)
    """Its openskill rating after the tournament (``dos.ratings.arena``)."""

    @property
    def rating_interval(self) -> tuple[float, float]:
        """mu ± 1.96 sigma: the 95% interval of its skill."""
        return self.rating.mu - Z95 * self.rating.sigma, self.rating.mu + Z95 * self.rating.sigma

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def fair_share(self) -> float:
        """The win rate of a bot no better than the others."""
        return self.seats / self.players if self.players else 0.0

    @property
    def mean_points(self) -> float | None:
        return mean(self.points)

    @property
    def mean_margin(self) -> float | None:
        return mean(self.margins)

    def outcome(self) -> dict[str, Any]:
        """The reproducible figures: all but the decision times."""
        low, high = self.interval
        return {
            "name": self.name,
            "seats": self.seats,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "fair_share": self.fair_share,
            "mean_points": self.mean_points,
            "mean_margin": self.mean_margin,
            "per_seat": [seat.to_json() for seat in self.per_seat],
            "decisions": self.decisions,
            "calls": self.calls,
            "caught": self.caught,
            "rating": {
                "mu": self.rating.mu,
                "sigma": self.rating.sigma,
                "ordinal": self.rating.ordinal,
                "ci95": list(self.rating_interval),
            },
        }

    def to_json(self) -> dict[str, Any]:
        return {
            **self.outcome(),
            "decision_seconds": {"median": self.decision_median, "p95": self.decision_p95},
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """The figures of a whole tournament: one ``BotSummary`` per bot, and per seat."""

    games: int
    players: int
    bots: tuple[BotSummary, ...]
    seats: tuple[SeatFigures, ...]
    """Wins by seat whoever sat there: the table's seat advantage."""
    mean_rounds: float | None

    def bot(self, name: str) -> BotSummary:
        """The figures of the bot called ``name``."""
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise KeyError(name)

    def outcome(self) -> dict[str, Any]:
        """The reproducible figures: all but the decision times."""
        return {
            "games": self.games,
            "players": self.players,
            "mean_rounds": self.mean_rounds,
            "seats": [seat.to_json() for seat in self.seats],
            "bots": [bot.outcome() for bot in self.bots],
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.outcome(), "bots": [bot.to_json() for bot in self.bots]}


def summarize(games: Sequence[PlayedGame], bots: Sequence[str] | None = None) -> Summary:
    """The statistics of ``games``; ``bots`` gives the order of the bots (by default, that
    of first appearance). Every game must have the same number of seats.
    """
    players = len(games[0].seating) if games else 0
    if any(len(game.seating) != players for game in games):
        raise ValueError("summarize: games with different numbers of seats")
    order = (
        list(bots) if bots is not None else list(dict.fromkeys(n for g in games for n in g.seating))
    )
    ratings = tournament_ratings(games)
    summaries = [
        replace(_bot_summary(name, games, players), rating=ratings.get(name, Rating()))
        for name in order
    ]
    seat_wins = [0] * players
    for game in games:
        seat_wins[game.winner] += 1
    return Summary(
        games=len(games),
        players=players,
        bots=tuple(summaries),
        seats=tuple(SeatFigures(seat, len(games), seat_wins[seat]) for seat in range(players)),
        mean_rounds=mean([game.rounds for game in games]),
    )


def _bot_summary(name: str, games: Sequence[PlayedGame], players: int) -> BotSummary:
    seat_games = [0] * players
    seat_wins = [0] * players
    points: list[int] = []
    margins: list[int] = []
    times: list[float] = []
    held_counts: set[int] = set()
    played = wins = decisions = calls = caught = 0
    for game in games:
        mine = [seat for seat, bot in enumerate(game.seating) if bot == name]
        if not mine:
            continue
        held_counts.add(len(mine))
        others = [game.scores[seat] for seat, bot in enumerate(game.seating) if bot != name]
        best_other = max(others) if others else 0
        played += 1
        wins += game.winner in mine
        for seat in mine:
            seat_games[seat] += 1
            seat_wins[seat] += game.winner == seat
            points.append(game.scores[seat])
            margins.append(game.scores[seat] - best_other)
            decisions += game.decisions[seat]
            calls += game.calls[seat]
            caught += game.caught[seat]
            times.extend(game.decision_seconds[seat])
    return BotSummary(
        name=name,
        seats=max(held_counts) if held_counts else 0,
        players=players,
        games=played,
        wins=wins,
        points=tuple(points),
        margins=tuple(margins),
        per_seat=tuple(
            SeatFigures(seat, seat_games[seat], seat_wins[seat]) for seat in range(players)
        ),
        decisions=decisions,
        decision_median=percentile(times, 0.5),
        decision_p95=percentile(times, 0.95),
        calls=calls,
        caught=caught,
    )
