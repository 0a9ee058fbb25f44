"""Positions of the classic rule set: any state saved as JSON and loaded back.

The format is in ``docs/classic.md``. A position at the start of a turn needs only
``players``, ``turn``, ``hands``, ``draw_pile`` (top card first) and ``discard`` (oldest
first, the top card last); a saved position writes every field. Loading checks every field
and names the one that is wrong. Cards a position does not list are out of play.
"""

from __future__ import annotations

from typing import Any

from dos.errors import NotationError, PositionError
from dos.jsonfields import cards_field, check_card_counts, check_position, int_field
from dos.rng import seed_state
from dos.rules.classic.cards import (
    COLOUR,
    COLOURS,
    DECK_COUNTS,
    IS_DRAW_TWO,
    IS_WILD,
    NAMES,
    WILD_DRAW_FOUR,
    parse_card,
    parse_colour,
)
from dos.rules.classic.options import Options
from dos.rules.classic.reaction import MARGIN
from dos.rules.classic.state import Phase, State
from dos.rules.classic.views import PHASE_NAMES

FORMAT = "dos-position"
VERSION = 1
RULES = "classic"
REQUIRED = ("players", "turn", "hands", "draw_pile", "discard")
OPTIONAL = (
    "format",
    "version",
    "rules",
    "options",
    "colour",
    "direction",
    "pending",
    "phase",
    "reaction",
    "ranking",
    "starter",
    "rng",
)


def to_position(state: State) -> dict[str, Any]:
    """The state as a JSON-ready position with every field.

    >>> from dos.rules.classic.setup import new_game
    >>> p = to_position(new_game(seed=5))
    >>> p["rules"], len(p["draw_pile"]), from_position(p) == new_game(seed=5)
    ('classic', 79, True)
    """
    reaction = None
    if state.phase == Phase.REACTION:
        reaction = {"targets": [list(t) for t in state.targets], "next": state.after_reaction}
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": RULES,
        "options": state.options.to_json(),
        "players": state.options.players,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "hands": [[NAMES[c] for c in hand] for hand in state.hands],
        "draw_pile": [NAMES[c] for c in reversed(state.draw_pile)],
        "discard": [NAMES[c] for c in state.discard],
        "colour": COLOURS[state.colour],
        "direction": state.direction,
        "pending": state.pending,
        "reaction": reaction,
        "ranking": list(state.ranking),
        "starter": state.starter,
        "rng": state.rng,
    }


def from_position(data: object) -> State:
    """A state from a position; raises ``PositionError`` naming the first bad field.

    >>> from_position({"players": 2, "turn": 0, "hands": [["R1"], ["W"]], "draw_pile": [],
    ...                "discard": ["W"]})
    Traceback (most recent call last):
    ...
    dos.errors.PositionError: colour: the top card is a wild, so the position must give ...
    """
    data = check_position(data, REQUIRED, OPTIONAL, fmt=FORMAT, version=VERSION, rules=RULES)
    players = int_field(data, "players", 2, 10)
    given = data.get("options", {})
    options = Options.from_json({"players": players, **given} if isinstance(given, dict) else given)
    if options.players != players:
        raise PositionError(f"options.players: {options.players} disagrees with players {players}")
    hands_data = data["hands"]
    if not isinstance(hands_data, list) or len(hands_data) != players:
        raise PositionError(f"hands: must be a list with one entry per player ({players})")
    hands = [sorted(_cards(hand, f"hands[{i}]")) for i, hand in enumerate(hands_data)]
    draw_pile = _cards(data["draw_pile"], "draw_pile")[::-1]
    discard = _cards(data["discard"], "discard")
    if not discard:
        raise PositionError("discard: needs at least the top card to play on")
    top = discard[-1]
    colour = _colour(data.get("colour"), top)
    direction = data.get("direction", 1)
    if direction not in (1, -1) or type(direction) is not int:
        raise PositionError(f"direction: 1 (clockwise) or -1, not {direction!r}")
    pending = data.get("pending", 0)
    least = 4 if top == WILD_DRAW_FOUR else 2 if IS_DRAW_TWO[top] else 0
    if type(pending) is not int or pending < 0 or pending % 2:
        raise PositionError(f"pending: must be an even number of cards, not {pending!r}")
    if pending and (pending < least or not least):
        raise PositionError(
            "pending: cards are pending only on a Draw Two (2 or more) or a Wild Draw Four "
            f"(4 or more) on top, not {pending} on {NAMES[top]}"
        )
    phase_text = data.get("phase", "play")
    if phase_text not in PHASE_NAMES:
        raise PositionError(f"phase: must be one of {', '.join(PHASE_NAMES)}, not {phase_text!r}")
    phase = Phase(PHASE_NAMES.index(phase_text))
    ranking = _ranking(data.get("ranking", []), players)
    over = phase == Phase.OVER
    if over != (len(ranking) == players):
        raise PositionError(
            "ranking: lists every seat exactly when the phase is 'over'"
            + ("" if over else f" (at most {players - 2} seats before)")
        )
    if not over and len(ranking) > players - 2:
        raise PositionError(f"ranking: at most {players - 2} seats are placed while two play on")
    placed = set(ranking[:-1] if over else ranking)
    for seat, hand in enumerate(hands):
        if seat in placed and hand:
            raise PositionError(f"hands[{seat}]: seat {seat} is placed, so its hand is empty")
        if seat not in placed and not hand and not over:
            raise PositionError(f"hands[{seat}]: empty, but seat {seat} is not in the ranking")
    turn = int_field(data, "turn", 0, players - 1)
    if not over and turn in placed:
        raise PositionError(f"turn: seat {turn} is placed and plays no more")
    targets: tuple[tuple[int, int], ...] = ()
    after = -1
    reaction = data.get("reaction")
    if phase == Phase.REACTION:
        targets, after = _reaction(reaction, players, placed, len(hands[turn]))
    elif reaction is not None:
        raise PositionError("reaction: only phase 'reaction' has a reaction test")
    rng = data.get("rng", seed_state(0))
    if type(rng) is not int or not 0 <= rng < 1 << 64:
        raise PositionError("rng: must be the generator state, an integer 0 <= rng < 2**64")
    starter = int_field(data, "starter", 0, players - 1, default=0)
    every = [c for hand in hands for c in hand] + draw_pile + discard
    check_card_counts(every, DECK_COUNTS, NAMES)
    return State(
        options=options,
        rng=rng,
        hands=hands,
        draw_pile=draw_pile,
        discard=discard,
        turn=turn,
        colour=colour,
        direction=direction,
        pending=pending,
        phase=phase,
        targets=targets,
        after_reaction=after,
        ranking=ranking,
        starter=starter,
    )


