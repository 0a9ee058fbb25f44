"""The review in the terminal replay (docs/review.md): ``r`` reviews the seat
to act on a worker thread with its progress shown, each reviewed step shows that seat's win
chance and the better action, and ``n``/``p`` jump between its mistakes."""

from __future__ import annotations

import random

import pytest
from textual.app import App
from textual.widgets import Static

from dos import records
from dos.bots.registry import make_player
from dos.i18n import text
from dos.i18n.advice import reason
from dos.i18n.describe import Before, describe
from dos.i18n.explain import render
from dos.play.bot import Budget, turn_choices
from dos.review import review_record
from dos.rules.official import Options, apply, new_game, parse_action, view
from dos.tui.replay import Replay, review_seat
from dos.tui.screens.replay import ReplayScreen

SAMPLES = 24


def careless_record(seed: int = 67) -> records.Record:
    """A one-round game: seat 0 draws or ends whenever it can (a careless player), the other
    seat plays ``greedy``."""
    state = new_game(Options(players=2, target_score=5), seed=seed)
    rng = random.Random(seed)
    greedy = make_player("greedy")
    while state.winner is None:
        seen = view(state, state.turn)
        choices = turn_choices(seen)
        if state.turn == 0:
            careless = [a for a in choices if str(a) in ("draw", "end")]
            action = rng.choice(careless or choices)
        else:
            action = greedy.bot.choose(seen, rng, Budget())
        apply(state, action)
    return records.record_of("official", state, seed=seed)


class _Replaying(App[None]):
    def __init__(self, screen: ReplayScreen) -> None:
        super().__init__()
        self.replaying = screen

    def on_mount(self) -> None:
        self.push_screen(self.replaying)


def test_the_terminal_review_is_dos_reviews() -> None:
    record = careless_record()
    seen: list[tuple[int, int]] = []
    found = review_seat(record, 0, samples=SAMPLES, progress=lambda d, t: seen.append((d, t)))
    assert found.review == review_record(record, 0, samples=SAMPLES)
    total = seen[-1][1]
    assert [d for d, _ in seen] == list(range(1, total + 1))


@pytest.mark.asyncio
async def test_r_reviews_the_seat_and_n_jumps_to_its_mistakes() -> None:
    record = careless_record()
    replay = Replay(record, "en", review_samples=SAMPLES)
    screen = ReplayScreen(replay, "careless.jsonl")
    app = _Replaying(screen)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        while replay.state.turn != 0:  # to a step where the careless seat is to act
            await pilot.press("right")
        shown: list[str] = []  # the review's line after each decision judged
        progress = screen._progress

        def seen(seat: int, done: int, total: int) -> None:
            progress(seat, done, total)
            shown.append(str(screen.query_one("#review", Static).content))

        screen._progress = seen  # type: ignore[method-assign]
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert replay.review is not None and screen.reviewing is None
        total = len(shown)
        name = replay.names[0]
        assert shown == [f"Reviewing {name}: {done}/{total}" for done in range(1, total + 1)]
        mistakes = [e.index for e in replay.review.mistakes()]
        assert mistakes, "a careless game without a mistake"
        lines = str(screen.query_one("#review", Static).content)
        assert "Mistakes at steps:" in lines
        await pilot.press("home", "n")
        assert replay.step == mistakes[0]
        entry = replay.review.at(replay.step)
        assert entry is not None
        lines = str(screen.query_one("#review", Static).content)
        # Said in words, never in notation: the move played as the log says it, the expert's
        # with what it gains.
        state = replay.state
        before = Before(tuple(state.center), state.turn, state.phase)
        assert describe("en", parse_action(entry.chosen), before, replay.names) in lines
        assert render("en", reason(view(state, 0), parse_action(entry.best))) in lines
        assert "@" not in lines
        assert f"{100 * entry.game_before:.0f}%" in lines
        await pilot.press("end", "p")
        assert replay.step == mistakes[-1]
        keys = text("en", "tui.review_keys")
        assert any(str(w.content) == keys for w in screen.query(Static))
