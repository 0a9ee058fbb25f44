"""The official rule set (RULES.md §1-§8), compiled: the same games as ``dos.rules.official``.

A game is one flat ``int64`` array (layout in ``dos.fast.official_layout``); every function
here that takes ``s`` works on one such array in place. The Python engine is the readable reference:
each function below names the function of ``dos.rules.official`` it mirrors, and the
differential test (``tests/fast/test_official_diff.py``) walks random games through both,
comparing the legal actions in order and the whole state after every step.

Actions are ``int64`` codes (``dos.fast.official_layout.encode``); ``legal`` lists them in
exactly the order of ``dos.rules.official.all_legal_actions``. Only legal actions are applied
here: the Python layer (``dos.fast.api``) checks any other action against the legal list
first, and leaves an illegal one to the Python engine to explain.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.fast import official_layout
from dos.fast._jit import lowest_bit, njit, popcount
from dos.fast.rng import mt_randbelow, shuffle
from dos.rules.official.cards import DEALER_DRAW_VALUE, DECK_COUNTS, N_TYPES, POINTS
from dos.rules.official.matching import (
    FIRST_MASK,
    PAIR_BONUS,
    PAIR_MASK,
    SINGLE_BONUS,
    SINGLE_MASK,
)

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]

HAND_SIZE = 7
CENTER_ROW_SIZE = 2
DOS_PENALTY = 2

# The matching tables of ``dos.rules.official.matching`` as arrays, indexed by target first.
_SINGLE_BONUS = np.array(SINGLE_BONUS, dtype=np.uint8)
"""``_SINGLE_BONUS[target, card]``: that Single Number Match can be a Single Color Match."""
_PAIR_BONUS = np.zeros((N_TYPES, N_TYPES, N_TYPES), dtype=np.uint8)
"""``_PAIR_BONUS[target, a, b]``: that Double Number Match can be a Double Color Match."""
for _t in range(N_TYPES):
    for _a in range(N_TYPES):
        for _b in PAIR_BONUS[_t][_a]:
            _PAIR_BONUS[_t, _a, _b] = _PAIR_BONUS[_t, _b, _a] = 1
_SINGLE_MASK = np.array(SINGLE_MASK, dtype=np.int64)
_FIRST_MASK = np.array(FIRST_MASK, dtype=np.int64)
_PAIR_MASK = np.array(PAIR_MASK, dtype=np.int64)
"""``_PAIR_MASK[target, a]``: bit ``b`` (``b >= a``) set when ``a + b`` match ``target``."""
_POINTS = np.array(POINTS, dtype=np.int64)
_DEALER_VALUE = np.array(DEALER_DRAW_VALUE, dtype=np.int64)
_DECK = np.array([t for t in range(N_TYPES) for _ in range(DECK_COUNTS[t])], dtype=np.int64)

TURN = 0
PLACING = 1
OVER = 2


# --- the generator and the piles ----------------------------------------------------------


@njit
def _rng(s: I64) -> np.uint64:
    return np.uint64(s[official_layout.RNG])


@njit
def _shuffle_slice(s: I64, start: int, n: int) -> None:
    s[official_layout.RNG] = np.int64(shuffle(np.uint64(s[official_layout.RNG]), s, start, n))


@njit
def draw_card(s: I64) -> int:
    """The top card of the draw pile, the discard pile shuffled into a new draw pile when it
    is empty; ``-1`` if both are empty (RULES §4 Decision; ``transitions.draw_card``)."""
    n = s[official_layout.N_DRAW]
    if n == 0:
        m = s[official_layout.N_DISCARD]
        if m == 0:
            return -1
        for i in range(m):
            s[official_layout.DRAW + i] = s[official_layout.DISCARD + i]
        s[official_layout.N_DISCARD] = 0
        _shuffle_slice(s, official_layout.DRAW, m)
        n = m
    n -= 1
    s[official_layout.N_DRAW] = n
    return int(s[official_layout.DRAW + n])


@njit
def _resized(s: I64, seat: int, before: int) -> None:
    """A hand that becomes exactly two opens a DOS obligation; any other change of size
    closes it (RULES §6 Decision; ``transitions._resized``)."""
    after = s[official_layout.HAND_SIZE + seat]
    if after == 2:
        if before != 2:
            s[official_layout.DOS_OPEN] |= 1 << seat
    elif after != before:
        s[official_layout.DOS_OPEN] &= ~(1 << seat)


@njit
def _add(s: I64, seat: int, card: int) -> None:
    """One more ``card`` in ``seat``'s hand (a hand is its counts and two bit masks)."""
    at = official_layout.HANDS + seat * official_layout.TYPES + card
    count = s[at] + 1
    s[at] = count
    s[official_layout.HAND_SIZE + seat] += 1
    if count == 1:
        s[official_layout.HELD + seat] |= 1 << card
    elif count == 2:
        s[official_layout.TWICE + seat] |= 1 << card


