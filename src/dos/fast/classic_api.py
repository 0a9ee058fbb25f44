"""The classic rule set's compiled core behind ``dos.fast.compiled.Core``, and its conversions
to and from ``dos.rules.classic`` (states and actions)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dos.fast import classic as fc
from dos.fast._jit import njit, njit_parallel, prange
from dos.fast.compiled import Core
from dos.rng import seed_state
from dos.rules.classic.actions import Action, Kind
from dos.rules.classic.options import Options
from dos.rules.classic.state import Phase, State

I64 = npt.NDArray[np.int64]
_MASK = (1 << 64) - 1
_MS_LIMIT = (1 << 40) - 1
"""The longest reaction a code holds; any longer one fails the test just the same."""


def write_options(s: I64, options: Options) -> None:
    """Puts ``options`` into the option slots of the flat game ``s``."""
    s[fc.PLAYERS] = options.players
    s[fc.REACTION_MS] = options.reaction_time_ms
    s[fc.PENALTY_CARDS] = options.penalty_cards
    s[fc.STACKING] = int(options.stacking)


def new_game(s: I64, options: dict[str, Any] | None, seed: int) -> None:
    """Deals the game of ``dos.rules.classic.new_game(Options.from_json(options), seed)``."""
    s[:] = 0
    write_options(s, Options.from_json(options or {}))
    fc.new_game(s, np.uint64(seed_state(seed)))


def _hand(s: I64, seat: int) -> list[int]:
    base = fc.HANDS + seat * fc.TYPES
    return [t for t in range(fc.TYPES) for _ in range(int(s[base + t]))]


def to_python_state(
    s: I64,
    seed: int | None = None,
    history: list[Action] | None = None,
    round_results: list[Any] | None = None,
) -> State:
    """The engine's ``State`` equal to the flat game ``s`` (``history`` as given)."""
    options = Options(
        players=int(s[fc.PLAYERS]),
        reaction_time_ms=int(s[fc.REACTION_MS]),
        penalty_cards=int(s[fc.PENALTY_CARDS]),
        stacking=bool(s[fc.STACKING]),
    )
    targets = tuple(
        (int(s[fc.TARGETS + 2 * i]), int(s[fc.TARGETS + 2 * i + 1]))
        for i in range(int(s[fc.N_TARGETS]))
    )
    return State(
        options=options,
        rng=int(s[fc.RNG]) & _MASK,
        hands=[_hand(s, seat) for seat in range(options.players)],
        draw_pile=[int(c) for c in s[fc.DRAW : fc.DRAW + s[fc.N_DRAW]]],
        discard=[int(c) for c in s[fc.DISCARD : fc.DISCARD + s[fc.N_DISCARD]]],
        turn=int(s[fc.TURN]),
        colour=int(s[fc.COLOUR_SLOT]),
        direction=int(s[fc.DIRECTION]),
        pending=int(s[fc.PENDING]),
        phase=Phase(int(s[fc.PHASE])),
        targets=targets,
        after_reaction=int(s[fc.AFTER_REACTION]),
        ranking=[int(seat) for seat in s[fc.RANKING : fc.RANKING + s[fc.N_RANKED]]],
        starter=int(s[fc.STARTER]),
        history=list(history or []),
    )


def from_python_state(state: State) -> I64:
    """A flat game equal to the engine's ``state`` (``DECISIONS`` counts its history)."""
    s = np.zeros(fc.SIZE, dtype=np.int64)
    write_options(s, state.options)
    s[fc.RNG] = np.int64(np.uint64(state.rng))
    for seat, hand in enumerate(state.hands):
        for card in hand:
            s[fc.HANDS + seat * fc.TYPES + card] += 1
            s[fc.HELD + seat] |= 1 << card
        s[fc.HAND_SIZES + seat] = len(hand)
    s[fc.DRAW : fc.DRAW + len(state.draw_pile)] = state.draw_pile
    s[fc.N_DRAW] = len(state.draw_pile)
    s[fc.DISCARD : fc.DISCARD + len(state.discard)] = state.discard
    s[fc.N_DISCARD] = len(state.discard)
    s[fc.TURN] = state.turn
    s[fc.COLOUR_SLOT] = state.colour
    s[fc.DIRECTION] = state.direction
    s[fc.PENDING] = state.pending
    s[fc.PHASE] = int(state.phase)
    s[fc.N_TARGETS] = len(state.targets)
    for i, (x, y) in enumerate(state.targets):
        s[fc.TARGETS + 2 * i] = x
        s[fc.TARGETS + 2 * i + 1] = y
    s[fc.AFTER_REACTION] = state.after_reaction
    s[fc.RANKING : fc.RANKING + len(state.ranking)] = state.ranking
    s[fc.N_RANKED] = len(state.ranking)
    s[fc.STARTER] = state.starter
    s[fc.DECISIONS] = len(state.history)
    s[fc.ROUNDS] = int(state.phase == Phase.OVER)
    return s


