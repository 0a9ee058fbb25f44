"""Legal actions (RULES.md §3, §4, §6), cheap to ask for and in a deterministic order.

Order for the seat to act: matches (by Center Row index; singles, then doubles; by card type),
then ``draw``, ``end``, lays or placements by card type; then its own DOS call and its
catches by seat. Another seat has only its call and its catches.
"""

from __future__ import annotations

from dos.rules.official.actions import CALL, DRAW, END, Action, Kind
from dos.rules.official.matching import PAIRS, SINGLE
from dos.rules.official.state import Phase, State

_MATCH = Kind.MATCH


def matches(
    hand: list[int], center: list[int], matched: dict[int, tuple[int, ...]]
) -> list[Action]:
    """Every Single and Double Number Match ``hand`` can make on the Center Row cards not yet
    matched this turn."""
    found: list[Action] = []
    distinct = list(dict.fromkeys(hand))  # hands are kept sorted
    for index, target in enumerate(center):
        if index in matched:
            continue
        single = SINGLE[target]
        pairs = PAIRS[target]
        for card in distinct:
            if single[card]:
                found.append(Action(_MATCH, (card,), index))
        for i, first in enumerate(distinct):
            partners = pairs[first]
            if not partners:
                continue
            for second in distinct[i:]:
                if second in partners and (second != first or hand.count(first) > 1):
                    found.append(Action(_MATCH, (first, second), index))
    return found


def has_match(state: State) -> bool:
    """Whether the player to act can still make any match this turn."""
    hand = state.hands[state.turn]
    if not hand:
        return False
    distinct = list(dict.fromkeys(hand))  # hands are kept sorted
    matched = state.matched
    for index, target in enumerate(state.center):
        if index in matched:
            continue
        single = SINGLE[target]
        pairs = PAIRS[target]
        for i, first in enumerate(distinct):
            if single[first]:
                return True
            partners = pairs[first]
            if partners:
                for second in distinct[i:]:
                    if second in partners and (second != first or hand.count(first) > 1):
                        return True
    return False


def turn_actions(state: State) -> list[Action]:
    """The actions of the seat to act that belong to its turn (no calls or catches)."""
    phase = state.phase
    hand = state.hands[state.turn]
    if phase == Phase.TURN:
        found = matches(hand, state.center, state.matched)
        if state.matched:
            found.append(END)
        elif not state.drew:
            found.append(DRAW)
        else:
            found.extend(Action(Kind.LAY, (card,)) for card in dict.fromkeys(hand))
        return found
    if phase == Phase.PLACING:
        found = [Action(Kind.PLACE, (card,)) for card in dict.fromkeys(hand)]
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
    found: list[Action] = []
    if open_bits >> seat & 1:
        found.append(CALL if own is None else Action(Kind.CALL, seat=own))
    for other in range(state.options.players):
        if other != seat and open_bits >> other & 1:
            found.append(Action(Kind.CATCH, target=other, seat=own))
    return found


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every legal action of ``seat`` (default: the seat to act).

    >>> from dos.rules.official.setup import new_game
    >>> actions = legal_actions(new_game(seed=1))
    >>> str(actions[-1])
    'draw'
    """
    if seat is None or seat == state.turn:
        return turn_actions(state) + dos_actions(state, state.turn)
    return dos_actions(state, seat)


def all_legal_actions(state: State) -> list[Action]:
    """Every legal action of every seat: the seat to act first, then the others in order."""
    found = turn_actions(state)
    if state.dos_open:
        turn = state.turn
        found.extend(dos_actions(state, turn))
        for seat in range(state.options.players):
            if seat != turn:
                found.extend(dos_actions(state, seat))
    return found
