"""What each candidate action is worth to one seat, judged from that seat's view only.

The estimate is the ``sage`` bot's (``dos.bots.sage``) without its search's pruning: every
sample is a determinization of the view drawn by ``sage``'s own sampler
(``dos.bots.determinize.Sampler`` with the history's readings and the opponent model, as
``sage`` draws them), and *every* candidate action is applied to the same sample and the round
played out by the compiled heuristic rollout (``dos.fast.official_rollout.simulate_actions``: common
random numbers, so two actions are compared on the same luck). Each simulated round gives

* the **round** value: 1 if the seat went out first, else 0;
* the **game** value: the seat's chance of winning the game from the scores the round leaves,
  by ``sage``'s own model (``dos.bots.sage.game_values`` and ``win_chances``: the rounds
  still to play won by each player alike, their points drawn from ``greedy`` self-play's
  ventiles); 1 if the round takes the seat to the target, 0 if it takes another seat there.

A value is the mean over the samples. An estimate never receives a ``State``: the function
takes a ``SeatView`` and builds its samples from it, so it cannot read a hidden card.

>>> import random
>>> from dos.rules.official import new_game, view
>>> from dos.bots.base import turn_choices
>>> state = new_game(seed=5)
>>> seen = view(state, state.turn)
>>> values = estimate(seen, turn_choices(seen), random.Random(1), samples=8)
>>> len(values) == len(turn_choices(seen)), all(0 <= v.game <= 1 for v in values)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from dos.bots.determinize import Sampler
from dos.bots.sage import LARGEST_TABLE, game_values, win_chances
from dos.rules.official import Action, Kind, SeatView, State, apply

MAX_ROLLOUT_ACTIONS = 2000
"""A safety net, as the bots': no simulated round is played further than this."""
INFER = 0.9
"""Share of samples that follow the likely readings of the history (``sage``'s ``infer``)."""
MODEL = 1.0
"""Share of samples whose hands agree with the opponent model (``sage``'s ``model``)."""


class ReviewUnavailableError(Exception):
    """The review cannot be made here (no compiled core, a target too large to table)."""


@dataclass(frozen=True, slots=True)
class Values:
    """What one action was worth over the samples: the rewards, sample by sample (paired
    across the actions of one estimate), of the round and of the game."""

    action: Action
    rounds: tuple[float, ...]
    games: tuple[float, ...]

    @property
    def round(self) -> float:
        """The chance of going out first in this round."""
        return sum(self.rounds) / len(self.rounds) if self.rounds else 0.0

    @property
    def game(self) -> float:
        """The chance of winning the game."""
        return sum(self.games) / len(self.games) if self.games else 0.0


def fast_ready() -> bool:
    """Whether the compiled fast core (the ``fast`` extra) can be imported."""
    try:
        import dos.fast.official_rollout  # noqa: F401
    except ImportError:
        return False
    return True


def estimate(
    seen: SeatView, actions: Sequence[Action], rng: random.Random, samples: int
) -> list[Values]:
    """The round and game values of each of ``actions`` (turn actions legal in ``seen``, the
    view of the seat to act) over ``samples`` determinizations drawn with ``rng``."""
    if not isinstance(seen, SeatView):  # the one door to the estimate: a view, never a state
        raise TypeError("estimate takes a SeatView")
    if seen.turn != seen.seat:
        raise ValueError(f"seat {seen.seat} is not to act (seat {seen.turn} is)")
    if not fast_ready():
        raise ReviewUnavailableError("the review needs the compiled core (the `fast` extra)")
    target = seen.options.target_score
    if target > LARGEST_TABLE:
        raise ReviewUnavailableError(
            f"the review tables game chances up to a target of {LARGEST_TABLE}, not {target}"
        )
    import numpy as np

    from dos.fast.official_convert import code_of, from_python_state
    from dos.fast.official_rollout import simulate_actions

    values = game_values(target, len(seen.hand_sizes))
    seat = seen.seat
    scores = list(seen.scores)
    codes = np.array([code_of(a, seen.turn) for a in actions], dtype=np.int64)
    out = np.zeros((len(actions), 2), dtype=np.int64)
    rounds: list[list[float]] = [[] for _ in actions]
    games: list[list[float]] = [[] for _ in actions]
    sampler = Sampler(seen, round_only=True, infer=INFER, model=MODEL)
    for _ in range(samples):
        base = sampler.sample(rng)
        if base.dos_open:
            _call_all(base)
        simulate_actions(from_python_state(base), codes, seen.round, MAX_ROLLOUT_ACTIONS, out)
        for k in range(len(actions)):
            winner = int(out[k, 0])
            points = int(out[k, 1])
            won, game = _rewards(
                values, scores=scores, target=target, seat=seat, winner=winner, points=points
            )
            rounds[k].append(won)
            games[k].append(game)
    return [Values(action, tuple(rounds[k]), tuple(games[k])) for k, action in enumerate(actions)]


def game_chance(seen: SeatView) -> float:
    """The seat's chance of winning the game from the scores alone (before the round is
    played), by the same model: ``win_chances`` at the current scores."""
    target = seen.options.target_score
    values = game_values(min(target, LARGEST_TABLE), len(seen.hand_sizes))
    return win_chances(values, list(seen.scores))[seen.seat]


def _rewards(
    values: tuple[tuple[float, ...], ...],
    *,
    scores: list[int],
    target: int,
    seat: int,
    winner: int,
    points: int,
) -> tuple[float, float]:
    """The round and game rewards of ``seat`` when ``winner`` goes out with ``points``
    (``winner`` -1: the simulation was cut, an even share of the round, the game as it
    stands)."""
    if winner < 0:
        return 1.0 / len(scores), win_chances(values, scores)[seat]
    won = 1.0 if winner == seat else 0.0
    after = scores[:]
    after[winner] += points
    if after[winner] >= target:
        return won, won
    return won, win_chances(values, after)[seat]


def _call_all(state: State) -> None:
    """Every open DOS obligation is called at once, as inside the bots' simulations."""
    for seat in range(len(state.hands)):
        if state.dos_open >> seat & 1:
            apply(state, Action(Kind.CALL, seat=None if seat == state.turn else seat))
