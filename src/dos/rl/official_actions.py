"""The official rule set's fixed action space: one index for every action a seat can take.

The Center Row can grow without a fixed limit during a round, so a match is not indexed by its
Center Row *position* but by its **target slot**: the target's card type and which copy of that
type it is along the row (the first ``B7`` from the left is copy 0, the next copy 1). No row
can hold more copies of a type than the deck has (``DECK_COUNTS``: 3, 2 or 12), so the slots
are bounded by the deck itself: 108 of them. For each target type, the matches listed are the
card combinations that can ever match it (``matching.SINGLE`` and ``matching.PAIRS``): singles
by card type, then pairs ``(c1, c2)`` with ``c1 <= c2``. Two Center Row cards of the same type
are never told apart by the rules, but they are by the engine (``B7@0`` and ``B7@3`` are
two legal actions), and by this table (copy 0 and copy 1).

Matches carry no designations: the engine's legal actions never do (it picks the designations
with the best colour result, RULES.md §3 Decision), so neither does this table.

DOS calls and catches have their indices too: ``dos`` (a seat's own call) and ``catch +r``
(catch the seat ``r`` places to this seat's left), nine of them for up to ten seats.

>>> table = OfficialActions()
>>> table.size
13326
>>> table.names[0], table.names[2], table.names[84], table.names[85], table.names[94]
('draw', 'lay B1', 'dos', 'catch +1', 'B1@B1#0')
"""

from __future__ import annotations

from functools import cache
from typing import Final

from dos.rules.official import Action, Kind, State
from dos.rules.official.actions import CALL, DRAW, END
from dos.rules.official.cards import DECK_COUNTS, N_TYPES, NAMES
from dos.rules.official.matching import PAIRS, SINGLE
from dos.rules.official.options import MAX_PLAYERS

DRAW_INDEX: Final = 0
END_INDEX: Final = 1
LAY_BASE: Final = 2
PLACE_BASE: Final = LAY_BASE + N_TYPES
CALL_INDEX: Final = PLACE_BASE + N_TYPES
CATCH_BASE: Final = CALL_INDEX + 1
MATCH_BASE: Final = CATCH_BASE + MAX_PLAYERS - 1

COMBOS: Final = tuple(
    tuple((card,) for card in range(N_TYPES) if SINGLE[target][card])
    + tuple((a, b) for a in range(N_TYPES) for b in sorted(PAIRS[target][a]))
    for target in range(N_TYPES)
)
"""``COMBOS[target]``: every card combination that can ever match a card of type ``target``."""
_COMBO_INDEX: Final[tuple[dict[tuple[int, ...], int], ...]] = tuple(
    {cards: j for j, cards in enumerate(c)} for c in COMBOS
)


def _slot_bases() -> tuple[tuple[int, ...], ...]:
    bases = []
    start = MATCH_BASE
    for target in range(N_TYPES):
        row = []
        for _ in range(DECK_COUNTS[target]):
            row.append(start)
            start += len(COMBOS[target])
        bases.append(tuple(row))
    return tuple(bases)


SLOT_BASE: Final = _slot_bases()
"""``SLOT_BASE[target][copy]``: the index of the first match on that target slot."""
SIZE: Final = SLOT_BASE[-1][-1] + len(COMBOS[-1])


def copies_along(center: list[int] | tuple[int, ...]) -> list[int]:
    """For each Center Row position, which copy of its card type it is, counted from the left.

    >>> copies_along([25, 3, 25, 25])
    [0, 0, 1, 2]
    """
    seen = [0] * N_TYPES
    found = []
    for card in center:
        found.append(seen[card])
        seen[card] += 1
    return found


@cache
def _tables() -> tuple[tuple[str, ...], tuple[tuple[int, int, tuple[int, ...]], ...]]:
    """Each index's name and what a match index decodes to, built once per process (a
    tournament makes a policy bot, and so these tables, for every game)."""
    names = ["draw", "end"]
    names += [f"lay {NAMES[c]}" for c in range(N_TYPES)]
    names += [f"place {NAMES[c]}" for c in range(N_TYPES)]
    names += ["dos"] + [f"catch +{r}" for r in range(1, MAX_PLAYERS)]
    decode: list[tuple[int, int, tuple[int, ...]]] = [(-1, -1, ())] * MATCH_BASE
    for target in range(N_TYPES):
        for copy in range(DECK_COUNTS[target]):
            for cards in COMBOS[target]:
                played = "+".join(NAMES[c] for c in cards)
                names.append(f"{played}@{NAMES[target]}#{copy}")
                decode.append((target, copy, cards))
    assert len(names) == SIZE
    return tuple(names), tuple(decode)


