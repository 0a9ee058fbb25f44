"""Playing DOS through the browser page, as a person would: forms, cards, buttons and keys.

Every helper drives the page's own controls (clicks on its buttons and cards, key presses) and
reads what it shows; the page publishes the state it shows on ``<body>`` (``data-version``,
``data-phase``, ``data-my-turn``, ``data-seat``, and ``data-sent``/``data-refused``: the id of
the last action sent and of the last one refused) so that a test can wait for a change instead
of sleeping.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from threading import Event
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from dos.i18n import text
from server.support import WsPlayer

WAIT_MS = 20_000

# One match through the page's own controls: select one card of the hand, or two, and press
# the first Center Row card that lights up; a wild card question takes its first answer.
# Done inside the page so that the search does not cost a round trip per click.
MATCH_JS = """() => {
  // A round summary that opened meanwhile is not ours to answer: act only on the table.
  if (document.getElementById('dialog').open) return false;
  const cards = () => [...document.querySelectorAll('#hand button.card')];
  const target = () => document.querySelector('#center-row button.card.target');
  const pressed = () => document.querySelector('#hand button.card[aria-pressed=true]');
  while (pressed()) pressed().click();
  const answer = () => {
    const dialog = document.getElementById('dialog');
    if (dialog.open && !dialog.dataset.kind) {  // the wild designation question only
      dialog.querySelector('#dialog-buttons button').click();
    }
  };
  const n = cards().length;
  for (let i = 0; i < n; i++) {
    cards()[i].click();
    if (target()) { target().click(); answer(); return 'single'; }
    for (let j = i + 1; j < n; j++) {
      cards()[j].click();
      if (target()) { target().click(); answer(); return 'double'; }
      cards()[j].click();
    }
    cards()[i].click();
  }
  return null;
}"""


def open_page(
    browser: Browser, url: str, viewport: dict[str, int], motion: bool = False
) -> tuple[BrowserContext, Page]:
    """A new browser context (its own storage) on ``url``. Without ``motion`` it prefers
    reduced motion: the other players' moves show at once, not at a reading pace."""
    context = browser.new_context(
        viewport=viewport, reduced_motion="no-preference" if motion else "reduce"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # a text the page's catalogs lack (i18n.js says so on the console): an error of the page
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and message.text.startswith("missing text:")
            else None
        ),
    )
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return context, page


def set_language(page: Page, lang: str) -> None:
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


LONG_FIRST_ROUND = 20261129
"""A deal whose first round, at two seats against an ``easy`` bot, lasts beyond the few turns
the tests that use it play (``draw_lay_and_wait``, keyboard play); the game is a function of
the seed and the moves, so it does every run. Were it to end early after a change of the
rules or the bot, ``draw_lay_and_wait`` says so."""


def deal_from(page: Page, seed: int) -> None:
    """The next table this page creates deals its first game from ``seed`` (the test servers
    are seeded: ``CreateTable.seed``): the page's own request, with the seed added on its way.
    A test whose course depends on the cards names a deal it was checked on."""

    def add_seed(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))
        page.unroute("**/api/tables", add_seed)

    page.route("**/api/tables", add_seed)


def create_table(
    page: Page,
    name: str,
    seats: int,
    bots: int,
    level: str | list[str] = "easy",
    *,
    seed: int | None = None,
) -> str:
    """Creates a table through the lobby's form; ``level``: every bot's, or each bot's;
    ``seed``: its first game's deal (``deal_from``), else the server's."""
    if seed is not None:
        deal_from(page, seed)
    page.fill("#player-name", name)
    page.fill("#create-seats", str(seats))
    page.fill("#create-bots", str(bots))
    levels = [level] * bots if isinstance(level, str) else level
    expect(page.locator("#bot-levels select")).to_have_count(bots)
    for number, each in enumerate(levels, 1):
        page.select_option(f"#create-level-{number}", each)
    page.click("#create-button")
    expect(page.locator("#view-waiting")).to_be_visible()
    expect(page.locator("#start-button")).to_be_visible()
    code = page.locator("#waiting-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{4,12}", code), code
    return code


def join_by_link(page: Page, base_url: str, code: str, name: str) -> None:
    page.goto(f"{base_url}/t/{code}")
    expect(page.locator("#join-code")).to_have_value(code)
    page.fill("#player-name", name)
    page.click("#join-button")
    expect(page.locator("#view-waiting")).to_be_visible()


def start(host: Page, *others: Page) -> None:
    host.click("#start-button")
    for page in (host, *others):
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-phase", re.compile(r"\w+"))


def hand(page: Page) -> list[str]:
    return page.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")


def body(page: Page, name: str) -> str:
    return page.evaluate(f"() => document.body.dataset.{name} || ''")


