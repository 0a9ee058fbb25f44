"""Positions: any state saved as JSON and loaded back (format in ``docs/positions.md``).

A position at the start of a turn needs only ``players``, ``dealer``, ``turn``, ``hands``,
``center``, ``draw_pile`` (top card first), ``discard`` and ``scores``; ``options`` is
optional. A saved position writes every field, including what a state in the middle of a turn
needs. Loading checks every field and names the one that is wrong. Cards a position does not
list are out of play until the next deal, which always uses all 108 cards.

The history, the round results and the draw for dealer are not part of a position: a game
record (``dos.records``) keeps those.
"""

from __future__ import annotations

from typing import Any

from dos.errors import PositionError
from dos.jsonfields import cards_field, check_card_counts, check_position, int_field
from dos.rng import seed_state
from dos.rules.official.cards import DECK_COUNTS, NAMES, parse_card
from dos.rules.official.options import Options
from dos.rules.official.state import Phase, State
from dos.rules.official.views import phase_name

FORMAT = "dos-position"
VERSION = 1
RULES = "official"
REQUIRED = ("players", "dealer", "turn", "hands", "center", "draw_pile", "discard", "scores")
OPTIONAL = (
    "format",
    "version",
    "rules",
    "options",
    "round",
    "phase",
    "drew",
    "matched",
    "bonuses",
    "placements_left",
    "penalties",
    "dos_open",
    "winner",
    "rng",
)
_PHASES = ("start", "matching", "drawn", "placing", "over")
_PHASE_OF = {"placing": Phase.PLACING, "over": Phase.OVER}
"""The engine's phase for a position's phase name; the other names are all ``Phase.TURN``."""


def to_position(state: State) -> dict[str, Any]:
    """The state as a JSON-ready position with every field.

    >>> from dos.rules.official.setup import new_game
    >>> p = to_position(new_game(seed=5))
    >>> p["players"], len(p["draw_pile"]), from_position(p).turn == p["turn"]
    (4, 78, True)
    """
    players = state.options.players
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": RULES,
        "options": state.options.to_json(),
        "players": players,
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": phase_name(state.phase, state.drew, bool(state.matched)),
        "drew": state.drew,
        "hands": [[NAMES[c] for c in hand] for hand in state.hands],
        "center": [NAMES[c] for c in state.center],
        "matched": [
            {"target": index, "cards": [NAMES[c] for c in cards]}
            for index, cards in sorted(state.matched.items())
        ],
        "bonuses": {"single": state.single_bonuses, "double": state.double_bonuses},
        "placements_left": state.placements_left,
        "draw_pile": [NAMES[c] for c in reversed(state.draw_pile)],
        "discard": [NAMES[c] for c in state.discard],
        "penalties": list(state.penalties),
        "dos_open": [s for s in range(players) if state.dos_open >> s & 1],
        "scores": list(state.scores),
        "winner": state.winner,
        "rng": state.rng,
    }


