"""The table: opponents, the Center Row, the person's hand, the log, and the keys to play.

Keys (also in the help screen): ←/→ move in the hand, Space selects, 0-9 or Enter (on the
Center Row card picked with ↑/↓) plays the selected cards there, ``d`` draws, ``l`` lays or
places the selected card, ``e`` ends, ``s`` or ``!`` calls "DOS!", ``w`` calls "DOS!" with the
next move (if it leaves two cards: applied with it, so no bot can catch first), ``c`` catches, ``h``
highlights legal choices, ``:`` types an action in notation, ``ctrl+s`` saves, ``?`` helps.
A click on a hand card selects it, on a Center Row card plays there, on an opponent catches.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from dos.rules.official import Action, Kind, Phase
from dos.tui import present
from dos.tui.controller import HUMAN, GameController
from dos.tui.designate import choices
from dos.tui.screens.table import TableScreen
from dos.tui.widgets.cards import CardView
from dos.tui.widgets.center import CenterRowView
from dos.tui.widgets.hand import HandView
from dos.tui.widgets.opponents import OpponentsView, OpponentView
from dos.tui.widgets.row import Shown


class GameScreen(TableScreen[GameController]):
    """A game in progress, driven by a ``GameController``."""

    DEFAULT_CSS = """
    #table { width: 1fr; padding: 0 1; }
    #status { height: auto; }
    #matched { height: auto; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "target(-1)", show=False),
        Binding("down", "target(1)", show=False),
        Binding("space", "select", show=False),
        Binding("enter", "play", show=False),
        *[Binding(str(n), f"play({n})", show=False) for n in range(10)],
        Binding("l", "lay", show=False),
        Binding("p", "lay", show=False),
        Binding("e", "end", show=False),
        Binding("s", "dos", show=False),
        Binding("exclamation_mark", "dos", show=False),
        Binding("w", "dos_with_move", show=False),
        Binding("c", "catch", show=False),
    ]

    def __init__(self, controller: GameController, save_path: Path | None = None) -> None:
        super().__init__(controller, save_path)
        self.selected: set[int] = set()
        self.target = 0
        self.summary_open = False
        self.dos_with_move = False
        """"DOS!" is called with the next move (key ``w``)."""

    # --- layout ----------------------------------------------------------------------------

    def compose_table(self) -> ComposeResult:
        """Opponents, the Center Row, the person's hand and the lines about them. Lines with
        nothing to say take no room."""
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

    def check_resumed(self) -> None:
        """A finished game that was resumed shows the game-over screen."""
        if self.controller.over:
            from dos.tui.screens.summary import GameOverScreen

            self.app.push_screen(GameOverScreen(self.controller))

    # --- the controller --------------------------------------------------------------------

    def waiting(self) -> bool:
        """While the round summary is open the game waits."""
        return self.summary_open

    def check_end(self) -> None:
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
        outcome = self.controller.submit(action, dos=self.dos_with_move)
        if outcome.ok:
            self.selected.clear()
            self.note = None
            self.dos_with_move = False
        self.refresh_table()
        self.check_end()
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
        armed = [self.t("tui.dos_with_move_armed")] if self.dos_with_move else []
        self._say("#alert", "\n".join([*armed, *present.alerts(c)]))
        self.show_feedback(legal)

    # --- keys and clicks -------------------------------------------------------------------

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

    def action_dos_with_move(self) -> None:
        """Calls "DOS!" with the next move (on, or off again)."""
        self.dos_with_move = not self.dos_with_move
        self.refresh_table()

    def action_catch(self, seat: int | None = None) -> None:
        """Catches an opponent who has not called "DOS!"."""
        self.controller.catch(seat)
        self.refresh_table()
        self.check_end()

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
        self.check_end()

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
