"""Applying an action (RULES.md §3, §4, §6, §7): the only place the state changes.

``apply`` first checks everything the action needs, raising ``IllegalActionError`` with the
rule it breaks, and only then changes the state, so a rejected action leaves the state exactly
as it was. Steps with no choice in them run by themselves: the end of the matches once no
match is left, the end of the turn (§4) once no placement is left, the next round's deal.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable

from dos.errors import IllegalActionError, NotationError
from dos.rng import shuffle
from dos.rules.official.actions import Action, Kind, format_card
from dos.rules.official.cards import IS_WILD_NUMBER, N_TYPES, NAMES, POINTS, WILD_DOS
from dos.rules.official.legal import matches
from dos.rules.official.matching import (
    NO_DESIGNATION,
    PAIR_BONUS,
    PAIRS,
    SINGLE,
    SINGLE_BONUS,
    colour_match,
    number_match,
)
from dos.rules.official.setup import CENTER_ROW_SIZE, deal_round
from dos.rules.official.state import Phase, RoundResult, State

DOS_PENALTY = 2


def apply(state: State, action: Action) -> None:
    """Applies ``action`` to ``state`` in place, or raises ``IllegalActionError`` and changes
    nothing.

    >>> from dos.rules.official.setup import new_game
    >>> from dos.rules.official.actions import parse_action
    >>> state = new_game(seed=1)
    >>> apply(state, parse_action("end"))
    Traceback (most recent call last):
    ...
    dos.errors.IllegalActionError: RULES §3: you must match or draw before the turn can end
    """
    if state.phase == _OVER:
        raise IllegalActionError(
            f"RULES §7: the game is over; seat {state.winner} won", "game_over"
        )
    seat = action.seat
    turn = state.turn
    recorded = action
    if seat is None:
        seat = turn
    elif type(seat) is not int or not 0 <= seat < state.options.players:
        raise IllegalActionError(
            f"RULES §2: there is no seat {seat} (seats are 0-{state.options.players - 1})",
            "no_such_seat",
        )
    elif seat == turn:
        recorded = action._replace(seat=None)
    handler = _TURN_HANDLERS.get(action.kind)
    if action.kind != _MATCH and (
        action.cards or action.designations or action.target != -1 or action.kind in _CARRY_CARD
    ):
        _check_shape(action)
    if handler is not None:
        if seat != turn:
            raise IllegalActionError(
                f"RULES §3: it is seat {turn}'s turn, not seat {seat}'s; out of turn "
                "only 'dos' and 'catch' are allowed",
                "not_your_turn",
            )
        cache = state.match_cache
        state.match_cache = None
        try:
            handler(state, action)
        except BaseException:
            state.match_cache = cache  # rejected: the state stays exactly as it was
            raise
    elif action.kind == Kind.CALL:
        _call(state, seat)
    elif action.kind == Kind.CATCH:
        _catch(state, seat, action.target)
    else:
        raise NotationError(f"unknown action kind {action.kind!r}")
    state.history.append(recorded)


def _check_shape(action: Action) -> None:
    """Non-match actions carry only the fields their notation writes."""
    kind = action.kind
    cards_needed = 1 if kind in (Kind.LAY, Kind.PLACE) else 0
    target_used = kind == Kind.CATCH
    if (
        len(action.cards) != cards_needed
        or action.designations
        or (not target_used and action.target != -1)
    ):
        raise NotationError(
            f"malformed {kind.name.lower()} action: it takes "
            + ("one card" if cards_needed else "a seat" if target_used else "no argument")
        )


# --- piles and hands -------------------------------------------------------------------


def draw_card(state: State) -> int | None:
    """The top card of the draw pile, reshuffling the discard pile into a new draw pile when
    it is empty; ``None`` if both are empty (RULES.md §4, Decision)."""
    pile = state.draw_pile
    if not pile:
        if not state.discard:
            return None
        pile.extend(state.discard)
        state.discard.clear()
        state.rng = shuffle(state.rng, pile)
    return pile.pop()


def _resized(state: State, seat: int, before: int) -> None:
    """A hand that *becomes* exactly two cards opens a DOS obligation; any other change of
    size closes it (RULES.md §6, Decision)."""
    after = len(state.hands[seat])
    if after == 2:
        if before != 2:
            state.dos_open |= 1 << seat
    elif after != before:
        state.dos_open &= ~(1 << seat)


def _give(state: State, seat: int, count: int) -> None:
    hand = state.hands[seat]
    before = len(hand)
    for _ in range(count):
        card = draw_card(state)
        if card is None:
            break
        insort(hand, card)
    _resized(state, seat, before)


def _take(state: State, seat: int, card: int, count: int = 1) -> None:
    """Checks that ``seat`` holds ``count`` copies of ``card``."""
    if type(card) is not int or not 0 <= card < N_TYPES:
        raise NotationError(f"not a card: {card!r}")
    held = state.hands[seat].count(card)
    if held < count:
        what = NAMES[card] if count == 1 else f"{count} copies of {NAMES[card]}"
        raise IllegalActionError(
            f"RULES §3: seat {seat} does not hold {what}", "not_in_hand", card=card
        )


# --- out-of-turn actions (§6) -----------------------------------------------------------


def _call(state: State, seat: int) -> None:
    if not state.dos_open >> seat & 1:
        raise IllegalActionError(
            f"RULES §6: seat {seat} has no open DOS obligation to call; a call is due only "
            "when a hand becomes exactly two cards",
            "no_dos",
        )
    state.dos_open &= ~(1 << seat)


def _catch(state: State, seat: int, caught: int) -> None:
    players = state.options.players
    if type(caught) is not int or not 0 <= caught < players:
        raise IllegalActionError(
            f"RULES §6: there is no seat {caught} to catch (seats are 0-{players - 1})",
            "no_such_seat",
        )
    if caught == seat:
        raise IllegalActionError(
            "RULES §6: nobody catches themselves; call 'dos' instead", "catch_yourself"
        )
    if not state.dos_open >> caught & 1:
        raise IllegalActionError(
            f"RULES §6: seat {caught} has no open DOS obligation, so there is nobody to catch",
            "no_dos",
        )
    state.dos_open &= ~(1 << caught)
    if caught == state.turn:
        # §4.4: caught during their own turn, the penalty waits for the end of the turn.
        state.penalties[caught] += DOS_PENALTY
    else:
        _give(state, caught, DOS_PENALTY)


# --- the turn (§3) ----------------------------------------------------------------------


def _match(state: State, action: Action) -> None:
    if state.phase != _TURN:
        raise IllegalActionError(
            "RULES §4.3: this turn's matches are over; place a bonus card or end",
            "matches_over",
        )
    center = state.center
    target = action.target
    if type(target) is not int or not 0 <= target < len(center):
        raise IllegalActionError(
            f"RULES §3: there is no Center Row card {target} "
            f"(the Center Row has cards 0-{len(center) - 1})",
            "no_such_target",
            index=target,
        )
    if target in state.matched:
        raise IllegalActionError(
            f"RULES §3: Center Row card {target} was already matched this turn",
            "already_matched",
            index=target,
        )
    cards = action.cards
    count = len(cards)
    if count not in (1, 2):
        raise IllegalActionError("RULES §3: a match plays one card or two")
    designations = action.designations
    if designations:
        _check_designations(cards, designations)
    else:
        designations = _PLAIN[count]
    seat = state.turn
    hand = state.hands[seat]
    if count == 1:
        if cards[0] not in hand:
            _take(state, seat, cards[0])
    elif cards[0] == cards[1]:
        _take(state, seat, cards[0], 2)
    elif cards[0] not in hand or cards[1] not in hand:
        _take(state, seat, cards[0])
        _take(state, seat, cards[1])
    bonus = _match_bonus(cards, designations, center[target], target)
    before = len(hand)
    for card in cards:
        hand.remove(card)
    state.matched[target] = cards
    if bonus:
        if count == 1:
            state.single_bonuses += 1
        else:
            state.double_bonuses += 1
    _resized(state, seat, before)
    if hand:
        left = matches(hand, center, state.matched)
        if left:
            state.match_cache = left
            return
    _end_matches(state)


_PLAIN = {1: (NO_DESIGNATION,), 2: (NO_DESIGNATION, NO_DESIGNATION)}


def _check_designations(cards: tuple[int, ...], designations: tuple[int, ...]) -> None:
    if len(designations) != len(cards):
        raise NotationError("a match needs one designation entry per card")
    for card, designation in zip(cards, designations, strict=True):
        if type(card) is not int or not 0 <= card < N_TYPES:
            raise NotationError(f"not a card: {card!r}")
        if designation == NO_DESIGNATION:
            continue
        if IS_WILD_NUMBER[card] and type(designation) is int and 1 <= designation <= 10:
            continue
        if card == WILD_DOS and type(designation) is int and 0 <= designation <= 3:
            continue
        raise NotationError(f"{NAMES[card]} cannot be designated {designation!r}")


def _match_bonus(
    cards: tuple[int, ...], designations: tuple[int, ...], card_at: int, target: int
) -> bool:
    """Checks the number rule and returns whether the match earns a colour bonus."""
    plain = designations[0] == NO_DESIGNATION and designations[-1] == NO_DESIGNATION
    if len(cards) == 1:
        legal = SINGLE[card_at][cards[0]] if plain else number_match(cards, designations, card_at)
        if not legal:
            raise IllegalActionError(
                f"RULES §3: {format_card(cards[0], designations[0])} does not match "
                f"{NAMES[card_at]} (Center Row card {target}): a Single Number Match needs "
                "the same number",
                "no_number_match",
                cards=cards,
                designations=designations,
                target=card_at,
            )
        if plain:
            return SINGLE_BONUS[card_at][cards[0]]
        return colour_match(cards, designations, card_at)
    first, second = cards
    low, high = (first, second) if first <= second else (second, first)
    legal = high in PAIRS[card_at][low] if plain else number_match(cards, designations, card_at)
    if not legal:
        raise IllegalActionError(
            f"RULES §3: {format_card(first, designations[0])} + "
            f"{format_card(second, designations[1])} do not add up to the number of "
            f"{NAMES[card_at]} (Center Row card {target}): a Double Number Match needs two "
            "cards whose numbers add up to it",
            "no_number_match",
            cards=cards,
            designations=designations,
            target=card_at,
        )
    if plain:
        return high in PAIR_BONUS[card_at][low]
    return colour_match(cards, designations, card_at)


def _draw_action(state: State) -> None:
    if state.phase != Phase.TURN:
        raise IllegalActionError(
            "RULES §4.3: this turn's matches are over; place a bonus card or end",
            "matches_over",
        )
    if state.drew:
        raise IllegalActionError("RULES §3: you have already drawn this turn", "already_drew")
    if state.matched:
        raise IllegalActionError(
            "RULES §3: you draw instead of matching, not after a match", "draw_after_match"
        )
    seat = state.turn
    # §3 Decision: with both piles empty the draw gives nothing and the turn goes on as after
    # a draw.
    _give(state, seat, 1)
    state.drew = True


def _lay(state: State, action: Action) -> None:
    if state.phase != Phase.TURN or not state.drew or state.matched:
        raise IllegalActionError(
            "RULES §3: a card is laid in the Center Row only after a draw not followed by a match",
            "draw_first",
        )
    card = action.cards[0] if len(action.cards) == 1 else -1
    if card < 0:
        raise NotationError("'lay' takes exactly one card")
    seat = state.turn
    _take(state, seat, card)
    hand = state.hands[seat]
    before = len(hand)
    hand.remove(card)
    state.center.append(card)
    _resized(state, seat, before)
    _finish_turn(state)


def _end(state: State) -> None:
    if state.phase == Phase.TURN:
        if state.matched:
            _end_matches(state)
            return
        if state.drew:
            raise IllegalActionError(
                "RULES §3: after a draw with no match you must lay a card ('lay CARD')",
                "lay_first",
            )
        raise IllegalActionError(
            "RULES §3: you must match or draw before the turn can end", "match_or_draw_first"
        )
    if state.options.bonus_lay_mandatory:
        raise IllegalActionError(
            "RULES §4.3 (option bonus_lay_mandatory): every bonus placement must be made",
            "placements_due",
        )
    _finish_turn(state)


def _place(state: State, action: Action) -> None:
    if state.phase != Phase.PLACING:
        raise IllegalActionError(
            "RULES §4.3: a card is placed only for a colour bonus, after the turn's matches end",
            "no_placement",
        )
    card = action.cards[0] if len(action.cards) == 1 else -1
    if card < 0:
        raise NotationError("'place' takes exactly one card")
    seat = state.turn
    _take(state, seat, card)
    hand = state.hands[seat]
    before = len(hand)
    hand.remove(card)
    state.center.append(card)
    state.placements_left -= 1
    _resized(state, seat, before)
    if state.placements_left == 0 or not hand:
        _finish_turn(state)


# --- the end of the turn (§4) and of the round (§7) --------------------------------------


def _end_matches(state: State) -> None:
    """§4 steps 1-3a: discard, refill, then the bonus placements if any can be made."""
    center = state.center
    matched = state.matched
    discard = state.discard
    for index in sorted(matched):
        discard.extend(matched[index])
        discard.append(center[index])
    state.center = center = [card for i, card in enumerate(center) if i not in matched]
    state.matched = {}
    while len(center) < CENTER_ROW_SIZE:
        card = draw_card(state)
        if card is None:
            break
        center.append(card)
    bonuses = state.single_bonuses + state.double_bonuses
    if bonuses and state.hands[state.turn]:
        state.phase = Phase.PLACING
        state.placements_left = bonuses
        return
    _finish_turn(state)


def _finish_turn(state: State) -> None:
    """§4 steps 3b-5: the others draw for each Double Color Match, the player takes any DOS
    penalty, then the round ends if the hand is empty, else the turn passes left."""
    turn = state.turn
    players = state.options.players
    for _ in range(state.double_bonuses):
        for k in range(1, players):
            _give(state, (turn + k) % players, 1)
    owed = state.penalties[turn]
    if owed:
        state.penalties[turn] = 0
        _give(state, turn, owed)
    state.phase = Phase.TURN
    state.drew = False
    state.matched = {}
    state.single_bonuses = state.double_bonuses = state.placements_left = 0
    if not state.hands[turn]:
        _end_round(state, turn)
        return
    state.turn = (turn + 1) % players


def _end_round(state: State, winner: int) -> None:
    """§7: the player who went out scores every card left in the other hands."""
    points = sum(
        POINTS[card] for seat, hand in enumerate(state.hands) if seat != winner for card in hand
    )
    state.scores[winner] += points
    state.round_results.append(
        RoundResult(state.round, winner, points, tuple(tuple(sorted(h)) for h in state.hands))
    )
    state.dos_open = 0
    if state.scores[winner] >= state.options.target_score:
        state.phase = Phase.OVER
        state.winner = winner
        return
    state.round += 1
    players = state.options.players
    state.dealer = (state.dealer + 1) % players if state.options.deal_passes_left else winner
    deal_round(state)


_OVER = Phase.OVER
_TURN = Phase.TURN
_MATCH = Kind.MATCH
_CARRY_CARD = frozenset((Kind.LAY, Kind.PLACE))
_TURN_HANDLERS: dict[int, Callable[[State, Action], None]] = {
    Kind.MATCH: _match,
    Kind.DRAW: lambda state, _: _draw_action(state),
    Kind.LAY: _lay,
    Kind.END: lambda state, _: _end(state),
    Kind.PLACE: _place,
}
