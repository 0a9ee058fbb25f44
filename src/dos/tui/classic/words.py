"""The classic game in words, in the person's language (``classic.*`` and ``game.*`` texts):
card names and the log of actions. Why an action is refused: ``dos.i18n.explain``.

>>> from dos.rules.classic.cards import parse_card
>>> card_words("de", parse_card("R+2")), card_words("en", parse_card("W+4"))
('+2 (rot)', 'Wild Draw Four')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from dos.i18n import text
from dos.i18n.explain import COLOUR_KEYS, classic_card_words, render
from dos.rules.classic import Action, Kind, Phase, State
from dos.rules.classic.cards import (
    IS_WILD,
)


def colour_words(lang: str, colour: int) -> str:
    """A colour in words (``game.colour_*``)."""
    return text(lang, f"game.colour_{COLOUR_KEYS[colour]}")


def card_words(lang: str, card: int) -> str:
    """A classic card in words: ``red 7``, ``blue Skip``, ``Wild Draw Four``."""
    return render(lang, classic_card_words(card))


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
