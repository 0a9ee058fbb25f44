"""The classic rule set's fixed action space (RULES.md §9).

=======  ===============================================================
index    action
=======  ===============================================================
0        ``draw``
1        ``react N LIMITms``: the reaction test passed (every target hit)
2        ``timeout``: the reaction test failed
3-54     play a coloured card, by card type (``B0`` ... ``Y+2``)
55-58    ``W=B`` ... ``W=Y``: a Wild, wishing each colour
59-62    ``W+4=B`` ... ``W+4=Y``: a Wild Draw Four, wishing each colour
=======  ===============================================================

The engine lists the reaction test by its two representatives (every target hit at the time
limit, or the time running out); they are the two indices 1 and 2. This rule set has no
out-of-turn actions.

>>> table = ClassicActions()
>>> table.size, table.names[3], table.names[57], table.names[62]
(63, 'B0', 'W=R', 'W+4=Y')
"""

from __future__ import annotations

from typing import Final

from dos.rules.classic import Action, Kind, State
from dos.rules.classic.actions import DRAW, TIMEOUT, play, react
from dos.rules.classic.cards import COLOURS, NAMES, WILD

DRAW_INDEX: Final = 0
REACT_INDEX: Final = 1
TIMEOUT_INDEX: Final = 2
PLAY_BASE: Final = 3
WILD_BASE: Final = PLAY_BASE + WILD
SIZE: Final = WILD_BASE + 8


class ClassicActions:
    """Action index <-> ``Action`` for the seat to act."""

    size = SIZE

    def __init__(self) -> None:
        names = ["draw", "react", "timeout"]
        names += [NAMES[c] for c in range(WILD)]
        names += [f"{NAMES[c]}={COLOURS[w]}" for c in (WILD, WILD + 1) for w in range(4)]
        self.names: tuple[str, ...] = tuple(names)

    def index(self, action: Action) -> int:
        """The index of an action of the seat to act."""
        kind = action.kind
        if kind == Kind.PLAY:
            if action.card >= WILD:
                return WILD_BASE + (action.card - WILD) * 4 + action.wish
            return PLAY_BASE + action.card
        if kind == Kind.DRAW:
            return DRAW_INDEX
        if kind == Kind.REACT:
            return REACT_INDEX
        return TIMEOUT_INDEX

    def indices(self, actions: list[Action]) -> list[int]:
        """The indices of a list of actions (a legal-action list), in order."""
        return [self.index(a) for a in actions]

    def action(self, index: int, targets: int, time_limit_ms: int) -> Action:
        """The action with this index; ``targets`` and ``time_limit_ms`` write a passed
        reaction test as the engine lists it."""
        if index >= WILD_BASE:
            step = index - WILD_BASE
            return play(WILD + step // 4, step % 4)
        if index >= PLAY_BASE:
            return play(index - PLAY_BASE)
        if index == DRAW_INDEX:
            return DRAW
        if index == REACT_INDEX:
            return react(targets, time_limit_ms)
        return TIMEOUT

    def action_in(self, state: State, index: int) -> Action:
        """``action`` for a game state."""
        return self.action(index, len(state.targets), state.options.reaction_time_ms)


def markdown() -> str:
    """The action table as Markdown (docs/rl.md prints it; a test compares the two)."""
    return "\n".join(
        [
            "| indices | action |",
            "|---|---|",
            f"| {DRAW_INDEX} | `draw` |",
            f"| {REACT_INDEX} | `react N LIMITms`: the reaction test passed |",
            f"| {TIMEOUT_INDEX} | `timeout`: the reaction test failed |",
            f"| {PLAY_BASE}-{WILD_BASE - 1} | play a coloured card, by card type "
            "(`B0` ... `Y+2`) |",
            f"| {WILD_BASE}-{WILD_BASE + 3} | `W=B`, `W=G`, `W=R`, `W=Y` |",
            f"| {WILD_BASE + 4}-{SIZE - 1} | `W+4=B`, `W+4=G`, `W+4=R`, `W+4=Y` |",
        ]
    )
