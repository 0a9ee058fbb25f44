"""The classic rule set's compiled core behind ``dos.fast.compiled.Core``, and its conversions
to and from ``dos.rules.classic`` (states and actions)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from dos.fast import classic as fast_classic
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
    s[fast_classic.PLAYERS] = options.players
    s[fast_classic.REACTION_MS] = options.reaction_time_ms
    s[fast_classic.PENALTY_CARDS] = options.penalty_cards
    s[fast_classic.STACKING] = int(options.stacking)


def new_game(s: I64, options: dict[str, Any] | None, seed: int) -> None:
    """Deals the game of ``dos.rules.classic.new_game(Options.from_json(options), seed)``."""
    s[:] = 0
    write_options(s, Options.from_json(options or {}))
    fast_classic.new_game(s, np.uint64(seed_state(seed)))


def _hand(s: I64, seat: int) -> list[int]:
    base = fast_classic.HANDS + seat * fast_classic.TYPES
    return [t for t in range(fast_classic.TYPES) for _ in range(int(s[base + t]))]


def to_python_state(
    s: I64,
    seed: int | None = None,
    history: list[Action] | None = None,
    round_results: list[Any] | None = None,
) -> State:
    """The engine's ``State`` equal to the flat game ``s`` (``history`` as given)."""
    options = Options(
        players=int(s[fast_classic.PLAYERS]),
        reaction_time_ms=int(s[fast_classic.REACTION_MS]),
        penalty_cards=int(s[fast_classic.PENALTY_CARDS]),
        stacking=bool(s[fast_classic.STACKING]),
    )
    targets = tuple(
        (int(s[fast_classic.TARGETS + 2 * i]), int(s[fast_classic.TARGETS + 2 * i + 1]))
        for i in range(int(s[fast_classic.N_TARGETS]))
    )
    return State(
        options=options,
        rng=int(s[fast_classic.RNG]) & _MASK,
        hands=[_hand(s, seat) for seat in range(options.players)],
        draw_pile=[
            int(c) for c in s[fast_classic.DRAW : fast_classic.DRAW + s[fast_classic.N_DRAW]]
        ],
        discard=[
            int(c)
            for c in s[fast_classic.DISCARD : fast_classic.DISCARD + s[fast_classic.N_DISCARD]]
        ],
        turn=int(s[fast_classic.TURN]),
        colour=int(s[fast_classic.COLOUR_SLOT]),
        direction=int(s[fast_classic.DIRECTION]),
        pending=int(s[fast_classic.PENDING]),
        phase=Phase(int(s[fast_classic.PHASE])),
        targets=targets,
        after_reaction=int(s[fast_classic.AFTER_REACTION]),
        ranking=[
            int(seat)
            for seat in s[fast_classic.RANKING : fast_classic.RANKING + s[fast_classic.N_RANKED]]
        ],
        starter=int(s[fast_classic.STARTER]),
        history=list(history or []),
    )


