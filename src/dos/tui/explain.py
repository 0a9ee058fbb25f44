"""Why a person's action is not allowed, in their language (``game.err_*`` texts).

The engine's own messages name the rule in English (``RULES §3: …``); a player gets a
sentence from the catalog instead. The engine stays the judge: this module is asked only
after ``apply`` refused the action, and only picks the words.
"""

from __future__ import annotations

from collections import Counter

from dos.i18n import text
from dos.i18n.describe import card_name, cards_text
from dos.rules.official import Action, Kind, Phase, State
from dos.rules.official.matching import number_match


def explain(lang: str, state: State, seat: int, action: Action) -> str:
    """A sentence saying why ``seat`` may not make ``action`` in ``state``.

    >>> from dos.rules.official import new_game, parse_action
    >>> explain("en", new_game(seed=1), 0, parse_action("dos"))
    'Nobody has an open "DOS!" to call or catch.'
    """
    kind = action.kind
    if kind in (Kind.CALL, Kind.CATCH):
        return text(lang, "game.err_no_dos")
    if seat != state.turn:
        return text(lang, "game.err_not_your_turn")
    hand = Counter(state.hands[seat])
    if kind == Kind.MATCH:
        if state.phase == Phase.PLACING:
            return text(lang, "game.err_matches_over")
        if not 0 <= action.target < len(state.center):
            return text(lang, "game.err_no_such_target", index=action.target)
        if action.target in state.matched:
            return text(lang, "game.err_already_matched", index=action.target)
        missing = Counter(action.cards) - hand
        if missing:
            return text(lang, "game.err_not_in_hand", card=card_name(lang, next(iter(missing))))
        target = state.center[action.target]
        if not number_match(action.cards, action.designations, target):
            return text(
                lang,
                "game.err_no_number_match",
                cards=cards_text(lang, action.cards),
                target=card_name(lang, target),
            )
    if kind == Kind.DRAW and (state.drew or state.matched):
        return text(lang, "game.err_already_drew")
    if kind in (Kind.LAY, Kind.PLACE):
        if action.cards and action.cards[0] not in hand:
            return text(lang, "game.err_not_in_hand", card=card_name(lang, action.cards[0]))
        if kind == Kind.LAY and not (state.drew and not state.matched):
            return text(lang, "game.err_draw_first")
    return text(lang, "game.err_not_allowed", action=str(action))
