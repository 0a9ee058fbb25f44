"""Short seeded games for the review's tests, played by ``greedy`` with every DOS obligation
called at once, and the same games with one decision of a seat planted."""

from __future__ import annotations

import random

from dos.bots.base import Budget, turn_choices
from dos.bots.greedy import GreedyBot
from dos.records import Record, record_of
from dos.rules.official import Action, Kind, Options, Phase, State, apply, new_game, view

OPTIONS = Options(players=2, target_score=30)


def call_all(state: State) -> None:
    """Every open DOS obligation called by its owner."""
    for seat in range(len(state.hands)):
        if state.dos_open >> seat & 1:
            apply(state, Action(Kind.CALL, seat=None if seat == state.turn else seat))


def play_out(state: State) -> State:
    """Plays ``state`` to the game's end with ``greedy`` at every seat; returns it."""
    bot = GreedyBot()
    rng = random.Random(0)
    while state.phase != Phase.OVER:
        call_all(state)
        apply(state, bot.choose(view(state, state.turn), rng, Budget()))
    return state


def greedy_game(seed: int, options: Options = OPTIONS) -> Record:
    """The record of a seeded game of ``greedy`` against itself."""
    return record_of("official", play_out(new_game(options, seed)), seed=seed)


def planted_game(seed: int, seat: int, options: Options = OPTIONS) -> tuple[Record, int, str]:
    """A seeded ``greedy`` game in which ``seat``, at the first start of a turn where one
    match takes its last card (it goes out), draws instead; the rest played by ``greedy``.
    Returns the record, the index of the planted ``draw`` and the match it gave up; raises
    ``LookupError`` when the game offers no such turn."""
    state = new_game(options, seed)
    bot = GreedyBot()
    rng = random.Random(0)
    while state.phase != Phase.OVER:
        call_all(state)
        if (
            state.turn == seat
            and state.phase == Phase.TURN
            and not state.drew
            and not state.matched
            and len(state.hands[seat]) == 1
        ):
            seen = view(state, seat)
            outs = [a for a in turn_choices(seen) if a.kind == Kind.MATCH]
            if outs:
                index = len(state.history)
                apply(state, Action(Kind.DRAW))
                play_out(state)
                return record_of("official", state, seed=seed), index, str(outs[0])
        apply(state, bot.choose(view(state, state.turn), rng, Budget()))
    raise LookupError(f"seed {seed}: seat {seat} never could go out with one card")