def from_position(data: object) -> State:
    """A state from a position; raises ``PositionError`` naming the first bad field."""
    data = check_position(data, REQUIRED, OPTIONAL, fmt=FORMAT, version=VERSION, rules=RULES)
    players = int_field(data, "players", 2, 10)
    given = data.get("options", {})
    options = Options.from_json({"players": players, **given} if isinstance(given, dict) else given)
    if options.players != players:
        raise PositionError(f"options.players: {options.players} disagrees with players {players}")
    dealer = int_field(data, "dealer", 0, players - 1)
    turn = int_field(data, "turn", 0, players - 1)
    hands = _list(data, "hands", players)
    hand_cards = [sorted(_cards(hand, f"hands[{i}]")) for i, hand in enumerate(hands)]
    center = _cards(data["center"], "center")
    draw_pile = _cards(data["draw_pile"], "draw_pile")[::-1]
    discard = _cards(data["discard"], "discard")
    if len(center) < 2 and (draw_pile or discard):
        raise PositionError(
            "center: fewer than two cards although the piles could refill it (RULES §4: the "
            "Center Row never holds fewer than two cards while the draw pile can refill it)"
        )
    scores = [_nonneg(v, f"scores[{i}]") for i, v in enumerate(_list(data, "scores", players))]
    phase_text = data.get("phase", "start")
    if phase_text not in _PHASES:
        raise PositionError(f"phase: must be one of {', '.join(_PHASES)}, not {phase_text!r}")
    drew = data.get("drew", phase_text == "drawn")
    if type(drew) is not bool:
        raise PositionError(f"drew: must be true or false, not {drew!r}")
    if phase_text in ("start", "drawn") and drew != (phase_text == "drawn"):
        raise PositionError(f"drew: phase {phase_text!r} means drew is {phase_text == 'drawn'}")
    matched = _matched(data.get("matched", []), len(center))
    if phase_text == "matching" and not matched:
        raise PositionError("matched: phase 'matching' needs at least one match")
    if phase_text in ("start", "drawn", "placing", "over") and matched:
        raise PositionError(f"matched: phase {phase_text!r} has no matches in progress")
    bonuses = data.get("bonuses", {"single": 0, "double": 0})
    if not isinstance(bonuses, dict) or set(bonuses) != {"single", "double"}:
        raise PositionError('bonuses: must be {"single": N, "double": N}')
    single = _nonneg(bonuses["single"], "bonuses.single")
    double = _nonneg(bonuses["double"], "bonuses.double")
    if single + double > len(matched) and phase_text != "placing":
        raise PositionError("bonuses: more colour bonuses than matches this turn")
    placements_left = _nonneg(data.get("placements_left", 0), "placements_left")
    if (phase_text == "placing") != (placements_left > 0):
        raise PositionError("placements_left: must be above 0 exactly in phase 'placing'")
    if placements_left > single + double:
        raise PositionError("placements_left: more placements than colour bonuses earned")
    penalties = [
        _nonneg(v, f"penalties[{i}]")
        for i, v in enumerate(_list_or(data, "penalties", players, [0] * players))
    ]
    for seat, owed in enumerate(penalties):
        if owed and seat != turn:
            raise PositionError(
                f"penalties[{seat}]: only the seat to act can owe deferred penalty cards"
            )
    dos_bits = 0
    dos_open = data.get("dos_open", [])
    if not isinstance(dos_open, list):
        raise PositionError("dos_open: must be a list of seats")
    for i, seat in enumerate(dos_open):
        if type(seat) is not int or not 0 <= seat < players:
            raise PositionError(f"dos_open[{i}]: not a seat: {seat!r}")
        if len(hand_cards[seat]) != 2:
            raise PositionError(
                f"dos_open[{i}]: seat {seat} holds {len(hand_cards[seat])} cards; "
                "a DOS obligation is open only on a hand of exactly two"
            )
        dos_bits |= 1 << seat
    winner = data.get("winner")
    if phase_text == "over":
        if type(winner) is not int or not 0 <= winner < players:
            raise PositionError("winner: phase 'over' needs the winning seat")
        if scores[winner] < options.target_score:
            raise PositionError("winner: the winner's score is below the target score")
    elif winner is not None:
        raise PositionError("winner: only phase 'over' has a winner")
    else:
        for seat, hand in enumerate(hand_cards):
            if not hand:
                raise PositionError(f"hands[{seat}]: empty, so the round would have ended (§4.5)")
    rng = data.get("rng", seed_state(0))
    if type(rng) is not int or not 0 <= rng < 1 << 64:
        raise PositionError("rng: must be the generator state, an integer 0 <= rng < 2**64")
    every = [c for hand in hand_cards for c in hand] + center + draw_pile + discard
    for cards in matched.values():
        every += cards
    check_card_counts(every, DECK_COUNTS, NAMES)
    return State(
        options=options,
        rng=rng,
        hands=hand_cards,
        center=center,
        draw_pile=draw_pile,
        discard=discard,
        dealer=dealer,
        turn=turn,
        phase=_PHASE_OF.get(phase_text, Phase.TURN),
        drew=drew,
        matched=matched,
        single_bonuses=single,
        double_bonuses=double,
        placements_left=placements_left,
        penalties=penalties,
        dos_open=dos_bits,
        scores=scores,
        round=int_field(data, "round", 1, 1 << 31, default=1),
        winner=winner,
    )


def _nonneg(value: object, name: str) -> int:
    if type(value) is not int or value < 0:
        raise PositionError(f"{name}: must be a non-negative integer, not {value!r}")
    return value


def _list(data: dict[str, Any], key: str, length: int) -> list[Any]:
    value = data[key]
    if not isinstance(value, list) or len(value) != length:
        raise PositionError(f"{key}: must be a list with one entry per player ({length})")
    return value


def _list_or(data: dict[str, Any], key: str, length: int, default: list[Any]) -> list[Any]:
    return _list(data, key, length) if key in data else default


def _cards(value: object, name: str) -> list[int]:
    return cards_field(value, name, parse_card, '["R7", "DOS"]')


def _matched(value: object, center_size: int) -> dict[int, tuple[int, ...]]:
    if not isinstance(value, list):
        raise PositionError('matched: must be a list of {"target": INDEX, "cards": [...]}')
    matched: dict[int, tuple[int, ...]] = {}
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != {"target", "cards"}:
            raise PositionError(f'matched[{i}]: must be {{"target": INDEX, "cards": [...]}}')
        target = entry["target"]
        if type(target) is not int or not 0 <= target < center_size:
            raise PositionError(f"matched[{i}].target: no Center Row card {target!r}")
        if target in matched:
            raise PositionError(f"matched[{i}].target: card {target} is matched twice")
        cards = _cards(entry["cards"], f"matched[{i}].cards")
        if len(cards) not in (1, 2):
            raise PositionError(f"matched[{i}].cards: a match plays one card or two")
        matched[target] = tuple(sorted(cards))
    return matched
