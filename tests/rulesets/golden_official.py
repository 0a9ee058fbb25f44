"""How the golden playthroughs of the official rules are written (``tests/golden/``).

Each file is one game played by a seeded random policy (``random.Random(seed)`` choosing
among every seat's legal actions, out-of-turn DOS calls and catches included). Every step is
one block: a summary of the whole state (round, turn, phase, Center Row, every hand, pile
sizes, scores, bonuses, open DOS obligations, deferred penalties), the legal actions of the
seat to act, the other seats' out-of-turn actions, and the chosen action. Games stop when
over or after ``max_steps`` actions. ``tests/test_golden.py`` compares them.
"""

from __future__ import annotations

import json
import random

from dos.rules.official import (
    Options,
    Phase,
    State,
    all_legal_actions,
    apply,
    legal_actions,
    new_game,
)
from dos.rules.official.cards import NAMES
from dos.rules.official.views import phase_name
from support import TESTS, Game

GOLDEN_DIR = TESTS / "golden"

GAMES = [
    Game("official_2p_seed11", 2, 11, {"target_score": 60}, 300),
    Game("official_4p_seed25", 4, 25, {"target_score": 150}, 300),
    Game(
        "official_6p_seed39_options",
        6,
        39,
        {
            "target_score": 150,
            "dealer_starts": True,
            "deal_passes_left": True,
            "bonus_lay_mandatory": True,
        },
        300,
    ),
]


def cards(hand: list[int] | tuple[int, ...]) -> str:
    return " ".join(NAMES[c] for c in hand) or "-"


def summary(state: State, step: int) -> list[str]:
    players = state.options.players
    phase = phase_name(state.phase, state.drew, bool(state.matched))
    center = "  ".join(f"{i}:{NAMES[c]}" for i, c in enumerate(state.center)) or "-"
    lines = [
        f"step {step} | round {state.round} | dealer {state.dealer} | turn {state.turn} | {phase}",
        f"  center   {center}",
    ]
    if state.matched:
        played = "  ".join(f"{i}<-{cards(c)}" for i, c in sorted(state.matched.items()))
        lines.append(f"  matched  {played}")
    for seat, hand in enumerate(state.hands):
        lines.append(f"  seat {seat}   ({len(hand)}) {cards(hand)}")
    lines.append(f"  piles    draw {len(state.draw_pile)} | discard {len(state.discard)}")
    lines.append("  scores   " + " ".join(str(s) for s in state.scores))
    if state.single_bonuses or state.double_bonuses or state.placements_left:
        lines.append(
            f"  bonuses  single {state.single_bonuses} | double {state.double_bonuses}"
            f" | placements left {state.placements_left}"
        )
    open_seats = [str(s) for s in range(players) if state.dos_open >> s & 1]
    if open_seats:
        lines.append("  dos open " + " ".join(open_seats))
    if any(state.penalties):
        lines.append("  penalty  " + " ".join(str(p) for p in state.penalties))
    return lines


def render(game: Game) -> str:
    state = new_game(Options(players=game.players, **game.options), game.seed)
    chooser = random.Random(game.seed)
    options = json.dumps(state.options.to_json(), sort_keys=True)
    out = [
        f"# {game.name}: official rules, seed {game.seed}, options {options}",
        f"# policy: random.Random({game.seed}).choice(all_legal_actions(state)); "
        f"at most {game.max_steps} actions",
    ]
    for number, drawn in enumerate(state.dealer_draws, 1):
        shown = " ".join(f"{seat}:{NAMES[card]}" for seat, card in drawn)
        out.append(f"# draw for dealer, pass {number}: {shown}")
    rounds_seen = 0
    for step in range(1, game.max_steps + 1):
        out.append("")
        out.extend(summary(state, step))
        if state.phase == Phase.OVER:
            break
        own = legal_actions(state)
        out.append("  legal    " + " ".join(str(a) for a in own))
        others = all_legal_actions(state)[len(own) :]
        if others:
            out.append("  others   " + ", ".join(str(a) for a in others))
        action = chooser.choice(all_legal_actions(state))
        apply(state, action)
        out.append(f"  action   {action}")
        if len(state.round_results) > rounds_seen:
            result = state.round_results[-1]
            rounds_seen += 1
            out.append(
                f"  round {result.round} won by seat {result.winner}: +{result.points} points"
            )
    out.append("")
    if state.phase == Phase.OVER:
        out.append(f"# game over: seat {state.winner} wins, scores {state.scores}")
    else:
        out.append(f"# truncated after {game.max_steps} actions")
    return "\n".join(out) + "\n"


SHOWN = (
    "| drawn",
    "| matching",
    "| placing",
    "  action   lay ",
    "  action   place ",
    ": catch ",
    "dos open ",
    "penalty  ",
    " won by seat ",
    "# game over: ",
)
"""What the golden games must show between them: every phase, a catch, a call, a
colour-bonus placement and a finished round and game."""
