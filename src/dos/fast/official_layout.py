"""The flat layout of an official game and the action codes of the fast core.

A game is one ``int64`` array of ``SIZE`` slots: a header of single values, then fixed blocks
for the seats (hand sizes, penalties, scores), the hands as counts per card type (a hand is
kept sorted by the engine, so its counts say everything), and the Center Row, the matches
made this turn, the draw pile and the discard pile as arrays with their lengths in the header
(piles: bottom first, top last, as in ``dos.rules.official.State``). One array per game keeps
a call from Python to one argument, and a batch is a 2-D array of games.

An action is one ``int64`` code::

    kind | (seat + 1) << 3 | (card1 + 1) << 8 | (card2 + 1) << 14 | (target + 1) << 20

``seat`` ``-1`` is the seat to act (written without ``N:``), ``card2`` ``-1`` is none,
``target`` is the Center Row index of a match or the caught seat of a catch, else ``-1``.
The kinds are those of ``dos.rules.official.Kind``.
"""

from __future__ import annotations

from dos.fast._jit import njit
from dos.rules.official.cards import DECK_SIZE, N_TYPES

MAX_PLAYERS = 10
TYPES = N_TYPES
CAPACITY = DECK_SIZE
"""Room for every card in any one place: the Center Row and the piles."""

# Header slots.
RNG = 0
"""The SplitMix64 state (``State.rng``), its 64 bits cast to ``int64``."""
PLAYERS = 1
TARGET = 2
DEALER_STARTS = 3
DEAL_PASSES_LEFT = 4
MANDATORY = 5
"""Option ``bonus_lay_mandatory``."""
DEALER = 6
TURN = 7
PHASE = 8
"""0 turn, 1 placing, 2 over: ``dos.rules.official.Phase``."""
DREW = 9
SINGLE_BONUSES = 10
DOUBLE_BONUSES = 11
PLACEMENTS_LEFT = 12
DOS_OPEN = 13
ROUND = 14
WINNER = 15
"""``-1`` while nobody has won."""
ROUNDS = 16
"""Rounds finished (``len(State.round_results)``)."""
DECISIONS = 17
"""Actions applied (``len(State.history)``)."""
N_CENTER = 18
N_DRAW = 19
N_DISCARD = 20
N_MATCHED = 21
LAST_ROUND = 22
LAST_WINNER = 23
LAST_POINTS = 24
"""The last finished round: its number, winner and points (its hands are in ``LAST_HANDS``)."""
HEADER = 32

HAND_SIZE = HEADER
PENALTIES = HAND_SIZE + MAX_PLAYERS
SCORES = PENALTIES + MAX_PLAYERS
HELD = SCORES + MAX_PLAYERS
"""``HELD + seat``: bit ``card`` set when the seat holds ``card`` (kept with the counts)."""
TWICE = HELD + MAX_PLAYERS
"""``TWICE + seat``: bit ``card`` set when the seat holds ``card`` twice or more."""
HANDS = TWICE + MAX_PLAYERS
"""``HANDS + seat * TYPES + card``: how many of ``card`` the seat holds."""
CENTER = HANDS + MAX_PLAYERS * TYPES
MATCH_A = CENTER + CAPACITY
"""``MATCH_A + index``: the (first) card matched on Center Row card ``index`` this turn, or
``-1`` when it was not matched."""
MATCH_B = MATCH_A + CAPACITY
"""The second card of a Double Number Match on that index, else ``-1``."""
DRAW = MATCH_B + CAPACITY
DISCARD = DRAW + CAPACITY
LAST_HANDS = DISCARD + CAPACITY
SIZE = LAST_HANDS + MAX_PLAYERS * TYPES

# Action kinds, as dos.rules.official.Kind.
MATCH = 0
DRAW_KIND = 1
LAY = 2
END = 3
PLACE = 4
CALL = 5
CATCH = 6


@njit
def encode(kind: int, seat: int, card1: int, card2: int, target: int) -> int:
    """The code of an action (``-1``: no seat written, no card, no target)."""
    return kind | (seat + 1) << 3 | (card1 + 1) << 8 | (card2 + 1) << 14 | (target + 1) << 20


@njit
def kind(code: int) -> int:
    """The kind of an action code."""
    return code & 7


@njit
def seat(code: int) -> int:
    """The seat written in an action code, ``-1`` for the seat to act."""
    return ((code >> 3) & 31) - 1


@njit
def card1(code: int) -> int:
    """The first (or only) card of an action code, ``-1`` if none."""
    return ((code >> 8) & 63) - 1


@njit
def card2(code: int) -> int:
    """The second card of a match, ``-1`` if none."""
    return ((code >> 14) & 63) - 1


@njit
def target(code: int) -> int:
    """The Center Row index of a match or the caught seat of a catch, ``-1`` if none."""
    return (code >> 20) - 1