def version(page: Page) -> str:
    return body(page, "version")


def my_turn(page: Page) -> bool:
    return body(page, "myTurn") == "true"


def dialog_kind(page: Page) -> str | None:
    result: Any = page.evaluate(
        "() => { const d = document.getElementById('dialog');"
        " return d.open ? d.dataset.kind : null; }"
    )
    return result


CHANGED_JS = """v => {
  const body = document.body.dataset;
  return body.version !== v || document.getElementById('dialog').open
    || (body.refused !== undefined && body.refused === body.sent);
}"""
"""Whether the page shows a state newer than version ``v``, a summary, or a refusal of the
action it sent last (not a refusal of an earlier one that arrived late)."""


def wait_for_change(page: Page, old_version: str) -> None:
    """Until the page shows a newer state, or why its last action was refused."""
    page.wait_for_function(CHANGED_JS, arg=old_version, timeout=WAIT_MS)


def take_step(page: Page) -> str:
    """One action of the seat to act, through the page's controls; returns what it did
    ("dialog" and nothing done when a round summary or game over opened meanwhile; "stale"
    when the control the page's state called for was no longer offered: the state had
    changed since it was read, and the step waited for the new one instead)."""
    kind, before, phase = page.evaluate(
        """() => {
          const dialog = document.getElementById('dialog');
          const body = document.body.dataset;
          return [dialog.open ? dialog.dataset.kind : null, body.version || '', body.phase || ''];
        }"""
    )
    if kind is not None:
        return "dialog"
    if phase == "placing":
        page.locator("#hand button.card").first.click()
        if page.locator("#btn-place").is_enabled():
            done, control = "place", "#btn-place"
        else:
            done, control = "end", "#btn-end"
    elif page.evaluate(MATCH_JS):
        wait_for_change(page, before)
        return "match"
    elif phase == "matching":
        done, control = "end", "#btn-end"
    elif phase == "start":
        done, control = "draw", "#btn-draw"
    else:  # drawn, and no match: lay the first card
        page.locator("#hand button.card").first.click()
        done, control = "lay", "#btn-lay"
    # Checked and pressed in one go, in the page: between a check here and a click the state
    # may move on (its update was on the way). Then the step acts on the next one.
    pressed = page.evaluate(
        "selector => { const b = document.querySelector(selector);"
        " if (!b || b.disabled || b.offsetParent === null) return false; b.click(); return true; }",
        control,
    )
    wait_for_change(page, before)
    return done if pressed else "stale"


def draw_lay_and_wait(page: Page) -> None:
    """On this player's turn: draw, lay the first card, then wait until the others have moved
    and it is this player's turn again (by the state's version, not by a moment in between)."""
    body = page.locator("body")
    expect(body).to_have_attribute("data-my-turn", "true", timeout=WAIT_MS)
    expect(body).to_have_attribute("data-phase", "start")
    seen = int(version(page))
    page.click("#btn-draw")
    expect(body).to_have_attribute("data-phase", "drawn")
    page.locator("#hand button.card").first.click()
    page.click("#btn-lay")
    # A round can end inside this window (someone goes out): then the page rightly shows the
    # round's summary, and a test that meant to see the next turn was given a deal that does
    # not fit it. Said as such, not as a time-out.
    outcome = page.wait_for_function(
        """v => {
          const dialog = document.getElementById('dialog');
          if (dialog.open && ['round', 'over'].includes(dialog.dataset.kind)) return 'ended';
          return Number(document.body.dataset.version) > v + 2
            && document.body.dataset.myTurn === 'true' && 'turn';
        }""",
        arg=seen,
        timeout=WAIT_MS,
    ).json_value()
    assert outcome == "turn", (
        "the round ended while this test played a turn: create its table on a deal whose "
        "first round lasts (create_table's seed, e.g. LONG_FIRST_ROUND)"
    )


def cards_in_dom(page: Page) -> tuple[Counter[str], Counter[str], str, bool]:
    """At one instant: the card elements of the whole page, those in the seat's own hand and
    the Center Row, the page's HTML, and whether a dialog (a round summary) is open."""
    everywhere, shown, html, dialog = page.evaluate(
        """() => [
          [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),
          [...document.querySelectorAll('#hand [data-card], #center-row [data-card]')]
            .map(e => e.dataset.card),
          document.documentElement.outerHTML,
          document.getElementById('dialog').open,
        ]"""
    )
    return Counter(everywhere), Counter(shown), html, bool(dialog)


