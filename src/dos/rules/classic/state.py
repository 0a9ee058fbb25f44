"""The state of a game of classic Dos: plain data, everything RULES.md §9 needs.

A ``State`` is mutable for speed (``apply`` changes it in place after checking legality in
full); ``copy()`` is cheap, so search can branch by copying. Hands are lists of card types
kept sorted; the draw pile's top card and the discard pile's top card are the *last* elements
(positions write the draw pile top first and the discard pile oldest first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from dos.rules.classic.actions import Action
from dos.rules.classic.options import Options


class Phase(IntEnum):
    """Where the game stands.

    ``PLAY``: the seat to act plays a card or draws. ``REACTION``: the seat to act just
    brought its hand down to two cards or one and takes the reaction test. ``OVER``: every
    place is decided.
    """

    PLAY = 0
    REACTION = 1
    OVER = 2


@dataclass(slots=True)
class State:
    """Everything about one game. Compare two states with ``==``."""

    options: Options
    rng: int
    """The game's generator state (``dos.rng``); it decides every later shuffle and target."""
    hands: list[list[int]]
    draw_pile: list[int]
    """Top card last."""
    discard: list[int]
    """Top card last: the card to play on."""
    turn: int
    """The seat to act (in ``REACTION``: the seat taking the test)."""
    colour: int
    """The colour to follow: the top card's, or the colour wished with a wild."""
    direction: int = 1
    """``1``: clockwise (seat 0, 1, 2, ...); ``-1`` after an odd number of Reverses."""
    pending: int = 0
    """Cards the seat to act must draw unless it stacks (Draw Two, Wild Draw Four)."""
    phase: Phase = Phase.PLAY
    targets: tuple[tuple[int, int], ...] = ()
    """The reaction test's targets, ``(x, y)`` in thousandths of the play area's width and
    height (in ``REACTION`` only)."""
    after_reaction: int = -1
    """The seat to act once the reaction test is over (in ``REACTION`` only)."""
    ranking: list[int] = field(default_factory=list)
    """Seats in the order they emptied their hands; complete (every seat) once ``OVER``."""
    starter: int = 0
    """The seat that was drawn to play first."""
    history: list[Action] = field(default_factory=list)
    """Every action applied, seat ``None`` for the seat that was to act."""

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def top(self) -> int:
        """The top card of the discard pile."""
        return self.discard[-1]

    def active(self) -> list[int]:
        """The seats still playing (not yet placed), in seat order."""
        placed = set(self.ranking)
        return [s for s in range(self.options.players) if s not in placed]

    def copy(self) -> State:
        """An independent copy."""
        return State(
            self.options,
            self.rng,
            [hand[:] for hand in self.hands],
            self.draw_pile[:],
            self.discard[:],
            self.turn,
            self.colour,
            self.direction,
            self.pending,
            self.phase,
            self.targets,
            self.after_reaction,
            self.ranking[:],
            self.starter,
            self.history[:],
        )

    def all_cards(self) -> list[int]:
        """Every card in the game, wherever it is (for checks: the deck is conserved)."""
        return [c for hand in self.hands for c in hand] + self.draw_pile + self.discard
