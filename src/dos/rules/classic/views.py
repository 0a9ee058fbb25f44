"""What one seat may know (RULES.md §9, and the hidden information of a card game).

A ``SeatView`` holds the seat's own hand and every public fact: hand sizes, the discard pile
(face up), the colour to follow, the pending draw, the direction, the ranking so far, the
reaction test (whose targets every player sees), the size of the draw pile, the public history
and the seat's legal actions. It never holds another hand, the order of the draw pile or the
generator state, so a bot or a client that gets only views cannot learn them.

``to_json`` is what a client draws from; the reaction test appears as::

    "reaction": {"seat": 2, "targets": [{"x": 0.31, "y": 0.72}, {"x": 0.8, "y": 0.15}],
                 "radius": 0.06, "time_limit_ms": 3000}

``x`` and ``y`` are fractions of the play area's width and height, ``radius`` half a target's
side in the same units. The engine has no clock: the deadline is ``time_limit_ms`` after the
targets are shown, and ``dos.rules.classic.reaction.ReactionTest`` keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dos.rules.classic.actions import Action, parse_action
from dos.rules.classic.cards import COLOURS, NAMES, parse_card, parse_colour
from dos.rules.classic.legal import legal_actions
from dos.rules.classic.options import Options
from dos.rules.classic.reaction import TARGET_RADIUS, targets_json
from dos.rules.classic.state import Phase, State
from dos.seats import check_seat

PHASE_NAMES = ("play", "reaction", "over")
"""The phase in words, as positions and views write it, indexed by ``Phase``."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game."""

    seat: int
    options: Options
    turn: int
    phase: Phase
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    """Oldest first; the last card is the top card."""
    colour: int
    direction: int
    pending: int
    draw_pile_size: int
    targets: tuple[tuple[int, int], ...]
    ranking: tuple[int, ...]
    starter: int
    history: tuple[Action, ...]
    legal: tuple[Action, ...]
    """The legal actions of this seat, in the engine's order."""

    @property
    def top(self) -> int:
        """The top card of the discard pile."""
        return self.discard[-1]

    def to_json(self) -> dict[str, Any]:
        """The view as JSON, cards and actions in notation.

        >>> from dos.rules.classic.setup import new_game
        >>> data = view(new_game(seed=2), 0).to_json()
        >>> data["phase"], data["reaction"], len(data["hand"])
        ('play', None, 7)
        """
        reaction = None
        if self.phase == Phase.REACTION:
            reaction = {
                "seat": self.turn,
                "targets": targets_json(self.targets),
                "radius": TARGET_RADIUS / 1000,
                "time_limit_ms": self.options.reaction_time_ms,
            }
        return {
            "rules": "classic",
            "seat": self.seat,
            "options": self.options.to_json(),
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "hand": [NAMES[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "top": NAMES[self.top],
            "colour": COLOURS[self.colour],
            "direction": self.direction,
            "pending": self.pending,
            "discard": [NAMES[c] for c in self.discard],
            "draw_pile_size": self.draw_pile_size,
            "reaction": reaction,
            "ranking": list(self.ranking),
            "starter": self.starter,
            "history": [str(a) for a in self.history],
            "legal": [str(a) for a in self.legal],
        }


def view(state: State, seat: int) -> SeatView:
    """The view of ``seat``.

    >>> from dos.rules.classic.setup import new_game
    >>> v = view(new_game(seed=3), 0)
    >>> len(v.hand), v.hand_sizes
    (7, (7, 7, 7, 7))
    """
    check_seat(seat, state.options.players)
    return SeatView(
        seat=seat,
        options=state.options,
        turn=state.turn,
        phase=state.phase,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        discard=tuple(state.discard),
        colour=state.colour,
        direction=state.direction,
        pending=state.pending,
        draw_pile_size=len(state.draw_pile),
        targets=state.targets,
        ranking=tuple(state.ranking),
        starter=state.starter,
        history=tuple(state.history),
        legal=tuple(legal_actions(state, seat)),
    )


def view_from_json(data: dict[str, Any]) -> SeatView:
    """The ``SeatView`` whose ``to_json`` is ``data``; a view sent without its ``history``
    comes back with an empty one. The reaction test's targets come back in thousandths of the
    play area, as the engine keeps them (``targets_json`` gives them as fractions). JSON that
    is no view raises ``KeyError``, ``TypeError`` or ``ValueError`` (the registry's
    ``Entry.seat_view``).

    >>> from dos.rules.classic.setup import new_game
    >>> seen = view(new_game(seed=4), 1)
    >>> view_from_json(seen.to_json()) == seen
    True
    """
    reaction = data["reaction"]
    targets: tuple[tuple[int, int], ...] = ()
    if reaction is not None:
        targets = tuple(
            (round(float(t["x"]) * 1000), round(float(t["y"]) * 1000)) for t in reaction["targets"]
        )
    return SeatView(
        seat=int(data["seat"]),
        options=Options.from_json(data["options"]),
        turn=int(data["turn"]),
        phase=Phase(PHASE_NAMES.index(data["phase"])),
        hand=tuple(parse_card(c) for c in data["hand"]),
        hand_sizes=tuple(int(n) for n in data["hand_sizes"]),
        discard=tuple(parse_card(c) for c in data["discard"]),
        colour=parse_colour(data["colour"]),
        direction=int(data["direction"]),
        pending=int(data["pending"]),
        draw_pile_size=int(data["draw_pile_size"]),
        targets=targets,
        ranking=tuple(int(n) for n in data["ranking"]),
        starter=int(data["starter"]),
        history=tuple(parse_action(a) for a in data.get("history", ())),
        legal=tuple(parse_action(a) for a in data["legal"]),
    )