def assert_no_foreign_cards(viewer: Page, other_hand: list[str]) -> None:
    """The viewer's page holds no card of another hand: every card element in its DOM is its
    own hand's or the Center Row's, so none of `other_hand` can be there beyond those, and no
    card is written anywhere else in the page (no hidden lists, no JSON)."""
    everywhere, shown, html, dialog = cards_in_dom(viewer)
    if dialog:  # a round summary shows the hands left: public then (read at the same instant)
        return
    assert everywhere == shown, f"cards outside the hand and Center Row: {everywhere - shown}"
    for card in Counter(other_hand):
        assert everywhere[card] <= shown[card], card
        assert len(re.findall(rf'data-card="{re.escape(card)}"', html)) == shown[card], card
    assert '"hand":' not in html


def race(caller: Page, catcher: Page, names: dict[Page, str], lang: str = "en") -> str:
    """The DOS race: `caller` presses DOS! and `catcher` presses Catch! at the same instant.

    Returns who won, read from the caller's log in words (`lang`): "call", "catch", or
    "other" when something else closed the obligation first (a bot's catch); the loser's
    action, made on a state that is gone, is refused and its page says so.
    """
    seat = body(caller, "seat")
    call = text(lang, "game.log_call", player=names[caller])
    catch = text(lang, "game.log_catch", player=names[catcher], caught=names[caller])
    seen = caller.locator("#log li").count()
    for page in (caller, catcher):
        page.evaluate("() => { delete document.body.dataset.lastSent; }")
    at: int = caller.evaluate("() => Date.now() + 400")
    caller.evaluate(
        "t => setTimeout(() => document.getElementById('btn-dos').click(), t - Date.now())", at
    )
    catcher.evaluate(
        "([t, seat]) => setTimeout(() => {"
        " const b = document.querySelector(`.catch-button[data-seat='${seat}']`);"
        " if (b) b.click(); }, t - Date.now())",
        [at, seat],
    )
    # The obligation is closed once DOS! is no longer offered; the log says how.
    expect(caller.locator("#btn-dos:enabled")).to_have_count(0, timeout=WAIT_MS)
    entries = caller.locator("#log li").all_inner_texts()[seen:]
    won = "call" if call in entries else "catch" if catch in entries else "other"
    if won != "other":
        loser, action = (catcher, f"catch {seat}") if won == "call" else (caller, "dos")
        if body(loser, "lastSent") == action:  # it pressed in time: refused, and it says so
            expect(loser.locator("#error-banner")).to_be_visible(timeout=WAIT_MS)
    return won


def seat_token(page: Page, code: str) -> str:
    """The token of the page's seat at table ``code``, as the page keeps it."""
    token: str = page.evaluate(
        "code => JSON.parse(localStorage.getItem(`dos.seat.${code}`)).token", code
    )
    return token


async def _play_seat(
    url: str, code: str, token: str, *, until: str, seed: int, played: Event, back: Event
) -> None:
    ws_url = "ws" + url.removeprefix("http")
    player = await WsPlayer(ws_url, code, token).connect()
    await player.send({"type": "start"})
    await player.expect("state")
    rng = random.Random(seed)
    for _ in range(5000):
        rounds = len((player.view or {}).get("round_results") or [])
        if until == "round" and rounds:
            while not player.waited_for:  # the summary's pause: it waits for this seat
                await player.recv()
            break
        if player.result is not None:
            while player.table is None or player.table["status"] != "finished":
                await player.recv()  # the table message sent once the game's end is stored
            break
        await player.step(rng)
    else:
        raise AssertionError(f"no {until} in 5000 moves")
    played.set()
    # Connected until the page has taken the seat back (its connection replaces this one): a
    # seat that leaves would not be waited for by the round's pause.
    while not back.is_set():
        await asyncio.sleep(0.05)
    await player.close()


def play_away(page: Page, base_url: str, code: str, until: str = "over", seed: int = 3) -> None:
    """The page's seat at a table it created and has not started, with bots at the others, is
    played over the WebSocket API (``WsPlayer``: its DOS! calls at once, its turns at random
    from ``seed``) while the page is away: from the start until the first round has ended
    (``until="round"``: its summary waits for the seat) or the game is over (``"over"``: its
    end stored). Then the page comes back to the table: a page of whole rounds played through
    Playwright only to reach their end, without its cost."""
    token = seat_token(page, code)
    page.goto("about:blank")
    played, back = Event(), Event()
    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        seat = _play_seat(base_url, code, token, until=until, seed=seed, played=played, back=back)
        playing = thread.submit(asyncio.run, seat)
        try:
            while not played.wait(0.05):
                if playing.done():
                    playing.result()  # its error
            page.goto(f"{base_url}/t/{code}")
            expect(page.locator("#view-table")).to_be_visible()
        finally:
            back.set()
        playing.result()
