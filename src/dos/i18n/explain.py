"""Why an action is refused, in words any client can say in its own language.

The engine's own messages name the rule in English (``RULES §3: …``); a player gets a
sentence from the catalog instead (``game.err_*`` and ``classic.err_*`` texts). The engine
stays the judge: a reason is asked for only after ``apply`` refused the action, against the
state it was refused on, and only picks the words.

A reason is ``Words``: a catalog key and its placeholders, which are numbers, texts, other
``Words`` (a card's name) or a list of ``Words`` (joined with ``", "``). Nothing in it is in
a language yet: the terminal renders it (``render``), the server sends it (``Words.json``) and
the browser renders it in the page's language.

>>> from dos.rules.official import new_game, parse_action
>>> reason = official_reason(new_game(seed=1), 0, parse_action("R7@9"))
>>> reason.json()
{'key': 'game.err_no_such_target', 'params': {'index': 9}}
>>> render("de", reason)
'Es gibt keine Karte 9 in der Mittelreihe.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from dos.cards import COLOUR, IS_WILD_NUMBER, NUMBER, WILD_DOS
from dos.i18n import text
from dos.rules.classic import Action as ClassicAction
from dos.rules.classic import Kind as ClassicKind
from dos.rules.classic import Phase as ClassicPhase
from dos.rules.classic import State as ClassicState
from dos.rules.classic import cards as classic_cards
from dos.rules.classic.legal import playable, playable_cards
from dos.rules.official import Action, Kind, Phase, State
from dos.rules.official.matching import NO_DESIGNATION, number_match

COLOUR_KEYS = ("blue", "green", "red", "yellow")
"""Catalog suffixes of the colours, in the engine's colour order (``B G R Y``)."""


@dataclass(frozen=True, slots=True)
class Words:
    """A catalog text not yet in a language: its key and its placeholders."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        """As JSON: ``{"key": ..., "params": {...}}``, nested words as the same, lists as lists."""
        return {"key": self.key, "params": {name: _json(v) for name, v in self.params.items()}}


Param: TypeAlias = int | str | Words | tuple[Words, ...]
"""A placeholder's value: a number, a text (notation), words, or words joined by commas."""


def _json(value: Param) -> Any:
    if isinstance(value, Words):
        return value.json()
    if isinstance(value, tuple):
        return [item.json() for item in value]
    return value


def words(key: str, **params: Param) -> Words:
    """``Words`` of ``key`` with ``params``."""
    return Words(key, params)


def render(lang: str, what: Words) -> str:
    """``what`` in ``lang``, nested words first."""
    return text(lang, what.key, **{name: _render(lang, v) for name, v in what.params.items()})


def _render(lang: str, value: Param) -> object:
    if isinstance(value, Words):
        return render(lang, value)
    if isinstance(value, tuple):
        return ", ".join(render(lang, item) for item in value)
    return value


# --- official -------------------------------------------------------------------------------


def colour_words(colour: int) -> Words:
    """A colour by its number (0-3, ``B G R Y``)."""
    return words(f"game.colour_{COLOUR_KEYS[colour]}")


def card_words(card: int, designation: int = NO_DESIGNATION) -> Words:
    """An official card, with its designation if it has one."""
    if card == WILD_DOS:
        if designation == NO_DESIGNATION:
            return words("game.wild_dos")
        return words("game.wild_dos_as", colour=colour_words(designation))
    colour = COLOUR_KEYS[COLOUR[card]]
    if IS_WILD_NUMBER[card]:
        name = words(f"game.wild_number_{colour}")
        if designation == NO_DESIGNATION:
            return name
        return words("game.wild_number_as", card=name, number=designation)
    return words(f"game.card_{colour}", number=NUMBER[card])


def cards_words(cards: Sequence[int], designations: Sequence[int] = ()) -> Param:
    """One official card or two (``"red 5 and Wild DOS"``)."""
    marks = list(designations) or [NO_DESIGNATION] * len(cards)
    names = tuple(card_words(c, d) for c, d in zip(cards, marks, strict=True))
    if len(names) == 2:
        return words("game.cards_pair", first=names[0], second=names[1])
    return names[0] if len(names) == 1 else names


