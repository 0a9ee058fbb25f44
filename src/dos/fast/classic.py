"""The classic rule set (RULES.md §9), compiled: the same games as ``dos.rules.classic``.

A game is one flat ``int64`` array (layout below); the functions work on it in place and
name the function of ``dos.rules.classic`` they mirror. ``tests/fast/test_classic_diff.py``
compares both engines step by step.

The reaction test (§9) is an action that carries its timing: ``react HITS MSms`` passes when
every target was hit within ``reaction_time_ms``, and ``timeout`` fails. A code keeps the
hits and the milliseconds, so any reaction the engine accepts has a code, and the legal list
names the engine's two representatives (every target hit at the time limit, and
``timeout``). Codes::

    kind | (seat + 1) << 3 | (card + 1) << 8 | (wish + 1) << 15 | hits << 18 | ms << 21
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.fast._jit import lowest_bit, njit
from dos.fast.rng import mt_randbelow, shuffle, splitmix_next
from dos.rules.classic.cards import (
    COLOUR,
    DECK_COUNTS,
    IS_DRAW_TWO,
    IS_NUMBER,
    N_TYPES,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from dos.rules.classic.reaction import MARGIN, TARGET_RADIUS

I64 = npt.NDArray[np.int64]

MAX_PLAYERS = 10
TYPES = N_TYPES
CAPACITY = 108
HAND_SIZE = 7
DRAW_TWO_PENALTY = 2
DRAW_FOUR_PENALTY = 4

# Header slots.
RNG = 0
PLAYERS = 1
REACTION_MS = 2
PENALTY_CARDS = 3
STACKING = 4
TURN = 5
COLOUR_SLOT = 6
"""The colour to follow (``State.colour``)."""
DIRECTION = 7
PENDING = 8
PHASE = 9
"""0 play, 1 reaction, 2 over: ``dos.rules.classic.Phase``."""
AFTER_REACTION = 10
N_RANKED = 11
STARTER = 12
DECISIONS = 13
N_DRAW = 14
N_DISCARD = 15
N_TARGETS = 16
TARGETS = 17
"""``TARGETS + 2 * i``, ``TARGETS + 2 * i + 1``: target ``i``'s x and y, in thousandths."""
ROUNDS = 21
"""1 once the game is over (one game of classic is one round), else 0."""
HEADER = 24
HAND_SIZES = HEADER
HELD = HAND_SIZES + MAX_PLAYERS
"""``HELD + seat``: bit ``card`` set when the seat holds ``card``."""
RANKING = HELD + MAX_PLAYERS
HANDS = RANKING + MAX_PLAYERS
"""``HANDS + seat * TYPES + card``: how many of ``card`` the seat holds."""
DRAW = HANDS + MAX_PLAYERS * TYPES
DISCARD = DRAW + CAPACITY
SIZE = DISCARD + CAPACITY

PLAY_PHASE = 0
REACTION = 1
OVER = 2

# Action kinds, as dos.rules.classic.Kind.
PLAY = 0
DRAW_KIND = 1
REACT = 2
TIMEOUT = 3

_COLOUR = np.array(COLOUR, dtype=np.int64)
_RANK = np.array(RANK, dtype=np.int64)
_IS_DRAW_TWO = np.array(IS_DRAW_TWO, dtype=np.int64)
_IS_NUMBER = np.array(IS_NUMBER, dtype=np.int64)
_DECK = np.array([t for t in range(N_TYPES) for _ in range(DECK_COUNTS[t])], dtype=np.int64)
_SPAN = 1000 - 2 * MARGIN + 1
_APART = 3 * TARGET_RADIUS
_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@njit
def encode(kind: int, seat: int, card: int, wish: int, hits: int, ms: int) -> int:  # noqa: PLR0917
    """The code of an action (``-1``: no seat written, no card, no wish)."""
    return kind | (seat + 1) << 3 | (card + 1) << 8 | (wish + 1) << 15 | hits << 18 | ms << 21