class OfficialActions:
    """Action index <-> ``Action`` for one seat, given the Center Row it sees.

    Every method takes the seat whose action it is and the Center Row (for matches); the
    engine writes an action of a seat that is not to act with its seat number, so ``turn``
    (the seat to act) is needed to write actions back.
    """

    size = SIZE

    def __init__(self) -> None:
        names, decode = _tables()
        self.names: tuple[str, ...] = names
        """A name for each index: ``R7@B7#1`` is R7 on the second B7 of the Center Row."""
        self._decode = decode

    def index(self, action: Action, seat: int, players: int, center: list[int]) -> int:
        """The index of ``action`` by ``seat``; ``center`` is the Center Row it sees."""
        kind = action.kind
        if kind == Kind.MATCH:
            target_at = action.target
            target = center[target_at]
            copy = center[:target_at].count(target)
            return SLOT_BASE[target][copy] + _COMBO_INDEX[target][action.cards]
        return self._simple_index(action, seat, players)

    def _simple_index(self, action: Action, seat: int, players: int) -> int:
        kind = action.kind
        if kind == Kind.DRAW:
            return DRAW_INDEX
        if kind == Kind.END:
            return END_INDEX
        if kind == Kind.LAY:
            return LAY_BASE + action.cards[0]
        if kind == Kind.PLACE:
            return PLACE_BASE + action.cards[0]
        if kind == Kind.CALL:
            return CALL_INDEX
        if kind == Kind.CATCH:
            return CATCH_BASE + (action.target - seat) % players - 1
        raise ValueError(f"no index for {action}")

    def indices(
        self, actions: list[Action], seat: int, players: int, center: list[int]
    ) -> list[int]:
        """The indices of a list of actions of ``seat`` (a legal-action list), in order."""
        copies: list[int] | None = None
        found = []
        for action in actions:
            if action.kind == Kind.MATCH:
                if copies is None:
                    copies = copies_along(center)
                at = action.target
                target = center[at]
                found.append(SLOT_BASE[target][copies[at]] + _COMBO_INDEX[target][action.cards])
            else:
                found.append(self._simple_index(action, seat, players))
        return found

    def action(self, index: int, seat: int, turn: int, players: int, center: list[int]) -> Action:
        """The action of ``seat`` with this index (``turn``: the seat to act). Raises
        ``ValueError`` when the index names no action here (a target slot the row lacks)."""
        written = None if seat == turn else seat
        if index >= MATCH_BASE:
            target, copy, cards = self._decode[index]
            seen = -1
            for at, card in enumerate(center):
                if card == target:
                    seen += 1
                    if seen == copy:
                        return Action(Kind.MATCH, cards, at, written)
            raise ValueError(f"action {self.names[index]}: the Center Row has no such card")
        if index == DRAW_INDEX:
            return DRAW if written is None else Action(Kind.DRAW, seat=written)
        if index == END_INDEX:
            return END if written is None else Action(Kind.END, seat=written)
        if index < PLACE_BASE:
            return Action(Kind.LAY, (index - LAY_BASE,), seat=written)
        if index < CALL_INDEX:
            return Action(Kind.PLACE, (index - PLACE_BASE,), seat=written)
        if index == CALL_INDEX:
            return CALL if written is None else Action(Kind.CALL, seat=written)
        step = index - CATCH_BASE + 1
        if step >= players:
            raise ValueError(f"action {self.names[index]}: only {players} seats")
        return Action(Kind.CATCH, target=(seat + step) % players, seat=written)

    def action_in(self, state: State, seat: int, index: int) -> Action:
        """``action`` for a game state."""
        return self.action(index, seat, state.turn, state.options.players, state.center)


def markdown() -> str:
    """The action table as Markdown (docs/rl.md prints it; a test compares the two)."""
    rows = [
        "| indices | action |",
        "|---|---|",
        f"| {DRAW_INDEX} | `draw` |",
        f"| {END_INDEX} | `end` |",
        f"| {LAY_BASE}-{PLACE_BASE - 1} | `lay CARD`, by card type (`B1` ... `Y#`, `DOS`) |",
        f"| {PLACE_BASE}-{CALL_INDEX - 1} | `place CARD`, by card type |",
        f"| {CALL_INDEX} | `dos`: the seat's own call |",
        f"| {CATCH_BASE}-{MATCH_BASE - 1} | `catch +r`: catch the seat r places to the left, "
        f"r = 1-{MAX_PLAYERS - 1} |",
        f"| {MATCH_BASE}-{SIZE - 1} | matches, by target slot (below) |",
        "",
        "| target type | copies | combinations each | first index |",
        "|---|---:|---:|---:|",
    ]
    for target in range(N_TYPES):
        rows.append(
            f"| `{NAMES[target]}` | {DECK_COUNTS[target]} | {len(COMBOS[target])} "
            f"| {SLOT_BASE[target][0]} |"
        )
    return "\n".join(rows)