@njit
def _remove(s: I64, seat: int, card: int) -> None:
    at = official_layout.HANDS + seat * official_layout.TYPES + card
    count = s[at] - 1
    s[at] = count
    s[official_layout.HAND_SIZE + seat] -= 1
    if count == 0:
        s[official_layout.HELD + seat] &= ~(1 << card)
    elif count == 1:
        s[official_layout.TWICE + seat] &= ~(1 << card)


@njit
def _give(s: I64, seat: int, count: int) -> None:
    before = s[official_layout.HAND_SIZE + seat]
    for _ in range(count):
        card = draw_card(s)
        if card < 0:
            break
        _add(s, seat, card)
    _resized(s, seat, before)


# --- setting up (RULES §2; setup.py) ------------------------------------------------------


@njit
def _fresh_deck(s: I64) -> None:
    """All 108 cards in type order in the draw pile's slots, shuffled."""
    for i in range(_DECK.size):
        s[official_layout.DRAW + i] = _DECK[i]
    _shuffle_slice(s, official_layout.DRAW, _DECK.size)
    s[official_layout.N_DRAW] = _DECK.size


@njit
def draw_for_dealer(s: I64) -> None:
    """Each player draws a card; the highest deals, wilds counting zero; tied players draw
    again from a reshuffled deck (RULES §2 Decision; ``setup.draw_for_dealer``)."""
    players = s[official_layout.PLAYERS]
    contenders = np.arange(players)
    count = players
    while True:
        _fresh_deck(s)
        n = s[official_layout.N_DRAW]
        best = -1
        values = np.empty(count, dtype=np.int64)
        for i in range(count):
            n -= 1
            values[i] = _DEALER_VALUE[s[official_layout.DRAW + n]]
            best = max(best, values[i])
        kept = 0
        for i in range(count):
            if values[i] == best:
                contenders[kept] = contenders[i]
                kept += 1
        count = kept
        if count == 1:
            s[official_layout.DEALER] = contenders[0]
            return


@njit
def deal_round(s: I64) -> None:
    """Shuffles all 108 cards and deals: seven each, one at a time from the dealer's left,
    then two for the Center Row; the rest is the draw pile (RULES §2; ``setup.deal_round``)."""
    players = s[official_layout.PLAYERS]
    _fresh_deck(s)
    n = s[official_layout.N_DRAW]
    for i in range(official_layout.MAX_PLAYERS * official_layout.TYPES):
        s[official_layout.HANDS + i] = 0
    for seat in range(official_layout.MAX_PLAYERS):
        s[official_layout.HAND_SIZE + seat] = 0
        s[official_layout.HELD + seat] = 0
        s[official_layout.TWICE + seat] = 0
        s[official_layout.PENALTIES + seat] = 0
    dealer = s[official_layout.DEALER]
    for _ in range(HAND_SIZE):
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            n -= 1
            _add(s, seat, s[official_layout.DRAW + n])
    for i in range(CENTER_ROW_SIZE):
        n -= 1
        s[official_layout.CENTER + i] = s[official_layout.DRAW + n]
        s[official_layout.MATCH_A + i] = -1
        s[official_layout.MATCH_B + i] = -1
    s[official_layout.N_CENTER] = CENTER_ROW_SIZE
    s[official_layout.N_DRAW] = n
    s[official_layout.N_DISCARD] = 0
    s[official_layout.TURN] = dealer if s[official_layout.DEALER_STARTS] else (dealer + 1) % players
    s[official_layout.PHASE] = TURN
    s[official_layout.DREW] = 0
    s[official_layout.N_MATCHED] = 0
    s[official_layout.SINGLE_BONUSES] = 0
    s[official_layout.DOUBLE_BONUSES] = 0
    s[official_layout.PLACEMENTS_LEFT] = 0
    s[official_layout.DOS_OPEN] = 0


