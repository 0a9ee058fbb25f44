"""Applying an action (RULES.md §9): the only place the state changes.

``apply`` first checks everything the action needs, raising ``IllegalActionError`` with the
rule it breaks, and only then changes the state, so a rejected action leaves the state exactly
as it was. Steps with no choice in them run by themselves: the reshuffle of the discard pile
into an empty draw pile, the placing of a player who empties their hand, the end of the game
when one player is left.
"""

from __future__ import annotations

from bisect import insort

from dos.errors import IllegalActionError, NotationError
from dos.rng import shuffle
from dos.rules.classic.actions import Action, Kind
from dos.rules.classic.cards import (
    COLOUR,
    COLOUR_NAMES,
    IS_DRAW_TWO,
    IS_WILD,
    N_TYPES,
    NAMES,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    describe,
)
from dos.rules.classic.legal import playable, playable_cards
from dos.rules.classic.reaction import place_targets
from dos.rules.classic.state import Phase, State

DRAW_TWO_PENALTY = 2
DRAW_FOUR_PENALTY = 4


def apply(state: State, action: Action) -> None:
    """Applies ``action`` to ``state`` in place, or raises ``IllegalActionError`` and changes
    nothing.

    >>> from dos.rules.classic.setup import new_game
    >>> from dos.rules.classic.actions import parse_action
    >>> state = new_game(seed=1)
    >>> apply(state, parse_action("timeout"))
    Traceback (most recent call last):
    ...
    dos.errors.IllegalActionError: RULES §9: there is no reaction test to take now: ...
    """
    if state.phase == Phase.OVER:
        ranking = ", ".join(str(s) for s in state.ranking)
        raise IllegalActionError(
            f"RULES §9: the game is over; the ranking is {ranking}", "game_over"
        )
    _check_shape(action)
    turn = state.turn
    recorded = action
    seat = action.seat
    if seat is not None:
        players = state.options.players
        if type(seat) is not int or not 0 <= seat < players:
            raise IllegalActionError(
                f"RULES §9: there is no seat {seat} (seats are 0-{players - 1})", "no_such_seat"
            )
        if seat != turn:
            raise IllegalActionError(
                f"RULES §9: it is seat {turn}'s turn, not seat {seat}'s; in the classic game "
                "only the seat to act may act",
                "not_your_turn",
            )
        recorded = action._replace(seat=None)
    kind = action.kind
    if state.phase == Phase.REACTION:
        if kind == Kind.REACT:
            _react(state, action)
        elif kind == Kind.TIMEOUT:
            _judge(state, passed=False)
        else:
            count = len(state.targets)
            raise IllegalActionError(
                f"RULES §9: seat {turn} must first take the reaction test: hit the "
                f"{'two targets' if count == 2 else 'target'} on the screen in time",
                "reaction_first",
            )
    elif kind == Kind.PLAY:
        _play(state, action)
    elif kind == Kind.DRAW:
        _draw(state)
    else:
        raise IllegalActionError(
            "RULES §9: there is no reaction test to take now: a reaction test follows a play "
            "that leaves two cards or one",
            "no_reaction",
        )
    state.history.append(recorded)


def _check_shape(action: Action) -> None:
    """Each kind of action carries only the fields its notation writes."""
    kind = action.kind
    if kind == Kind.PLAY:
        card = action.card
        if type(card) is not int or not 0 <= card < N_TYPES:
            raise NotationError(f"malformed play: not a card: {card!r}")
        wished = IS_WILD[card]
        if wished != (type(action.wish) is int and 0 <= action.wish < 4):
            raise NotationError(
                "malformed play: a Wild or Wild Draw Four needs a wished colour"
                if wished
                else f"malformed play: {NAMES[card]} takes no wished colour"
            )
        if action.hits or action.ms:
            raise NotationError("malformed play: a play carries no reaction")
    elif kind == Kind.REACT:
        if type(action.hits) is not int or type(action.ms) is not int:
            raise NotationError("malformed reaction: hits and milliseconds are integers")
        if action.hits < 0 or action.ms < 0 or action.card != -1 or action.wish != -1:
            raise NotationError("malformed reaction: 'react HITS MSms', both at least 0")
    elif kind in (Kind.DRAW, Kind.TIMEOUT):
        if action.card != -1 or action.wish != -1 or action.hits or action.ms:
            raise NotationError(f"malformed {kind.name.lower()} action: it takes no argument")
    else:
        raise NotationError(f"unknown action kind {kind!r}")


# --- piles, hands and seats ------------------------------------------------------------


def draw_card(state: State) -> int | None:
    """The top card of the draw pile. An empty draw pile is first refilled with the discard
    pile but its top card, shuffled; ``None`` if no card is left to draw (RULES.md §9,
    Decision)."""
    pile = state.draw_pile
    if not pile:
        if len(state.discard) < 2:
            return None
        pile.extend(state.discard[:-1])
        del state.discard[:-1]
        state.rng = shuffle(state.rng, pile)
    return pile.pop()


