"""The Center Row keeps every card's number in view while cards are matched onto it.

A player reads a Center Row card by its rank (the big number on its face) and finds it by
its place number above it (what the log and the review say: "onto 2"). Neither may be
covered: not by the cards matched onto it (one or two, on one card or several), not by a
grown row of five or six cards, not by a colour bonus's new card, not while a move flies in
with motion on, nor in the replay viewer, at phone and desktop sizes. Each number's box lies
inside the window and inside the row's own scroll area (the row scrolls sideways: each slot is
scrolled to first), and what the page shows at its centre is the number or its own card.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, expect

from dos import ruleset
from dos.server.http.games import build_replay
from dos.server.storage.table_store import StoredGame

from .conftest import DESKTOP, PHONE, Server
from .pages import open_page
from .scripted import ScriptedTable

# For each Center Row slot: its place number and its card's numbers (the rank, the corners),
# each either seen or why not (covered by what, or outside the window or the row's scroll
# area). `scroll`: each slot is scrolled into the row's view first; else (while a move
# arrives) the numbers out of the row's view now are left out. `flying`: the boxes of cards in
# flight; they let clicks through (`pointer-events: none`), so `elementFromPoint` does not
# see them; each lands on no card but its own (a placed card, drawn in its place at once).
COVERED_JS = """([scroll, flying]) => {
  const row = document.getElementById('center-row');
  const problems = [];
  const inside = (box, area) => box.top >= area.top - 0.5 && box.bottom <= area.bottom + 0.5
    && box.left >= area.left - 0.5 && box.right <= area.right + 0.5;
  for (const slot of row.querySelectorAll('.center-slot')) {
    if (scroll) slot.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const clip = row.getBoundingClientRect();
    const card = slot.querySelector(':scope > .card');
    const numbers = [slot.querySelector(':scope > .index'),
      ...card.querySelectorAll('.rank, .corner')];
    for (const number of numbers) {
      const box = number.getBoundingClientRect();
      const where = `${card.dataset.index}:${number.className}`;
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (!scroll && !inside(box, clip)) continue;
      if (box.width === 0 || box.height === 0) { problems.push(`${where} has no box`); continue; }
      if (!inside(box, {top: 0, left: 0, bottom: innerHeight, right: innerWidth})) {
        problems.push(`${where} outside the window`); continue;
      }
      if (!inside(box, clip)) { problems.push(`${where} outside the row's scroll area`); continue; }
      const top = document.elementFromPoint(x, y);
      const own = top && (number.contains(top) || (number !== slot.firstElementChild
        && top.closest('.card') === card));
      const by = top ? top.outerHTML.slice(0, 60) : 'nothing';
      if (!own) problems.push(`${where} covered by ${by}`);
      if (flying.some((f) => f.card !== card.dataset.card
          && f.left <= x && x <= f.right && f.top <= y && y <= f.bottom)) {
        problems.push(`${where} covered by a card landing`);
      }
    }
  }
  return problems;
}"""

# As a move arrives: the check above at every frame for `ms` milliseconds (the cards matched
# or placed arrive in their places), and once where the flying cards land (each flight taken
# to its last millisecond: on its way a card may pass over any number, but must not land on
# one).
WATCH_JS = """async ([check, ms]) => {
  const covered = eval(check);
  const seen = new Set();
  const end = performance.now() + ms;
  let landed = false;
  while (performance.now() < end) {
    for (const p of covered([false, []])) seen.add(p);
    const flights = [...document.querySelectorAll('.card.flying')];
    if (flights.length && !landed) {
      for (const card of flights) {
        for (const a of card.getAnimations()) a.currentTime = a.effect.getTiming().duration - 1;
      }
      const boxes = flights.map((card) => {
        const box = card.getBoundingClientRect();
        return {left: box.left, right: box.right, top: box.top, bottom: box.bottom,
          card: card.dataset.card};
      });
      for (const p of covered([false, boxes])) seen.add(p);
      landed = true;
    }
    await new Promise((done) => requestAnimationFrame(done));
  }
  if (!landed) seen.add('no card flew');
  return [...seen];
}"""


def frame(page: Page) -> None:
    page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")


def numbers_hidden(page: Page) -> list[str]:
    hidden: list[str] = page.evaluate(COVERED_JS, [True, []])
    return hidden


def numbers_hidden_in_motion(page: Page, ms: int = 500) -> list[str]:
    hidden: list[str] = page.evaluate(WATCH_JS, [COVERED_JS, ms])
    return hidden


def matches(table: ScriptedTable, seat: int) -> list[Any]:
    return [a for a in table.legal(seat) if "@" in str(a) and "dos" not in str(a).lower()]


def play_turn(
    page: Page, table: ScriptedTable, viewport: dict[str, int], motion: bool = False
) -> list[str]:
    """Plays the turn of the seat whose turn it is (doubles first, then placements), checking
    the row after each update the page shows (``motion``: at every frame as it comes too);
    what was hidden, and when."""
    seen: list[str] = []
    seat = table.rules.turn(table.state)
    while True:
        moves = matches(table, seat)
        doubles = [a for a in moves if "+" in str(a)]
        places = [a for a in table.legal(seat) if str(a).startswith("place")]
        move = (doubles or moves or places or [None])[0]
        if move is None:
            return seen
        table.send(table.step(move, seat, by_bot=seat != 0))
        when = f"{viewport['width']}px, seat {seat} {move}"
        if motion:
            seen += [f"{when}, moving: {p}" for p in numbers_hidden_in_motion(page)]
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        frame(page)
        seen += [f"{when}: {p}" for p in numbers_hidden(page)]


def turn_with(table: ScriptedTable, seat: int, sizes: range, double: bool) -> bool:
    """Whether it is ``seat``'s turn, with a Center Row of one of ``sizes`` that it can match
    onto (``double``: with two cards)."""
    if table.rules.turn(table.state) != seat or len(table.state.center) not in sizes:
        return False
    moves = matches(table, seat)
    return bool(moves) and (not double or any("+" in str(a) for a in moves))


def test_every_center_row_number_stays_in_view_as_cards_are_matched(
    browser: Browser, server: Server
) -> None:
    problems: list[str] = []
    for viewport in (PHONE, DESKTOP):
        for sizes, double in ((range(2, 4), True), (range(5, 7), False)):
            table = ScriptedTable.at("official", lambda t, s=sizes, d=double: turn_with(t, 0, s, d))
            context, page = open_page(browser, server.url, viewport)
            try:
                table.open(page)
                problems += play_turn(page, table, viewport)
                assert not page.errors  # type: ignore[attr-defined]
            finally:
                context.close()
    assert not problems, "\n".join(problems)


def test_no_center_row_number_is_covered_while_matched_cards_fly_in(
    browser: Browser, server: Server
) -> None:
    problems: list[str] = []
    for viewport in (PHONE, DESKTOP):
        table = ScriptedTable.at("official", lambda t: turn_with(t, 1, range(2, 4), True))
        context, page = open_page(browser, server.url, viewport, motion=True)
        try:
            table.open(page)
            problems += play_turn(page, table, viewport, motion=True)
            assert not page.errors  # type: ignore[attr-defined]
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def a_played_game(found: Callable[[Any, Any], bool]) -> tuple[list[str], int]:
    """The actions of a game played at random (no calls, no catches) up to the first moment
    ``found(rules, state)`` says is the one, and its seed; the same game every time."""
    rules = ruleset.get("official")
    for seed in range(100):
        state = rules.new_game({"players": 2}, seed)
        rng = random.Random(seed)
        actions: list[str] = []
        while not rules.is_over(state) and len(actions) < 1000:
            if found(rules, state):
                return actions, seed
            turn = rules.turn(state)
            moves = [
                a for a in rules.legal_actions(state, turn) if not re.search(r"dos$|catch", str(a))
            ]
            if not moves:
                break
            action = rules.by_seat(state, rng.choice(moves), turn)
            rules.apply(state, action)
            actions.append(str(action))
    raise AssertionError("no such moment in 100 games")


def test_the_replay_viewer_shows_every_center_row_number(browser: Browser, server: Server) -> None:
    """A step of a replayed game just after cards were matched onto a grown Center Row: the
    page reads the server's replay of that game (``build_replay``), routed to it."""
    actions, seed = a_played_game(
        lambda rules, state: len(state.center) >= 5 and bool(rules.to_position(state)["matched"])
    )
    game = StoredGame(1, 1, "official", {"players": 2}, seed, ["Ada", "Bo"], "finished", None)
    game.actions = actions
    replay = build_replay(game)
    problems: list[str] = []
    for viewport in (PHONE, DESKTOP):
        context, page = open_page(browser, server.url, viewport)
        try:
            page.route(
                re.compile(r"/api/games/424242/replay"),
                lambda route: route.fulfill(
                    content_type="application/json", body=replay.page(0, 200)
                ),
            )
            page.goto(f"{server.url}/replay/424242?step={len(actions)}")
            cards = page.locator("#replay-board .center-row .card")
            expect(cards).to_have_count(len(replay_center(replay)))
            hidden: list[str] = page.evaluate(REPLAY_COVERED_JS)
            problems += [f"{viewport['width']}px: {p}" for p in hidden]
            assert not page.errors  # type: ignore[attr-defined]
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def replay_center(replay: Any) -> list[str]:
    last = json.loads(replay.frames[-1])
    cards: list[str] = last["position"]["center"]
    return cards


# The replay viewer's Center Row: each card's numbers seen, in the window, uncovered.
REPLAY_COVERED_JS = """() => {
  const problems = [];
  for (const card of document.querySelectorAll('#replay-board .center-row .card')) {
    card.scrollIntoView({block: 'nearest', inline: 'nearest'});
    for (const number of card.querySelectorAll('.rank, .corner')) {
      const box = number.getBoundingClientRect();
      const where = `${card.dataset.card}:${number.className}`;
      if (box.width === 0 || box.top < 0 || box.bottom > innerHeight || box.left < 0
          || box.right > innerWidth) {
        problems.push(`${where} not in the window`); continue;
      }
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!top || top.closest('.card') !== card) {
        problems.push(`${where} covered by ${top ? top.outerHTML.slice(0, 60) : 'nothing'}`);
      }
    }
  }
  return problems;
}"""