@njit
def new_game(s: I64, rng: np.uint64) -> None:
    """A new game in ``s``, whose option slots are already set; ``rng`` is
    ``dos.rng.seed_state(seed)`` (``setup.new_game``)."""
    s[official_layout.RNG] = np.int64(rng)
    draw_for_dealer(s)
    players = s[official_layout.PLAYERS]
    for seat in range(official_layout.MAX_PLAYERS):
        s[official_layout.SCORES + seat] = 0
    s[official_layout.ROUND] = 1
    s[official_layout.WINNER] = -1
    s[official_layout.ROUNDS] = 0
    s[official_layout.DECISIONS] = 0
    s[official_layout.LAST_WINNER] = -1
    s[official_layout.TURN] = s[official_layout.DEALER] % players
    deal_round(s)


# --- legal actions (RULES §3, §4, §6; legal.py) ---------------------------------------------


@njit
def _nth_bit(bits: int, k: int) -> int:
    """The index of set bit number ``k`` (from the lowest) of ``bits``."""
    for _ in range(k):
        bits &= bits - 1
    return int(lowest_bit(bits))


@njit
def _partners(held: int, twice: int, target: int, a: int) -> int:
    """The cards ``b >= a`` with which ``a`` makes a Double Number Match on ``target``: held
    above ``a``, or ``a`` itself when held twice (``legal.matches``)."""
    low = 1 << a
    return int(_PAIR_MASK[target, a] & ((held & ~((low << 1) - 1)) | (twice & low)))


@njit
def _matches(s: I64, out: I64, want: int) -> int:
    """The matches open to the seat to act (``legal.matches``), in the engine's order: by
    Center Row index, singles then doubles, by card type. With ``want < 0``: writes them to
    ``out`` (as far as it has room) and returns how many. Else returns the code of the
    ``want``-th, or ``-1 - count`` when there are fewer."""
    turn = s[official_layout.TURN]
    held = s[official_layout.HELD + turn]
    twice = s[official_layout.TWICE + turn]
    found = 0
    collect = want < 0 and out.size > 0
    for index in range(s[official_layout.N_CENTER]):
        if s[official_layout.MATCH_A + index] >= 0:
            continue
        target = s[official_layout.CENTER + index]
        bits = _SINGLE_MASK[target] & held
        if bits:
            count = popcount(bits)
            if found <= want < found + count:
                return official_layout.encode(
                    official_layout.MATCH, -1, _nth_bit(bits, want - found), -1, index
                )
            if collect:
                k = found
                while bits:
                    if k < out.size:
                        out[k] = official_layout.encode(
                            official_layout.MATCH, -1, lowest_bit(bits), -1, index
                        )
                    bits &= bits - 1
                    k += 1
            found += count
        firsts = _FIRST_MASK[target] & held
        while firsts:
            a = lowest_bit(firsts)
            firsts &= firsts - 1
            bits = _partners(held, twice, target, a)
            if not bits:
                continue
            count = popcount(bits)
            if found <= want < found + count:
                return official_layout.encode(
                    official_layout.MATCH, -1, a, _nth_bit(bits, want - found), index
                )
            if collect:
                k = found
                while bits:
                    if k < out.size:
                        out[k] = official_layout.encode(
                            official_layout.MATCH, -1, a, lowest_bit(bits), index
                        )
                    bits &= bits - 1
                    k += 1
            found += count
    if want >= 0:
        return -1 - found
    return found


@njit
def _any_match(s: I64) -> bool:
    """Whether any match is open to the seat to act."""
    turn = s[official_layout.TURN]
    held = s[official_layout.HELD + turn]
    twice = s[official_layout.TWICE + turn]
    for index in range(s[official_layout.N_CENTER]):
        if s[official_layout.MATCH_A + index] >= 0:
            continue
        target = s[official_layout.CENTER + index]
        if _SINGLE_MASK[target] & held:
            return True
        firsts = _FIRST_MASK[target] & held
        while firsts:
            a = lowest_bit(firsts)
            firsts &= firsts - 1
            if _partners(held, twice, target, a):
                return True
    return False


