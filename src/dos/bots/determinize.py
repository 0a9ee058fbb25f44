"""Sampling a full game state consistent with what one seat has seen (for search bots).

The cards a seat has not seen are the full deck less its own hand, the Center Row, the cards
matched this turn and the discard pile. A sample deals those at random into the other hands
(each keeping its size) and the draw pile (keeping its size). The game's generator state is
drawn at random too: the seat does not know it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from dos.bots.inference import last_turn
from dos.cards import N_TYPES, full_deck
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


class Sampler:
    """Samples states consistent with one view; the work that depends only on the view (the
    unseen cards) is done once, so a search bot can draw thousands of samples per decision.

    A sample agrees with everything in the view; the other hands and the draw pile are dealt
    at random from the cards the seat has not seen, and the game's generator state is drawn at
    random too (the seat does not know it). With ``round_only`` the sample is for simulating
    the rest of the round only: it carries no history and no past round results, and its
    target score is 1, so the round's end ends the simulated game instead of dealing a new
    round (a search scores rounds itself, against the real target).

    If the view's game holds fewer than 108 cards (a loaded position), a sample leaves the
    surplus out of play.

    With ``infer`` a sample also agrees with what the history tells of a hidden hand
    (``dos.bots.inference``): the cards the player before the seat kept from their last turn
    are dealt from cards that match nothing on the row they left — in every sample when the
    rules prove it, in the share ``infer`` (0 to 1) of them when it is a likely reading.
    """

    __slots__ = ("allowed", "infer", "known", "options", "pool", "round_only", "view")

    def __init__(self, view: SeatView, *, round_only: bool = False, infer: float = 0.0) -> None:
        if view.options.players != len(view.hand_sizes):
            raise ValueError(f"view of seat {view.seat} lists {len(view.hand_sizes)} hands")
        self.view = view
        self.round_only = round_only
        self.pool = unseen_cards(view)
        self.options = replace(view.options, target_score=1) if round_only else view.options
        self.infer = infer
        """The share of samples that follow a likely reading of the history (a fruitless draw:
        players now and then lay while they could match); facts are followed by all."""
        self.known = last_turn(view) if infer > 0 else None
        """With ``infer``: what the history tells about a hidden hand (``dos.bots.inference``)."""
        self.allowed = (
            [self.known.allows_card(card) for card in range(N_TYPES)] if self.known else []
        )

    def sample(self, rng: random.Random) -> State:
        """One state consistent with the view, the hidden cards dealt with ``rng``."""
        view = self.view
        pool = self.pool[:]
        rand = rng.random
        pool.sort(key=lambda _: rand())  # a uniform shuffle, faster than rng.shuffle
        kept: list[int] = []
        known = self.known
        if known is not None and (known.proven or self.infer >= 1.0 or rand() < self.infer):
            kept = self._kept(pool)
        hands: list[list[int]] = []
        start = 0
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append(list(view.hand))
                continue
            own = kept if known is not None and seat == known.seat else []
            hand = own + pool[start : start + size - len(own)]
            hand.sort()
            hands.append(hand)
            start += size - len(own)
        full = not self.round_only
        return State(
            options=self.options,
            rng=rng.getrandbits(64),
            hands=hands,
            center=list(view.center),
            draw_pile=pool[start : start + view.draw_pile_size],
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
            winner=view.winner if full and view.phase == Phase.OVER else None,
            round_results=list(view.round_results) if full else [],
            history=list(view.history) if full else [],
        )

    def _kept(self, pool: list[int]) -> list[int]:
        """Cards for the hand the history speaks of, taken out of the shuffled ``pool`` in its
        order: each card that matches nothing on the row that hand left, alone or with the
        cards taken before it and the public ones of that hand (so no two add up to a number
        there). Empty, and the pool untouched, when the pool cannot supply them."""
        known = self.known
        assert known is not None
        allowed = self.allowed
        picks: list[int] = []
        part: list[int] = []
        for index, card in enumerate(pool):
            if allowed[card] and known.allows([*part, card]):
                picks.append(index)
                part.append(card)
                if len(part) == known.cards:
                    for i in reversed(picks):
                        del pool[i]
                    return part
        return []


def sample_state(view: SeatView, rng: random.Random) -> State:
    """A state that agrees with everything in ``view``, hidden cards drawn at random
    (``Sampler(view).sample(rng)``)."""
    return Sampler(view).sample(rng)
