"""Actions of the official rule set in words, in any catalog language (``game.*`` templates).

Presentation only: this module reads the engine's public values (card types, actions, the
Center Row before the action) and never changes a game. The terminal and the browser clients
write their logs with it.

>>> from dos.rules.official.cards import parse_card
>>> from dos.rules.official import parse_action
>>> center = [parse_card("R7"), parse_card("B3")]
>>> describe("en", parse_action("R5+DOS@0"), Before(center, turn=0), ["Ada", "Bo"])
'Ada matched red 5 and Wild DOS as red onto red 7: Double Color Match.'
>>> describe("fr", parse_action("1: catch 0"), Before(center, turn=0), ["Ada", "Bo"])
"Bo dénonce Ada, qui n'a pas crié « DOS ! » : deux cartes de pénalité."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dos.i18n import text
from dos.i18n.explain import card_words, colour_words, render
from dos.rules.official import Action, Kind, Phase
from dos.rules.official.matching import NO_DESIGNATION, MatchKind, match_kind, resolve

_KIND_KEYS = {
    MatchKind.SINGLE_NUMBER: "game.single_number_match",
    MatchKind.DOUBLE_NUMBER: "game.double_number_match",
    MatchKind.SINGLE_COLOR: "game.single_color_match",
    MatchKind.DOUBLE_COLOR: "game.double_color_match",
}


@dataclass(frozen=True, slots=True)
class Before:
    """What a description needs to know of the game just before the action: the Center Row,
    the seat to act and the phase (``State`` and ``SeatView`` have all three)."""

    center: Sequence[int]
    turn: int
    phase: Phase = Phase.TURN


def colour_name(lang: str, colour: int) -> str:
    """A colour by its number (0-3, ``B G R Y``) in words.

    >>> colour_name("de", 2)
    'rot'
    """
    return render(lang, colour_words(colour))


def card_name(lang: str, card: int, designation: int = NO_DESIGNATION) -> str:
    """A card in words, with its designation if it has one.

    >>> from dos.rules.official.cards import parse_card
    >>> card_name("fr", parse_card("R7")), card_name("ja", parse_card("B#"), 4)
    ('7 rouge', '青シャープ(4)')
    >>> card_name("nl", parse_card("DOS"), 3)
    'DOS-keuzekaart als geel'
    """
    return render(lang, card_words(card, designation))


def cards_text(lang: str, cards: Sequence[int], designations: Sequence[int] = ()) -> str:
    """One card or two in words (``"red 5 and Wild DOS"``)."""
    marks = list(designations) or [NO_DESIGNATION] * len(cards)
    names = [card_name(lang, c, d) for c, d in zip(cards, marks, strict=True)]
    if len(names) == 2:
        return text(lang, "game.cards_pair", first=names[0], second=names[1])
    return ", ".join(names)


def match_kind_name(
    lang: str, cards: Sequence[int], designations: Sequence[int], target: int
) -> str:
    """The rulebook name of a legal match's kind (best colour result unless designated)."""
    kind = match_kind(tuple(cards), tuple(designations), target)
    return text(lang, _KIND_KEYS[kind])


def describe(
    lang: str,
    action: Action,
    before: Before,
    names: Sequence[str],
    drawn: int | None = None,
) -> str:
    """One sentence saying what ``action`` does, for a game in the state ``before`` it.

    ``names`` are the players' names by seat. ``drawn`` is the card a draw gave, when the
    reader may see it (their own draw); otherwise a draw is told without the card.
    """
    seat = before.turn if action.seat is None else action.seat
    player = names[seat]
    kind = action.kind
    if kind == Kind.MATCH:
        target = before.center[action.target]
        resolved = resolve(action.cards, action.designations, target)
        shown, target_colour = resolved if resolved else (action.designations, NO_DESIGNATION)
        return text(
            lang,
            "game.log_match",
            player=player,
            cards=cards_text(lang, action.cards, shown),
            target=card_name(lang, target, target_colour),
            kind=match_kind_name(lang, action.cards, action.designations, target),
        )
    if kind == Kind.DRAW:
        if drawn is None:
            return text(lang, "game.log_draw", player=player)
        return text(lang, "game.log_draw_seen", player=player, card=card_name(lang, drawn))
    if kind == Kind.LAY:
        return text(lang, "game.log_lay", player=player, card=card_name(lang, action.cards[0]))
    if kind == Kind.PLACE:
        return text(lang, "game.log_place", player=player, card=card_name(lang, action.cards[0]))
    if kind == Kind.END:
        key = "game.log_decline" if before.phase == Phase.PLACING else "game.log_end"
        return text(lang, key, player=player)
    if kind == Kind.CALL:
        return text(lang, "game.log_call", player=player)
    return text(lang, "game.log_catch", player=player, caught=names[action.target])
