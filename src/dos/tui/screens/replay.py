"""Stepping through a recorded game (``dos play --replay FILE``), official or classic: every
hand is shown. An official game can be reviewed seat by seat (docs/review.md): ``r`` reviews
the seat to act at the step shown, on a worker thread, its progress shown; then each
reviewed step shows that seat's chance of winning, the action played and the better one,
and ``n``/``p`` jump to its next and previous mistake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from dos.i18n import text
from dos.i18n.advice import reason
from dos.i18n.describe import Before, describe
from dos.i18n.explain import render
from dos.review import ReviewUnavailableError
from dos.review.review import MARKS, Entry
from dos.rules.classic import Phase as ClassicPhase
from dos.rules.official import parse_action, view
from dos.rules.official.views import phase_name
from dos.tui.classic.cards import DiscardView
from dos.tui.classic.cards import face as classic_face
from dos.tui.classic.present import pile_lines_of
from dos.tui.classic.replay import ClassicReplay
from dos.tui.replay import Replay, SeatReview, review_seat
from dos.tui.widgets.cards import face
from dos.tui.widgets.center import CenterRowView
from dos.tui.widgets.log import GameLog
from dos.tui.widgets.row import Shown


class Steps(Protocol):
    """A record's game, one action at a time (``Replay``, ``ClassicReplay``)."""

    step: int
    lang: str

    @property
    def actions(self) -> Sequence[object]:
        """The record's actions."""
        ...

    def go(self, step: int) -> None:
        """Moves to the game after ``step`` actions (clamped to the record)."""


