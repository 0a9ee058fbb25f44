"""The review in the replay viewer in headless Chromium: a finished game's
seat is reviewed by the server while the page shows its progress; then a graph of the seat's
win chance over the game, its biggest mistakes, each a link that moves the replay to its
step, where the better action is drawn on the table."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from dos import records
from dos.review import review_record
from server.support import WsPlayer, create_table

from .conftest import DESKTOP, JOBS, Server
from .pages import open_page

CARELESS_DEAL = 3
"""The deal of the careless game: on it her careless play leaves the review mistakes to find
(on some deals even a careless player has no choice worth judging, about one in twenty)."""


@pytest.fixture(scope="module")
def reviewing(server: Server) -> Server:
    """The server the browser tests share: its reviews take few samples a decision
    (``JOBS``)."""
    return server


async def _careless_game(url: str) -> int:
    """A one-round game in which the host never matches: she draws, then lays a card (or
    ends), and matches only when nothing else is legal (a careless player: the review has
    mistakes to find, on ``CARELESS_DEAL``); its id."""
    grant = create_table(
        url, name="Rea", seats=[None, "easy"], options={"target_score": 5}, seed=CARELESS_DEAL
    )
    ada = await WsPlayer("ws" + url.removeprefix("http"), grant["code"], grant["token"]).connect()
    await ada.send({"type": "start"})
    await ada.expect("state")
    rng = random.Random(2)
    while ada.result is None:
        legal = ada.view["legal"] if ada.view is not None else []
        mine = ada.view is not None and ada.view["turn"] == ada.seat
        turn = [a for a in legal if ":" not in a and not a.startswith("catch") and a != "dos"]
        careless = (
            [a for a in turn if a in ("draw", "end")]
            or [a for a in turn if a.startswith("lay ")]
            or turn
        )
        if "dos" in legal:
            await ada.act("dos")
        elif mine and careless:
            await ada.act(rng.choice(careless))
        else:
            await ada.recv()
    await ada.stored_end()  # the record is served once the game's end is stored
    assert ada.table is not None
    game: int = ada.table["game_id"]
    await ada.close()
    return game


def _with_mistakes(url: str) -> int:
    """The careless game, read as the server will review it (``dos review`` with its
    settings, the very same review): it has mistakes to show."""
    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        game = thread.submit(asyncio.run, _careless_game(url)).result()
    record = records.loads(httpx.get(f"{url}/api/games/{game}/record").text)
    samples = int(JOBS["DOS_REVIEW_SAMPLES"])
    judged = [e for e in review_record(record, 0, samples=samples).entries if e.judgement]
    assert judged, f"the careless game on deal {CARELESS_DEAL} has no mistake to show"
    return game


def test_the_review_shows_in_the_replay_viewer(
    browser: Browser, reviewing: Server, output_dir: Path
) -> None:
    game = _with_mistakes(reviewing.url)
    context, page = open_page(browser, f"{reviewing.url}/replay/{game}", DESKTOP)
    try:
        expect(page.locator("#view-replay")).to_be_visible()
        panel = page.locator("#review-panel")
        expect(panel).to_be_visible()
        expect(page.locator("#review-seat option")).to_have_count(2)
        page.select_option("#review-seat", "0")
        page.click("#review-start")
        # The progress shows while the server computes, then the review.
        status = page.locator("#review-status")
        expect(status).to_contain_text(re.compile(r"Reviewing|Reading|review of", re.I))
        chart = page.locator("#review-graph svg polyline")
        expect(chart).to_have_count(1, timeout=120_000)
        expect(page.locator("#review-progress")).to_be_hidden()
        review = httpx.get(f"{reviewing.url}/api/games/{game}/review", params={"seat": 0}).json()[
            "review"
        ]
        judged = [e for e in review["entries"] if e["judgement"]]
        assert judged, "a careless game without a mistake"
        links = page.locator("#review-mistakes a.review-link")
        expect(links).to_have_count(min(10, len(judged)))
        expect(page.locator("#review-graph circle.review-dot")).to_have_count(len(judged))

        first = links.first
        step = int(first.get_attribute("data-step") or "-1")
        worst = max(judged, key=lambda e: (e["loss"], -e["index"]))
        assert step == worst["index"]
        first.click()
        expect(page.locator("#replay-slider")).to_have_value(str(step))
        here = page.locator("#review-here")
        expect(here).to_be_visible()
        # In words (test_review_words.py), with the expert's better move and what it gains
        expect(here).to_contain_text("The expert's move is better by")
        assert "@" not in here.inner_text()
        best = worst["best"]
        lit = page.locator("#replay-board .card.better")
        if "@" in best or best.startswith(("lay ", "place ")):
            expect(lit.first).to_be_visible()
        page.screenshot(path=str(output_dir / "review-replay.png"), full_page=True)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
