"""docs/rl.md shows the action tables and observation layouts the code declares."""

from __future__ import annotations

from pathlib import Path

from dos.rl import classic_actions, official_actions
from dos.rl.classic_observation import classic_layout
from dos.rl.official_observation import official_layout

PAGE = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_page_shows_both_action_tables() -> None:
    assert official_actions.markdown() in PAGE
    assert classic_actions.markdown() in PAGE


def test_the_page_shows_both_observation_layouts() -> None:
    assert official_layout(2).table() in PAGE
    assert classic_layout(2).table() in PAGE


def test_the_page_states_the_sizes_the_code_has() -> None:
    assert f"{official_actions.SIZE:,} indices" in PAGE
    assert f"{classic_actions.SIZE} indices" in PAGE
    assert f"{official_layout(2).size} values" in PAGE
    assert f"{classic_layout(2).size} values" in PAGE