@njit
def _emit(code: int, found: int, out: I64, want: int) -> int:
    if want < 0 and found < out.size:
        out[found] = code
    return found + 1


@njit
def legal(s: I64, out: I64, want: int = -1) -> int:
    """Every legal action of every seat (``legal.all_legal_actions``), in its order.

    ``want < 0``: writes the codes into ``out`` as far as it has room and returns how many
    there are (call again with a larger ``out`` if that is more than ``out.size``; an empty
    ``out`` just counts). ``want >= 0``: returns the code of action number ``want`` (``-1``
    if there are fewer), without writing anything.
    """
    phase = s[official_layout.PHASE]
    if phase == OVER:
        return 0 if want < 0 else -1
    turn = s[official_layout.TURN]
    held = s[official_layout.HELD + turn]
    found = 0
    if phase == TURN:
        got = _matches(s, out, want)
        if want >= 0:
            if got >= 0:
                return got
            found = -1 - got
        else:
            found = got
        if s[official_layout.N_MATCHED] or not s[official_layout.DREW]:
            code = official_layout.encode(
                official_layout.END if s[official_layout.N_MATCHED] else official_layout.DRAW_KIND,
                -1,
                -1,
                -1,
                -1,
            )
            if found == want:
                return code
            found = _emit(code, found, out, want)
        else:
            count = popcount(held)
            if found <= want < found + count:
                return official_layout.encode(
                    official_layout.LAY, -1, _nth_bit(held, want - found), -1, -1
                )
            bits = held
            while bits:
                found = _emit(
                    official_layout.encode(official_layout.LAY, -1, lowest_bit(bits), -1, -1),
                    found,
                    out,
                    want,
                )
                bits &= bits - 1
    else:
        count = popcount(held)
        if found <= want < found + count:
            return official_layout.encode(
                official_layout.PLACE, -1, _nth_bit(held, want - found), -1, -1
            )
        bits = held
        while bits:
            found = _emit(
                official_layout.encode(official_layout.PLACE, -1, lowest_bit(bits), -1, -1),
                found,
                out,
                want,
            )
            bits &= bits - 1
        if not s[official_layout.MANDATORY]:
            if found == want:
                return official_layout.encode(official_layout.END, -1, -1, -1, -1)
            found = _emit(
                official_layout.encode(official_layout.END, -1, -1, -1, -1), found, out, want
            )
    open_bits = s[official_layout.DOS_OPEN]
    if open_bits:
        players = s[official_layout.PLAYERS]
        # The seat to act first (its own seat unwritten), then the others in seat order.
        for k in range(players + 1):
            if k == 0:
                seat = turn
                written = -1
            else:
                seat = k - 1
                if seat == turn:
                    continue
                written = seat
            if open_bits >> seat & 1:
                code = official_layout.encode(official_layout.CALL, written, -1, -1, -1)
                if found == want:
                    return code
                found = _emit(code, found, out, want)
            for caught in range(players):
                if caught != seat and open_bits >> caught & 1:
                    code = official_layout.encode(official_layout.CATCH, written, -1, -1, caught)
                    if found == want:
                        return code
                    found = _emit(code, found, out, want)
    if want >= 0:
        return -1
    return found


@njit
def legal_count(s: I64) -> int:
    """How many legal actions there are (every seat's)."""
    return legal(s, np.empty(0, dtype=np.int64), -1)


# --- applying an action (RULES §3, §4, §6, §7; transitions.py) -----------------------------


