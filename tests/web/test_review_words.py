"""The review says moves as the table and the log say them, in the player's language.

No notation (``B7+DOS@0``, ``draw``) reaches the page: a move in the list of mistakes names
its cards and its Center Row card counted from 1, as the table numbers them; at the step, the
move played is the log's sentence, and the expert's move comes with what it gains (the hint's
words: the kind of match, its bonus, the points shed). "Better" is said only of a move judged
a mistake; the expert's other choices are "about as good".

The review itself is the server's JSON for a real game's decisions (its moves the engine's
legal ones), served to the page by the test: what is checked is how the page says it.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect

from dos import records, ruleset
from dos.i18n import text
from dos.i18n.advice import reason
from dos.i18n.describe import Before, cards_text, describe
from dos.i18n.explain import render
from dos.review.review import decisions
from dos.rules.official import Kind, legal_actions

from .conftest import DESKTOP, Server
from .pages import open_page, set_language
from .test_review_replay import _careless_game

NOTATION = re.compile(r"@\d|\b(lay|draw|end|place|catch)\b")


def percent(value: float) -> str:
    return f"{round(value * 100)}%"


@pytest.fixture(scope="module")
def game(server: Server) -> tuple[int, Any, list[dict[str, Any]]]:
    """A finished game, its seat 0's decisions, and a review of two of them: a draw (or lay,
    or end) where a match was legal, judged a mistake; another decision where the expert
    would have done otherwise for no loss."""
    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        game_id = thread.submit(asyncio.run, _careless_game(server.url)).result()
    record = records.loads(httpx.get(f"{server.url}/api/games/{game_id}/record").text)
    state = records.start(record)
    found, *_ = decisions(record, 0)
    wanted = {d.index: d for d in found}
    rules = ruleset.get(record.rules)
    mistake = equal = None
    for index, notation in enumerate(record.actions):
        decision = wanted.get(index)
        if decision is not None:
            legal = legal_actions(state, 0)
            matches = [a for a in legal if a.kind == Kind.MATCH]
            others = [a for a in legal if a != decision.action and a.kind != Kind.MATCH]
            if mistake is None and decision.action.kind != Kind.MATCH and matches:
                mistake = (decision, matches[0])
            elif equal is None and mistake is not None and others:
                equal = (decision, others[0])
        rules.apply(state, rules.parse_action(notation))
    assert mistake is not None and equal is not None, "no such decisions in this game"

    def entry(decision: Any, best: Any, loss: float, judgement: str | None) -> dict[str, Any]:
        return {
            "index": decision.index, "round": 1, "choices": 3, "chosen": str(decision.action),
            "best": str(best), "round_before": 0.5, "game_before": 0.5, "round_chosen": 0.4,
            "game_chosen": 0.5 - loss, "loss": loss, "error": 0.01, "judgement": judgement,
        }  # fmt: skip

    entries = sorted(
        [entry(*mistake, 0.12, "mistake"), entry(*equal, 0.0, None)], key=lambda e: e["index"]
    )
    return game_id, {d.index: d for d in found}, entries


@pytest.mark.parametrize("lang", ["ja", "cy"])
def test_the_review_says_moves_in_words_with_the_reason(
    browser: Browser, server: Server, game: tuple[int, Any, list[dict[str, Any]]], lang: str
) -> None:
    game_id, found, entries = game
    answer = {"game": game_id, "seat": 0, "status": "done", "review": {"entries": entries}}

    def serve(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    context, page = open_page(browser, server.url, DESKTOP)
    try:
        set_language(page, lang)
        page.route(re.compile(r"/api/games/\d+/review"), serve)
        page.goto(f"{server.url}/replay/{game_id}")
        expect(page.locator("#review-panel")).to_be_visible()
        page.select_option("#review-seat", "0")
        page.click("#review-start")
        link = page.locator("#review-mistakes a.review-link")
        expect(link).to_have_count(1)
        (mistake,) = [e for e in entries if e["judgement"]]
        (equal,) = [e for e in entries if not e["judgement"]]
        said = link.inner_text()
        assert not NOTATION.search(said), said
        better = ruleset.get("official").parse_action(mistake["best"])
        on = text(
            lang,
            "web.review_move_match",
            cards=cards_text(lang, better.cards, better.designations),
            place=better.target + 1,
        )
        assert on in said, (on, said)

        names = page.evaluate(
            "() => [...document.querySelectorAll('#review-seat option')].map(o => o.textContent)"
        )
        for entry, key in ((mistake, "web.review_here"), (equal, "web.review_here_equal")):
            decision = found[entry["index"]]
            seen = decision.view
            before = Before(seen.center, turn=0, phase=seen.phase)
            expert = ruleset.get("official").parse_action(entry["best"])
            page.fill("#replay-slider", str(entry["index"]))
            here = page.locator("#review-here")
            expected = text(
                lang,
                key,
                chance=percent(entry["game_before"]),
                played=describe(lang, decision.action, before, names),
                reason=render(lang, reason(seen, expert)),
                loss=percent(entry["loss"]),
            )
            expect(here).to_have_text(expected)
            assert not NOTATION.search(here.inner_text())
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
