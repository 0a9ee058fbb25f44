"""The classic game in words, in the person's language (``classic.*`` and ``game.*`` texts):
card names, the log of actions, and why an action is refused.

The engine stays the judge: ``explain`` is asked only after ``apply`` refused an action, and
follows the engine's own checks (RULES.md §9) to pick the sentence.

>>> from dos.rules.classic.cards import parse_card
>>> card_words("de", parse_card("R+2")), card_words("en", parse_card("W+4"))
('+2 (rot)', 'Wild Draw Four')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from dos.i18n import text
from dos.rules.classic import Action, Kind, Phase, State
from dos.rules.classic.cards import (
    COLOUR,
    DRAW_TWO,
    IS_WILD,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from dos.rules.classic.legal import playable, playable_cards

COLOUR_KEYS = ("blue", "green", "red", "yellow")


def colour_words(lang: str, colour: int) -> str:
    """A colour in words (``game.colour_*``)."""
    return text(lang, f"game.colour_{COLOUR_KEYS[colour]}")


def card_words(lang: str, card: int) -> str:
    """A classic card in words: ``red 7``, ``blue Skip``, ``Wild Draw Four``."""
    if card == WILD:
        return text(lang, "classic.card_wild")
    if card == WILD_DRAW_FOUR:
        return text(lang, "classic.card_wild_four")
    rank = RANK[card]
    colour = colour_words(lang, COLOUR[card])
    if rank == SKIP:
        return text(lang, "classic.card_skip", colour=colour)
    if rank == REVERSE:
        return text(lang, "classic.card_reverse", colour=colour)
    if rank == DRAW_TWO:
        return text(lang, "classic.card_draw_two", colour=colour)
    return text(lang, f"game.card_{COLOUR_KEYS[COLOUR[card]]}", number=rank)


@dataclass(frozen=True, slots=True)
class Before:
    """What the log of an action needs to know of the game before it: who acts, the phase,
    the pending cards, the acting seat's hand and how many places were taken."""

    seat: int
    phase: Phase
    pending: int
    hand: Counter[int]
    placed: int

    @classmethod
    def of(cls, state: State, seat: int) -> Before:
        """The game ``state`` before ``seat`` acts."""
        return cls(seat, state.phase, state.pending, Counter(state.hands[seat]), len(state.ranking))


def log_start(lang: str, names: Sequence[str], state: State) -> str:
    """The log's first line: the card the game starts on and who plays first."""
    return text(
        lang, "classic.log_start", player=names[state.turn], card=card_words(lang, state.top)
    )


def log_lines(
    lang: str, names: Sequence[str], before: Before, action: Action, state: State, *, seen: bool
) -> list[str]:
    """The log of ``action``, applied to the game ``before`` and giving ``state``: what was
    done, then the places taken and the game's end. ``seen``: a drawn card is named (the
    person's own draws, or every draw in a replay, where every hand is shown).

    >>> from dos.rules.classic import apply, new_game, parse_action
    >>> state = new_game(seed=1)
    >>> before, action = Before.of(state, state.turn), parse_action("B8")
    >>> apply(state, action)
    >>> log_lines("en", ["You", "Bot 1"], before, action, state, seen=False)
    ['Bot 1 played blue 8.']
    """
    name = names[before.seat]
    lines = []
    gained = Counter(state.hands[before.seat]) - before.hand
    if before.phase == Phase.REACTION:
        if gained.total() == 0:
            lines.append(text(lang, "classic.log_react_pass", player=name, ms=action.ms))
        else:
            count = gained.total()
            lines.append(text(lang, "classic.log_react_fail", player=name, count=count))
    elif action.kind == Kind.PLAY:
        card = card_words(lang, action.card)
        if IS_WILD[action.card]:
            colour = colour_words(lang, action.wish)
            lines.append(text(lang, "classic.log_play_wish", player=name, card=card, colour=colour))
        else:
            lines.append(text(lang, "classic.log_play", player=name, card=card))
    elif before.pending:
        lines.append(text(lang, "classic.log_draw_pending", player=name, count=gained.total()))
    elif not gained:
        lines.append(text(lang, "game.log_draw_empty", player=name))
    elif seen:
        card = card_words(lang, next(iter(gained)))
        lines.append(text(lang, "classic.log_draw_seen", player=name, card=card))
    else:
        lines.append(text(lang, "classic.log_draw", player=name))
    for place, out in enumerate(state.ranking[before.placed :], before.placed + 1):
        key = "classic.log_last" if state.hands[out] else "classic.log_out"
        lines.append(text(lang, key, player=names[out], place=place))
    if state.phase == Phase.OVER:
        lines.append(text(lang, "classic.log_game_over", player=names[state.ranking[0]]))
    return lines


def explain(lang: str, state: State, seat: int, action: Action) -> str:
    """A sentence saying why ``seat`` may not make ``action`` in ``state``.

    >>> from dos.rules.classic import new_game, parse_action
    >>> state = new_game(seed=1)
    >>> explain("en", state, state.turn, parse_action("timeout"))
    'There is no reaction test now.'
    """
    if state.phase == Phase.OVER:
        return text(lang, "classic.err_game_over")
    if seat != state.turn:
        return text(lang, "game.err_not_your_turn")
    kind = action.kind
    if state.phase == Phase.REACTION:
        if kind not in (Kind.REACT, Kind.TIMEOUT):
            return text(lang, "classic.err_reaction_first")
        return text(lang, "game.err_not_allowed", action=str(action))
    if kind in (Kind.REACT, Kind.TIMEOUT):
        return text(lang, "classic.err_no_reaction")
    pending = state.pending
    if kind == Kind.PLAY:
        card = action.card
        if card not in state.hands[seat]:
            return text(lang, "classic.err_not_in_hand", card=card_words(lang, card))
        if not playable(card, state.top, state.colour, pending, state.options.stacking):
            if pending and not state.options.stacking:
                return text(lang, "classic.err_no_stacking", count=pending)
            if pending and state.top == WILD_DRAW_FOUR:
                colour = colour_words(lang, state.colour)
                return text(lang, "classic.err_stack_four", colour=colour, count=pending)
            if pending:
                return text(lang, "classic.err_stack_two", count=pending)
            if card == WILD:
                return text(lang, "classic.err_wild_on_wild")
            return text(
                lang,
                "classic.err_does_not_fit",
                card=card_words(lang, card),
                top=card_words(lang, state.top),
                colour=colour_words(lang, state.colour),
            )
    if kind == Kind.DRAW and not pending:
        fitting = playable_cards(state, seat)
        if fitting:
            cards = ", ".join(card_words(lang, c) for c in fitting)
            return text(lang, "classic.err_must_play", cards=cards)
    return text(lang, "game.err_not_allowed", action=str(action))
