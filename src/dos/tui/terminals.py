"""Each rule set's terminal client as one ``Terminal``: how ``dos play`` deals a new game,
resumes a saved one, shows its table and replays a record.

A rule set's registry entry gives its terminal (``dos.ruleset.Entry.terminal``); the
application (``dos.tui.app``) asks it, never the rule set's name.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from dos import records, ruleset
from dos.tui.classic.controller import ClassicController
from dos.tui.classic.replay import ClassicReplay
from dos.tui.clock import Clock
from dos.tui.controller import GameController
from dos.tui.replay import Replay
from dos.tui.screens.classic import ClassicGameScreen
from dos.tui.screens.game import GameScreen
from dos.tui.screens.replay import ClassicReplayScreen, ReplayScreen

if TYPE_CHECKING:
    from dos.tui.app import Settings

Controller = GameController | ClassicController
"""A game in progress, whatever its rule set."""


@dataclass(frozen=True, slots=True)
class Terminal:
    """The terminal client of one rule set."""

    new_game: Callable[[Settings, Clock | None, Executor | None], Controller]
    """A new game of these settings (clock and the bots' thread)."""
    resume: Callable[[records.Record, Settings, Clock | None, Executor | None], Controller]
    """A saved game, replayed and ready to go on."""
    table: Callable[[Any, Path | None], Screen[Any]]
    """The screen of a game in progress (its controller, the file it saves to)."""
    replay: Callable[[records.Record, str, str], Screen[Any]]
    """The screen that steps through a record (in a language, with a title)."""


def terminal(rules: str) -> Terminal:
    """The terminal client of the rule set ``rules``; ``ValueError`` if it has none."""
    factory = ruleset.entry(rules).terminal
    if factory is None:
        raise ValueError(f"the terminal client does not play the {rules} rules")
    return ruleset.checked(factory(), Terminal, f"{rules}: terminal")


def _official_game(s: Settings, clock: Clock | None, thinker: Executor | None) -> Controller:
    return GameController(
        players=s.players,
        level=s.level,
        seed=s.seed,
        target_score=s.target_score,
        lang=s.lang,
        clock=clock,
        timing=s.timing,
        thinker=thinker,
    )


def _classic_game(s: Settings, clock: Clock | None, thinker: Executor | None) -> Controller:
    return ClassicController(
        players=s.players,
        level=s.level,
        seed=s.seed,
        lang=s.lang,
        clock=clock,
        timing=s.timing,
        thinker=thinker,
    )


def _official_resume(
    record: records.Record, s: Settings, clock: Clock | None, thinker: Executor | None
) -> Controller:
    return GameController.from_record(
        record, level=s.level, lang=s.lang, clock=clock, timing=s.timing, thinker=thinker
    )


def _classic_resume(
    record: records.Record, s: Settings, clock: Clock | None, thinker: Executor | None
) -> Controller:
    return ClassicController.from_record(
        record, level=s.level, lang=s.lang, clock=clock, timing=s.timing, thinker=thinker
    )


def _official_table(controller: Any, save_path: Path | None) -> Screen[Any]:
    return GameScreen(controller, save_path)


def _classic_table(controller: Any, save_path: Path | None) -> Screen[Any]:
    return ClassicGameScreen(controller, save_path)


def _official_replay(record: records.Record, lang: str, title: str) -> Screen[Any]:
    return ReplayScreen(Replay(record, lang), title)


def _classic_replay(record: records.Record, lang: str, title: str) -> Screen[Any]:
    return ClassicReplayScreen(ClassicReplay(record, lang), title)


OFFICIAL_TERMINAL = Terminal(_official_game, _official_resume, _official_table, _official_replay)
"""The official game in the terminal."""
CLASSIC_TERMINAL = Terminal(_classic_game, _classic_resume, _classic_table, _classic_replay)
"""The classic game in the terminal (RULES.md §9)."""