@njit
def apply(s: I64, code: int, bonus_override: int = -1) -> None:
    """Applies the legal action ``code`` (``transitions.apply``; no checks here).

    ``bonus_override``: ``-1`` to take the colour bonus the engine picks for a match (the
    best, RULES §3 Decision), else ``0`` or ``1`` for a match with designations that decide
    it (the Python layer works that out).
    """
    kind = official_layout.kind(code)
    seat = official_layout.seat(code)
    turn = s[official_layout.TURN]
    if seat < 0:
        seat = turn
    s[official_layout.DECISIONS] += 1
    if kind == official_layout.MATCH:
        _match(s, code, bonus_override)
    elif kind == official_layout.DRAW_KIND:
        # §3 Decision: a draw that yields nothing still counts as the turn's draw.
        _give(s, turn, 1)
        s[official_layout.DREW] = 1
    elif kind == official_layout.LAY:
        card = official_layout.card1(code)
        before = s[official_layout.HAND_SIZE + turn]
        _remove(s, turn, card)
        _append_center(s, card)
        _resized(s, turn, before)
        _finish_turn(s)
    elif kind == official_layout.END:
        if s[official_layout.PHASE] == TURN:
            _end_matches(s)
        else:
            _finish_turn(s)
    elif kind == official_layout.PLACE:
        card = official_layout.card1(code)
        before = s[official_layout.HAND_SIZE + turn]
        _remove(s, turn, card)
        _append_center(s, card)
        s[official_layout.PLACEMENTS_LEFT] -= 1
        _resized(s, turn, before)
        if s[official_layout.PLACEMENTS_LEFT] == 0 or s[official_layout.HAND_SIZE + turn] == 0:
            _finish_turn(s)
    elif kind == official_layout.CALL:
        s[official_layout.DOS_OPEN] &= ~(1 << seat)
    else:
        caught = official_layout.target(code)
        s[official_layout.DOS_OPEN] &= ~(1 << caught)
        if caught == turn:
            # §4.4: caught during their own turn, the penalty waits for the end of the turn.
            s[official_layout.PENALTIES + caught] += DOS_PENALTY
        else:
            _give(s, caught, DOS_PENALTY)


@njit
def _append_center(s: I64, card: int) -> None:
    n = s[official_layout.N_CENTER]
    s[official_layout.CENTER + n] = card
    s[official_layout.MATCH_A + n] = -1
    s[official_layout.MATCH_B + n] = -1
    s[official_layout.N_CENTER] = n + 1


@njit
def _match(s: I64, code: int, bonus_override: int) -> None:
    turn = s[official_layout.TURN]
    index = official_layout.target(code)
    a = official_layout.card1(code)
    b = official_layout.card2(code)
    target = s[official_layout.CENTER + index]
    before = s[official_layout.HAND_SIZE + turn]
    bonus = _SINGLE_BONUS[target, a] != 0 if b < 0 else _PAIR_BONUS[target, a, b] != 0
    if bonus_override >= 0:
        bonus = bonus_override != 0
    _remove(s, turn, a)
    if b >= 0:
        _remove(s, turn, b)
    s[official_layout.MATCH_A + index] = a
    s[official_layout.MATCH_B + index] = b
    s[official_layout.N_MATCHED] += 1
    if bonus:
        if b < 0:
            s[official_layout.SINGLE_BONUSES] += 1
        else:
            s[official_layout.DOUBLE_BONUSES] += 1
    _resized(s, turn, before)
    if s[official_layout.HAND_SIZE + turn] and _any_match(s):
        return
    # The matches end by themselves: the hand is empty or no match is left (docs/engine.md).
    _end_matches(s)


@njit
def _end_matches(s: I64) -> None:
    """§4 steps 1-3a: matched cards and their targets to the discard pile (by Center Row
    index, played cards first), refill to two, then the placements if any can be made."""
    n = s[official_layout.N_CENTER]
    kept = 0
    for index in range(n):
        card = s[official_layout.CENTER + index]
        a = s[official_layout.MATCH_A + index]
        if a >= 0:
            m = s[official_layout.N_DISCARD]
            s[official_layout.DISCARD + m] = a
            m += 1
            b = s[official_layout.MATCH_B + index]
            if b >= 0:
                s[official_layout.DISCARD + m] = b
                m += 1
            s[official_layout.DISCARD + m] = card
            s[official_layout.N_DISCARD] = m + 1
        else:
            s[official_layout.CENTER + kept] = card
            kept += 1
    for index in range(n):
        s[official_layout.MATCH_A + index] = -1
        s[official_layout.MATCH_B + index] = -1
    s[official_layout.N_CENTER] = kept
    s[official_layout.N_MATCHED] = 0
    while s[official_layout.N_CENTER] < CENTER_ROW_SIZE:
        card = draw_card(s)
        if card < 0:
            break
        _append_center(s, card)
    bonuses = s[official_layout.SINGLE_BONUSES] + s[official_layout.DOUBLE_BONUSES]
    if bonuses and s[official_layout.HAND_SIZE + s[official_layout.TURN]]:
        s[official_layout.PHASE] = PLACING
        s[official_layout.PLACEMENTS_LEFT] = bonuses
        return
    _finish_turn(s)


