"""The table: opponents, the Center Row, the person's hand, the log, and the keys to play.

Keys (also in the help screen): ←/→ move in the hand, Space selects, 0-9 or Enter (on the
Center Row card picked with ↑/↓) plays the selected cards there, ``d`` draws, ``l`` lays or
places the selected card, ``e`` ends, ``s`` or ``!`` calls "DOS!", ``c`` catches, ``h``
highlights legal choices, ``:`` types an action in notation, ``ctrl+s`` saves, ``?`` helps.
A click on a hand card selects it, on a Center Row card plays there, on an opponent catches.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from dos.i18n import text
from dos.rules.official import Action, Kind, Phase
from dos.tui import present
from dos.tui.controller import HUMAN, GameController
from dos.tui.designate import choices
from dos.tui.widgets.cards import CardView
from dos.tui.widgets.center import CenterRowView
from dos.tui.widgets.hand import HandView
from dos.tui.widgets.log import GameLog
from dos.tui.widgets.opponents import OpponentsView, OpponentView
from dos.tui.widgets.row import Shown

TICK_SECONDS = 0.1
"""How often the screen lets the controller run due bot events."""


class GameScreen(Screen[None]):
    """A game in progress, driven by a ``GameController``."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #header { height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #body { height: 1fr; }
    #table { width: 1fr; padding: 0 1; }
    #side { width: 36%; max-width: 56; min-width: 24; }
    .title { height: 1; text-style: bold; margin-top: 1; }
    #status { height: auto; }
    #matched { height: auto; color: $text-muted; }
    #alert { height: auto; color: $warning; text-style: bold; }
    #message { height: auto; color: $error; text-style: bold; }
    #legal { height: auto; color: $success; }
    .empty { display: none; }
    #log { height: 1fr; }
    #command { dock: bottom; }
    #keys { height: auto; color: $text-muted; padding: 0 1; }
    GameScreen.-short .title { margin-top: 0; }
    """

    # Textual declares it ``ClassVar[...] | None``, which mypy reads as an instance variable
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012
    """Below 32 lines (80 by 24, say) the titles lose their blank line, so that the table fits
    without scrolling."""

    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("up", "target(-1)", show=False),
        Binding("down", "target(1)", show=False),
        Binding("space", "select", show=False),
        Binding("enter", "play", show=False),
        *[Binding(str(n), f"play({n})", show=False) for n in range(10)],
        Binding("d", "draw", show=False),
        Binding("l", "lay", show=False),
        Binding("p", "lay", show=False),
        Binding("e", "end", show=False),
        Binding("s", "dos", show=False),
        Binding("exclamation_mark", "dos", show=False),
        Binding("c", "catch", show=False),
        Binding("h", "hints", show=False),
        Binding("colon", "command", show=False),
        Binding("slash", "command", show=False),
        Binding("ctrl+s", "save", show=False),
        Binding("question_mark", "help", show=False),
        Binding("f1", "help", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, controller: GameController, save_path: Path | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.lang = controller.lang
        self.save_path = save_path or Path("dos-save.jsonl")
        self.selected: set[int] = set()
        self.cursor = 0
        self.target = 0
        self.hints = False
        self.note: str | None = None
        self.summary_open = False

    def t(self, key: str, **params: object) -> str:
        """A text of the catalog in this game's language."""
        return text(self.lang, key, **params)

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The table on the left, the log on the right, the keys and the command line at the
        bottom. Lines with nothing to say take no room."""
        yield Static(id="header")
        with Horizontal(id="body"):
            with VerticalScroll(id="table"):
                yield OpponentsView(id="opponents")
                yield Static(self.t("game.center_row"), classes="title", id="center-title")
                yield CenterRowView(id="center")
                yield Static(id="matched")
                yield Static(id="status")
                yield Static(id="alert")
                yield Static(id="hand-title", classes="title")
                yield HandView(id="hand")
                yield Static(id="message")
                yield Static(id="legal")
            with Vertical(id="side"):
                log = GameLog(id="log")
                log.can_focus = False
                yield log
        yield Static(self.t("tui.keys"), id="keys")
        yield Input(placeholder=self.t("tui.command_placeholder"), id="command")

    def on_mount(self) -> None:
        """Draws the table and starts ticking the controller."""
        self.set_interval(TICK_SECONDS, self.tick)
        self.set_focus(None)
        self.refresh_table()
        if self.controller.over:  # a finished game was resumed
            from dos.tui.screens.summary import GameOverScreen

            self.app.push_screen(GameOverScreen(self.controller))

    # --- the controller --------------------------------------------------------------------

    def tick(self) -> None:
        """Runs the bots' due events; redraws when something happened."""
        if self.summary_open:
            return
        if self.app.screen is not self:  # help or a choice is open: the game waits
            self.controller.hold()
            return
        self.controller.release()
        if self.controller.tick():
            self.refresh_table()
        self.check_summary()

    def check_summary(self) -> None:
        """Shows the round summary (and then the game-over screen) when a round has ended."""
        if self.controller.summary is None or self.summary_open:
            return
        from dos.tui.screens.summary import GameOverScreen, SummaryScreen

        self.summary_open = True

        def closed(_: None) -> None:
            self.summary_open = False
            self.controller.resume()
            if self.controller.over:
                self.app.push_screen(GameOverScreen(self.controller))
            self.refresh_table()

        self.app.push_screen(SummaryScreen(self.controller), closed)

    def act(self, action: Action) -> bool:
        """Submits the person's action; shows the refusal if there is one."""
        outcome = self.controller.submit(action)
        if outcome.ok:
            self.selected.clear()
            self.note = None
        self.refresh_table()
        self.check_summary()
        return outcome.ok

    def warn(self, key: str, **params: object) -> None:
        """Shows a message of the catalog (a refusal that the engine did not need to see)."""
        self.controller.message = self.t(key, **params)
        self.refresh_table()

    # --- drawing ---------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Redraws everything from the controller's state (``dos.tui.present``)."""
        c = self.controller
        state = c.state
        hand = state.hands[HUMAN]
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        self.target = min(self.target, max(len(state.center) - 1, 0))
        self.selected = {i for i in self.selected if i < len(hand)}
        legal = c.legal()
        actions = present.turn_actions(legal)
        selection = Counter(hand[i] for i in self.selected)
        targets = present.hinted_targets(actions, selection) if self.hints else set()
        hinted = present.hinted_cards(actions, selection) if self.hints else set()

        self.query_one("#header", Static).update(present.header(c))
        self.query_one(OpponentsView).show(present.opponent_lines(c))
        self.query_one(CenterRowView).show(
            [
                Shown(
                    card,
                    str(index),
                    hint=index in targets,
                    cursor=index == self.target,
                    matched=index in state.matched,
                )
                for index, card in enumerate(state.center)
            ]
        )
        self._say("#matched", present.matched_line(c))
        self.query_one(HandView).show(
            [
                Shown(
                    card,
                    str(index + 1),
                    selected=index in self.selected,
                    hint=card in hinted,
                    cursor=index == self.cursor,
                )
                for index, card in enumerate(hand)
            ]
        )
        self.query_one("#hand-title", Static).update(present.hand_title(c))
        self._say("#status", present.status_line(c))
        self._say("#alert", "\n".join(present.alerts(c)))
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

    # --- keys and clicks -------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        """Moves the hand cursor."""
        size = len(self.controller.state.hands[HUMAN])
        if size:
            self.cursor = (self.cursor + step) % size
        self.refresh_table()

    def action_target(self, step: int) -> None:
        """Moves the Center Row cursor (the target for Enter)."""
        size = len(self.controller.state.center)
        if size:
            self.target = (self.target + step) % size
        self.refresh_table()

    def action_select(self, index: int | None = None) -> None:
        """Selects or unselects the hand card under the cursor (or at ``index``)."""
        index = self.cursor if index is None else index
        if index >= len(self.controller.state.hands[HUMAN]):
            return
        self.selected ^= {index}
        self.cursor = index
        self.controller.message = None
        self.refresh_table()

    def selected_cards(self) -> tuple[int, ...]:
        """The selected hand cards, as card types."""
        hand = self.controller.state.hands[HUMAN]
        return tuple(hand[i] for i in sorted(self.selected))

    def action_play(self, index: int | None = None) -> None:
        """Plays the selected cards onto Center Row card ``index`` (default: the cursor's)."""
        index = self.target if index is None else index
        cards = self.selected_cards()
        if not cards:
            self.warn("tui.select_cards_first")
            return
        if len(cards) > 2:
            self.warn("tui.too_many_cards")
            return
        self.target = index
        action = Action(Kind.MATCH, tuple(sorted(cards)), index)
        state = self.controller.state
        offered = choices(action.cards, state.center[index]) if index < len(state.center) else []
        if not offered or action not in self.controller.legal():
            self.act(action)
            return
        from dos.tui.screens.designation import DesignationScreen

        def chosen(result: Action | None) -> None:
            if result is not None:
                self.act(result)

        screen = DesignationScreen(self.lang, action.cards, state.center[index], index, offered)
        self.app.push_screen(screen, chosen)

    def action_draw(self) -> None:
        """Draws a card."""
        self.act(Action(Kind.DRAW))

    def action_lay(self) -> None:
        """Lays (after a draw) or places (colour bonus) the one selected card."""
        cards = self.selected_cards()
        if len(cards) != 1:
            self.warn("tui.select_one_card")
            return
        kind = Kind.PLACE if self.controller.state.phase == Phase.PLACING else Kind.LAY
        self.act(Action(kind, cards))

    def action_end(self) -> None:
        """Ends the matches, or declines the remaining bonus placements."""
        self.act(Action(Kind.END))

    def action_dos(self) -> None:
        """Calls "DOS!"."""
        self.controller.call_dos()
        self.refresh_table()

    def action_catch(self, seat: int | None = None) -> None:
        """Catches an opponent who has not called "DOS!"."""
        self.controller.catch(seat)
        self.refresh_table()
        self.check_summary()

    def action_hints(self) -> None:
        """Highlights the legal choices, or stops highlighting them."""
        self.hints = not self.hints
        self.refresh_table()

    def action_command(self) -> None:
        """Focuses the command line, to type an action in notation."""
        self.query_one("#command", Input).focus()

    def action_save(self) -> None:
        """Saves the game as a game record."""
        try:
            self.save_path.write_text(self.controller.record().dumps(), encoding="utf-8")
        except OSError as error:
            self.note = self.t("tui.save_failed", path=str(self.save_path), error=error.strerror)
        else:
            self.note = self.t("tui.saved", path=str(self.save_path))
        self.controller.message = None
        self.refresh_table()

    def action_help(self) -> None:
        """Opens the help screen."""
        from dos.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.lang))

    def action_quit(self) -> None:
        """Leaves the game."""
        self.app.exit()

    @on(Input.Submitted, "#command")
    def typed(self, event: Input.Submitted) -> None:
        """An action typed in notation."""
        value = event.value.strip()
        if value:
            outcome = self.controller.submit_text(value)
            if outcome.ok:
                event.input.value = ""
                self.selected.clear()
        self.set_focus(None)
        self.refresh_table()
        self.check_summary()

    def on_key(self, event: events.Key) -> None:
        """Escape leaves the command line."""
        if event.key == "escape" and isinstance(self.focused, Input):
            self.set_focus(None)

    @on(CardView.Clicked)
    def clicked_card(self, event: CardView.Clicked) -> None:
        """A click on a hand card selects it; on a Center Row card, plays there."""
        if event.place == "hand":
            self.action_select(event.index)
        else:
            self.action_play(event.index)

    @on(OpponentView.Clicked)
    def clicked_opponent(self, event: OpponentView.Clicked) -> None:
        """A click on an opponent catches them."""
        self.action_catch(event.seat)
