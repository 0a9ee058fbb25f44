"""One classic game between bots, played by the rules engine (RULES.md §9).

Everything random in a game comes from its seed: the deal and the reaction targets (the
engine's own generator) and each seat's bot generator (its choices and reaction times). So the
same seed and seating give the same game on any machine. The bots' generators are derived from
the seed one way (``dos.seeds``): their state does not lead back to the seed, nor so to the deal.

>>> from dos.bots.classic.random_bot import ClassicRandomBot
>>> players = [ClassicPlayer(ClassicRandomBot()), ClassicPlayer(ClassicRandomBot())]
>>> result = play_game(players, seed=3)
>>> sorted(result.ranking)
[0, 1]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from dos import seeds
from dos.play.bot import BotError, Budget, ClassicBot, wrong_type
from dos.rules.classic import Kind, Options, Phase, apply, new_game, view


@dataclass(frozen=True, slots=True)
class ClassicPlayer:
    """A seat's classic bot with its thinking budget (its reaction reflex is a bot setting)."""

    bot: ClassicBot
    budget: Budget = field(default_factory=Budget)


@dataclass(slots=True)
class ClassicGameResult:
    """What one game came to. ``ranking`` lists the seats, first place first."""

    seed: int
    ranking: list[int]
    decisions: list[int]
    decision_seconds: list[list[float]] = field(repr=False)
    reactions_passed: list[int]
    reactions_failed: list[int]
    actions: list[str] = field(repr=False)

    @property
    def places(self) -> list[int]:
        """``places[seat]``: 0 for first place, 1 for second, ..."""
        places = [0] * len(self.ranking)
        for place, seat in enumerate(self.ranking):
            places[seat] = place
        return places

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "ranking": self.ranking,
            "decisions": self.decisions,
            "reactions_passed": self.reactions_passed,
            "reactions_failed": self.reactions_failed,
        }


def play_game(
    players: list[ClassicPlayer],
    seed: int,
    options: Options | None = None,
    max_decisions: int = 100_000,
) -> ClassicGameResult:
    """Plays one classic game to its end. Bot ``i`` sits at seat ``i``."""
    options = options or Options(players=len(players))
    if options.players != len(players):
        raise ValueError(f"{len(players)} players for a {options.players}-seat game")
    state = new_game(options, seed)
    rngs = [seeds.generator(seed, "seat", seat) for seat in range(len(players))]
    decisions = [0] * len(players)
    seconds: list[list[float]] = [[] for _ in players]
    passed = [0] * len(players)
    failed = [0] * len(players)
    clock = time.perf_counter
    while state.phase != Phase.OVER:
        seat = state.turn
        seat_view = view(state, seat)
        began = clock()
        player = players[seat]
        action = player.bot.choose(seat_view, rngs[seat], player.budget)
        seconds[seat].append(clock() - began)
        problem = wrong_type(action, seat_view)
        if problem is not None:
            raise BotError(f"{player.bot.name} {problem}")
        reacting = state.phase == Phase.REACTION
        allowed = (
            action.kind in (Kind.REACT, Kind.TIMEOUT) if reacting else action in seat_view.legal
        )
        if not allowed or action.seat is not None:
            raise BotError(f"{player.bot.name} returned {action!s}, not a legal action here")
        if reacting:
            # the engine's judgement (RULES.md §9): every target hit within the time limit
            ok = (
                action.kind == Kind.REACT
                and action.hits == len(state.targets)
                and action.ms <= options.reaction_time_ms
            )
            (passed if ok else failed)[seat] += 1
        apply(state, action)
        decisions[seat] += 1
        if sum(decisions) > max_decisions:
            raise RuntimeError(f"game with seed {seed} did not end in {max_decisions} decisions")
    return ClassicGameResult(
        seed=seed,
        ranking=list(state.ranking),
        decisions=decisions,
        decision_seconds=seconds,
        reactions_passed=passed,
        reactions_failed=failed,
        actions=[str(a) for a in state.history],
    )
