"""Legal actions (RULES.md §3, §4, §6), cheap to ask for and in a deterministic order.

Order for the seat to act: matches (by Center Row index; singles, then doubles; by card type),
then ``draw``, ``end``, lays or placements by card type; then its own DOS call and its
catches by seat. Another seat has only its call and its catches.

Speed: a hand is turned into two bit masks over card types (types held, types held twice or
more) and matched against the precomputed masks of ``matching``; the action objects are built
once and reused, since actions are immutable values.
"""

from __future__ import annotations

from dos.rules.official.actions import CALL, DRAW, END, Action, Kind
from dos.rules.official.cards import N_TYPES
from dos.rules.official.matching import FIRST_MASK, PAIR_MASK, SINGLE_MASK
from dos.rules.official.state import Phase, State

_MATCH = Kind.MATCH
_TURN = Phase.TURN
_PLACING = Phase.PLACING
_LAYS = tuple(Action(Kind.LAY, (card,)) for card in range(N_TYPES))
_PLACES = tuple(Action(Kind.PLACE, (card,)) for card in range(N_TYPES))
_singles: list[tuple[Action, ...]] = []
"""``_singles[index][card]``: the single match of ``card`` on Center Row card ``index``."""
_pairs: list[dict[int, Action]] = []
"""``_pairs[index][c1 * 64 + c2]``: the double match, built on first use."""


def _grow(size: int) -> None:
    while len(_singles) < size:
        index = len(_singles)
        _singles.append(tuple(Action(_MATCH, (card,), index) for card in range(N_TYPES)))
        _pairs.append({})


def hand_masks(hand: list[int]) -> tuple[int, int]:
    """Bit masks of the card types a hand holds, and of those it holds at least twice."""
    held = twice = 0
    for card in hand:
        bit = 1 << card
        if held & bit:
            twice |= bit
        held |= bit
    return held, twice


def matches(
    hand: list[int], center: list[int], matched: dict[int, tuple[int, ...]]
) -> list[Action]:
    """Every Single and Double Number Match ``hand`` can make on the Center Row cards not yet
    matched this turn."""
    found: list[Action] = []
    if not hand:
        return found
    held, twice = hand_masks(hand)
    if len(_singles) < len(center):
        _grow(len(center))
    for index, target in enumerate(center):
        if index in matched:
            continue
        bits = SINGLE_MASK[target] & held
        if bits:
            singles = _singles[index]
            while bits:
                low = bits & -bits
                found.append(singles[low.bit_length() - 1])
                bits ^= low
        firsts = FIRST_MASK[target] & held
        if not firsts:
            continue
        pair_masks = PAIR_MASK[target]
        pairs = _pairs[index]
        while firsts:
            low = firsts & -firsts
            firsts ^= low
            first = low.bit_length() - 1
            # Partners: held types above ``first``, or ``first`` itself if held twice.
            bits = pair_masks[first] & ((held & -(low << 1)) | (twice & low))
            while bits:
                low2 = bits & -bits
                bits ^= low2
                key = first * 64 + low2.bit_length() - 1
                action = pairs.get(key)
                if action is None:
                    action = pairs[key] = Action(_MATCH, (first, key - first * 64), index)
                found.append(action)
    return found


def turn_actions(state: State) -> list[Action]:
    """The actions of the seat to act that belong to its turn (no calls or catches)."""
    phase = state.phase
    hand = state.hands[state.turn]
    if phase == _TURN:
        cached = state.match_cache
        found = cached[:] if cached is not None else matches(hand, state.center, state.matched)
        if state.matched:
            found.append(END)
        elif not state.drew:
            found.append(DRAW)
        else:
            found.extend([_LAYS[card] for card in dict.fromkeys(hand)])
        return found
    if phase == _PLACING:
        found = [_PLACES[card] for card in dict.fromkeys(hand)]
        if not state.options.bonus_lay_mandatory:
            found.append(END)
        return found
    return []


def dos_actions(state: State, seat: int) -> list[Action]:
    """The out-of-turn actions of ``seat``: its own DOS call, and catching others (§6)."""
    open_bits = state.dos_open
    if not open_bits or state.phase == Phase.OVER:
        return []
    own = None if seat == state.turn else seat
    key = (open_bits, seat, own)
    found = _dos_cache.get(key)
    if found is None:
        found = []
        if open_bits >> seat & 1:
            found.append(CALL if own is None else Action(Kind.CALL, seat=own))
        others = open_bits & ~(1 << seat)
        while others:
            low = others & -others
            others ^= low
            found.append(Action(Kind.CATCH, target=low.bit_length() - 1, seat=own))
        _dos_cache[key] = found
    return found[:]


_dos_cache: dict[tuple[int, int, int | None], list[Action]] = {}
"""The out-of-turn actions for (open obligations, seat, seat as written): few keys, reused."""


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every legal action of ``seat`` (default: the seat to act).

    >>> from dos.rules.official.setup import new_game
    >>> actions = legal_actions(new_game(seed=1))
    >>> str(actions[-1])
    'draw'
    """
    if seat is None or seat == state.turn:
        found = turn_actions(state)
        if state.dos_open:
            found += dos_actions(state, state.turn)
        return found
    return dos_actions(state, seat)


def all_legal_actions(state: State) -> list[Action]:
    """Every legal action of every seat: the seat to act first, then the others in order."""
    found = turn_actions(state)
    if state.dos_open and state.phase != Phase.OVER:
        key = (state.dos_open, state.turn, state.options.players)
        others = _all_dos_cache.get(key)
        if others is None:
            turn = state.turn
            others = dos_actions(state, turn)
            for seat in range(state.options.players):
                if seat != turn:
                    others += dos_actions(state, seat)
            _all_dos_cache[key] = others
        found += others
    return found


_all_dos_cache: dict[tuple[int, int, int], list[Action]] = {}
"""Every seat's out-of-turn actions for (open obligations, seat to act, players)."""
