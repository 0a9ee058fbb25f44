"""What an official move gains, in words any client says in its own language.

The hint's reason (``dos.server.tables.hints``) and the review's account of the expert's move
(the terminal's replay; the browser says the same with ``js/reviewwords.js``) are one text:
what the move plays and on what, its kind of match (and so its bonus: a card to place, the
others' draw), the points it sheds, the wild cards it keeps for later.

>>> from dos.rules.official import new_game, parse_action, view
>>> from dos.i18n.explain import render
>>> seen = view(new_game(seed=1), 0)
>>> render("en", reason(seen, parse_action("draw")))
'No match is worth making now: draw a card.'
"""

from __future__ import annotations

from typing import Any, Final

from dos.i18n.explain import Words, card_words, cards_words, words
from dos.rules.official import Action, Kind, Phase, SeatView
from dos.rules.official.cards import IS_WILD_NUMBER, POINTS, WILD_DOS
from dos.rules.official.matching import MatchKind, match_kind

KIND_KEYS: Final = {
    MatchKind.SINGLE_NUMBER: "game.single_number_match",
    MatchKind.DOUBLE_NUMBER: "game.double_number_match",
    MatchKind.SINGLE_COLOR: "game.single_color_match",
    MatchKind.DOUBLE_COLOR: "game.double_color_match",
}
"""The rule sheet's name of each kind of match, as a catalog key."""


def reason(seen: SeatView, action: Action) -> Words:
    """Why ``action`` is a good move for the seat that sees ``seen``, in words: what it plays
    and on what, what kind of match it is (and so what the others draw), the points it sheds,
    the wild cards it keeps."""
    if action.kind == Kind.MATCH:
        target = seen.center[action.target]
        kind = match_kind(action.cards, action.designations, target)
        points = sum(POINTS[c] for c in action.cards)
        left = list(seen.hand)
        for card in action.cards:
            left.remove(card)
        params: dict[str, Any] = {
            "kind": words(KIND_KEYS[kind]),
            "cards": cards_words(action.cards, action.designations),
            "target": card_words(target),
            "points": points,
        }
        if not left:
            return Words("game.hint_reason_out", params)
        if kind == MatchKind.DOUBLE_COLOR:
            key = "game.hint_reason_double_colour"
        elif kind == MatchKind.SINGLE_COLOR:
            key = "game.hint_reason_single_colour"
        else:
            key = "game.hint_reason_match"
        wilds = sorted({c for c in left if c == WILD_DOS or IS_WILD_NUMBER[c]})
        if wilds:
            params["kept"] = tuple(card_words(c) for c in wilds)
            key += "_keeps"
        return Words(key, params)
    if action.kind == Kind.DRAW:
        return words("game.hint_reason_draw")
    if action.kind in (Kind.LAY, Kind.PLACE):
        card = action.cards[0]
        key = "game.hint_reason_lay" if action.kind == Kind.LAY else "game.hint_reason_place"
        return words(key, card=card_words(card), points=POINTS[card])
    if seen.phase == Phase.PLACING:
        return words("game.hint_reason_decline")
    return words("game.hint_reason_end")