# --- piles, hands and seats (transitions.py) -------------------------------------------------


@njit
def draw_card(s: I64) -> int:
    """The top card of the draw pile; an empty one is refilled with the discard pile but its
    top card, shuffled; ``-1`` when no card is left (RULES §9 Decision)."""
    n = s[N_DRAW]
    if n == 0:
        m = s[N_DISCARD]
        if m < 2:
            return -1
        for i in range(m - 1):
            s[DRAW + i] = s[DISCARD + i]
        s[DISCARD] = s[DISCARD + m - 1]
        s[N_DISCARD] = 1
        s[RNG] = np.int64(shuffle(np.uint64(s[RNG]), s, DRAW, m - 1))
        n = m - 1
    n -= 1
    s[N_DRAW] = n
    return int(s[DRAW + n])


@njit
def _add(s: I64, seat: int, card: int) -> None:
    at = HANDS + seat * TYPES + card
    s[at] += 1
    s[HAND_SIZES + seat] += 1
    s[HELD + seat] |= 1 << card


@njit
def _remove(s: I64, seat: int, card: int) -> None:
    at = HANDS + seat * TYPES + card
    s[at] -= 1
    s[HAND_SIZES + seat] -= 1
    if s[at] == 0:
        s[HELD + seat] &= ~(1 << card)


@njit
def give(s: I64, seat: int, count: int) -> None:
    """``seat`` draws ``count`` cards, fewer if the piles run out (``transitions.give``)."""
    for _ in range(count):
        card = draw_card(s)
        if card < 0:
            break
        _add(s, seat, card)


@njit
def _placed(s: I64, seat: int) -> bool:
    for i in range(s[N_RANKED]):  # noqa: SIM110 (a plain loop: numba compiles it best)
        if s[RANKING + i] == seat:
            return True
    return False


@njit
def next_seat(s: I64, seat: int, steps: int) -> int:
    """The seat ``steps`` places after ``seat`` in the direction of play, counting only the
    seats still playing (``transitions.next_seat``)."""
    players = s[PLAYERS]
    step = s[DIRECTION]
    while steps:
        seat = (seat + step) % players
        if not _placed(s, seat):
            steps -= 1
    return seat


# --- setting up (setup.py) ---------------------------------------------------------------------


@njit
def new_game(s: I64, rng: np.uint64) -> None:
    """A new game in ``s``, whose option slots are set; ``rng`` is ``seed_state(seed)``:
    seven cards each from seat 0, a number card to start (redrawn after a reshuffle while it
    is not one), then the generator draws the starting seat (RULES §9; ``setup.new_game``)."""
    players = s[PLAYERS]
    n = _DECK.size
    for i in range(n):
        s[DRAW + i] = _DECK[i]
    rng = shuffle(rng, s, DRAW, n)
    for i in range(MAX_PLAYERS * TYPES):
        s[HANDS + i] = 0
    for seat in range(MAX_PLAYERS):
        s[HAND_SIZES + seat] = 0
        s[HELD + seat] = 0
        s[RANKING + seat] = 0
    for _ in range(HAND_SIZE):
        for seat in range(players):
            n -= 1
            _add(s, seat, s[DRAW + n])
    n -= 1
    start = s[DRAW + n]
    while not _IS_NUMBER[start]:
        s[DRAW + n] = start
        n += 1
        rng = shuffle(rng, s, DRAW, n)
        n -= 1
        start = s[DRAW + n]
    rng, output = splitmix_next(rng)
    starter = int(((output >> _S32) * np.uint64(players)) >> _S32)
    s[N_DRAW] = n
    s[DISCARD] = start
    s[N_DISCARD] = 1
    s[RNG] = np.int64(rng)
    s[TURN] = starter
    s[STARTER] = starter
    s[COLOUR_SLOT] = _COLOUR[start]
    s[DIRECTION] = 1
    s[PENDING] = 0
    s[PHASE] = PLAY_PHASE
    s[N_TARGETS] = 0
    s[AFTER_REACTION] = -1
    s[N_RANKED] = 0
    s[DECISIONS] = 0
    s[ROUNDS] = 0