class RecordScreen(Screen[None]):
    """A recorded game: ←/→ (or Space) step, PgUp/PgDn twenty steps, Home/End jump, q
    leaves; ``show`` draws the game at the current step."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", show=False),
        Binding("space", "step(1)", show=False),
        Binding("left", "step(-1)", show=False),
        Binding("pagedown", "step(20)", show=False),
        Binding("pageup", "step(-20)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("q", "quit", show=False),
        Binding("escape", "quit", show=False),
    ]

    DEFAULT_CSS = """
    RecordScreen #header { height: 1; background: $primary; text-style: bold; padding: 0 1; }
    RecordScreen #table { width: 1fr; padding: 0 1; }
    RecordScreen #side { width: 36%; max-width: 56; min-width: 24; }
    RecordScreen .title { height: 1; text-style: bold; margin-top: 1; }
    RecordScreen #hands { height: auto; }
    """

    replay: Steps

    def __init__(self, replay: Steps, title: str = "") -> None:
        super().__init__()
        self.replay = replay
        self.title_text = title

    def compose(self) -> ComposeResult:
        """Header, the table (``compose_table``), every hand, and the log of actions so far."""
        lang = self.replay.lang
        yield Static(id="header")
        with Horizontal():
            with Vertical(id="table"):
                yield from self.compose_table(lang)
                yield Static(id="status")
                yield Static(text(lang, "game.players"), classes="title")
                yield Static(id="hands")
                yield Static(text(lang, "tui.replay_keys"), classes="title")
                yield from self.compose_more(lang)
            with Vertical(id="side"):
                log = GameLog(id="log")
                log.can_focus = False
                yield log

    def compose_table(self, lang: str) -> ComposeResult:
        """What lies on the table of these rules, above the status line."""
        raise NotImplementedError

    def compose_more(self, lang: str) -> ComposeResult:
        """What these rules show under the keys (nothing)."""
        yield from ()

    def show_header(self, round_: int) -> None:
        """The file, the step, and the round."""
        r = self.replay
        self.query_one("#header", Static).update(
            text(
                r.lang,
                "tui.replay_header",
                file=self.title_text,
                step=r.step,
                total=len(r.actions),
                round=round_,
            )
        )

    def on_mount(self) -> None:
        """Shows the start of the game."""
        self.show()

    def show(self) -> None:
        """Redraws the game at the current step."""
        raise NotImplementedError

    def action_step(self, steps: int) -> None:
        """Steps forward (or back) through the record."""
        self.replay.go(self.replay.step + steps)
        self.show()

    def action_jump(self, step: int) -> None:
        """Jumps to the start (0) or the end (-1)."""
        self.replay.go(len(self.replay.actions) if step < 0 else step)
        self.show()

    def action_quit(self) -> None:
        """Leaves the replay."""
        self.app.exit()


class ReplayScreen(RecordScreen):
    """A recorded official game: ←/→ step, Home/End jump, q leaves; ``r`` reviews the seat
    to act, ``n``/``p`` jump to its next or previous mistake."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "review", show=False),
        Binding("n", "mistake(1)", show=False),
        Binding("p", "mistake(-1)", show=False),
    ]

    DEFAULT_CSS = """
    ReplayScreen #review { height: auto; margin-top: 1; }
    """

    replay: Replay

    def __init__(self, replay: Replay, title: str = "") -> None:
        super().__init__(replay, title)
        self.reviewing: tuple[int, int, int] | None = None
        """The seat under review, decisions done, and their total (while it runs)."""
        self.review_error: str | None = None

    def compose_table(self, lang: str) -> ComposeResult:
        """The Center Row."""
        yield Static(text(lang, "game.center_row"), classes="title")
        yield CenterRowView(id="center")

    def compose_more(self, lang: str) -> ComposeResult:
        """The review's lines and its keys."""
        yield Static(id="review")
        yield Static(text(lang, "tui.review_keys"), classes="title")

    def action_review(self) -> None:
        """Reviews the seat to act at the step shown, on a worker thread."""
        if self.reviewing is not None:
            return
        seat = self.replay.state.turn
        self.reviewing = (seat, 0, 0)
        self.review_error = None
        self.show_review()
        self.run_worker(lambda: self._review(seat), thread=True, exclusive=True, group="review")

    def _review(self, seat: int) -> None:
        """On the worker thread: the review, its progress and its end sent to the screen."""
        r = self.replay

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, seat, done, total)

        try:
            found = review_seat(r.record, seat, samples=r.review_samples, progress=progress)
        except ReviewUnavailableError as error:
            self.app.call_from_thread(self._reviewed, None, str(error))
            return
        self.app.call_from_thread(self._reviewed, found, None)

    def _progress(self, seat: int, done: int, total: int) -> None:
        self.reviewing = (seat, done, total)
        self.show_review()

    def _reviewed(self, found: SeatReview | None, error: str | None) -> None:
        self.reviewing = None
        self.review_error = error
        if found is not None:
            self.replay.review = found
        self.show_review()

    def action_mistake(self, direction: int) -> None:
        """Jumps to the reviewed seat's next (1) or previous (-1) mistake."""
        found = self.replay.review
        if found is None:
            return
        steps = [e.index for e in found.mistakes()]
        step = self.replay.step
        later = [s for s in steps if (s > step if direction > 0 else s < step)]
        if later:
            self.replay.go(later[0] if direction > 0 else later[-1])
            self.show()

    def show_review(self) -> None:
        """The review's lines: its progress, or at this step the seat's chance, the action
        played and the better one, and the mistakes to jump to."""
        r = self.replay
        lang = r.lang
        lines = []
        if self.reviewing is not None:
            seat, done, total = self.reviewing
            lines.append(
                text(lang, "tui.review_progress", name=r.names[seat], done=done, total=total)
            )
        elif self.review_error is not None:
            lines.append(text(lang, "tui.review_unavailable"))
        found = r.review
        if found is not None and self.reviewing is None:
            name = r.names[found.seat]
            entry = found.at(r.step)
            if entry is None:
                lines.append(text(lang, "tui.review_no_decision", name=name))
            else:
                chance = f"{100 * entry.game_before:.0f}%"
                lines.append(self.decision_words(entry, found.seat, name, chance))
            marks = [f"{e.index} {MARKS[e.judgement or '']}" for e in found.mistakes()]
            lines.append(
                text(lang, "tui.review_mistakes", mistakes=", ".join(marks))
                if marks
                else text(lang, "tui.review_none")
            )
        self.query_one("#review", Static).update("\n".join(lines))

    def decision_words(self, entry: Entry, seat: int, name: str, chance: str) -> str:
        """The decision at the step shown, in words: the move played as the log says it, and
        the expert's with what it gains; "better" only for a move judged a mistake."""
        r = self.replay
        lang = r.lang
        state = r.state  # the game before the decision
        before = Before(tuple(state.center), state.turn, state.phase)
        played = describe(lang, parse_action(entry.chosen), before, r.names)
        if entry.best == entry.chosen:
            return text(lang, "tui.review_best", name=name, chance=chance, played=played)
        gain = render(lang, reason(view(state, seat), parse_action(entry.best)))
        loss = f"{100 * entry.loss:.0f}%"
        if entry.judgement is None or loss == "0%":
            return text(
                lang, "tui.review_equal", name=name, chance=chance, played=played, reason=gain
            )
        mark = MARKS.get(entry.judgement, "")
        return text(
            lang,
            "tui.review_better",
            name=name,
            chance=chance,
            played=played,
            reason=gain,
            loss=loss,
            mark=mark,
        )

    def show(self) -> None:
        """Redraws the game at the current step."""
        r = self.replay
        lang = r.lang
        state = r.state
        self.show_header(state.round)
        self.query_one(CenterRowView).show(
            [Shown(card, str(i)) for i, card in enumerate(state.center)]
        )
        phase = phase_name(state.phase, state.drew, bool(state.matched))
        self.query_one("#status", Static).update(
            " · ".join(
                [
                    text(lang, "game.turn_of", player=r.names[state.turn]),
                    f"{text(lang, 'game.phase')}: {text(lang, 'game.phase_' + phase)}",
                    f"{text(lang, 'game.draw_pile')}: {len(state.draw_pile)}",
                ]
            )
        )
        self.query_one("#hands", Static).update(
            "\n".join(
                f"{'▶' if seat == state.turn else ' '} {r.names[seat]:<10} "
                f"{text(lang, 'game.score')} {state.scores[seat]:<4} "
                + " ".join(face(c) for c in hand)
                for seat, hand in enumerate(state.hands)
            )
        )
        self.query_one(GameLog).sync(r.sentences[: r.step])
        self.show_review()


