"""The classic table (RULES.md §9): opponents, the discard pile, the hand, the log, and the
reaction test's play area with its countdown.

Keys (also in the classic help): ←/→ move in the hand, Enter or Space plays the card under the
cursor, 1-9 the card at that position (a wild asks for the wished colour), ``d`` draws, ``h``
highlights the playable cards, ``:`` types an action in notation, ``ctrl+s`` saves, ``?``
helps, ``q`` quits. In the reaction test each target shows its key (``F``, ``J``); a click on a
target hits it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from dos.i18n import text
from dos.rules.classic.cards import IS_WILD
from dos.tui.classic import present
from dos.tui.classic.cards import ClassicHandView, DiscardView, colour_mark
from dos.tui.classic.controller import ClassicController
from dos.tui.classic.words import card_words, colour_words
from dos.tui.controller import HUMAN
from dos.tui.screens.help import HelpScreen
from dos.tui.screens.summary import GameEndScreen
from dos.tui.screens.table import TableScreen
from dos.tui.widgets.cards import CardView
from dos.tui.widgets.opponents import OpponentsView
from dos.tui.widgets.reaction import TARGET_KEYS, ReactionArea
from dos.tui.widgets.row import Shown

CLASSIC_HELP_SECTIONS = (
    "help_goal",
    "help_turn",
    "help_special",
    "help_wild",
    "help_reaction",
    "help_cards",
    "help_keys",
)
"""The ``classic.*`` texts of the classic help screen, in order."""


class ClassicHelpScreen(HelpScreen):
    """How to play classic DOS, in the game's language."""

    PREFIX = "classic"
    SECTIONS = CLASSIC_HELP_SECTIONS


class ClassicGameScreen(TableScreen[ClassicController]):
    """A classic game in progress, driven by a ``ClassicController``."""

    DEFAULT_CSS = """
    #main { width: 1fr; }
    #table { height: 1fr; padding: 0 1; }
    #pile { height: auto; }
    #pile-info { width: 1fr; height: auto; padding: 0 1; }
    #status { height: auto; text-style: bold; }
    #reaction-box { height: 1fr; display: none; }
    #reaction-box.active { display: block; }
    #table.hidden { display: none; }
    #reaction-title { height: auto; color: $warning; text-style: bold; padding: 0 1; }
    #countdown { height: 1; color: $warning; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "play", show=False),
        Binding("enter", "play", show=False),
        *[Binding(str(n), f"play({n - 1})", show=False) for n in range(1, 10)],
    ]

    TEXTS = "classic"
    HELP_SCREEN = ClassicHelpScreen

    def __init__(self, controller: ClassicController, save_path: Path | None = None) -> None:
        super().__init__(controller, save_path)
        self.over_shown = False

    # --- layout ----------------------------------------------------------------------------

    def compose_table(self) -> ComposeResult:
        """The table, or, during the person's reaction test, the play area."""
        with Vertical(id="main"):
            with VerticalScroll(id="table"):
                yield OpponentsView(id="opponents")
                yield Static(self.t("classic.discard_pile"), classes="title")
                with Horizontal(id="pile"):
                    yield DiscardView(id="discard")
                    yield Static(id="pile-info")
                yield Static(id="status")
                yield Static(id="alert")
                yield Static(id="hand-title", classes="title")
                yield ClassicHandView(id="hand")
                yield Static(id="message")
                yield Static(id="legal")
            with Vertical(id="reaction-box"):
                yield Static(self.t("classic.reaction_title"), id="reaction-title")
                yield Static(id="countdown")
                yield ReactionArea(id="reaction")

    # --- the controller --------------------------------------------------------------------

    def running(self) -> bool:
        """A reaction test's countdown is redrawn as it runs."""
        return self.controller.remaining() is not None

    def check_end(self) -> None:
        """Shows the ranking once the game is over."""
        if not self.controller.over or self.over_shown:
            return
        self.over_shown = True
        self.app.push_screen(ClassicOverScreen(self.controller))

    def after(self, ok: bool) -> None:
        if ok:
            self.note = None
        self.refresh_table()
        self.check_end()

    # --- drawing ---------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Redraws everything from the controller (``dos.tui.classic.present``)."""
        c = self.controller
        state = c.state
        hand = state.hands[HUMAN]
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        legal = c.legal()
        playable = present.playable_cards(legal) if self.hints else set()

        self.query_one("#header", Static).update(present.header(c))
        self.query_one(OpponentsView).show(present.opponent_lines(c))
        self.query_one(DiscardView).show([Shown(state.top, "")])
        self.query_one("#pile-info", Static).update(present.pile_lines(c))
        self.query_one("#status", Static).update(present.status_line(c))
        self._say("#alert", present.alert(c))
        self.query_one("#hand-title", Static).update(present.hand_title(c))
        self.query_one(ClassicHandView).show(
            [
                Shown(card, str(index + 1), hint=card in playable, cursor=index == self.cursor)
                for index, card in enumerate(hand)
            ]
        )
        self.show_feedback(legal)
        self.show_reaction()

    def show_reaction(self) -> None:
        """The play area with the targets and the countdown while the person reacts."""
        c = self.controller
        test = c.reaction
        self.query_one("#table").set_class(test is not None, "hidden")
        self.query_one("#reaction-box").set_class(test is not None, "active")
        if test is None:
            return
        self.query_one("#countdown", Static).update(present.countdown(c))
        self.query_one(ReactionArea).show(test.targets, test.hit, test.radius)

    # --- keys and clicks -------------------------------------------------------------------

    def action_play(self, index: int | None = None) -> None:
        """Plays the card under the cursor (or at position ``index``); a wild asks first for
        the wished colour."""
        c = self.controller
        hand = c.state.hands[HUMAN]
        index = self.cursor if index is None else index
        if not 0 <= index < len(hand):
            return
        self.cursor = index
        card = hand[index]
        if not IS_WILD[card]:
            self.after(c.play_card(card).ok)
            return

        def wished(colour: int | None) -> None:
            if colour is not None:
                self.after(c.play_card(card, colour).ok)

        self.app.push_screen(WishScreen(self.lang, card), wished)

    def action_draw(self) -> None:
        """Draws a card (or the pending cards)."""
        self.after(self.controller.draw().ok)

    def hit(self, index: int) -> None:
        """The person hits target ``index``."""
        self.controller.hit(index)
        self.after(True)

    @on(Input.Submitted, "#command")
    def typed(self, event: Input.Submitted) -> None:
        """An action typed in notation."""
        value = event.value.strip()
        if value and self.controller.submit_text(value).ok:
            event.input.value = ""
        self.set_focus(None)
        self.after(True)

    def on_key(self, event: events.Key) -> None:
        """During the reaction test a target's key hits it (Escape, which leaves the command
        line, is ``TableScreen``'s)."""
        test = self.controller.reaction
        if test is None or isinstance(self.focused, Input):
            return
        keys = TARGET_KEYS[: len(test.targets)]
        if event.key in keys:
            event.stop()
            event.prevent_default()
            self.hit(keys.index(event.key))

    @on(CardView.Clicked)
    def clicked_card(self, event: CardView.Clicked) -> None:
        """A click on a hand card plays it."""
        if event.place == "hand":
            self.action_play(event.index)

    @on(ReactionArea.TargetHit)
    def clicked_target(self, event: ReactionArea.TargetHit) -> None:
        """A click on a target hits it."""
        self.hit(event.index)

    @on(ReactionArea.Missed)
    def clicked_beside(self, event: ReactionArea.Missed) -> None:
        """A click beside the targets: a miss, which costs only time."""
        self.controller.click(event.x, event.y)
        self.after(True)