# --- legal actions (legal.py) ------------------------------------------------------------------


@njit
def playable(s: I64, card: int) -> bool:
    """Whether ``card`` may be played now (``legal.playable``)."""
    top = s[DISCARD + s[N_DISCARD] - 1]
    colour = s[COLOUR_SLOT]
    if s[PENDING]:
        if not s[STACKING]:
            return False
        if card == WILD_DRAW_FOUR:
            return True
        if not _IS_DRAW_TWO[card]:
            return False
        # On a Draw Two any Draw Two stacks; on a Wild Draw Four only one in the wished colour.
        return bool(top != WILD_DRAW_FOUR or _COLOUR[card] == colour)
    if card == WILD:
        return bool(top != WILD)
    if card == WILD_DRAW_FOUR:
        return True
    return bool(_COLOUR[card] == colour or (top < WILD and _RANK[card] == _RANK[top]))


@njit
def _emit(code: int, found: int, out: I64, want: int) -> int:
    if want < 0 and found < out.size:
        out[found] = code
    return found + 1


@njit
def legal(s: I64, out: I64, want: int = -1) -> int:
    """The legal actions (``legal.all_legal_actions``), in the engine's order: playable cards
    by type (a wild once per wished colour ``B G R Y``), then ``draw`` when allowed; in a
    reaction test, ``react N LIMITms`` and ``timeout``. ``out`` and ``want`` as in
    ``dos.fast.official.legal``."""
    phase = s[PHASE]
    if phase == OVER:
        return 0 if want < 0 else -1
    found = 0
    if phase == REACTION:
        code = encode(REACT, -1, -1, -1, s[N_TARGETS], s[REACTION_MS])
        if want == 0:
            return code
        found = _emit(code, found, out, want)
        code = encode(TIMEOUT, -1, -1, -1, 0, 0)
        if want == 1:
            return code
        found = _emit(code, found, out, want)
        return -1 if want >= 0 else found
    bits = s[HELD + s[TURN]]
    while bits:
        card = lowest_bit(bits)
        bits &= bits - 1
        if not playable(s, card):
            continue
        if card >= WILD:
            if found <= want < found + 4:
                return encode(PLAY, -1, card, want - found, 0, 0)
            for wish in range(4):
                found = _emit(encode(PLAY, -1, card, wish, 0, 0), found, out, want)
        else:
            code = encode(PLAY, -1, card, -1, 0, 0)
            if found == want:
                return code
            found = _emit(code, found, out, want)
    # §9: if you can play, you must; under a pending penalty drawing is always allowed.
    if found == 0 or s[PENDING]:
        code = encode(DRAW_KIND, -1, -1, -1, 0, 0)
        if found == want:
            return code
        found = _emit(code, found, out, want)
    return -1 if want >= 0 else found


@njit
def legal_count(s: I64) -> int:
    """How many legal actions there are."""
    return legal(s, np.empty(0, dtype=np.int64), -1)


# --- applying an action (transitions.py) -------------------------------------------------------


@njit
def apply(s: I64, code: int, unused: int = -1) -> None:
    """Applies the legal action ``code`` (``transitions.apply``; no checks here)."""
    kind = code & 7
    s[DECISIONS] += 1
    if kind == PLAY:
        _play(s, ((code >> 8) & 127) - 1, ((code >> 15) & 7) - 1)
    elif kind == DRAW_KIND:
        _draw(s)
    elif kind == REACT:
        hits = (code >> 18) & 7
        ms = code >> 21
        _judge(s, hits == s[N_TARGETS] and ms <= s[REACTION_MS])
    else:
        _judge(s, False)


@njit
def _active_count(s: I64) -> int:
    return int(s[PLAYERS] - s[N_RANKED])


