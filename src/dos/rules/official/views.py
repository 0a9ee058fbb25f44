"""What one seat may know (RULES.md §6, and the hidden information of a card game).

A ``SeatView`` holds the seat's own hand, every public fact (hand sizes, the Center Row and
the cards played on it this turn, pile sizes, the face-up discard pile, scores, bonuses, open
DOS obligations, penalties owed, round results, the public history) and the seat's legal
actions. It never holds another hand, the order of the draw pile or the generator state, so
a bot or a client that gets only views cannot learn them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dos.rules.official.actions import Action, parse_action
from dos.rules.official.cards import NAMES, parse_card
from dos.rules.official.legal import legal_actions
from dos.rules.official.options import Options
from dos.rules.official.state import Phase, RoundResult, State
from dos.seats import check_seat


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game."""

    seat: int
    options: Options
    round: int
    dealer: int
    turn: int
    phase: Phase
    drew: bool
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    center: tuple[int, ...]
    matched: tuple[tuple[int, tuple[int, ...]], ...]
    single_bonuses: int
    double_bonuses: int
    placements_left: int
    draw_pile_size: int
    discard: tuple[int, ...]
    penalties: tuple[int, ...]
    dos_open: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int | None
    round_results: tuple[RoundResult, ...]
    history: tuple[Action, ...]
    legal: tuple[Action, ...]
    """The legal actions of this seat, in the engine's order."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON, cards and actions in notation."""
        return {
            "seat": self.seat,
            "options": self.options.to_json(),
            "round": self.round,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": phase_name(self.phase, self.drew, bool(self.matched)),
            "drew": self.drew,
            "hand": [NAMES[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "center": [NAMES[c] for c in self.center],
            "matched": [
                {"target": index, "cards": [NAMES[c] for c in cards]}
                for index, cards in self.matched
            ],
            "bonuses": {"single": self.single_bonuses, "double": self.double_bonuses},
            "placements_left": self.placements_left,
            "draw_pile_size": self.draw_pile_size,
            "discard": [NAMES[c] for c in self.discard],
            "penalties": list(self.penalties),
            "dos_open": list(self.dos_open),
            "scores": list(self.scores),
            "winner": self.winner,
            "round_results": [
                {
                    "round": r.round,
                    "winner": r.winner,
                    "points": r.points,
                    "hands": [[NAMES[c] for c in hand] for hand in r.hands],
                }
                for r in self.round_results
            ],
            "history": [str(a) for a in self.history],
            "legal": [str(a) for a in self.legal],
        }


def phase_name(phase: Phase, drew: bool, matched: bool) -> str:
    """The phase in words used by positions and views: ``start`` (match or draw), ``matching``
    (more matches or end), ``drawn`` (match or lay), ``placing``, ``over``."""
    if phase == Phase.PLACING:
        return "placing"
    if phase == Phase.OVER:
        return "over"
    if matched:
        return "matching"
    return "drawn" if drew else "start"


def view(state: State, seat: int) -> SeatView:
    """The view of ``seat``.

    >>> from dos.rules.official.setup import new_game
    >>> v = view(new_game(seed=3), 0)
    >>> len(v.hand), v.hand_sizes
    (7, (7, 7, 7, 7))
    """
    players = state.options.players
    check_seat(seat, players)
    return SeatView(
        seat=seat,
        options=state.options,
        round=state.round,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        drew=state.drew,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        center=tuple(state.center),
        matched=tuple(sorted(state.matched.items())),
        single_bonuses=state.single_bonuses,
        double_bonuses=state.double_bonuses,
        placements_left=state.placements_left,
        draw_pile_size=len(state.draw_pile),
        discard=tuple(state.discard),
        penalties=tuple(state.penalties),
        dos_open=tuple(s for s in range(players) if state.dos_open >> s & 1),
        scores=tuple(state.scores),
        winner=state.winner,
        round_results=tuple(state.round_results),
        history=tuple(state.history),
        legal=tuple(legal_actions(state, seat)),
    )


_PHASES: dict[str, Phase] = {
    "start": Phase.TURN,
    "matching": Phase.TURN,
    "drawn": Phase.TURN,
    "placing": Phase.PLACING,
    "over": Phase.OVER,
}
"""Each phase's name in a view (``phase_name``) and the phase it names."""


def view_from_json(data: dict[str, Any]) -> SeatView:
    """The ``SeatView`` whose ``to_json`` is ``data``; a view sent without its ``history``
    comes back with an empty one. JSON that is no view raises ``KeyError``, ``TypeError`` or
    ``ValueError`` (the registry's ``Entry.seat_view``).

    >>> from dos.rules.official.setup import new_game
    >>> seen = view(new_game(seed=4), 1)
    >>> view_from_json(seen.to_json()) == seen
    True
    """

    def cards(names: Any) -> tuple[int, ...]:
        return tuple(parse_card(name) for name in names)

    def ints(values: Any) -> tuple[int, ...]:
        return tuple(int(value) for value in values)

    return SeatView(
        seat=int(data["seat"]),
        options=Options.from_json(data["options"]),
        round=int(data["round"]),
        dealer=int(data["dealer"]),
        turn=int(data["turn"]),
        phase=_PHASES[data["phase"]],
        drew=bool(data["drew"]),
        hand=cards(data["hand"]),
        hand_sizes=ints(data["hand_sizes"]),
        center=cards(data["center"]),
        matched=tuple((int(m["target"]), cards(m["cards"])) for m in data["matched"]),
        single_bonuses=int(data["bonuses"]["single"]),
        double_bonuses=int(data["bonuses"]["double"]),
        placements_left=int(data["placements_left"]),
        draw_pile_size=int(data["draw_pile_size"]),
        discard=cards(data["discard"]),
        penalties=ints(data["penalties"]),
        dos_open=ints(data["dos_open"]),
        scores=ints(data["scores"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        round_results=tuple(
            RoundResult(
                int(r["round"]),
                int(r["winner"]),
                int(r["points"]),
                tuple(cards(hand) for hand in r["hands"]),
            )
            for r in data["round_results"]
        ),
        history=tuple(parse_action(a) for a in data.get("history", ())),
        legal=tuple(parse_action(a) for a in data["legal"]),
    )


def public_json(state: State, history: bool = False) -> dict[str, Any]:
    """The public part of every seat's view as JSON: ``view(state, seat).to_json()`` less
    ``seat``, ``hand`` and ``legal`` (and ``history`` unless asked for), built straight from
    the state, once for every seat (the server sends it to each connection).

    >>> from dos.rules.official.setup import new_game
    >>> state = new_game(seed=3)
    >>> full = view(state, 0).to_json()
    >>> public_json(state, history=True) == {
    ...     k: v for k, v in full.items() if k not in ("seat", "hand", "legal")
    ... }
    True
    """
    players = state.options.players
    public: dict[str, Any] = {
        "options": state.options.to_json(),
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": phase_name(state.phase, state.drew, bool(state.matched)),
        "drew": state.drew,
        "hand_sizes": [len(h) for h in state.hands],
        "center": [NAMES[c] for c in state.center],
        "matched": [
            {"target": index, "cards": [NAMES[c] for c in cards]}
            for index, cards in sorted(state.matched.items())
        ],
        "bonuses": {"single": state.single_bonuses, "double": state.double_bonuses},
        "placements_left": state.placements_left,
        "draw_pile_size": len(state.draw_pile),
        "discard": [NAMES[c] for c in state.discard],
        "penalties": list(state.penalties),
        "dos_open": [s for s in range(players) if state.dos_open >> s & 1],
        "scores": list(state.scores),
        "winner": state.winner,
        "round_results": [
            {
                "round": r.round,
                "winner": r.winner,
                "points": r.points,
                "hands": [[NAMES[c] for c in hand] for hand in r.hands],
            }
            for r in state.round_results
        ],
    }
    if history:
        public["history"] = [str(a) for a in state.history]
    return public


def private_json(state: State, seat: int) -> dict[str, Any]:
    """The private part of ``seat``'s view as JSON: its ``hand`` and its ``legal`` actions.

    >>> from dos.rules.official.setup import new_game
    >>> state = new_game(seed=3)
    >>> private = private_json(state, 1)
    >>> private == {k: view(state, 1).to_json()[k] for k in ("hand", "legal")}
    True
    """
    return {
        "hand": [NAMES[c] for c in state.hands[seat]],
        "legal": [str(a) for a in legal_actions(state, seat)],
    }
