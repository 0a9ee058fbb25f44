"""The help screens: the rules in short, the card symbols, and the keys.

One modal serves both rule sets; each says which texts of the catalog it shows.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from dos.i18n import text

HELP_SECTIONS = (
    "help_goal",
    "help_turn",
    "help_match",
    "help_bonus",
    "help_wilds",
    "help_dos",
    "help_scoring",
    "help_cards",
    "help_keys",
)
"""The ``tui.*`` texts of the help screen, in order."""


class HelpScreen(ModalScreen[None]):
    """How to play, in the game's language: the title ``{PREFIX}.help_title``, then the
    texts ``{PREFIX}.{section}`` of ``SECTIONS``, then how to close it."""

    PREFIX: ClassVar[str] = "tui"
    """The catalog's namespace of the title and the sections."""
    SECTIONS: ClassVar[tuple[str, ...]] = HELP_SECTIONS
    """The sections, in order."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90; height: 90%; border: thick $primary; background: $surface; padding: 1 2;
    }
    HelpScreen .title { text-style: bold; }
    HelpScreen .section { margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("f1", "close", show=False),
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        """The title and each section of the rules."""
        with VerticalScroll():
            yield Static(text(self.lang, f"{self.PREFIX}.help_title"), classes="title")
            for key in self.SECTIONS:
                yield Static(text(self.lang, f"{self.PREFIX}.{key}"), classes="section")
            yield Static(text(self.lang, "tui.help_close"), classes="section")

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