def _cards(value: object, name: str) -> list[int]:
    return cards_field(value, name, parse_card, '["R7", "W"]')


def _colour(value: object, top: int) -> int:
    if value is None:
        if IS_WILD[top]:
            raise PositionError(
                "colour: the top card is a wild, so the position must give the wished colour"
            )
        return COLOUR[top]
    if not isinstance(value, str):
        raise PositionError(f"colour: a colour letter B, G, R or Y, not {value!r}")
    try:
        colour = parse_colour(value)
    except NotationError as error:
        raise PositionError(f"colour: {error}") from None
    if not IS_WILD[top] and colour != COLOUR[top]:
        raise PositionError(
            f"colour: {COLOURS[colour]} disagrees with the top card {NAMES[top]}; only a wild "
            "on top is followed by a wished colour"
        )
    return colour


def _ranking(value: object, players: int) -> list[int]:
    if not isinstance(value, list):
        raise PositionError("ranking: must be a list of seats")
    for i, seat in enumerate(value):
        if type(seat) is not int or not 0 <= seat < players:
            raise PositionError(f"ranking[{i}]: not a seat: {seat!r}")
    if len(set(value)) != len(value):
        raise PositionError("ranking: a seat is listed twice")
    return list(value)


def _reaction(
    value: object, players: int, placed: set[int], hand_size: int
) -> tuple[tuple[tuple[int, int], ...], int]:
    if not isinstance(value, dict) or set(value) != {"targets", "next"}:
        raise PositionError(
            'reaction: phase \'reaction\' needs {"targets": [[X, Y], ...], "next": SEAT}'
        )
    if hand_size not in (1, 2):
        raise PositionError(
            f"reaction: the seat to act holds {hand_size} cards; the test is taken at two or one"
        )
    targets = value["targets"]
    if not isinstance(targets, list) or len(targets) != hand_size:
        raise PositionError(f"reaction.targets: one target per card in hand ({hand_size})")
    found = []
    for i, target in enumerate(targets):
        if (
            not isinstance(target, list)
            or len(target) != 2
            or not all(type(v) is int and MARGIN <= v <= 1000 - MARGIN for v in target)
        ):
            raise PositionError(
                f"reaction.targets[{i}]: [X, Y] in thousandths, each from {MARGIN} to "
                f"{1000 - MARGIN}"
            )
        found.append((target[0], target[1]))
    after = value["next"]
    if type(after) is not int or not 0 <= after < players or after in placed:
        raise PositionError(f"reaction.next: not a seat still playing: {after!r}")
    return tuple(found), after
