"""The state of a game of official DOS: plain data, everything §2-§7 needs.

A ``State`` is mutable for speed (``apply`` changes it in place after checking legality in
full); ``copy()`` is cheap, so search can branch by copying. Hands are lists of card types
kept sorted; the draw pile's top card is the *last* element (positions write it top first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from dos.rules.official.actions import Action
from dos.rules.official.options import Options


class Phase(IntEnum):
    """Where the game stands.

    ``TURN``: the player to act matches, draws, lays or ends (which of these is legal follows
    from ``drew`` and ``matched``). ``PLACING``: the player lays colour-bonus cards (§4.3).
    ``OVER``: someone reached the target score.
    """

    TURN = 0
    PLACING = 1
    OVER = 2


class RoundResult(NamedTuple):
    """How a round ended: who went out, the points they scored, every hand left (§7)."""

    round: int
    winner: int
    points: int
    hands: tuple[tuple[int, ...], ...]


@dataclass(slots=True)
class State:
    """Everything about one game. Compare two states with ``==``."""

    options: Options
    rng: int
    """The game's generator state (``dos.rng``); it decides every later shuffle."""
    hands: list[list[int]]
    center: list[int]
    """The Center Row, in order. Indices stay fixed while a turn's matches are made."""
    draw_pile: list[int]
    """Top card last."""
    discard: list[int]
    dealer: int
    turn: int
    """The seat to act."""
    phase: Phase = Phase.TURN
    drew: bool = False
    """The player to act drew this turn."""
    matched: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Center Row index -> the cards played on it this turn (§3: at most one match each)."""
    single_bonuses: int = 0
    double_bonuses: int = 0
    placements_left: int = 0
    penalties: list[int] = field(default_factory=list)
    """Per seat, DOS penalty cards owed at the end of that seat's own turn (§4.4, §6)."""
    dos_open: int = 0
    """Bit ``s`` set: seat ``s`` has an open DOS obligation (§6)."""
    scores: list[int] = field(default_factory=list)
    round: int = 1
    winner: int | None = None
    round_results: list[RoundResult] = field(default_factory=list)
    dealer_draws: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    """The draw for first dealer: each pass, the (seat, card) pairs drawn (§2)."""
    history: list[Action] = field(default_factory=list)
    """Every action applied, seat ``None`` for the seat that was to act."""
    match_cache: list[Action] | None = field(default=None, compare=False, repr=False)
    """The matches open to the seat to act, when ``apply`` already worked them out (it must,
    after a match, to know whether the matches end by themselves). Never changed in place;
    any action of the seat to act clears it. Not part of the game: ignored by ``==``."""

    @property
    def players(self) -> int:
        return self.options.players

    def copy(self) -> State:
        """An independent copy (history is shared-structure-free: a new list)."""
        return State(
            self.options,
            self.rng,
            [hand[:] for hand in self.hands],
            self.center[:],
            self.draw_pile[:],
            self.discard[:],
            self.dealer,
            self.turn,
            self.phase,
            self.drew,
            dict(self.matched),
            self.single_bonuses,
            self.double_bonuses,
            self.placements_left,
            self.penalties[:],
            self.dos_open,
            self.scores[:],
            self.round,
            self.winner,
            self.round_results[:],
            self.dealer_draws[:],
            self.history[:],
            self.match_cache,
        )

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (for checks: the deck is conserved)."""
        cards = [c for hand in self.hands for c in hand]
        cards += self.center + self.draw_pile + self.discard
        for played in self.matched.values():
            cards += played
        return cards
