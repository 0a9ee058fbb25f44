"""Perft regression: legal-action counts from the positions of ``perft/official.perft``
(beside this file).

The file's header documents its format; depth-1 counts there are derived by hand from the
rules, deeper counts are pinned engine results. On a mismatch the failure shows the
``divide`` breakdown (the count under each first action), as chess perft tools do.

After an intended change of the engine that moves the pinned deeper counts (a new shuffle
changes every count that passes through a reshuffle or a new deal), rewrite them with::

    DOS_UPDATE_PERFT=1 .venv/bin/pytest tests/official/test_perft.py

This rewrites depth 2 and deeper only; a depth-1 count is never rewritten (it is derived by
hand: a mismatch there is a bug in the engine or in the derivation, to be settled by reading
the rules).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from dos.perft import divide, perft
from dos.rules.official import from_position, to_position

PERFT_FILE = Path(__file__).parent / "perft" / "official.perft"


class Entry(NamedTuple):
    name: str
    position: dict[str, Any]
    counts: tuple[int, ...]
    """``counts[d - 1]`` is the perft count at depth ``d``."""


def read_perft(path: Path) -> list[Entry]:
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split(" | ")]
        assert len(fields) >= 3, f"{path.name}:{number}: expected NAME | POSITION | COUNTS..."
        name, position, *counts = fields
        entries.append(Entry(name, json.loads(position), tuple(int(c) for c in counts)))
    return entries


def rewrite_deeper_counts(path: Path) -> None:
    """Recomputes the counts of depth 2 and more in ``path``, keeping depth 1 as it is."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if not line.strip() or line.startswith("#"):
            continue
        name, position, first, *deeper = line.split(" | ")
        state = from_position(json.loads(position))
        counts = [str(perft("official", state, d)) for d in range(2, len(deeper) + 2)]
        lines[number] = " | ".join([name, position, first, *counts])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if os.environ.get("DOS_UPDATE_PERFT") == "1":
    rewrite_deeper_counts(PERFT_FILE)

ENTRIES = read_perft(PERFT_FILE)


def breakdown(position: dict[str, Any], depth: int) -> str:
    rows = divide("official", from_position(position), depth)
    lines = [f"  {action:<24} {count}" for action, count in rows]
    return "\n".join([f"divide at depth {depth}:", *lines, f"  total {sum(c for _, c in rows)}"])


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_perft_counts_match_the_file(entry: Entry) -> None:
    for depth, expected in enumerate(entry.counts, 1):
        state = from_position(entry.position)
        found = perft("official", state, depth)
        if found != expected:
            pytest.fail(
                f"{entry.name}: perft depth {depth} is {found}, the file says {expected}\n"
                + breakdown(entry.position, depth)
            )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_divide_adds_up_to_perft_and_leaves_the_position_alone(entry: Entry) -> None:
    state = from_position(entry.position)
    before = state.copy()
    rows = divide("official", state, 2)
    assert sum(count for _, count in rows) == entry.counts[1]
    assert len(rows) == entry.counts[0]
    assert state == before


def test_the_file_has_six_to_ten_entries_with_distinct_names() -> None:
    assert 6 <= len(ENTRIES) <= 10
    assert len({e.name for e in ENTRIES}) == len(ENTRIES)
    assert all(len(e.counts) >= 2 for e in ENTRIES)


def test_the_file_covers_every_phase_and_situation_it_should() -> None:
    saved = [to_position(from_position(e.position)) for e in ENTRIES]
    phases = {p["phase"] for p in saved}
    assert {"start", "drawn", "matching", "placing"} <= phases
    assert any(p["players"] == 2 for p in saved)
    assert any(p["players"] >= 4 for p in saved)
    assert any(p["dos_open"] for p in saved), "an open DOS obligation"
    assert any(not p["draw_pile"] and p["discard"] for p in saved), "a reshuffle on draw"
    assert any(not p["draw_pile"] and not p["discard"] for p in saved), "both piles empty"
    assert any(p["phase"] == "matching" and len(p["matched"]) == 1 for p in saved)
    assert any(sum(p["penalties"]) for p in saved), "a deferred DOS penalty"
    wilds = [c for p in saved for hand in p["hands"] for c in hand if c == "DOS" or "#" in c]
    assert wilds


def test_perft_depth_zero_is_one_and_depth_one_counts_every_seats_actions() -> None:
    entry = next(e for e in ENTRIES if e.name == "start-4p-two-obligations")
    state = from_position(entry.position)
    assert perft("official", state, 0) == 1
    assert perft("official", state, 1) == 10