def official_reason(state: State, seat: int, action: Action) -> Words:
    """Why ``seat`` may not make ``action`` in ``state`` (official rules).

    >>> from dos.rules.official import new_game, parse_action
    >>> render("en", official_reason(new_game(seed=1), 0, parse_action("dos")))
    'Nobody has an open "DOS!" to call or catch.'
    """
    kind = action.kind
    if kind in (Kind.CALL, Kind.CATCH):
        return words("game.err_no_dos")
    if seat != state.turn:
        return words("game.err_not_your_turn")
    hand = Counter(state.hands[seat])
    if kind == Kind.MATCH:
        if state.phase == Phase.PLACING:
            return words("game.err_matches_over")
        if not 0 <= action.target < len(state.center):
            return words("game.err_no_such_target", index=action.target)
        if action.target in state.matched:
            return words("game.err_already_matched", index=action.target)
        missing = Counter(action.cards) - hand
        if missing:
            return words("game.err_not_in_hand", card=card_words(next(iter(missing))))
        target = state.center[action.target]
        if not number_match(action.cards, action.designations, target):
            return words(
                "game.err_no_number_match",
                cards=cards_words(action.cards),
                target=card_words(target),
            )
    if kind == Kind.DRAW and (state.drew or state.matched):
        return words("game.err_already_drew")
    if kind in (Kind.LAY, Kind.PLACE):
        if action.cards and action.cards[0] not in hand:
            return words("game.err_not_in_hand", card=card_words(action.cards[0]))
        if kind == Kind.LAY and not (state.drew and not state.matched):
            return words("game.err_draw_first")
    return words("game.err_not_allowed", action=str(action))


def explain_official(lang: str, state: State, seat: int, action: Action) -> str:
    """``official_reason`` in ``lang``."""
    return render(lang, official_reason(state, seat, action))


# --- classic --------------------------------------------------------------------------------


def classic_card_words(card: int) -> Words:
    """A classic card: ``red 7``, ``blue Skip``, ``Wild Draw Four``."""
    if card == classic_cards.WILD:
        return words("classic.card_wild")
    if card == classic_cards.WILD_DRAW_FOUR:
        return words("classic.card_wild_four")
    rank = classic_cards.RANK[card]
    colour_index = classic_cards.COLOUR[card]
    colour = colour_words(colour_index)
    if rank == classic_cards.SKIP:
        return words("classic.card_skip", colour=colour)
    if rank == classic_cards.REVERSE:
        return words("classic.card_reverse", colour=colour)
    if rank == classic_cards.DRAW_TWO:
        return words("classic.card_draw_two", colour=colour)
    return words(f"game.card_{COLOUR_KEYS[colour_index]}", number=rank)


def classic_reason(state: ClassicState, seat: int, action: ClassicAction) -> Words:
    """Why ``seat`` may not make ``action`` in ``state`` (classic rules, RULES.md §9).

    >>> from dos.rules.classic import new_game, parse_action
    >>> state = new_game(seed=1)
    >>> render("en", classic_reason(state, state.turn, parse_action("timeout")))
    'There is no reaction test now.'
    """
    if state.phase == ClassicPhase.OVER:
        return words("classic.err_game_over")
    if seat != state.turn:
        return words("game.err_not_your_turn")
    kind = action.kind
    if state.phase == ClassicPhase.REACTION:
        if kind not in (ClassicKind.REACT, ClassicKind.TIMEOUT):
            return words("classic.err_reaction_first")
        return words("game.err_not_allowed", action=str(action))
    if kind in (ClassicKind.REACT, ClassicKind.TIMEOUT):
        return words("classic.err_no_reaction")
    pending = state.pending
    if kind == ClassicKind.PLAY:
        card = action.card
        if card not in state.hands[seat]:
            return words("classic.err_not_in_hand", card=classic_card_words(card))
        if not playable(card, state.top, state.colour, pending, state.options.stacking):
            if pending and not state.options.stacking:
                return words("classic.err_no_stacking", count=pending)
            if pending and state.top == classic_cards.WILD_DRAW_FOUR:
                colour = colour_words(state.colour)
                return words("classic.err_stack_four", colour=colour, count=pending)
            if pending:
                return words("classic.err_stack_two", count=pending)
            if card == classic_cards.WILD:
                return words("classic.err_wild_on_wild")
            return words(
                "classic.err_does_not_fit",
                card=classic_card_words(card),
                top=classic_card_words(state.top),
                colour=colour_words(state.colour),
            )
    if kind == ClassicKind.DRAW and not pending:
        fitting = playable_cards(state, seat)
        if fitting:
            return words(
                "classic.err_must_play", cards=tuple(classic_card_words(c) for c in fitting)
            )
    return words("game.err_not_allowed", action=str(action))


def explain_classic(lang: str, state: ClassicState, seat: int, action: ClassicAction) -> str:
    """``classic_reason`` in ``lang``."""
    return render(lang, classic_reason(state, seat, action))


REASONS: dict[str, Callable[[Any, int, Any], Words]] = {
    "official": official_reason,
    "classic": classic_reason,
}
"""The reason function of each rule set, by its name (for code that holds any rule set)."""
