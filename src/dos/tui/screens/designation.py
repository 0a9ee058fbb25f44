"""Asking for a wild's designation, only when it changes the match (``dos.tui.designate``)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from dos.i18n import text
from dos.i18n.describe import cards_text, match_kind_name
from dos.rules.official import Action
from dos.rules.official.actions import match


class DesignationScreen(ModalScreen[Action | None]):
    """The choices for one match: press its number (Enter: the first, the best), Esc cancels.
    Dismisses with the match to make, or ``None``."""

    DEFAULT_CSS = """
    DesignationScreen { align: center middle; }
    DesignationScreen > Vertical {
        width: 80; height: auto; border: thick $warning; background: $surface; padding: 1 2;
    }
    DesignationScreen .title { text-style: bold; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 10)],
        Binding("enter", "choose(0)", show=False),
        Binding("escape", "cancel", show=False),
    ]

    def __init__(
        self,
        lang: str,
        cards: tuple[int, ...],
        target: int,
        index: int,
        options: list[tuple[tuple[int, ...], str]],
    ) -> None:
        super().__init__()
        self.lang = lang
        self.cards = cards
        self.target = target
        self.index = index
        self.options = options

    def compose(self) -> ComposeResult:
        """The question and one numbered line per choice."""
        lines = []
        for number, (designations, _) in enumerate(self.options, 1):
            shown = designations or self._best()
            kind = match_kind_name(self.lang, self.cards, designations, self.target)
            lines.append(f"{number}  {cards_text(self.lang, self.cards, shown)} — {kind}")
        with Vertical():
            yield Static(text(self.lang, "game.choose_colour"), classes="title")
            yield Static("\n".join(lines), id="choices")
            yield Static(text(self.lang, "tui.designation_keys"))

    def _best(self) -> tuple[int, ...]:
        from dos.rules.official.matching import resolve

        resolved = resolve(self.cards, (), self.target)
        return resolved[0] if resolved else ()

    def action_choose(self, number: int) -> None:
        """Makes the match with choice ``number`` (counted from 0)."""
        if number >= len(self.options):
            return
        designations = self.options[number][0]
        self.dismiss(match(self.cards, self.index, designations))

    def action_cancel(self) -> None:
        """Makes no match."""
        self.dismiss(None)
