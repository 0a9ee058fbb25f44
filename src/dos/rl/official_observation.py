"""What one seat of an official game may know, as a flat ``float32`` tensor.

Seats are written relative to the observing seat: entry 0 is the seat itself, entry 1 the seat
to its left, and so on, so one policy can play any seat. The slices are declared once
(``official_layout``); ``docs/rl.md`` prints the same table. The padded layout (the default)
has the same size at every player count: its per-seat slices have ``SEATS`` entries (those
past the last seat stay 0) and a one-hot ``players`` slice says how many there are; the exact
layout has one entry per seat (``dos.rl.layout``).

Only what the seat may know goes in (RULES.md §6 and ``views.SeatView``): its own hand, the
Center Row and the cards matched on it this turn, the face-up discard pile, hand sizes, pile
size, scores, bonuses, open DOS obligations and penalties owed. ``unseen`` is worked out from
those (the deck less every card the seat has seen), never from another hand.

>>> from dos.rules.official import new_game
>>> obs = observe(new_game(seed=3), 0)
>>> layout = official_layout(4)
>>> obs.shape == (layout.size,), int(obs[layout["hand"]].sum())
(True, 7)
>>> official_layout(2).size == official_layout(10).size, official_layout(2, "exact").size
(True, 264)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from dos.rl.layout import Layout, Slice, players_slice, seat_width
from dos.rules.official import Phase, SeatView, State
from dos.rules.official.cards import DECK_COUNTS, N_TYPES

SIZE_SCALE = 10.0
"""Hand sizes are divided by this."""
DECK_SIZE = 108.0


def official_layout(players: int, layout: str = "padded") -> Layout:
    """The observation layout for ``players`` seats: ``"padded"`` (the same for every player
    count) or ``"exact"`` (``dos.rl.layout``)."""
    n = seat_width(players, layout)
    padded = [players_slice()] if layout == "padded" else []
    return Layout(
        [
            Slice("hand", (N_TYPES,), "cards of each type in the seat's hand"),
            Slice("center", (N_TYPES,), "Center Row cards of each type not matched this turn"),
            Slice("matched", (N_TYPES,), "Center Row cards of each type matched this turn"),
            Slice("played", (N_TYPES,), "cards of each type played on them this turn"),
            Slice("discard", (N_TYPES,), "cards of each type in the face-up discard pile"),
            Slice(
                "unseen",
                (N_TYPES,),
                "cards of each type the seat has not seen (deck less "
                "hand, Center Row, played, discard)",
            ),
            Slice("phase", (4,), "one-hot: start, drawn, matching, placing (all 0: over)"),
            Slice("bonuses", (3,), "Single and Double Color Matches this turn, placements left"),
            *padded,
            Slice("to_act", (n,), "one-hot: the seat to act, relative (0: this seat)"),
            Slice("hand_sizes", (n,), f"hand sizes / {SIZE_SCALE:g}, relative seats"),
            Slice("dos_open", (n,), "1 where a DOS obligation is open, relative seats"),
            Slice("penalties", (n,), "DOS penalty cards owed at the end of the turn"),
            Slice("scores", (n,), "scores / target score, at most 1, relative seats"),
            Slice("draw_pile", (1,), f"draw pile size / {DECK_SIZE:g}"),
        ]
    )


_DECK = np.array(DECK_COUNTS, np.float32)
_layouts: dict[tuple[int, str], Layout] = {}


def _layout(players: int, layout: str) -> Layout:
    found = _layouts.get((players, layout))
    if found is None:
        found = _layouts[players, layout] = official_layout(players, layout)
    return found


def _fill(
    *,
    seat: int,
    players: int,
    hand: Iterable[int],
    center: list[int] | tuple[int, ...],
    matched: Iterable[tuple[int, tuple[int, ...]]],
    discard: Iterable[int],
    phase: int,
    bonuses: tuple[int, int, int],
    turn: int,
    hand_sizes: Iterable[int],
    dos_open: int,
    penalties: Iterable[int],
    scores: Iterable[int],
    target_score: int,
    draw_pile: int,
    out: np.ndarray | None,
    layout_name: str,
) -> np.ndarray:
    # Built as Python lists and written into the array once: element-wise NumPy writes cost
    # more than the whole rest of an environment step.
    layout = _layout(players, layout_name)
    width = seat_width(players, layout_name)
    pad = [0.0] * (width - players)
    types = N_TYPES
    counts = [0.0] * (5 * types)  # hand, center, matched, played, discard
    for card in hand:
        counts[card] += 1.0
    matched_at = set()
    for at, cards in matched:
        matched_at.add(at)
        counts[2 * types + center[at]] += 1.0
        for card in cards:
            counts[3 * types + card] += 1.0
    for at, card in enumerate(center):
        if at not in matched_at:
            counts[types + card] += 1.0
    for card in discard:
        counts[4 * types + card] += 1.0
    phases = [0.0] * 4
    if phase >= 0:
        phases[phase] = 1.0
    count: list[float] = []
    if layout_name == "padded":
        count = [0.0] * (width - 1)
        count[players - 2] = 1.0
    to_act = [0.0] * width
    to_act[(turn - seat) % players] = 1.0
    rel = [(seat + r) % players for r in range(players)]
    sizes = list(hand_sizes)
    owed = list(penalties)
    points = list(scores)
    rest = (
        phases
        + list(bonuses)
        + count
        + to_act
        + [sizes[s] / SIZE_SCALE for s in rel]
        + pad
        + [float(dos_open >> s & 1) for s in rel]
        + pad
        + [owed[s] for s in rel]
        + pad
        + [min(points[s] / target_score, 1.0) for s in rel]
        + pad
        + [draw_pile / DECK_SIZE]
    )
    if len(rest) != layout.size - 6 * types:  # the slices must follow the declared layout
        raise AssertionError(f"{len(rest)} values after 'unseen' for {layout.size} slots")
    obs = np.empty(layout.size, np.float32) if out is None else out
    obs[: 5 * types] = counts
    seen = obs[: 5 * types].reshape(5, types).sum(axis=0)
    np.maximum(_DECK - seen, 0.0, out=obs[5 * types : 6 * types])
    obs[6 * types :] = rest
    return obs


def _phase(phase: Phase, drew: bool, matched: bool) -> int:
    if phase == Phase.PLACING:
        return 3
    if phase == Phase.OVER:
        return -1
    if matched:
        return 2
    return 1 if drew else 0


def observe(
    state: State, seat: int, out: np.ndarray | None = None, layout: str = "padded"
) -> np.ndarray:
    """The observation of ``seat`` in ``state`` (written into ``out`` when given)."""
    return _fill(
        seat=seat,
        players=state.options.players,
        hand=state.hands[seat],
        center=state.center,
        matched=state.matched.items(),
        discard=state.discard,
        phase=_phase(state.phase, state.drew, bool(state.matched)),
        bonuses=(state.single_bonuses, state.double_bonuses, state.placements_left),
        turn=state.turn,
        hand_sizes=(len(h) for h in state.hands),
        dos_open=state.dos_open,
        penalties=state.penalties,
        scores=state.scores,
        target_score=state.options.target_score,
        draw_pile=len(state.draw_pile),
        out=out,
        layout_name=layout,
    )


def observe_view(
    view: SeatView, out: np.ndarray | None = None, layout: str = "padded"
) -> np.ndarray:
    """The same observation from a ``SeatView`` (what a bot is given)."""
    return _fill(
        seat=view.seat,
        players=view.options.players,
        hand=view.hand,
        center=view.center,
        matched=view.matched,
        discard=view.discard,
        phase=_phase(view.phase, view.drew, bool(view.matched)),
        bonuses=(view.single_bonuses, view.double_bonuses, view.placements_left),
        turn=view.turn,
        hand_sizes=view.hand_sizes,
        dos_open=sum(1 << s for s in view.dos_open),
        penalties=view.penalties,
        scores=view.scores,
        target_score=view.options.target_score,
        draw_pile=view.draw_pile_size,
        out=out,
        layout_name=layout,
    )
