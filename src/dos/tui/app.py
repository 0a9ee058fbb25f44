"""The terminal application: a game against bots (official or classic rules), or the replay
of a record."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from dos import records, ruleset
from dos.tui.clock import Clock
from dos.tui.controller import Timing
from dos.tui.screens.summary import GameEndScreen
from dos.tui.terminals import Controller, terminal


@dataclass(frozen=True, slots=True)
class Settings:
    """What ``dos play`` was asked for."""

    players: int = 2
    level: str = "medium"
    lang: str = "en"
    seed: int = 0
    target_score: int = 200
    save_path: Path | None = None
    timing: Timing = field(default_factory=Timing)
    rules: str = ruleset.DEFAULT
    """The rule set: one with a terminal client (``dos.tui.terminals``), ``official`` or
    ``classic`` (RULES.md §9)."""


class DosApp(App[None]):
    """DOS in the terminal. Give ``settings`` to play, ``resume`` to go on with a saved game,
    or ``replay`` to step through a record (either of an official or a classic game: the
    record's rule set is played or shown); ``clock`` is for tests.

    The bots think on the app's one background thread, so that the screen never waits for
    them; ``think_in_background=False`` has them think at once on the interface's thread
    instead (tests that drive the game step by step with a ``ManualClock``)."""

    TITLE = "DOS"

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        resume: records.Record | None = None,
        replay: records.Record | None = None,
        replay_title: str = "",
        clock: Clock | None = None,
        think_in_background: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.clock = clock
        self.thinker: ThreadPoolExecutor | None = None
        if think_in_background and replay is None:
            # one worker: a bot never thinks twice at once, and decisions come in order
            self.thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dos-bots")
        self.replay = replay
        self.replay_title = replay_title
        s = self.settings
        self.controller: Controller | None = None
        if replay is None:
            if resume is not None:
                # the record says its rule set
                self.settings = replace(s, rules=resume.rules)
                self.controller = terminal(resume.rules).resume(
                    resume, self.settings, clock, self.thinker
                )
            else:
                self.controller = self._new_controller()

    def _new_controller(self) -> Controller:
        rules = self.settings.rules
        return terminal(rules).new_game(self.settings, self.clock, self.thinker)

    def on_mount(self) -> None:
        """Opens the table, or the replay."""
        if self.replay is not None:
            show = terminal(self.replay.rules).replay
            self.push_screen(show(self.replay, self.settings.lang, self.replay_title))
        else:
            assert self.controller is not None
            self.push_screen(self._table())

    def _table(self) -> Screen[Any]:
        """The table for the controller's rule set."""
        assert self.controller is not None
        return terminal(self.settings.rules).table(self.controller, self.settings.save_path)

    def on_unmount(self) -> None:
        """Stops the bots' thread: queued decisions are cancelled, one under way ends
        unheard."""
        if self.thinker is not None:
            self.thinker.shutdown(wait=False, cancel_futures=True)

    def on_game_end_screen_new_game(self, message: GameEndScreen.NewGame) -> None:
        """The end-of-game screen asked for a new game."""
        self.new_game(message.rules)

    def new_game(self, rules: str | None = None) -> None:
        """Leaves the finished game for a new one (same settings, next seed), of the rule set
        ``rules`` (default: the same)."""
        rules = rules or self.settings.rules
        self.settings = replace(self.settings, seed=self.settings.seed + 1, rules=rules)
        self.controller = self._new_controller()
        screen = self._table()
        while len(self.screen_stack) > 2:  # the default screen and the table stay
            self.pop_screen()
        self.switch_screen(screen)
