"""What may be played on what, and the legal actions (RULES.md §9), in a deterministic order.

Order for the seat to act: in ``PLAY``, the playable cards by card type (a wild once for each
colour it can wish, ``B G R Y``), then ``draw`` when it is allowed; in ``REACTION``, the two
representatives of the test: ``react N LIMITms`` (every target hit, at the time limit) and
``timeout``. Any ``react H Tms`` with ``H`` at most the number of targets is accepted as well
(the engine judges it); the list names one pass and one failure so that bots, random games and
perft have a finite choice. No seat has out-of-turn actions in this rule set.
"""

from __future__ import annotations

from dos.rules.classic.actions import DRAW, TIMEOUT, Action, play, react
from dos.rules.classic.cards import (
    COLOUR,
    IS_DRAW_TWO,
    N_TYPES,
    RANK,
    WILD,
    WILD_DRAW_FOUR,
)
from dos.rules.classic.state import Phase, State

_PLAYS = tuple(
    tuple(play(card, wish) for wish in range(4)) if card >= WILD else (play(card),)
    for card in range(N_TYPES)
)
"""The play actions of each card type: one, or one per wished colour for a wild."""


def playable(card: int, top: int, colour: int, pending: int, stacking: bool = True) -> bool:
    """Whether ``card`` may be played on ``top`` when ``colour`` is the colour to follow and
    ``pending`` cards are waiting to be drawn (RULES.md §9).

    >>> from dos.rules.classic.cards import parse_card as c
    >>> playable(c("R5"), c("B5"), 0, 0), playable(c("R5"), c("B6"), 0, 0)
    (True, False)
    >>> playable(c("W"), c("W"), 2, 0), playable(c("G+2"), c("W+4"), 2, 4)
    (False, False)
    """
    if pending:
        if not stacking:
            return False
        if card == WILD_DRAW_FOUR:
            return True
        if not IS_DRAW_TWO[card]:
            return False
        # On a Draw Two any Draw Two stacks; on a Wild Draw Four only one in the wished colour.
        return top != WILD_DRAW_FOUR or COLOUR[card] == colour
    if card == WILD:
        return top != WILD
    if card == WILD_DRAW_FOUR:
        return True
    return COLOUR[card] == colour or (top < WILD and RANK[card] == RANK[top])


def playable_cards(state: State, seat: int | None = None) -> list[int]:
    """The distinct card types of ``seat``'s hand (default: the seat to act) it could play
    now, in type order."""
    hand = state.hands[state.turn if seat is None else seat]
    top = state.top
    colour = state.colour
    pending = state.pending
    stacking = state.options.stacking
    return [c for c in dict.fromkeys(hand) if playable(c, top, colour, pending, stacking)]


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every legal action of ``seat`` (default: the seat to act); another seat has none.

    >>> from dos.rules.classic.setup import new_game
    >>> actions = legal_actions(new_game(seed=1))
    >>> len(actions) > 0
    True
    """
    if seat is not None and seat != state.turn:
        return []
    phase = state.phase
    if phase == Phase.PLAY:
        found: list[Action] = []
        for card in playable_cards(state):
            found.extend(_PLAYS[card])
        # §9: if you can play, you must; under a pending penalty drawing it is always allowed.
        if not found or state.pending:
            found.append(DRAW)
        return found
    if phase == Phase.REACTION:
        return [react(len(state.targets), state.options.reaction_time_ms), TIMEOUT]
    return []


def all_legal_actions(state: State) -> list[Action]:
    """Every legal action of every seat: in this rule set, those of the seat to act."""
    return legal_actions(state)