class ClassicReplayScreen(RecordScreen):
    """A recorded classic game (RULES.md §9), with the official replay's keys: the discard
    pile, the colour to follow, the direction, every hand and the log."""

    DEFAULT_CSS = """
    ClassicReplayScreen #pile { height: auto; }
    ClassicReplayScreen #pile-info { width: 1fr; height: auto; padding: 0 1; }
    """

    replay: ClassicReplay

    def __init__(self, replay: ClassicReplay, title: str = "") -> None:
        super().__init__(replay, title)

    def compose_table(self, lang: str) -> ComposeResult:
        """The discard pile, the colour to follow and the direction."""
        yield Static(text(lang, "classic.discard_pile"), classes="title")
        with Horizontal(id="pile"):
            yield DiscardView(id="discard")
            yield Static(id="pile-info")

    def show(self) -> None:
        """Redraws the game at the current step."""
        r = self.replay
        lang = r.lang
        state = r.state
        over = state.phase == ClassicPhase.OVER
        self.show_header(1)  # a classic game is one round
        self.query_one(DiscardView).show([Shown(state.top, "")])
        self.query_one("#pile-info", Static).update(pile_lines_of(state, lang))
        status = (
            text(lang, "game.game_over")
            if over
            else text(lang, "game.turn_of", player=r.names[state.turn])
        )
        self.query_one("#status", Static).update(status)
        lines = []
        for seat, hand in enumerate(state.hands):
            marks = [text(lang, "game.cards_count", count=len(hand))]
            if seat in state.ranking:
                marks.append(text(lang, "classic.place", place=state.ranking.index(seat) + 1))
            if not over and seat == state.turn and state.phase == ClassicPhase.REACTION:
                marks.append(text(lang, "classic.reacting"))
            to_act = "▶" if seat == state.turn and not over else " "
            lines.append(
                f"{to_act} {r.names[seat]:<10} {' · '.join(marks):<12} "
                + " ".join(classic_face(card) for card in hand)
            )
        self.query_one("#hands", Static).update("\n".join(lines))
        self.query_one(GameLog).sync(r.log)
