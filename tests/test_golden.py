"""Golden playthroughs of every rule set: seeded games written out step by step and compared
with files.

Each rule set writes its games in its own way (``tests/rulesets/golden_official.py`` and
``golden_classic.py``: what a step shows, the policy, the games); the tests are the same for
all. Any change of
behaviour shows up as a diff. To rewrite the files after an intended change::

    DOS_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py

and review the diff with ``git diff tests/golden tests/classic/golden``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulesets import golden_classic, golden_official
from support import Game, check_golden


@dataclass(frozen=True, slots=True)
class Golden:
    """One rule set's golden playthroughs: where they are, which games, how each is written,
    and what they must show between them."""

    directory: Path
    games: list[Game]
    render: Callable[[Game], str]
    shown: tuple[str, ...]

    def path(self, game: Game) -> Path:
        return self.directory / f"{game.name}.txt"


GOLDEN = {
    "official": Golden(
        golden_official.GOLDEN_DIR,
        golden_official.GAMES,
        golden_official.render,
        golden_official.SHOWN,
    ),
    "classic": Golden(
        golden_classic.GOLDEN_DIR,
        golden_classic.GAMES,
        golden_classic.render,
        golden_classic.SHOWN,
    ),
}
CASES = [(rules, game) for rules, golden in GOLDEN.items() for game in golden.games]


@pytest.mark.parametrize(("rules", "game"), CASES, ids=[game.name for _, game in CASES])
def test_golden_playthrough_is_unchanged(rules: str, game: Game) -> None:
    check_golden(GOLDEN[rules].path(game), GOLDEN[rules].render(game), game.name)


@pytest.mark.parametrize("rules", GOLDEN)
def test_rendering_is_deterministic(rules: str) -> None:
    golden = GOLDEN[rules]
    assert golden.render(golden.games[0]) == golden.render(golden.games[0])


@pytest.mark.parametrize("rules", GOLDEN)
def test_the_golden_games_exercise_the_rules_they_should(rules: str) -> None:
    """Guard against golden files that would test little: between them they show what the
    rule set lists, and none is longer than its limit."""
    golden = GOLDEN[rules]
    texts = [golden.path(game).read_text(encoding="utf-8") for game in golden.games]
    for needed in golden.shown:
        assert needed in "".join(texts), f"no golden game shows {needed!r}"
    for game, text in zip(golden.games, texts, strict=True):
        lines = text.splitlines()
        assert lines[0].startswith(f"# {game.name}: {rules} rules, seed {game.seed}, ")
        assert sum(line.startswith("step ") for line in lines) <= game.max_steps


def test_every_golden_file_is_a_game_of_a_rule_set() -> None:
    """No golden file lies unchecked: each is the game of a rule set's list."""
    for golden in GOLDEN.values():
        on_disk = {path.name for path in golden.directory.glob("*.txt")}
        assert on_disk == {golden.path(game).name for game in golden.games}
