"""Does the review flag the worse action where one is clearly worse?

``.venv/bin/python bench/review_positions.py [--iterations K] [--seeds N] [--out FILE]``

Three kinds of constructed positions (official rules, the whole 108-card deck: the cards not
placed are the draw pile, in a seeded order), each with a good action and a clearly worse one:

* **dcm-out**: a Double Color Match takes the last two cards (the round is won), and a single
  match is played instead;
* **wild-spent**: a Wild # is spent on a single match while a number card of the same number
  is held for it (and the Wild # would match anything later);
* **lay-needed**: after a fruitless draw, a card is laid that the next player, down to one
  card, most likely matches to go out: every card the seat has not seen (the discard pile
  shows the rest) is of that number.

Each position is played both ways as a one-action game record (``"position"`` header) and
reviewed for the seat (``dos.review.review_record``) with ``--seeds`` review seeds. A case is
**flagged** when the worse action is judged an inaccuracy or worse; **named** when the review's
best action is the good one or as good (its loss under the inaccuracy threshold); **clean**
when the good action is judged nothing. Results: ``docs/results/review-positions.txt``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dos.records import Record
from dos.review import THRESHOLDS, Entry, review_record
from dos.rules.official.cards import NAMES, full_deck, parse_card


@dataclass(frozen=True)
class Case:
    """A position, the good action and the worse one."""

    name: str
    kind: str
    position: dict[str, Any]
    good: str
    bad: str


def position(
    hands: Sequence[Sequence[str]],
    center: Sequence[str],
    *,
    discard: Sequence[str] = (),
    phase: str = "start",
    scores: Sequence[int] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """A position with the whole deck: the cards not named form the draw pile, shuffled by
    ``seed``. Seat 0 is to act; the dealer is the last seat."""
    used = Counter(parse_card(c) for c in [*(c for h in hands for c in h), *center, *discard])
    rest = Counter(full_deck())
    rest.subtract(used)
    if any(n < 0 for n in rest.values()):
        raise ValueError("more copies of a card than the deck holds")
    pile = sorted(rest.elements())
    random.Random(seed).shuffle(pile)
    players = len(hands)
    return {
        "players": players,
        "dealer": players - 1,
        "turn": 0,
        "phase": phase,
        "hands": [list(h) for h in hands],
        "center": list(center),
        "draw_pile": [NAMES[c] for c in pile],
        "discard": list(discard),
        "scores": list(scores) if scores is not None else [0] * players,
    }


def _all_but(keep: Sequence[str], *, held: Sequence[str]) -> list[str]:
    """Every card of the deck whose number is not in ``keep`` (names without colour), less
    the cards ``held`` elsewhere in the position: a discard pile that leaves only ``keep``
    unseen."""
    left = Counter(parse_card(c) for c in held)
    out = []
    for card in full_deck():
        name = NAMES[card]
        number = name[1:] if name[0] in "BGRY" and name[1:] != "#" else name
        if number in keep:
            continue
        if left[card]:
            left[card] -= 1
            continue
        out.append(name)
    return out


def cases() -> list[Case]:
    """The constructed positions."""
    found = [
        Case(
            "dcm-out R3+R4 on R7",
            "dcm-out",
            position([["R3", "R4"], ["B9", "G10", "Y6", "B1", "G8"]], ["R7", "B3"]),
            "R3+R4@0",
            "R3@1",
        ),
        Case(
            "dcm-out G1+G5 on G6",
            "dcm-out",
            position([["G1", "G5"], ["B9", "R10", "Y8", "B3"]], ["G6", "Y5"], seed=1),
            "G1+G5@0",
            "G5@1",
        ),
        Case(
            "dcm-out B4+DOS on B6",
            "dcm-out",
            position([["B4", "DOS"], ["R9", "G10", "Y1", "R3", "Y8", "G7"]], ["B6", "R4"], seed=2),
            "B4+DOS@0",
            "B4@1",
        ),
        Case(
            "wild-spent R# for a 5, B5 held",
            "wild-spent",
            position([["B5", "R#", "Y3"], ["B9", "G10", "Y6", "B1"]], ["G5", "Y9"], seed=3),
            "B5@0",
            "R#@0",
        ),
        Case(
            "wild-spent G# for an 8, Y8 held",
            "wild-spent",
            position(
                [["Y8", "G#", "B10", "R1"], ["B9", "R6", "Y6", "B4", "G3"]], ["R8", "B7"], seed=4
            ),
            "Y8@0",
            "G#@0",
        ),
        Case(
            "wild-spent Y# for a 3, B3 held",
            "wild-spent",
            position([["B3", "Y#"], ["R9", "G10", "R6"]], ["G3", "R10"], seed=5),
            "B3@0",
            "Y#@0",
        ),
    ]
    # lay-needed: the unseen cards are all of one number; the opponent holds one of them.
    for number, hand, center, safe, seed in (
        ("5", ["B5", "Y9", "R1"], ["R8", "G7"], "lay Y9", 6),
        ("10", ["G10", "B4", "Y3"], ["R9", "B6"], "lay B4", 7),
        ("7", ["R7", "G4", "B9"], ["Y1", "G10"], "lay B9", 8),
    ):
        colours = "BGRY"
        copies = {"5": 3, "10": 2, "7": 2}[number]
        unseen = [f"{c}{number}" for c in colours for _ in range(copies)]
        unseen.remove(hand[0])
        opponent = [unseen[0]]
        held = [*hand, *center, *opponent]
        discard = _all_but([number], held=held)
        pos = position([hand, opponent], center, discard=discard, phase="drawn", seed=seed)
        name = f"lay-needed {hand[0]}, the unseen all {number}s"
        found.append(Case(name, "lay-needed", pos, safe, f"lay {hand[0]}"))
    return found


def review_one(case: Case, action: str, iterations: int, seed: int) -> Entry:
    """The review of seat 0's one decision, ``action`` in ``case``'s position."""
    record = Record("official", {"players": len(case.position["hands"])}, position=case.position)
    record.actions = [action]
    review = review_record(record, 0, samples=iterations, seed=seed)
    (entry,) = review.entries
    return entry


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000, help="samples per stage")
    parser.add_argument("--seeds", type=int, default=5, help="review seeds per case")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args(argv)
    from dos.bots.mcts import warm_up

    warm_up()
    inaccuracy = dict(THRESHOLDS)["inaccuracy"]
    lines = [
        f"review of constructed positions: {args.iterations} samples a stage, "
        f"seeds 0-{args.seeds - 1}",
        "",
        f"{'case':<38} {'worse':<10} {'flagged':>7} {'named':>5} {'clean':>5}  "
        f"{'loss (mean)':>11}  judgements of the worse action",
    ]
    totals = Counter[str]()
    began = time.perf_counter()
    for case in cases():
        flagged = named = clean = 0
        losses = []
        judgements = []
        for seed in range(args.seeds):
            bad = review_one(case, case.bad, args.iterations, seed)
            good = review_one(case, case.good, args.iterations, seed)
            flagged += bad.judgement is not None
            named += bad.best == case.good or good.loss < inaccuracy
            clean += good.judgement is None
            losses.append(bad.loss)
            judgements.append(bad.judgement or "-")
        totals["cases"] += args.seeds
        totals["flagged"] += flagged
        totals["named"] += named
        totals["clean"] += clean
        lines.append(
            f"{case.name:<38} {case.bad:<10} {flagged:>4}/{args.seeds} {named:>3}/{args.seeds} "
            f"{clean:>3}/{args.seeds}  {100 * sum(losses) / len(losses):10.1f}%  "
            + " ".join(judgements)
        )
    lines += [
        "",
        f"all: worse action flagged {totals['flagged']}/{totals['cases']}, good action "
        f"named or as good {totals['named']}/{totals['cases']}, good action unflagged "
        f"{totals['clean']}/{totals['cases']} ({time.perf_counter() - began:.1f} s)",
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
