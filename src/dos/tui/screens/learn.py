"""The tutorial in the terminal (``dos learn``): the same lessons and the same runner as the
browser's (``dos.learn``), every word from the catalog.

The screen keeps the learner's actions in the lesson and asks ``dos.learn.run`` where they
lead after each key: the prompt, the lit cards and keys (marked ``*``, as the game marks a
legal choice), and a refused move's explanation. Progress (the lesson and its actions) is
written to a small JSON file after every answer, so ``dos learn`` resumes where the learner
left off.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from dos import learn
from dos.i18n import text
from dos.i18n.describe import Before, describe
from dos.i18n.explain import render
from dos.rules.official import Phase, parse_action
from dos.rules.official.cards import parse_card
from dos.tui.widgets.cards import CardView
from dos.tui.widgets.center import CenterRowView
from dos.tui.widgets.hand import HandView
from dos.tui.widgets.row import Shown

_KEYS = {"draw": "d", "lay": "l", "place": "p", "end": "e", "dos": "s", "catch": "c"}
_LABELS = {
    "draw": "game.draw",
    "lay": "game.lay",
    "place": "game.place",
    "end": "game.end",
    "dos": "game.dos_call",
    "catch": "game.catch",
}


def read_progress(path: Path | None) -> tuple[str, list[str]] | None:
    """The lesson and actions saved at ``path`` (``None``: nothing usable there)."""
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    lesson, actions = data.get("lesson"), data.get("actions")
    if lesson not in learn.ORDER or not isinstance(actions, list):
        return None
    return lesson, [a for a in actions if isinstance(a, str)]


class LearnScreen(Screen[None]):
    """One lesson at a time: its table, its prompt, its lit cards and keys."""

    DEFAULT_CSS = """
    LearnScreen { layout: vertical; }
    #learn-header { height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #learn-scroll { height: 1fr; padding: 0 1; }
    #learn-prompt { text-style: bold; border-left: thick $warning; padding: 0 1; margin: 1 0 0 0; }
    #learn-wrong { color: $error; text-style: bold; }
    .learn-label { margin: 1 0 0 0; text-style: bold; }
    #learn-keys { height: auto; background: $panel; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("t", "target", show=False),
        Binding("enter", "match", show=False),
        Binding("d", "act('draw')", show=False),
        Binding("e", "act('end')", show=False),
        Binding("s", "act('dos')", show=False),
        Binding("w", "dos_with_move", show=False),
        Binding("l", "card('lay')", show=False),
        Binding("p", "card('place')", show=False),
        Binding("c", "catch", show=False),
        Binding("escape", "clear", show=False),
        Binding("n", "next", show=False),
        Binding("r", "restart", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, lang: str, lesson: str, actions: list[str], progress: Path | None) -> None:
        super().__init__()
        self.lang = lang
        self.progress = progress
        self.lesson = learn.lesson(lesson)
        self.actions = list(actions)
        self.selected: list[int] = []
        self.cursor = 0
        self.answer = learn.run(self.lesson, [])
        self.note = ""
        # "DOS! with this move" is on: the next move is sent with the call right after it.
        self.dos_with_move = False

    def t(self, key: str, **params: object) -> str:
        """A catalog text in the screen's language."""
        return text(self.lang, key, **params)

    def compose(self) -> ComposeResult:
        # Catalog texts are plain text: "[d]" is a key, not markup.
        yield Static(id="learn-header", markup=False)
        with VerticalScroll(id="learn-scroll"):
            yield Static(id="learn-prompt", markup=False)
            yield Static(id="learn-wrong", markup=False)
            yield Static(id="learn-players", markup=False)
            yield Static(id="learn-center-label", classes="learn-label", markup=False)
            yield CenterRowView(id="learn-center")
            yield Static(id="learn-hand-label", classes="learn-label", markup=False)
            yield HandView(id="learn-hand")
            yield Static(id="learn-buttons", markup=False)
            yield Static(id="learn-note", markup=False)
            yield Static(id="learn-moves", markup=False)
        yield Static(id="learn-keys", markup=False)

    def on_mount(self) -> None:
        """Shows where the saved actions lead (a refused one is dropped)."""
        self.ask(self.actions)

    # --- the runner -------------------------------------------------------------------------

    def ask(self, actions: list[str]) -> None:
        """Where ``actions`` lead; keeps the accepted ones, saves them and redraws."""
        try:
            answer = learn.run(self.lesson, actions)
        except learn.LessonInputError:
            answer = learn.run(self.lesson, [])
            actions = []
        self.answer = answer
        self.actions = actions[: answer.accepted]
        self.selected = []
        self.note = ""
        self.dos_with_move = False
        lit = answer.lit.center
        self.cursor = lit[0] if lit else min(self.cursor, max(0, len(answer.view["center"]) - 1))
        self.save()
        self.redraw()

    def send(self, action: str, move: bool = False) -> None:
        """One learner action, judged by the runner; a ``move`` with "DOS! with this move" on
        goes with the call right after it, as the table sends them."""
        if self.answer.status == "finished":
            return
        call = ["dos"] if move and self.dos_with_move else []
        self.ask([*self.actions, action, *call])

    def save(self) -> None:
        if self.progress is None:
            return
        data = {"lesson": self.lesson.id, "actions": self.actions}
        # Progress is a convenience: the lesson goes on without it.
        with contextlib.suppress(OSError):
            self.progress.write_text(json.dumps(data), encoding="utf-8")

    # --- drawing ----------------------------------------------------------------------------

    def names(self) -> list[str]:
        seats = range(len(self.answer.view["hand_sizes"]))
        return [
            self.t("game.you") if s == self.lesson.seat else self.t("game.bot_name", number=s)
            for s in seats
        ]

    def redraw(self) -> None:
        answer = self.answer
        view = answer.view
        number = learn.ORDER.index(self.lesson.id) + 1
        where = self.t("learn.lesson_n", number=number, total=len(learn.ORDER))
        step = (
            self.t("learn.lesson_done")
            if answer.status == "finished"
            else self.t("learn.step_n", step=answer.step + 1, steps=len(self.lesson.steps))
        )
        header = f"{self.t('learn.page_title')} · {where} · {step} · {self.t(self.lesson.title)}"
        self.query_one("#learn-header", Static).update(header)
        prompt = render(self.lang, answer.prompt)
        if answer.status == "finished":
            last = number == len(learn.ORDER)
            prompt += " " + (self.t("learn.all_done") if last else f"(n: {self.t('learn.next')})")
        self.query_one("#learn-prompt", Static).update(prompt)
        wrong = self.query_one("#learn-wrong", Static)
        wrong.display = answer.explanation is not None
        if answer.explanation is not None:
            wrong.update(f"{self.t('learn.wrong')} {render(self.lang, answer.explanation)}")
        names = self.names()
        players = []
        for seat, size in enumerate(view["hand_sizes"]):
            mark = "▶ " if seat == view["turn"] and view["phase"] != "over" else ""
            parts = [f"{mark}{names[seat]}", self.t("game.cards_count", count=size)]
            parts.append(f"{self.t('game.score')} {view['scores'][seat]}")
            if seat in view["dos_open"]:
                parts.append(self.t("web.two_cards_flag"))
            players.append(" · ".join(parts))
        self.query_one("#learn-players", Static).update("   ".join(players))
        self.query_one("#learn-center-label", Static).update(self.t("game.center_row"))
        self.query_one("#learn-hand-label", Static).update(self.t("game.your_hand"))
        matched = {m["target"] for m in view["matched"]}
        self.query_one("#learn-center", CenterRowView).show(
            [
                Shown(
                    parse_card(card),
                    str(index),
                    hint=index in answer.lit.center,
                    cursor=index == self.cursor,
                    matched=index in matched,
                )
                for index, card in enumerate(view["center"])
            ]
        )
        self.query_one("#learn-hand", HandView).show(
            [
                Shown(
                    parse_card(card),
                    str(index + 1),
                    selected=index in self.selected,
                    hint=index in answer.lit.hand,
                )
                for index, card in enumerate(view["hand"])
            ]
        )
        buttons = []
        for kind, key in _KEYS.items():
            lit = kind in answer.lit.buttons
            label = f"[{key}] {self.t(_LABELS[kind])}"
            buttons.append(f"*{label}*" if lit else label)
        if answer.lit.dos_with_move:  # offered where the step's move leaves two cards
            label = f"[w] {self.t('web.dos_with_move')}"
            buttons.append(f"*{label}*" if not self.dos_with_move else f"{label} ✓")
        self.query_one("#learn-buttons", Static).update("  ".join(buttons))
        armed = self.t("tui.dos_with_move_armed") if self.dos_with_move else ""
        self.query_one("#learn-note", Static).update(" ".join(filter(None, [self.note, armed])))
        moves = self.query_one("#learn-moves", Static)
        lines = [self._move_words(move, names) for move in answer.moves]
        moves.display = bool(lines)
        moves.update("\n".join([self.t("learn.moves_title"), *lines]) if lines else "")
        keys = f"{self.t('learn.tui_lit')}\n{self.t('learn.tui_keys')}"
        self.query_one("#learn-keys", Static).update(keys)

    def _move_words(self, move: learn.Move, names: list[str]) -> str:
        center = [parse_card(card) for card in move.center]
        phase = Phase.PLACING if move.phase == "placing" else Phase.TURN
        before = Before(center, move.seat, phase)
        return "· " + describe(self.lang, parse_action(move.action), before, names)

    # --- keys and clicks --------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """``1``-``9`` select hand cards, as in the game."""
        if event.character and event.character in "123456789":
            index = int(event.character) - 1
            if index < len(self.answer.view["hand"]):
                self.toggle(index)
                event.stop()

    def on_card_view_clicked(self, message: CardView.Clicked) -> None:
        """A hand card toggles; a Center Row card is the target of the selection."""
        if message.place == "hand":
            self.toggle(message.index)
        else:
            self.cursor = message.index
            self.action_match()

    def toggle(self, index: int) -> None:
        if self.answer.status == "finished":
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected = [*self.selected, index][-2:]
        self.redraw()

    def action_cursor(self, step: int) -> None:
        """Moves the Center Row cursor."""
        size = len(self.answer.view["center"])
        if size:
            self.cursor = (self.cursor + step) % size
            self.redraw()

    def action_target(self) -> None:
        """The cursor goes to the lit Center Row card (else the next one)."""
        lit = self.answer.lit.center
        if lit:
            self.cursor = lit[0]
            self.redraw()
        else:
            self.action_cursor(1)

    def action_match(self) -> None:
        """Matches the selected cards on the Center Row card under the cursor."""
        if not self.selected:
            self.note = self.t("web.hint_select_first")
            self.redraw()
            return
        hand = self.answer.view["hand"]
        cards = "+".join(hand[i] for i in self.selected)
        self.send(f"{cards}@{self.cursor}", move=True)

    def action_act(self, kind: str) -> None:
        """``draw``, ``end`` or ``dos``."""
        self.send(kind)

    def action_card(self, kind: str) -> None:
        """``lay`` or ``place`` the one selected card."""
        if len(self.selected) != 1:
            self.note = self.t("web.hint_pick_lay")
            self.redraw()
            return
        self.send(f"{kind} {self.answer.view['hand'][self.selected[0]]}", move=True)

    def action_catch(self) -> None:
        """Catches the seat the step lights, else the first with an open DOS!."""
        seats = list(self.answer.lit.seats) or [
            s for s in self.answer.view["dos_open"] if s != self.lesson.seat
        ]
        self.send(f"catch {seats[0] if seats else (self.lesson.seat + 1)}")

    def action_dos_with_move(self) -> None:
        """Turns "DOS! with this move" on or off, where the step's move leaves two cards."""
        if self.answer.lit.dos_with_move:
            self.dos_with_move = not self.dos_with_move
            self.redraw()

    def action_clear(self) -> None:
        self.selected = []
        self.redraw()

    def action_next(self) -> None:
        """The next lesson, once this one is finished."""
        if self.answer.status != "finished":
            return
        at = learn.ORDER.index(self.lesson.id)
        if at + 1 < len(learn.ORDER):
            self.lesson = learn.lesson(learn.ORDER[at + 1])
            self.cursor = 0
            self.ask([])

    def action_restart(self) -> None:
        """This lesson from its start."""
        self.ask([])

    async def action_quit(self) -> None:
        """Leaves (the progress is kept)."""
        self.app.exit()


class LearnApp(App[None]):
    """``dos learn``: the tutorial alone, in ``lang``, from ``lesson`` (default: where the
    progress file left it, else the first), progress kept at ``progress``."""

    TITLE = "DOS"

    def __init__(
        self, lang: str = "en", lesson: str | None = None, progress: Path | None = None
    ) -> None:
        super().__init__()
        saved = read_progress(progress)
        if lesson is not None:
            actions: list[str] = saved[1] if saved and saved[0] == lesson else []
        elif saved is not None:
            lesson, actions = saved
        else:
            lesson, actions = learn.ORDER[0], []
        self.learn_screen = LearnScreen(lang, lesson, actions, progress)

    def on_mount(self) -> None:
        """Opens the lesson."""
        self.push_screen(self.learn_screen)