class WishScreen(ModalScreen[int | None]):
    """The wished colour for a wild: ``b g r y`` or ``1``-``4``; Esc cancels."""

    DEFAULT_CSS = """
    WishScreen { align: center middle; }
    WishScreen > Vertical {
        width: 64; height: auto; border: thick $warning; background: $surface; padding: 1 2;
    }
    WishScreen .title { text-style: bold; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(letter, f"wish({n})", show=False) for n, letter in enumerate("bgry")],
        *[Binding(str(n + 1), f"wish({n})", show=False) for n in range(4)],
        Binding("escape", "cancel", show=False),
    ]

    def __init__(self, lang: str, card: int) -> None:
        super().__init__()
        self.lang = lang
        self.card = card

    def compose(self) -> ComposeResult:
        """The question and the four colours."""
        colours = "   ".join(
            f"{n + 1} {colour_mark(n)} {colour_words(self.lang, n)}" for n in range(4)
        )
        with Vertical():
            yield Static(
                text(self.lang, "classic.wish_title", card=card_words(self.lang, self.card)),
                classes="title",
            )
            yield Static(colours, id="colours")
            yield Static(text(self.lang, "classic.wish_keys"))

    def action_wish(self, colour: int) -> None:
        """Wishes ``colour`` (``B G R Y`` order)."""
        self.dismiss(colour)

    def action_cancel(self) -> None:
        """Plays nothing."""
        self.dismiss(None)


class ClassicOverScreen(GameEndScreen):
    """The full ranking; offers a new game of either rule set."""

    DEFAULT_CSS = """
    ClassicOverScreen { align: center middle; }
    ClassicOverScreen > Vertical {
        width: 72; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    ClassicOverScreen .title { text-style: bold; margin-bottom: 1; }
    ClassicOverScreen .hint { margin-top: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game('classic')", show=False),
        Binding("o", "new_game('official')", show=False),
    ]

    def __init__(self, controller: ClassicController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """The ranking, first place first, and the choice of a new game."""
        c = self.controller
        lang = c.lang
        ranking = "\n".join(
            text(lang, "classic.ranking_line", place=place, player=c.names[seat])
            for place, seat in enumerate(c.state.ranking, 1)
        )
        winner = c.names[c.state.ranking[0]] if c.state.ranking else ""
        with Vertical():
            yield Static(text(lang, "classic.over_title"), classes="title")
            yield Static(text(lang, "classic.log_game_over", player=winner), id="winner")
            yield Static(ranking, id="ranking")
            yield Static(text(lang, "classic.new_game_offer"), classes="hint")