@njit
def _finish_turn(s: I64) -> None:
    """§4 steps 3b-5: the others draw for each Double Color Match (from the matcher's left),
    the DOS penalty owed is drawn, then the round ends or the turn passes left."""
    turn = s[official_layout.TURN]
    players = s[official_layout.PLAYERS]
    for _ in range(s[official_layout.DOUBLE_BONUSES]):
        for k in range(1, players):
            _give(s, (turn + k) % players, 1)
    owed = s[official_layout.PENALTIES + turn]
    if owed:
        s[official_layout.PENALTIES + turn] = 0
        _give(s, turn, owed)
    s[official_layout.PHASE] = TURN
    s[official_layout.DREW] = 0
    s[official_layout.SINGLE_BONUSES] = 0
    s[official_layout.DOUBLE_BONUSES] = 0
    s[official_layout.PLACEMENTS_LEFT] = 0
    if s[official_layout.HAND_SIZE + turn] == 0:
        _end_round(s, turn)
        return
    s[official_layout.TURN] = (turn + 1) % players


@njit
def _end_round(s: I64, winner: int) -> None:
    """§7: the player who went out scores every card left in the other hands; the next
    round is dealt unless someone reached the target."""
    players = s[official_layout.PLAYERS]
    points = 0
    for seat in range(players):
        base = official_layout.HANDS + seat * official_layout.TYPES
        for t in range(official_layout.TYPES):
            count = s[base + t]
            s[official_layout.LAST_HANDS + seat * official_layout.TYPES + t] = count
            if seat != winner:
                points += count * _POINTS[t]
    s[official_layout.SCORES + winner] += points
    s[official_layout.LAST_ROUND] = s[official_layout.ROUND]
    s[official_layout.LAST_WINNER] = winner
    s[official_layout.LAST_POINTS] = points
    s[official_layout.ROUNDS] += 1
    s[official_layout.DOS_OPEN] = 0
    if s[official_layout.SCORES + winner] >= s[official_layout.TARGET]:
        s[official_layout.PHASE] = OVER
        s[official_layout.WINNER] = winner
        return
    s[official_layout.ROUND] += 1
    s[official_layout.DEALER] = (
        (s[official_layout.DEALER] + 1) % players if s[official_layout.DEAL_PASSES_LEFT] else winner
    )
    deal_round(s)


# --- random play --------------------------------------------------------------------------

RANDOM_BUFFER = 128
"""Legal actions listed at once by random play; with more, the chosen one is found again."""


@njit
def random_step(s: I64, mt: I64, buffer: I64) -> None:
    """One action drawn uniformly from every seat's legal actions with ``mt`` (as
    ``random.Random.randrange`` in ``dos.simulate.random_game``), applied. ``buffer``: room
    for ``RANDOM_BUFFER`` codes, so that one pass both counts and lists the actions."""
    n = legal(s, buffer, -1)
    k = mt_randbelow(mt, n)
    apply(s, buffer[k] if n <= buffer.size else legal(s, buffer[:0], k), -1)


@njit
def random_game(s: I64, mt: I64) -> None:
    """Plays the game in ``s`` to its end with random legal actions chosen by ``mt``."""
    buffer = np.empty(RANDOM_BUFFER, dtype=np.int64)
    while s[official_layout.PHASE] != OVER:
        random_step(s, mt, buffer)


@njit
def step(s: I64, index: int) -> int:
    """Applies legal action number ``index`` and returns how many legal actions follow: one
    call per decision, for Python-driven play."""
    apply(s, legal(s, np.empty(0, dtype=np.int64), index))
    return legal(s, np.empty(0, dtype=np.int64), -1)