@njit
def _play(s: I64, card: int, wish: int) -> None:
    turn = s[TURN]
    _remove(s, turn, card)
    s[DISCARD + s[N_DISCARD]] = card
    s[N_DISCARD] += 1
    s[COLOUR_SLOT] = wish if card >= WILD else _COLOUR[card]
    playing = _active_count(s)
    skip = False
    rank = _RANK[card]
    if _IS_DRAW_TWO[card]:
        s[PENDING] += DRAW_TWO_PENALTY
    elif card == WILD_DRAW_FOUR:
        s[PENDING] += DRAW_FOUR_PENALTY
    elif rank == SKIP:
        skip = True
    elif rank == REVERSE:
        s[DIRECTION] = -s[DIRECTION]
        # With two players left a Reverse, like a Skip, gives the player another turn.
        skip = playing == 2
    left = s[HAND_SIZES + turn]
    if left == 0:
        s[RANKING + s[N_RANKED]] = turn
        s[N_RANKED] += 1
        if playing == 2:
            for seat in range(s[PLAYERS]):
                if not _placed(s, seat):
                    s[RANKING + s[N_RANKED]] = seat
                    s[N_RANKED] += 1
            s[PHASE] = OVER
            s[PENDING] = 0
            s[ROUNDS] = 1
            return
    following = next_seat(s, turn, 2 if skip else 1)
    if 0 < left <= 2:
        _place_targets(s, left)
        s[PHASE] = REACTION
        s[AFTER_REACTION] = following
    else:
        s[TURN] = following


@njit
def _place_targets(s: I64, count: int) -> None:
    """``count`` targets at least ``3 * TARGET_RADIUS`` apart on one axis, drawn from the
    game's generator (``reaction.place_targets``)."""
    rng = np.uint64(s[RNG])
    placed = 0
    while placed < count:
        rng, output = splitmix_next(rng)
        x = MARGIN + int(((output & _LOW32) * np.uint64(_SPAN)) >> _S32)
        y = MARGIN + int(((output >> _S32) * np.uint64(_SPAN)) >> _S32)
        apart = True
        for i in range(placed):
            dx = abs(x - s[TARGETS + 2 * i])
            dy = abs(y - s[TARGETS + 2 * i + 1])
            if max(dx, dy) < _APART:
                apart = False
        if apart:
            s[TARGETS + 2 * placed] = x
            s[TARGETS + 2 * placed + 1] = y
            placed += 1
    s[N_TARGETS] = count
    s[RNG] = np.int64(rng)


@njit
def _draw(s: I64) -> None:
    turn = s[TURN]
    if s[PENDING]:
        # §9: the pending sum is drawn at once, and the turn is lost.
        count = s[PENDING]
        s[PENDING] = 0
        give(s, turn, count)
    else:
        give(s, turn, 1)
    s[TURN] = next_seat(s, turn, 1)


@njit
def _judge(s: I64, passed: bool) -> None:
    """The reaction test's outcome: a failure draws ``penalty_cards``; the game goes on."""
    if not passed:
        give(s, s[TURN], s[PENALTY_CARDS])
    s[PHASE] = PLAY_PHASE
    s[TURN] = s[AFTER_REACTION]
    s[AFTER_REACTION] = -1
    s[N_TARGETS] = 0
    for i in range(4):
        s[TARGETS + i] = 0


# --- random play -----------------------------------------------------------------------------

RANDOM_BUFFER = 64


@njit
def random_step(s: I64, mt: I64, buffer: I64) -> None:
    """One action drawn uniformly from the legal actions with ``mt`` (as
    ``dos.simulate.random_game``), applied."""
    n = legal(s, buffer, -1)
    k = mt_randbelow(mt, n)
    apply(s, buffer[k] if n <= buffer.size else legal(s, buffer[:0], k), -1)


@njit
def step(s: I64, index: int) -> int:
    """Applies legal action number ``index``; returns how many legal actions follow."""
    apply(s, legal(s, np.empty(0, dtype=np.int64), index), -1)
    return legal(s, np.empty(0, dtype=np.int64), -1)
