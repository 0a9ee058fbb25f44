"""The classic game in words, in the person's language (``classic.*`` and ``game.*`` texts):
card names, the log of actions, and why an action is refused.

The engine stays the judge: ``explain`` is asked only after ``apply`` refused an action, and
follows the engine's own checks (RULES.md §9) to pick the sentence.

>>> from dos.rules.classic.cards import parse_card
>>> card_words("de", parse_card("R+2")), card_words("en", parse_card("W+4"))
('+2 (rot)', 'Wild Draw Four')
"""

from __future__ import annotations

from dos.i18n import text
from dos.rules.classic import Action, Kind, Phase, State
from dos.rules.classic.cards import (
    COLOUR,
    DRAW_TWO,
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