def from_python_state(state: State) -> I64:
    """A flat game equal to the engine's ``state`` (``DECISIONS`` counts its history)."""
    s = np.zeros(fast_classic.SIZE, dtype=np.int64)
    write_options(s, state.options)
    s[fast_classic.RNG] = np.int64(np.uint64(state.rng))
    for seat, hand in enumerate(state.hands):
        for card in hand:
            s[fast_classic.HANDS + seat * fast_classic.TYPES + card] += 1
            s[fast_classic.HELD + seat] |= 1 << card
        s[fast_classic.HAND_SIZES + seat] = len(hand)
    s[fast_classic.DRAW : fast_classic.DRAW + len(state.draw_pile)] = state.draw_pile
    s[fast_classic.N_DRAW] = len(state.draw_pile)
    s[fast_classic.DISCARD : fast_classic.DISCARD + len(state.discard)] = state.discard
    s[fast_classic.N_DISCARD] = len(state.discard)
    s[fast_classic.TURN] = state.turn
    s[fast_classic.COLOUR_SLOT] = state.colour
    s[fast_classic.DIRECTION] = state.direction
    s[fast_classic.PENDING] = state.pending
    s[fast_classic.PHASE] = int(state.phase)
    s[fast_classic.N_TARGETS] = len(state.targets)
    for i, (x, y) in enumerate(state.targets):
        s[fast_classic.TARGETS + 2 * i] = x
        s[fast_classic.TARGETS + 2 * i + 1] = y
    s[fast_classic.AFTER_REACTION] = state.after_reaction
    s[fast_classic.RANKING : fast_classic.RANKING + len(state.ranking)] = state.ranking
    s[fast_classic.N_RANKED] = len(state.ranking)
    s[fast_classic.STARTER] = state.starter
    s[fast_classic.DECISIONS] = len(state.history)
    s[fast_classic.ROUNDS] = int(state.phase == Phase.OVER)
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
    if not isinstance(action, Action) or action.seat not in (None, int(s[fast_classic.TURN])):
        return -1, -1
    kind = action.kind
    fields = (action.card, action.wish, action.hits, action.ms)
    if any(type(v) is not int for v in fields):
        return -1, -1
    if kind == Kind.REACT:
        if s[fast_classic.PHASE] != fast_classic.REACTION or action.card != -1 or action.wish != -1:
            return -1, -1
        if not 0 <= action.hits <= s[fast_classic.N_TARGETS] or action.ms < 0:
            return -1, -1
        ms = min(action.ms, _MS_LIMIT)
        return int(fast_classic.encode(fast_classic.REACT, -1, -1, -1, action.hits, ms)), -1
    if kind == Kind.TIMEOUT:
        if s[fast_classic.PHASE] != fast_classic.REACTION or fields != (-1, -1, 0, 0):
            return -1, -1
        return int(fast_classic.encode(fast_classic.TIMEOUT, -1, -1, -1, 0, 0)), -1
    if kind not in (Kind.PLAY, Kind.DRAW) or action.hits or action.ms:
        return -1, -1
    if not -1 <= action.card < fast_classic.TYPES or not -1 <= action.wish < 4:
        return -1, -1
    code = int(fast_classic.encode(int(kind), -1, action.card, action.wish, 0, 0))
    codes = np.empty(max(64, fast_classic.legal_count(s)), dtype=np.int64)
    n = fast_classic.legal(s, codes, -1)
    return (code, -1) if code in codes[:n] else (-1, -1)


@njit
def over(s: I64) -> bool:
    """Whether the game has ended."""
    return bool(s[fast_classic.PHASE] == fast_classic.OVER)


@njit_parallel
def step_batch(states: I64, indices: I64) -> None:
    """Applies legal action number ``indices[g]`` in each game ``g`` (``-1``: skip)."""
    for g in prange(states.shape[0]):
        k = indices[g]
        s = states[g]
        if k >= 0 and s[fast_classic.PHASE] != fast_classic.OVER:
            code = fast_classic.legal(s, np.empty(0, dtype=np.int64), k)
            if code >= 0:
                fast_classic.apply(s, code, -1)


@njit_parallel
def random_games(states: I64, mts: I64, budget: int) -> int:
    """Random play of every game at once, as ``dos.fast.official_api.random_games``."""
    total = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        s = states[g]
        mt = mts[g]
        buffer = np.empty(fast_classic.RANDOM_BUFFER, dtype=np.int64)
        made = 0
        while s[fast_classic.PHASE] != fast_classic.OVER and made != budget:
            fast_classic.random_step(s, mt, buffer)
            made += 1
        total[g] = made
    return int(total.sum())


CORE = Core(
    name="classic",
    size=fast_classic.SIZE,
    players_slot=fast_classic.PLAYERS,
    turn_slot=fast_classic.TURN,
    rounds_slot=fast_classic.ROUNDS,
    decisions_slot=fast_classic.DECISIONS,
    over=over,
    new_game=new_game,
    legal=fast_classic.legal,
    apply=fast_classic.apply,
    step=fast_classic.step,
    step_batch=step_batch,
    random_games=random_games,
    to_python_state=to_python_state,
    from_python_state=from_python_state,
    action_of=action_of,
    prepare=prepare,
    last_round=None,
)
