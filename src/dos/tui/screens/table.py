"""What the official and the classic game screens share: the frame of the table (header,
log, keys, command line), the keys that mean the same in both, saving, help, and the tick
that runs the controller while the screen is on top and holds its clock while it is not.

Each game screen says what lies on its table (``compose_table``), how it is drawn
(``refresh_table``) and what ends a stretch of play (``check_end``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Generic, Protocol, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from dos import records
from dos.i18n import text
from dos.tui.controller import HUMAN
from dos.tui.screens.help import HelpScreen
from dos.tui.widgets.log import GameLog

TICK_SECONDS = 0.1
"""How often the screen lets the controller run what is due."""


class Hands(Protocol):
    """A game state, as far as the table screens read it."""

    @property
    def hands(self) -> Sequence[Sequence[int]]:
        """Each seat's hand."""
        ...


class TableController(Protocol):
    """What a game screen asks of its controller, whatever the rules."""

    lang: str
    message: str | None
    log: list[str]

    @property
    def state(self) -> Hands:
        """The game's state."""
        ...

    def record(self) -> records.Record:
        """The game so far as a game record."""
        ...

    def hold(self) -> None:
        """Stops the game's clock."""
        ...

    def release(self) -> None:
        """Starts the game's clock again."""
        ...

    def tick(self) -> int:
        """Makes what is due; how many actions were applied."""
        ...


C = TypeVar("C", bound=TableController)


class TableScreen(Screen[None], Generic[C]):
    """A game in progress, driven by a controller ``C``."""

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #header { height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #body { height: 1fr; }
    #side { width: 36%; max-width: 56; min-width: 24; }
    .title { height: 1; text-style: bold; margin-top: 1; }
    #alert { height: auto; color: $warning; text-style: bold; }
    #message { height: auto; color: $error; text-style: bold; }
    #legal { height: auto; color: $success; }
    .empty { display: none; }
    #log { height: 1fr; }
    #command { dock: bottom; }
    #keys { height: auto; color: $text-muted; padding: 0 1; }
    TableScreen.-short .title { margin-top: 0; }
    """

    # Textual declares it ``ClassVar[...] | None``, which mypy reads as an instance variable
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012
    """Below 32 lines (80 by 24, say) the titles lose their blank line, so that the table fits
    without scrolling."""

    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("d", "draw", show=False),
        Binding("h", "hints", show=False),
        Binding("colon", "command", show=False),
        Binding("slash", "command", show=False),
        Binding("ctrl+s", "save", show=False),
        Binding("question_mark", "help", show=False),
        Binding("f1", "help", show=False),
        Binding("q", "quit", show=False),
    ]

    TEXTS: ClassVar[str] = "tui"
    """The catalog's namespace of the keys line and the command line's placeholder."""
    HELP_SCREEN: ClassVar[type[HelpScreen]] = HelpScreen
    """The help screen of these rules."""

    def __init__(self, controller: C, save_path: Path | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.lang = controller.lang
        self.save_path = save_path or Path("dos-save.jsonl")
        self.cursor = 0
        self.hints = False
        self.note: str | None = None

    def t(self, key: str, **params: object) -> str:
        """A text of the catalog in this game's language."""
        return text(self.lang, key, **params)

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The table on the left, the log on the right, the keys and the command line at the
        bottom."""
        yield Static(id="header")
        with Horizontal(id="body"):
            yield from self.compose_table()
            with Vertical(id="side"):
                log = GameLog(id="log")
                log.can_focus = False
                yield log
        yield Static(self.t(f"{self.TEXTS}.keys"), id="keys")
        yield Input(placeholder=self.t(f"{self.TEXTS}.command_placeholder"), id="command")

    def compose_table(self) -> ComposeResult:
        """The left of the screen: the table of these rules."""
        raise NotImplementedError

    def on_mount(self) -> None:
        """Draws the table and starts ticking the controller."""
        self.set_interval(TICK_SECONDS, self.tick)
        self.set_focus(None)
        self.refresh_table()
        self.check_resumed()

    def check_resumed(self) -> None:
        """Shows the end of a finished game that was resumed."""
        self.check_end()

    # --- the controller --------------------------------------------------------------------

    def tick(self) -> None:
        """Runs what is due; redraws when something happened (or ``running`` says so)."""
        if self.waiting():
            return
        if self.app.screen is not self:  # help or a choice is open: the game waits
            self.controller.hold()
            return
        self.controller.release()
        if self.controller.tick() or self.running():
            self.refresh_table()
        self.check_end()

    def waiting(self) -> bool:
        """Whether play stands still for a screen of this game's own (no hold needed)."""
        return False

    def running(self) -> bool:
        """Whether something on the table moves with time alone (a countdown)."""
        return False

    def check_end(self) -> None:
        """Shows what comes once a stretch of play has ended (a round, the game)."""
        raise NotImplementedError

    # --- drawing ---------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Redraws everything from the controller's state."""
        raise NotImplementedError

    def show_feedback(self, legal: Sequence[object]) -> None:
        """The last refusal (or else the note), the ``legal`` actions while hints are on, and
        the log."""
        c = self.controller
        message = ("⚠ " + c.message) if c.message else (self.note or "")
        self._say("#message", message)
        legal_line = self.t("tui.legal", actions=", ".join(str(a) for a in legal))
        self._say("#legal", legal_line if self.hints else "")
        self.query_one(GameLog).sync(c.log)

    def _say(self, selector: str, line: str) -> None:
        """Shows ``line`` in a line of the table, which takes no room while it is empty."""
        widget = self.query_one(selector, Static)
        widget.update(line)
        widget.set_class(not line, "empty")

    # --- keys ------------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        """Moves the hand cursor."""
        size = len(self.controller.state.hands[HUMAN])
        if size:
            self.cursor = (self.cursor + step) % size
        self.refresh_table()

    def action_hints(self) -> None:
        """Highlights the legal choices, or stops highlighting them."""
        self.hints = not self.hints
        self.refresh_table()

    def action_command(self) -> None:
        """Focuses the command line, to type an action in notation."""
        self.query_one("#command", Input).focus()

    def action_save(self) -> None:
        """Saves the game as a game record (``dos replay`` checks it)."""
        try:
            self.save_path.write_text(self.controller.record().dumps(), encoding="utf-8")
        except OSError as error:
            self.note = self.t("tui.save_failed", path=str(self.save_path), error=error.strerror)
        else:
            self.note = self.t("tui.saved", path=str(self.save_path))
        self.controller.message = None
        self.refresh_table()

    def action_help(self) -> None:
        """Opens the help screen of these rules."""
        self.app.push_screen(self.HELP_SCREEN(self.lang))

    def action_quit(self) -> None:
        """Leaves the game."""
        self.app.exit()

    def on_key(self, event: events.Key) -> None:
        """Escape leaves the command line."""
        if event.key == "escape" and isinstance(self.focused, Input):
            self.set_focus(None)
