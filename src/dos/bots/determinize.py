"""Sampling a full game state consistent with what one seat has seen (for search bots).

The cards a seat has not seen are the full deck less its own hand, the Center Row, the cards
matched this turn and the discard pile. A sample deals those at random into the other hands
(each keeping its size) and the draw pile (keeping its size). The game's generator state is
drawn at random too: the seat does not know it.
"""

from __future__ import annotations

import random
from collections import Counter

from dos.cards import full_deck
from dos.rules.official import Phase, SeatView, State


def unseen_cards(view: SeatView) -> list[int]:
    """The cards the seat has not seen, sorted."""
    seen = Counter(view.hand)
    seen.update(view.center)
    seen.update(view.discard)
    for _, cards in view.matched:
        seen.update(cards)
    remaining = Counter(full_deck())
    remaining.subtract(seen)
    return sorted(remaining.elements())


def sample_state(view: SeatView, rng: random.Random) -> State:
    """A state that agrees with everything in ``view``, hidden cards drawn at random.

    If the view's game holds fewer than 108 cards (a loaded position), the sample leaves the
    surplus out of play.
    """
    if view.options.players != len(view.hand_sizes):
        raise ValueError(f"view of seat {view.seat} lists {len(view.hand_sizes)} hands")
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(sorted(pool[:size]))
            del pool[:size]
    draw_pile = pool[: view.draw_pile_size]
    return State(
        options=view.options,
        rng=rng.getrandbits(64),
        hands=hands,
        center=list(view.center),
        draw_pile=draw_pile,
        discard=list(view.discard),
        dealer=view.dealer,
        turn=view.turn,
        phase=view.phase,
        drew=view.drew,
        matched=dict(view.matched),
        single_bonuses=view.single_bonuses,
        double_bonuses=view.double_bonuses,
        placements_left=view.placements_left,
        penalties=list(view.penalties),
        dos_open=sum(1 << s for s in view.dos_open),
        scores=list(view.scores),
        round=view.round,
        winner=view.winner if view.phase == Phase.OVER else None,
        round_results=list(view.round_results),
        history=list(view.history),
    )
