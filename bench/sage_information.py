"""What knowing the hidden hands is worth to ``sage``'s search, with four players.

``sage`` (the ``expert`` level's play) wins about 37% of four-player games against three
``greedy``; the target of its issue is 45%. Its search deals the hidden cards at random but
for what the public history tells (``dos.bots.determinize``). This bench replaces that with
an *oracle* of chosen strength: each sample keeps every card of the other players' true hands
with probability ``q`` and deals the rest at random from the cards the seat has not seen (so
``q = 1`` is the true hands, with the draw pile still shuffled, and ``q = 0`` a uniform deal).
Everything else is ``sage`` as it is: the same search, rollouts and game values.

For each ``q``, and for ``sage`` itself, it plays the same duplicated deals (every seating of
one searching seat against three ``greedy``, the bare reflexes of both) and prints the win
rate with its 95% interval, the median decision time, and how many of the other players'
cards the samples deal right (the share of each true hand found in a sample, over the
searching seat's decisions): the information the search has, next to what it wins with it.

    .venv/bin/python bench/sage_information.py [--deals 100] [--seed 5] [--jobs 2]
        [--q 0,0.15,0.35,0.6,1] [--iterations 800]

It is a benchmark, not a test: the games take minutes (400 games per line at the defaults,
about 3 minutes a line on one core, 12 for ``sage``'s own, whose sampler reads the history).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

try:
    import dos  # noqa: F401
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dos.arena.schedule import deal_seeds
from dos.arena.stats import wilson_interval
from dos.bots.base import Budget
from dos.bots.determinize import Sampler
from dos.bots.greedy import GreedyBot
from dos.bots.reflex import Reflex
from dos.bots.sage import SageBot
from dos.play.official import DosReferee, Player
from dos.rules.official import Options, Phase, SeatView, State, apply, new_game, view

PLAYERS = 4


def _dealt_right(sample: State, truth: State, seat: int) -> tuple[int, int]:
    """Cards of the other true hands that ``sample`` deals to the same player, and how many
    cards those hands hold."""
    right = total = 0
    for other, hand in enumerate(truth.hands):
        if other != seat:
            right += sum((Counter(sample.hands[other]) & Counter(hand)).values())
            total += len(hand)
    return right, total


class _Oracle:
    """Samples that keep each true hidden card with probability ``q`` (see the module)."""

    def __init__(self, truth: State, seat: int, q: float) -> None:
        self.truth = truth
        self.seat = seat
        self.q = q

    def sample(self, rng: random.Random) -> State:
        state = self.truth.copy()
        state.options = replace(state.options, target_score=1)
        state.history = []
        state.round_results = []
        state.winner = None
        others = [s for s in range(len(state.hands)) if s != self.seat]
        hidden = Counter(state.draw_pile)
        kept: dict[int, list[int]] = {}
        for other in others:
            hidden.update(state.hands[other])
            kept[other] = [card for card in state.hands[other] if rng.random() < self.q]
            hidden.subtract(kept[other])
        rest = list(hidden.elements())
        rng.shuffle(rest)
        start = 0
        for other in others:
            need = len(state.hands[other]) - len(kept[other])
            state.hands[other] = sorted(kept[other] + rest[start : start + need])
            start += need
        state.draw_pile = rest[start:]
        state.rng = rng.getrandbits(64)
        return state


class _Counted:
    """A sampler whose first sample is compared with the truth (for the "dealt right")."""

    def __init__(self, inner: Sampler | _Oracle, bot: _Measured, truth: State, seat: int) -> None:
        self.inner = inner
        self.bot = bot
        self.truth = truth
        self.seat = seat
        self.first = True

    def sample(self, rng: random.Random) -> State:
        state = self.inner.sample(rng)
        if self.first:
            self.first = False
            right, total = _dealt_right(state, self.truth, self.seat)
            self.bot.right += right
            self.bot.total += total
        return state


class _Measured(SageBot):
    """``sage`` whose samples come from the oracle (``q`` set) or its own sampler (``None``),
    counting how many hidden cards the first sample of each decision deals right."""

    def __init__(self, q: float | None) -> None:
        super().__init__()
        self.q = q
        self.truth: State | None = None
        self.right = 0
        self.total = 0

    def _sampler(self, seen: SeatView) -> Sampler:
        assert self.truth is not None
        own = super()._sampler(seen) if self.q is None else _Oracle(self.truth, seen.seat, self.q)
        counted: Sampler = _Counted(own, self, self.truth, seen.seat)  # type: ignore[assignment]
        return counted


def _deal(task: tuple[float | None, int, int]) -> tuple[int, int, int, int, list[float]]:
    """Every seating of one deal: (wins, games, cards dealt right, cards, decision times)."""
    q, seed, iterations = task
    wins = right = total = 0
    times: list[float] = []
    for searcher in range(PLAYERS):
        state = new_game(Options(players=PLAYERS), seed)
        bot = _Measured(q)
        players = [
            Player(bot if s == searcher else GreedyBot(), Reflex(), Budget(iterations=iterations))
            for s in range(PLAYERS)
        ]
        rngs = [random.Random(f"{seed}/seat{s}") for s in range(PLAYERS)]
        referee = DosReferee(state, players, random.Random(f"{seed}/race"))
        while state.phase != Phase.OVER:
            referee.settle(state)
            seat = state.turn
            player = players[seat]
            began = time.perf_counter()
            if seat == searcher:
                bot.truth = state
            action = player.bot.choose(view(state, seat), rngs[seat], player.budget)
            if seat == searcher:
                times.append(time.perf_counter() - began)
            apply(state, action)
        wins += state.winner == searcher
        right += bot.right
        total += bot.total
    return wins, PLAYERS, right, total, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--q", default="0,0.15,0.35,0.6,1")
    parser.add_argument("--iterations", type=int, default=800)
    args = parser.parse_args()
    lines: list[float | None] = [None, *(float(q) for q in args.q.split(","))]
    seeds = deal_seeds(args.seed, args.deals)
    print(
        f"sage vs 3 greedy, {args.deals} deals x {PLAYERS} seatings, seed {args.seed}, "
        f"{args.iterations} iterations a decision"
    )
    print(
        f"{'samples':<22} {'dealt right':>11} {'wins':>9} {'win rate':>9} {'95% CI':>15} "
        f"{'median ms':>9}"
    )
    with ProcessPoolExecutor(args.jobs) as pool:
        for q in lines:
            found = list(pool.map(_deal, [(q, seed, args.iterations) for seed in seeds]))
            wins = sum(f[0] for f in found)
            games = sum(f[1] for f in found)
            right = sum(f[2] for f in found)
            total = sum(f[3] for f in found)
            times = [t for f in found for t in f[4]]
            low, high = wilson_interval(wins, games)
            name = "sage's own sampler" if q is None else f"oracle q = {q:g}"
            print(
                f"{name:<22} {right / max(1, total):>10.1%} {wins:>4}/{games:<4} "
                f"{wins / games:>8.1%} {low:>6.1%} - {high:<6.1%} "
                f"{1000 * statistics.median(times):>9.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
