"""A finished game's result as finishing ranks, one per seat: 0 is first, and seats that tie
share a rank (openskill's convention: a lower rank is a better place).

* ``official``: the winner (the first to the target score) is first; every other seat is
  placed by its final score, higher first, equal scores sharing a place.
* ``classic``: play goes on to a full ranking, which is the order of places.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dos import ruleset


class RankError(ValueError):
    """A result that does not give a rank to every seat."""


def official_ranks(result: dict[str, Any], players: int) -> list[int]:
    """The ranks of an official game from its ``winner`` and ``scores``.

    >>> official_ranks({"winner": 2, "scores": [40, 120, 210, 40]}, 4)
    [2, 1, 0, 2]
    """
    winner = result.get("winner")
    scores = result.get("scores")
    if not isinstance(winner, int) or not 0 <= winner < players:
        raise RankError(f"official result: no winner among {players} seats: {winner!r}")
    if not isinstance(scores, list) or len(scores) != players:
        raise RankError(f"official result: {players} scores expected: {scores!r}")
    others = sorted({score for seat, score in enumerate(scores) if seat != winner}, reverse=True)
    place = {score: index + 1 for index, score in enumerate(others)}
    return [0 if seat == winner else place[score] for seat, score in enumerate(scores)]


def classic_ranks(result: dict[str, Any], players: int) -> list[int]:
    """The ranks of a classic game from its full ``ranking`` (seats, first place first).

    >>> classic_ranks({"winner": 1, "ranking": [1, 2, 0]}, 3)
    [2, 0, 1]
    """
    ranking = result.get("ranking")
    if not isinstance(ranking, list) or sorted(ranking) != list(range(players)):
        raise RankError(f"classic result: a ranking of {players} seats expected: {ranking!r}")
    ranks = [0] * players
    for place, seat in enumerate(ranking):
        ranks[seat] = place
    return ranks


def ranks(rules: str, result: dict[str, Any], players: int) -> list[int]:
    """The finishing ranks of a game of ``rules`` with ``players`` seats."""
    entry = ruleset.find(rules)
    if entry is None or entry.ranks is None:  # its registry entry says how it ranks
        raise RankError(f"no ranks for the rule set {rules!r}")
    return entry.ranks(result, players)


def scores_ranks(winner: int, scores: Sequence[int]) -> list[int]:
    """The ranks from a winning seat and final scores (a tournament's games of either rule
    set: classic tournament scores count the players each seat finished ahead of).

    >>> scores_ranks(0, [3, 1, 2, 1])
    [0, 2, 1, 2]
    """
    return official_ranks({"winner": winner, "scores": list(scores)}, len(scores))
