"""What one seat of a classic game may know, as a flat ``float32`` tensor (RULES.md §9).

Seats are relative to the observing seat (entry 0 is the seat itself, then its left, ...). The
slices are declared once (``classic_layout``), padded (the default: the same size for every
player count, with a one-hot ``players`` slice) or exact (``dos.rl.layout``).

>>> from dos.rules.classic import new_game
>>> obs = observe(new_game(seed=3), 0)
>>> layout = classic_layout(4)
>>> obs.shape == (layout.size,), int(obs[layout["hand"]].sum())
(True, 7)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from dos.rl.layout import Layout, Slice, players_slice, seat_width
from dos.rules.classic import Phase, SeatView, State
from dos.rules.classic.cards import DECK_COUNTS, N_TYPES

SIZE_SCALE = 10.0
DECK_SIZE = 108.0


def classic_layout(players: int, layout: str = "padded") -> Layout:
    """The observation layout for ``players`` seats: ``"padded"`` (the same for every player
    count) or ``"exact"`` (``dos.rl.layout``)."""
    n = seat_width(players, layout)
    padded = [players_slice()] if layout == "padded" else []
    return Layout(
        [
            Slice("hand", (N_TYPES,), "cards of each type in the seat's hand"),
            Slice("top", (N_TYPES,), "one-hot: the top card of the discard pile"),
            Slice("colour", (4,), "one-hot: the colour to follow"),
            Slice("discard", (N_TYPES,), "cards of each type in the discard pile"),
            Slice("unseen", (N_TYPES,), "cards of each type the seat has not seen"),
            Slice("pending", (1,), f"cards waiting to be drawn / {SIZE_SCALE:g}"),
            Slice("direction", (1,), "1 when play runs counter-clockwise"),
            Slice("reaction", (3,), "one-hot: playing, reaction test at two cards, at one"),
            *padded,
            Slice("to_act", (n,), "one-hot: the seat to act, relative (0: this seat)"),
            Slice("hand_sizes", (n,), f"hand sizes / {SIZE_SCALE:g}, relative seats"),
            Slice("placed", (n,), "1 where a seat has already emptied its hand"),
            Slice("draw_pile", (1,), f"draw pile size / {DECK_SIZE:g}"),
        ]
    )


_DECK = np.array(DECK_COUNTS, dtype=np.float32)
_layouts: dict[tuple[int, str], Layout] = {}


def _layout(players: int, layout: str) -> Layout:
    found = _layouts.get((players, layout))
    if found is None:
        found = _layouts[players, layout] = classic_layout(players, layout)
    return found


def _fill(
    *,
    seat: int,
    players: int,
    hand: Iterable[int],
    discard: list[int] | tuple[int, ...],
    colour: int,
    pending: int,
    direction: int,
    phase: Phase,
    targets: int,
    turn: int,
    hand_sizes: Iterable[int],
    ranking: Iterable[int],
    draw_pile: int,
    out: np.ndarray | None,
    layout_name: str,
) -> np.ndarray:
    layout = _layout(players, layout_name)
    obs = np.zeros(layout.size, np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    base = layout["hand"].start
    for card in hand:
        obs[base + card] += 1.0
    if discard:
        obs[layout["top"].start + discard[-1]] = 1.0
    if colour >= 0:
        obs[layout["colour"].start + colour] = 1.0
    base = layout["discard"].start
    for card in discard:
        obs[base + card] += 1.0
    seen = obs[layout["hand"]] + obs[layout["discard"]]
    obs[layout["unseen"]] = np.maximum(_DECK - seen, 0.0)
    obs[layout["pending"].start] = pending / SIZE_SCALE
    obs[layout["direction"].start] = float(direction < 0)
    if phase == Phase.PLAY:
        obs[layout["reaction"].start] = 1.0
    elif phase == Phase.REACTION:
        obs[layout["reaction"].start + (1 if targets >= 2 else 2)] = 1.0
    if layout_name == "padded":
        obs[layout["players"].start + players - 2] = 1.0
    if phase != Phase.OVER:
        obs[layout["to_act"].start + (turn - seat) % players] = 1.0
    rel = [(seat + r) % players for r in range(players)]
    sizes = list(hand_sizes)
    start = layout["hand_sizes"].start
    obs[start : start + players] = [sizes[s] / SIZE_SCALE for s in rel]
    done = set(ranking)
    start = layout["placed"].start
    obs[start : start + players] = [float(s in done) for s in rel]
    obs[layout["draw_pile"].start] = draw_pile / DECK_SIZE
    return obs


def observe(
    state: State, seat: int, out: np.ndarray | None = None, layout: str = "padded"
) -> np.ndarray:
    """The observation of ``seat`` in ``state`` (written into ``out`` when given)."""
    return _fill(
        seat=seat,
        players=state.options.players,
        hand=state.hands[seat],
        discard=state.discard,
        colour=state.colour,
        pending=state.pending,
        direction=state.direction,
        phase=state.phase,
        targets=len(state.targets),
        turn=state.turn,
        hand_sizes=(len(h) for h in state.hands),
        ranking=state.ranking,
        draw_pile=len(state.draw_pile),
        out=out,
        layout_name=layout,
    )


def observe_view(
    view: SeatView, out: np.ndarray | None = None, layout: str = "padded"
) -> np.ndarray:
    """The same observation from a ``SeatView``."""
    return _fill(
        seat=view.seat,
        players=view.options.players,
        hand=view.hand,
        discard=view.discard,
        colour=view.colour,
        pending=view.pending,
        direction=view.direction,
        phase=view.phase,
        targets=len(view.targets),
        turn=view.turn,
        hand_sizes=view.hand_sizes,
        ranking=view.ranking,
        draw_pile=view.draw_pile_size,
        out=out,
        layout_name=layout,
    )