_KINDS = tuple(Kind)
_ACTIONS: dict[int, Action] = {}


def action_of(code: int) -> Action:
    """The engine's ``Action`` for an action code."""
    action = _ACTIONS.get(code)
    if action is None:
        seat = ((code >> 3) & 31) - 1
        action = Action(
            _KINDS[code & 7],
            card=((code >> 8) & 127) - 1,
            wish=((code >> 15) & 7) - 1,
            hits=(code >> 18) & 7,
            ms=code >> 21,
            seat=None if seat < 0 else seat,
        )
        if len(_ACTIONS) < 1 << 16:
            _ACTIONS[code] = action
    return action


def prepare(s: I64, action: Any) -> tuple[int, int]:
    """``action`` as (code, -1) if it is legal in ``s``, else ``(-1, -1)``: a play or a draw
    must be in the legal list; any reaction with at most as many hits as targets is legal
    during a reaction test (RULES §9), the code keeping its hits and milliseconds."""
    if not isinstance(action, Action) or action.seat not in (None, int(s[fc.TURN])):
        return -1, -1
    kind = action.kind
    fields = (action.card, action.wish, action.hits, action.ms)
    if any(type(v) is not int for v in fields):
        return -1, -1
    if kind == Kind.REACT:
        if s[fc.PHASE] != fc.REACTION or action.card != -1 or action.wish != -1:
            return -1, -1
        if not 0 <= action.hits <= s[fc.N_TARGETS] or action.ms < 0:
            return -1, -1
        ms = min(action.ms, _MS_LIMIT)
        return int(fc.encode(fc.REACT, -1, -1, -1, action.hits, ms)), -1
    if kind == Kind.TIMEOUT:
        if s[fc.PHASE] != fc.REACTION or fields != (-1, -1, 0, 0):
            return -1, -1
        return int(fc.encode(fc.TIMEOUT, -1, -1, -1, 0, 0)), -1
    if kind not in (Kind.PLAY, Kind.DRAW) or action.hits or action.ms:
        return -1, -1
    if not -1 <= action.card < fc.TYPES or not -1 <= action.wish < 4:
        return -1, -1
    code = int(fc.encode(int(kind), -1, action.card, action.wish, 0, 0))
    codes = np.empty(max(64, fc.legal_count(s)), dtype=np.int64)
    n = fc.legal(s, codes, -1)
    return (code, -1) if code in codes[:n] else (-1, -1)


@njit
def over(s: I64) -> bool:
    """Whether the game has ended."""
    return bool(s[fc.PHASE] == fc.OVER)


@njit_parallel
def step_batch(states: I64, indices: I64) -> None:
    """Applies legal action number ``indices[g]`` in each game ``g`` (``-1``: skip)."""
    for g in prange(states.shape[0]):
        k = indices[g]
        s = states[g]
        if k >= 0 and s[fc.PHASE] != fc.OVER:
            code = fc.legal(s, np.empty(0, dtype=np.int64), k)
            if code >= 0:
                fc.apply(s, code, -1)


@njit_parallel
def random_games(states: I64, mts: I64, budget: int) -> int:
    """Random play of every game at once, as ``dos.fast.official_api.random_games``."""
    total = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        s = states[g]
        mt = mts[g]
        buffer = np.empty(fc.RANDOM_BUFFER, dtype=np.int64)
        made = 0
        while s[fc.PHASE] != fc.OVER and made != budget:
            fc.random_step(s, mt, buffer)
            made += 1
        total[g] = made
    return int(total.sum())


CORE = Core(
    name="classic",
    size=fc.SIZE,
    players_slot=fc.PLAYERS,
    turn_slot=fc.TURN,
    rounds_slot=fc.ROUNDS,
    decisions_slot=fc.DECISIONS,
    over=over,
    new_game=new_game,
    legal=fc.legal,
    apply=fc.apply,
    step=fc.step,
    step_batch=step_batch,
    random_games=random_games,
    to_python_state=to_python_state,
    from_python_state=from_python_state,
    action_of=action_of,
    prepare=prepare,
    last_round=None,
)
