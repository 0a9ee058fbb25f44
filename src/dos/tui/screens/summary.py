"""The end of a round (each hand left and its points) and the end of the game (the winner)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from dos.i18n import text
from dos.rules.official.cards import POINTS
from dos.tui.controller import GameController
from dos.tui.widgets.cards import face

_CSS = """
    {name} { align: center middle; }
    {name} > Vertical {
        width: 84; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    {name} .title { text-style: bold; margin-bottom: 1; }
    {name} .hint { margin-top: 1; color: $text-muted; }
"""


def hand_lines(controller: GameController) -> list[str]:
    """One line per player of the round just ended: name, hand left, its points, total."""
    result = controller.summary or controller.state.round_results[-1]
    lang = controller.lang
    lines = []
    for seat, hand in enumerate(result.hands):
        cards = " ".join(face(c) for c in hand) or "—"
        points = sum(POINTS[c] for c in hand)
        lines.append(
            f"{controller.names[seat]:<10} {cards:<36} "
            f"{text(lang, 'game.points_count', points=points):>12}   "
            f"{text(lang, 'game.score')} {controller.state.scores[seat]}"
        )
    return lines


class SummaryScreen(ModalScreen[None]):
    """A round's summary: who went out, each hand left with its points, the scores."""

    DEFAULT_CSS = _CSS.replace("{name}", "SummaryScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """Title, one line per hand, and how to go on."""
        c = self.controller
        result = c.summary or c.state.round_results[-1]
        lang = c.lang
        with Vertical():
            yield Static(
                text(
                    lang,
                    "tui.summary_title",
                    round=result.round,
                    player=c.names[result.winner],
                    points=result.points,
                ),
                classes="title",
            )
            yield Static(text(lang, "game.hand_left"))
            yield Static("\n".join(hand_lines(c)), id="hands")
            yield Static(text(lang, "tui.continue"), classes="hint")

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class GameEndScreen(ModalScreen[None]):
    """The end of a game, of either rule set: a new game (``new_game``), or ``q`` leaves.

    The screen only says what was chosen: a new game is asked for with a ``NewGame`` message,
    which the application answers by dealing it (``DosApp.new_game``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", show=False),
        Binding("escape", "quit", show=False),
    ]

    class NewGame(Message):
        """A new game was asked for: same settings, next seed, of the rule set ``rules``
        (``None``: the same)."""

        def __init__(self, rules: str | None) -> None:
            super().__init__()
            self.rules = rules

    def action_new_game(self, rules: str | None = None) -> None:
        """Asks for a new game (of ``rules``; ``None``: of the same rule set) with the same
        settings and the next seed."""
        self.post_message(self.NewGame(rules))

    def action_quit(self) -> None:
        """Leaves the program."""
        self.app.exit()


class GameOverScreen(GameEndScreen):
    """The winner and the final scores; offers a new game."""

    DEFAULT_CSS = _CSS.replace("{name}", "GameOverScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", show=False),
        Binding("c", "new_game('classic')", show=False),
    ]

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        """The winner, the scores, and the choice of a new game."""
        c = self.controller
        lang = c.lang
        winner = c.state.winner if c.state.winner is not None else 0
        scores = "\n".join(
            f"{c.names[seat]:<12} {text(lang, 'game.points_count', points=score)}"
            for seat, score in enumerate(c.state.scores)
        )
        with Vertical():
            yield Static(text(lang, "game.game_over"), classes="title")
            yield Static(
                text(
                    lang,
                    "game.log_game_won",
                    player=c.names[winner],
                    points=c.state.scores[winner],
                ),
                id="winner",
            )
            yield Static(scores, id="scores")
            yield Static(
                f"{text(lang, 'tui.new_game_or_quit')} · {text(lang, 'classic.offer_classic')}",
                classes="hint",
            )
