"""How the golden playthroughs of the classic rules are written (``tests/classic/golden/``).

Each file is one game played by a seeded random policy (``random.Random(seed)`` choosing
among the legal actions). Every step is one block: the whole state (turn, phase, direction,
top card and colour, pending draw, every hand, pile sizes, the reaction test's targets, the
ranking), the legal actions, and the chosen action. ``tests/test_golden.py``
compares them.
"""

from __future__ import annotations

import json
import random

from dos.rules.classic import Options, Phase, State, apply, legal_actions, new_game
from dos.rules.classic.cards import COLOURS, NAMES
from dos.rules.classic.views import PHASE_NAMES
from support import TESTS, Game

GOLDEN_DIR = TESTS / "classic" / "golden"

GAMES = [
    Game("classic_2p_seed3", 2, 3, {}, 400),
    Game("classic_4p_seed21", 4, 21, {}, 600),
    Game(
        "classic_5p_seed8_options",
        5,
        8,
        {"stacking": False, "penalty_cards": 2, "reaction_time_ms": 1500},
        300,
    ),
]


def cards(hand: list[int]) -> str:
    return " ".join(NAMES[c] for c in hand) or "-"


def summary(state: State, step: int) -> list[str]:
    arrow = "clockwise" if state.direction == 1 else "counter-clockwise"
    lines = [
        f"step {step} | turn {state.turn} | {PHASE_NAMES[state.phase]} | {arrow}",
        f"  top      {NAMES[state.top]} (colour {COLOURS[state.colour]})"
        + (f" | pending {state.pending}" if state.pending else ""),
    ]
    for seat, hand in enumerate(state.hands):
        lines.append(f"  seat {seat}   ({len(hand)}) {cards(hand)}")
    lines.append(f"  piles    draw {len(state.draw_pile)} | discard {len(state.discard)}")
    if state.targets:
        shown = "  ".join(f"({x},{y})" for x, y in state.targets)
        lines.append(f"  targets  {shown} | then seat {state.after_reaction}")
    if state.ranking:
        lines.append("  ranking  " + " ".join(str(s) for s in state.ranking))
    return lines


def render(game: Game) -> str:
    state = new_game(Options(players=game.players, **game.options), game.seed)
    chooser = random.Random(game.seed)
    options = json.dumps(state.options.to_json(), sort_keys=True)
    out = [
        f"# {game.name}: classic rules, seed {game.seed}, options {options}",
        f"# policy: random.Random({game.seed}).choice(legal_actions(state)); "
        f"at most {game.max_steps} actions",
        f"# seat {state.starter} starts",
    ]
    for step in range(1, game.max_steps + 1):
        out.append("")
        out.extend(summary(state, step))
        if state.phase == Phase.OVER:
            break
        actions = legal_actions(state)
        out.append("  legal    " + " ".join(str(a) for a in actions))
        action = chooser.choice(actions)
        apply(state, action)
        out.append(f"  action   {action}")
    out.append("")
    if state.phase == Phase.OVER:
        out.append(f"# game over: ranking {state.ranking}")
    else:
        out.append(f"# truncated after {game.max_steps} actions")
    return "\n".join(out) + "\n"


SHOWN = (
    "| reaction |",
    "counter-clockwise",
    "| pending ",
    "  action   timeout",
    "  action   react ",
    "  action   draw",
    "  action   W=",
    "  action   W+4=",
    "  ranking  ",
    "# game over: ",
)
"""What the golden games must show between them."""