def give(state: State, seat: int, count: int) -> int:
    """``seat`` draws ``count`` cards (fewer if the piles run out); returns how many."""
    hand = state.hands[seat]
    drawn = 0
    for _ in range(count):
        card = draw_card(state)
        if card is None:
            break
        insort(hand, card)
        drawn += 1
    return drawn


def next_seat(state: State, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in the direction of play, counting only the
    seats still playing (``seat`` itself need not be one).

    >>> from dos.rules.classic.setup import new_game
    >>> state = new_game(seed=1)
    >>> state.ranking = [1]
    >>> next_seat(state, 0), next_seat(state, 0, 2)
    (2, 3)
    """
    players = state.options.players
    placed = state.ranking
    step = state.direction
    while steps:
        seat = (seat + step) % players
        if seat not in placed:
            steps -= 1
    return seat


# --- the actions ---------------------------------------------------------------------------


def _play(state: State, action: Action) -> None:
    turn = state.turn
    card = action.card
    hand = state.hands[turn]
    if card not in hand:
        raise IllegalActionError(
            f"RULES §9: seat {turn} does not hold {NAMES[card]}", "not_in_hand", card=card
        )
    _check_playable(state, card)
    hand.remove(card)
    state.discard.append(card)
    state.colour = action.wish if IS_WILD[card] else COLOUR[card]
    playing = len(state.active())
    skip = False
    rank = RANK[card]
    if IS_DRAW_TWO[card]:
        state.pending += DRAW_TWO_PENALTY
    elif card == WILD_DRAW_FOUR:
        state.pending += DRAW_FOUR_PENALTY
    elif rank == SKIP:
        skip = True
    elif rank == REVERSE:
        state.direction = -state.direction
        # With two players left a Reverse, like a Skip, gives the player another turn.
        skip = playing == 2
    if not hand:
        state.ranking.append(turn)
        if playing == 2:
            state.ranking.extend(state.active())
            state.phase = Phase.OVER
            state.pending = 0
            return
    following = next_seat(state, turn, 2 if skip else 1)
    if len(hand) in (1, 2):
        state.rng, state.targets = place_targets(state.rng, len(hand))
        state.phase = Phase.REACTION
        state.after_reaction = following
    else:
        state.turn = following


def _check_playable(state: State, card: int) -> None:
    """Raises ``IllegalActionError`` saying why ``card`` cannot be played now, if it cannot."""
    top = state.top
    colour = state.colour
    pending = state.pending
    stacking = state.options.stacking
    if playable(card, top, colour, pending, stacking):
        return
    if pending:
        if not stacking:
            raise IllegalActionError(
                f"RULES §9: {pending} cards are pending and stacking is off: draw them ('draw')",
                "no_stacking",
                count=pending,
            )
        if top == WILD_DRAW_FOUR:
            raise IllegalActionError(
                f"RULES §9: on a Wild Draw Four you may stack only a Wild Draw Four or a Draw "
                f"Two in the wished colour ({COLOUR_NAMES[colour]}), or draw the {pending} "
                "pending cards",
                "stack_four",
                colour=colour,
                count=pending,
            )
        wild = " (no Wild on a pending draw)" if card == WILD else ""
        raise IllegalActionError(
            f"RULES §9: on a Draw Two you may stack only a Draw Two or a Wild Draw Four, or "
            f"draw the {pending} pending cards{wild}",
            "stack_two",
            count=pending,
        )
    if card == WILD:
        raise IllegalActionError(
            "RULES §9: a Wild cannot be played on another Wild", "wild_on_wild"
        )
    raise IllegalActionError(
        f"RULES §9: {describe(card)} does not fit {describe(top)}: a card must share the "
        f"colour ({COLOUR_NAMES[colour]}) or the number or symbol",
        "does_not_fit",
        card=card,
        top=top,
        colour=colour,
    )


def _draw(state: State) -> None:
    turn = state.turn
    if state.pending:
        # §9: the pending sum is drawn at once, and the turn is lost.
        count = state.pending
        state.pending = 0
        give(state, turn, count)
    else:
        fitting = playable_cards(state)
        if fitting:
            shown = ", ".join(NAMES[c] for c in fitting)
            raise IllegalActionError(
                f"RULES §9: if you can play, you must: you can play {shown}",
                "must_play",
                cards=tuple(fitting),
            )
        give(state, turn, 1)
    state.turn = next_seat(state, turn)


def _react(state: State, action: Action) -> None:
    count = len(state.targets)
    if action.hits > count:
        raise IllegalActionError(
            f"RULES §9: the reaction test shows {count} target{'s' if count > 1 else ''}; "
            f"{action.hits} cannot have been hit",
            "too_many_hits",
            count=count,
        )
    _judge(state, action.hits == count and action.ms <= state.options.reaction_time_ms)


def _judge(state: State, passed: bool) -> None:
    """The reaction test's outcome: a failure draws the penalty; the game goes on."""
    if not passed:
        give(state, state.turn, state.options.penalty_cards)
    state.phase = Phase.PLAY
    state.turn = state.after_reaction
    state.after_reaction = -1
    state.targets = ()
