"""What the public history proves about a hidden hand (for search bots, official rules).

A player who **draws and then lays** (RULES.md §3: "If you make none, you must lay one card")
showed that the hand they held after the draw made no match on the Center Row they faced: a
player who could shed cards by matching does not shed a single card by laying instead. So
every card they still hold from that hand is a card that matched nothing there — no number
of a Center Row card, no Wild # (it matches any number), no two cards adding up to one.

This module reads that fact from a seat's view for the player who acted just before the
seat's turn (in two-player games: the opponent's last turn), the case the view alone proves
without remembering earlier views: the Center Row they faced is the seat's own Center Row
without the card they laid, which lies at its end. Cards they received since (penalties of
a catch) are not covered.

>>> from dos.rules.official import new_game, view
>>> fruitless_draw(view(new_game(seed=5), 0)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from dos.rules.official import Kind, Phase, SeatView
from dos.rules.official.legal import matches


@dataclass(frozen=True, slots=True)
class FruitlessDraw:
    """A player's last turn was a draw and a lay: ``cards`` of their current hand are cards
    that, together with ``laid``, made no match on ``faced`` (the Center Row of that turn)."""

    seat: int
    cards: int
    faced: tuple[int, ...]
    laid: int

    def allows(self, part: list[int]) -> bool:
        """Whether ``part`` (``cards`` cards) could be what the seat kept from that hand."""
        return not matches([*part, self.laid], list(self.faced), {})

    def allows_card(self, card: int) -> bool:
        """Whether one card could be among them (it matches nothing on its own)."""
        return not matches([card], list(self.faced), {})


def fruitless_draw(view: SeatView) -> FruitlessDraw | None:
    """The fruitless draw of the player who acted just before ``view``'s turn, if that is what
    their turn was and the view is still in the Center Row it left (``None`` otherwise).

    The seat's own turn so far is skipped: its draw, its matches (the Center Row does not
    change until the turn's matching ends, RULES.md §4), so the inference holds until the
    seat ends its matching; in the placing phase the row has changed and nothing is inferred.
    """
    if view.phase != Phase.TURN or view.seat != view.turn:
        return None
    players = len(view.hand_sizes)
    previous = (view.turn - 1) % players
    own = int(view.drew) + len(view.matched)
    caught = 0
    turn_actions = []
    for action in reversed(view.history):
        if action.kind == Kind.CATCH:
            if action.target == previous:
                caught += 1
            continue
        if action.kind == Kind.CALL:
            continue
        if own:
            own -= 1
            continue
        turn_actions.append(action)
        if len(turn_actions) == 2:
            break
    if len(turn_actions) < 2:
        return None
    lay, draw = turn_actions
    # The row they faced held two cards at least (RULES.md §4.2): a shorter one means the lay
    # was in another round, or the piles ran dry; either way nothing is inferred.
    if lay.kind != Kind.LAY or draw.kind != Kind.DRAW or len(view.center) < 3:
        return None
    laid = lay.cards[0]
    if view.center[-1] != laid:
        return None
    cards = view.hand_sizes[previous] - 2 * caught
    if cards <= 0:
        return None
    return FruitlessDraw(previous, cards, view.center[:-1], laid)
