"""Sampling a full game state consistent with what one seat has seen (for search bots).

The cards a seat has not seen are the full deck less its own hand, the Center Row, the cards
matched this turn and the discard pile. A sample deals those at random into the other hands
(each keeping its size) and the draw pile (keeping its size). The game's generator state is
drawn at random too: the seat does not know it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from dos.bots.inference import Rule, read_history
from dos.bots.opponent import GreedyModel
from dos.rules.official import Phase, SeatView, State
from dos.rules.official.cards import full_deck

PARTICLES = 48
"""Hands per seat a sampler keeps that agree with the opponent model."""
TRIES = 4
"""Hands dealt per hand kept, at most, while looking for them."""
CHECKS = 2000
"""Decisions the opponent model may retake per seat while looking for them (a bound on the
work: about 0.1 s)."""


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

    With ``infer`` a sample also agrees with what the history tells of the hidden hands
    (``dos.bots.inference``): each reading of the round (a hand that made no match on a row)
    holds of the cards the player still holds from then — in every sample when the rules
    prove it, a likely reading in the share ``infer`` (0 to 1) of them. A hand is dealt card
    by card from the shuffled unseen cards, the cards held longest first: each card is the
    first that, with the cards dealt before it, breaks none of the readings that cover it.

    With ``model`` the hands also agree with what the players chose (``dos.bots.opponent``):
    at the first sample, up to ``PARTICLES`` hands per player that the model accepts are
    dealt as above; the share ``model`` of the samples then take one of them (when the cards
    are still free), the others are dealt as above.
    """

    __slots__ = (
        "infer",
        "informed",
        "model",
        "model_share",
        "options",
        "particles",
        "pool",
        "round_only",
        "rules",
        "view",
    )

    def __init__(
        self,
        view: SeatView,
        *,
        round_only: bool = False,
        infer: float = 0.0,
        model: float = 0.0,
    ) -> None:
        if view.options.players != len(view.hand_sizes):
            raise ValueError(f"view of seat {view.seat} lists {len(view.hand_sizes)} hands")
        self.view = view
        self.round_only = round_only
        self.pool = unseen_cards(view)
        self.options = replace(view.options, target_score=1) if round_only else view.options
        self.infer = infer
        """The share of samples that follow a likely reading of the history (a fruitless draw:
        players now and then lay while they could match); facts are followed by all."""
        self.rules: dict[int, list[Rule]] = {}
        """With ``infer``: per other seat, what the history asks of its hand."""
        self.model_share = model
        """The share of samples whose hands agree with the opponent model."""
        self.model: GreedyModel | None = None
        self.particles: dict[int, list[list[int]]] = {}
        """Per seat, hands that agree with the model (dealt at the first sample)."""
        self.informed: list[int] = []
        """The seats whose hands the history tells something about."""
        if infer <= 0 and model <= 0:
            return
        history = read_history(view)
        if infer > 0:
            for reading in history.readings:
                rule = Rule.of(reading)
                if rule is not None:
                    self.rules.setdefault(reading.seat, []).append(rule)
        if model > 0 and history.decisions:
            self.model = GreedyModel(history.decisions)
        seats = set(self.rules)
        if self.model is not None:
            seats.update(self.model.seats())
        self.informed = sorted(seats)

    def sample(self, rng: random.Random) -> State:
        """One state consistent with the view, the hidden cards dealt with ``rng``."""
        view = self.view
        pool = self.pool[:]
        rand = rng.random
        pool.sort(key=lambda _: rand())  # a uniform shuffle, faster than rng.shuffle
        kept: dict[int, list[int]] = {}
        model = self.model
        if model is not None and not self.particles:
            self._find_particles(model, rng)
        for seat in self.informed:
            particles = self.particles.get(seat)
            if particles and (self.model_share >= 1.0 or rand() < self.model_share):
                hand = _take(pool, particles[int(rand() * len(particles))])
                if hand is not None:
                    kept[seat] = hand
                    continue
            kept[seat] = self._hand(pool, seat, rand)
        hands: list[list[int]] = []
        start = 0
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.seat:
                hands.append(list(view.hand))
                continue
            hand = kept.get(seat)
            if hand is None:
                hand = pool[start : start + size]
                start += size
            hand.sort()
            hands.append(hand)
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

    def _hand(self, pool: list[int], seat: int, rand: Callable[[], float]) -> list[int]:
        """A hand for ``seat`` taken from the shuffled ``pool``: its oldest cards honour the
        readings (the likely ones in the share ``infer``), the rest in the pool's order."""
        size = self.view.hand_sizes[seat]
        rules = self.rules.get(seat, [])
        chosen = [r for r in rules if r.proven or self.infer >= 1.0 or rand() < self.infer]
        found = _deal(pool, size, chosen) if chosen else []
        if found is None and len(chosen) > 1:
            found = _deal(pool, size, [r for r in chosen if r.proven])
        hand = found or []
        rest = size - len(hand)
        hand.extend(pool[:rest])
        del pool[:rest]
        return hand

    def _find_particles(self, model: GreedyModel, rng: random.Random) -> None:
        """Up to ``PARTICLES`` hands per seat the model agrees with, from ``TRIES`` times as
        many dealt as ``_hand`` deals them (fewer if the checks run past ``CHECKS``)."""
        rand = rng.random
        for seat in model.seats():
            found: list[list[int]] = []
            limit = model.checks + CHECKS
            for _ in range(PARTICLES * TRIES):
                if model.checks >= limit:
                    break
                pool = self.pool[:]
                pool.sort(key=lambda _: rand())
                hand = self._hand(pool, seat, rand)
                if model.agrees(seat, hand):
                    found.append(hand)
                    if len(found) == PARTICLES:
                        break
            self.particles[seat] = found


def _take(pool: list[int], hand: list[int]) -> list[int] | None:
    """``hand``'s cards taken out of ``pool`` (a new list), or ``None`` and the pool as it
    was when the pool lacks one of them."""
    taken: list[int] = []
    for card in hand:
        try:
            pool.remove(card)
        except ValueError:
            pool.extend(taken)
            return None
        taken.append(card)
    return taken


def _deal(pool: list[int], size: int, rules: list[Rule]) -> list[int] | None:
    """The oldest cards of a hand of ``size`` that ``rules`` cover, taken out of the shuffled
    ``pool`` in its order (see ``Sampler``); ``None``, and the pool untouched, when the pool
    cannot supply them."""
    needs = [size - rule.since for rule in rules]
    count = max(needs, default=0)
    if count <= 0:
        return []
    forbidden = [rule.banned for rule in rules]
    taken = [False] * len(pool)
    picks: list[int] = []
    for position in range(count):
        active = [k for k, need in enumerate(needs) if need > position]
        for index, card in enumerate(pool):
            if taken[index] or any(forbidden[k] >> card & 1 for k in active):
                continue
            taken[index] = True
            picks.append(index)
            for k in active:
                forbidden[k] |= rules[k].partners[card]
            break
        else:
            return None
    hand = [pool[i] for i in picks]
    for i in sorted(picks, reverse=True):
        del pool[i]
    return hand


def sample_state(view: SeatView, rng: random.Random) -> State:
    """A state that agrees with everything in ``view``, hidden cards drawn at random
    (``Sampler(view).sample(rng)``)."""
    return Sampler(view).sample(rng)
