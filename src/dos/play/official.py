"""One official game between bots, played by the rules engine, the DOS race settled by reflexes.

Everything random in a game comes from its seed: the deal (the engine's own generator), each
seat's bot generator and the race generator. So the same seed and seating give the same game
on any machine and any backend. The bots' and the race's generators are derived from the seed
one way (``dos.seeds``): their state does not lead back to the seed, nor so to the deal.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from dos import seeds
from dos.play.bot import OUT_OF_TURN, Bot, BotError, Budget, wrong_type
from dos.play.reflex import Reflex
from dos.rules.official import Action, Kind, Options, Phase, State, apply, new_game, view


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's bot with its reflexes and thinking budget."""

    bot: Bot
    reflex: Reflex = field(default_factory=Reflex)
    budget: Budget = field(default_factory=Budget)


@dataclass(slots=True)
class GameResult:
    """What one game came to. ``decision_seconds[seat]`` lists the time of each decision."""

    seed: int
    winner: int
    scores: list[int]
    rounds: int
    decisions: list[int]
    decision_seconds: list[list[float]] = field(repr=False)
    calls: list[int]
    caught: list[int]
    actions: list[str] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "winner": self.winner,
            "scores": self.scores,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "calls": self.calls,
            "caught": self.caught,
        }


def settle_dos_race(
    state: State, players: list[Player], race: random.Random, seats: int
) -> list[Action]:
    """Settles the open DOS obligations of ``seats`` (a bit mask): for each, the owner's call
    against the fastest catch. A player who forgets and is not caught keeps the obligation open
    (it stays legal for others). Returns the actions applied, in order.
    """
    applied: list[Action] = []
    count = len(players)
    for seat in range(count):
        if not (seats & state.dos_open) >> seat & 1:
            continue
        call = players[seat].reflex.call_delay(race)
        catches = []
        for other in range(1, count):
            catcher = (seat + other) % count
            delay = players[catcher].reflex.catch_delay(race)
            if delay is not None:
                catches.append((delay, catcher))
        fastest = min(catches) if catches else None
        if call is not None and (fastest is None or call <= fastest[0]):
            action = Action(Kind.CALL, seat=_written(state, seat))
        elif fastest is not None:
            action = Action(Kind.CATCH, target=seat, seat=_written(state, fastest[1]))
        else:
            continue
        apply(state, action)
        applied.append(action)
    return applied


class DosReferee:
    """Races each DOS obligation once, when it is first found open (``settle_dos_race``).

    An obligation counts as new when the seat's hand has changed since the last look, so a
    forgotten obligation is not raced again and again while nothing happens to that hand.
    """

    def __init__(self, state: State, players: list[Player], race: random.Random) -> None:
        self.players = players
        self.race = race
        self.raced = 0  # bit per seat: its open obligation has been raced
        self.hands = [tuple(h) for h in state.hands]

    def settle(self, state: State) -> list[Action]:
        """Races the obligations not raced yet; returns the calls and catches applied."""
        for seat, hand in enumerate(state.hands):
            if tuple(hand) != self.hands[seat]:
                self.raced &= ~(1 << seat)  # a changed hand may hold a new obligation
        self.raced &= state.dos_open
        fresh = state.dos_open & ~self.raced
        applied = settle_dos_race(state, self.players, self.race, fresh) if fresh else []
        self.raced |= fresh & state.dos_open
        self.hands = [tuple(h) for h in state.hands]
        return applied


def _written(state: State, seat: int) -> int | None:
    """How an action of ``seat`` names its seat: not at all for the seat to act."""
    return None if seat == state.turn else seat


def play_game(
    players: list[Player],
    seed: int,
    options: Options | None = None,
    max_decisions: int = 100_000,
) -> GameResult:
    """Plays one game to its end. Bot ``i`` sits at seat ``i``."""
    options = options or Options(players=len(players))
    if options.players != len(players):
        raise ValueError(f"{len(players)} players for a {options.players}-seat game")
    state = new_game(options, seed)
    rngs = [seeds.generator(seed, "seat", seat) for seat in range(len(players))]
    race = seeds.generator(seed, "race")
    referee = DosReferee(state, players, race)
    decisions = [0] * len(players)
    seconds: list[list[float]] = [[] for _ in players]
    calls = [0] * len(players)
    caught = [0] * len(players)
    clock = time.perf_counter
    while state.phase != Phase.OVER:
        for action in referee.settle(state):
            if action.kind == Kind.CALL:
                calls[state.turn if action.seat is None else action.seat] += 1
            else:
                caught[action.target] += 1
        seat = state.turn
        seat_view = view(state, seat)
        began = clock()
        action = players[seat].bot.choose(seat_view, rngs[seat], players[seat].budget)
        seconds[seat].append(clock() - began)
        problem = wrong_type(action, seat_view)
        if problem is not None:
            raise BotError(f"{players[seat].bot.name} {problem}")
        if action not in seat_view.legal or action.kind in OUT_OF_TURN:
            raise BotError(f"{players[seat].bot.name} returned {action!s}, not a legal turn action")
        apply(state, action)
        decisions[seat] += 1
        if sum(decisions) > max_decisions:
            raise RuntimeError(f"game with seed {seed} did not end in {max_decisions} decisions")
    assert state.winner is not None
    return GameResult(
        seed=seed,
        winner=state.winner,
        scores=list(state.scores),
        rounds=len(state.round_results),
        decisions=decisions,
        decision_seconds=seconds,
        calls=calls,
        caught=caught,
        actions=[str(a) for a in state.history],
    )
