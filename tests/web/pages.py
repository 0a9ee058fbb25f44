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
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from threading import Event
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from websockets.sync.client import connect as ws_connect

from dos.i18n import text
from server.support import WsPlayer, join_table

WAIT_MS = 20_000

# Arms the toggle "DOS! with this move" (``#btn-dos-move``) when the page offers it and no card
# is selected: the page then sends the call with the next move only if that move leaves two
# cards (``callsDos`` in actions.js), so arming it whenever it is offered is safe.
ARM_JS = """() => {
  const toggle = document.getElementById('btn-dos-move');
  if (toggle && !toggle.hidden && !toggle.disabled
      && toggle.getAttribute('aria-pressed') !== 'true') toggle.click();
}"""

# One match through the page's own controls: select one card of the hand, or two, and press
# the first Center Row card that lights up; a wild card question takes its first answer.
# With ``arm``, the toggle "DOS! with this move" is armed first (``ARM_JS``). Done inside the
# page so that the search does not cost a round trip per click.
MATCH_JS = f"""arm => {{
  // A round summary that opened meanwhile is not ours to answer: act only on the table.
  if (document.getElementById('dialog').open) return false;
  const cards = () => [...document.querySelectorAll('#hand button.card')];
  const target = () => document.querySelector('#center-row button.card.target');
  const pressed = () => document.querySelector('#hand button.card[aria-pressed=true]');
  while (pressed()) pressed().click();
  if (arm) ({ARM_JS})();
  const answer = () => {{
    const dialog = document.getElementById('dialog');
    if (dialog.open && !dialog.dataset.kind) {{  // the wild designation question only
      dialog.querySelector('#dialog-buttons button').click();
    }}
  }};
  const n = cards().length;
  for (let i = 0; i < n; i++) {{
    cards()[i].click();
    if (target()) {{ target().click(); answer(); return 'single'; }}
    for (let j = i + 1; j < n; j++) {{
      cards()[j].click();
      if (target()) {{ target().click(); answer(); return 'double'; }}
      cards()[j].click();
    }}
    cards()[i].click();
  }}
  return null;
}}"""


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


def take_step(page: Page, *, dos_with_move: bool = False) -> str:
    """One action of the seat to act, through the page's controls; returns what it did
    ("dialog" and nothing done when a round summary or game over opened meanwhile; "stale"
    when the control the page's state called for was no longer offered: the state had
    changed since it was read, and the step waited for the new one instead).

    With ``dos_with_move`` a match, lay, place or draw is made with the toggle "DOS! with this
    move" armed (``ARM_JS``): a move that leaves two cards (a draw to a hand of one included)
    carries the call, which the server applies with it, so no DOS! is owed and nobody can
    catch; the step returns once the page shows the call too."""
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
        if dos_with_move:
            page.evaluate(ARM_JS)
        page.locator("#hand button.card").first.click()
        if page.locator("#btn-place").is_enabled():
            done, control = "place", "#btn-place"
        else:
            done, control = "end", "#btn-end"
    elif page.evaluate(MATCH_JS, dos_with_move):
        _wait_for_the_move(page, before)
        return "match"
    elif phase == "matching":
        done, control = "end", "#btn-end"
    elif phase == "start":
        if dos_with_move:  # a draw to a hand of two carries the call as well
            page.evaluate(ARM_JS)
        done, control = "draw", "#btn-draw"
    else:  # drawn, and no match: lay the first card
        if dos_with_move:
            page.evaluate(ARM_JS)
        page.locator("#hand button.card").first.click()
        done, control = "lay", "#btn-lay"
    # Checked and pressed in one go, in the page: between a check here and a click the state
    # may move on (its update was on the way). Then the step acts on the next one.
    pressed = page.evaluate(
        "selector => { const b = document.querySelector(selector);"
        " if (!b || b.disabled || b.offsetParent === null) return false; b.click(); return true; }",
        control,
    )
    if not pressed:
        wait_for_change(page, before)
        return "stale"
    _wait_for_the_move(page, before)
    return done


MOVE_SHOWN_JS = """v => {
  const body = document.body.dataset;
  if (document.getElementById('dialog').open) return true;
  if (body.refused !== undefined && body.refused === body.sent) return true;
  return Number(body.version) >= Number(v) + (body.lastSentDos === 'true' ? 2 : 1);
}"""
"""Whether the page shows its last move made on version ``v``: a newer state, and the call
that went with it (its second update) when it carried one; or a summary, or its refusal."""


def _wait_for_the_move(page: Page, old_version: str) -> None:
    """Until the page shows its move (``MOVE_SHOWN_JS``): the state right after a move that
    carried the call, with the obligation it opened still open, is not a state to act on."""
    page.wait_for_function(MOVE_SHOWN_JS, arg=old_version, timeout=WAIT_MS)


# Presses a button from within the page, if it is there: for buttons that come and go with
# the other players' moves (DOS!, Catch!), where a click from outside could come too late.
PRESS_JS = (
    "selector => { const b = document.querySelector(selector); if (b) b.click(); return !!b; }"
)

MAX_STEPS = 600
"""The most times ``play_round`` looks at the pages (acts, or waits for a bot) in one round."""

# What play_round reads of a page at one instant: its state's version, the dialog open (its
# kind), whether DOS! is owed by it, and whether it is its turn.
SEEN_JS = """() => {
  const dialog = document.getElementById('dialog');
  const body = document.body.dataset;
  const dos = document.getElementById('btn-dos');
  return {version: body.version || '', dialog: dialog.open ? dialog.dataset.kind : null,
          dos: !!dos && !dos.disabled, turn: body.myTurn === 'true'};
}"""

CAUGHT_UP_JS = "v => Number(document.body.dataset.version) >= v"

NEWER_JS = "v => document.body.dataset.version !== v || document.getElementById('dialog').open"
"""Whether the page shows a state other than version ``v``, or a summary (a refusal of a catch
it pressed meanwhile is no news: the bot it waits for has not acted)."""


def seen_by(pages: list[Page]) -> list[dict[str, Any]]:
    """Each page's ``SEEN_JS``, in the order of ``pages``."""
    return [page.evaluate(SEEN_JS) for page in pages]


def catch_bots(page: Page, bot_seats: Collection[str]) -> int:
    """Catch a bot that has not called DOS! (it may well call first: then the page is told);
    returns how many Catch! the page pressed. Pressed from within the page: the button goes
    as soon as the bot calls."""
    pressed = 0
    for seat in bot_seats:
        before = version(page)
        if page.evaluate(PRESS_JS, f".catch-button[data-seat='{seat}']"):
            pressed += 1
            wait_for_change(page, before)
    return pressed


def play_round(
    pages: list[Page],
    on_step: Callable[[int], object] | None = None,
    *,
    catch: Collection[str] = (),
    privacy: bool = True,
) -> dict[str, int]:
    """Plays through the pages until a round summary (or game over) shows; returns what it
    took: ``steps``, the people's actions; ``owed``, DOS! calls a page owed that no move of
    its could carry (a card given to a hand of one by another's bonus), pressed as soon as
    seen, in a race with the bots' catches; ``caught``, the Catch! presses on the bot seats in
    ``catch``.

    Every person's match, lay, place or draw is made with "DOS! with this move" armed
    (``take_step``'s ``dos_with_move``): the call goes with the move, so there is no race and
    nothing to catch, and no page presses Catch! unless ``catch`` names bot seats. The round is
    then a function of the deal and the moves, and so are its counts, on a deal where no DOS!
    is owed otherwise and no bot that calls late comes to two cards: such a bot calls at a
    moment of the scheduler's choosing, or never, and its later decisions are seeded with the
    game's version (``bot_job.bot_seed``), which its call moves on. A ``hard`` or ``expert``
    bot calls with its own move, at once. The tests' deals are chosen so, and the exact counts
    they assert change when the play does.

    ``on_step(steps)`` runs before each action with the count of actions so far (it may act on
    the pages: what they show is read again). With ``privacy``, at every step no page holds a
    card of another page's hand."""
    counts = {"steps": 0, "owed": 0, "caught": 0}
    for _ in range(MAX_STEPS):
        # The first page's version before anything else is read: a change after it is not missed.
        states = seen_by(pages)
        seen = states[0]["version"]
        if any(state["dialog"] in ("round", "over") for state in states):
            return counts
        for viewer in pages if privacy else ():
            for other in pages:
                if other is not viewer:
                    assert_no_foreign_cards(viewer, hand(other))
        if on_step is not None:
            on_step(counts["steps"])
            states = seen_by(pages)
        owing = [page for page, state in zip(pages, states, strict=True) if state["dos"]]
        for page in owing:
            before = version(page)
            if page.evaluate(PRESS_JS, "#btn-dos:enabled"):
                counts["owed"] += 1
                wait_for_change(page, before)
        if owing:
            continue
        if catch:
            counts["caught"] += sum(catch_bots(page, catch) for page in pages)
            states = seen_by(pages)  # after the catches
        actor = next(
            (page for page, state in zip(pages, states, strict=True) if state["turn"]), None
        )
        behind = [
            page
            for page, state in zip(pages[1:], states[1:], strict=True)
            if int(state["version"]) < int(seen)
        ]
        if actor is None and behind:
            # A page that shows the others' moves one at a time is still showing the move
            # that gave it the turn: let it catch up with what the first page shows.
            for page in behind:
                page.wait_for_function(CAUGHT_UP_JS, arg=int(seen), timeout=WAIT_MS)
            continue
        if actor is None:  # a bot's turn: wait for it to act
            try:
                pages[0].wait_for_function(NEWER_JS, arg=seen, timeout=WAIT_MS)
            except PlaywrightError as error:
                raise AssertionError(f"the game stopped: {describe_pages(pages)}") from error
            continue
        if take_step(actor, dos_with_move=True) not in ("dialog", "stale"):
            counts["steps"] += 1
    raise AssertionError(f"no round end within {MAX_STEPS} looks at the pages")


def describe_pages(pages: list[Page]) -> str:
    """What each page shows, for a failure message."""
    return "; ".join(
        f"{page.evaluate('() => JSON.stringify(document.body.dataset)')}"
        f" log {page.locator('#log li').all_inner_texts()[-4:]}"
        f" dialog {dialog_kind(page)} error {page.locator('#error-banner').inner_text()!r}"
        f" connection {page.locator('#conn-status').inner_text()!r}"
        for page in pages
    )


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


async def _watch_to_the_end(url: str, code: str) -> dict[str, Any]:
    ws_url = "ws" + url.removeprefix("http")
    watcher = await WsPlayer(ws_url, code, None).connect()
    try:
        await watcher.stored_end()
    finally:
        await watcher.close()
    assert watcher.table is not None
    return watcher.table


def wait_for_the_end(base_url: str, code: str) -> dict[str, Any]:
    """Until the game at table ``code`` is over and its end stored, as a spectator over the
    WebSocket API (``WsPlayer``) reads it: no page renders rounds only to see them end.
    Returns the table as the spectator last read it."""
    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        table: dict[str, Any] = thread.submit(
            asyncio.run, _watch_to_the_end(base_url, code)
        ).result()
    return table


@contextmanager
def seated_without_a_page(base_url: str, code: str, name: str) -> Iterator[int]:
    """A player who joins table ``code`` as ``name`` over the HTTP API and is at the table over
    a WebSocket of their own (no page) while the block runs: for another player whose page no
    check reads. Leaving the block closes the connection, as closing a tab does. Yields the
    seat."""
    grant = join_table(base_url, code, name)
    ws_url = "ws" + base_url.removeprefix("http")
    # Every message is taken in (``max_queue=None``), as a page does: the close is not held up.
    with ws_connect(f"{ws_url}/ws/{code}", max_size=2**24, max_queue=None) as socket:
        socket.send(json.dumps({"type": "hello", "protocol": 1, "token": grant["token"]}))
        welcome = json.loads(socket.recv(timeout=WAIT_MS / 1000))
        assert welcome["type"] == "welcome" and welcome["seat"] == grant["seat"], welcome
        yield int(grant["seat"])


def open_and_join(
    browser: Browser, base_url: str, code: str, name: str, viewport: dict[str, int]
) -> tuple[BrowserContext, Page]:
    """A new browser context opened on table ``code``'s link (as an invite is followed: no
    lobby loaded first), joined as ``name``; its page in the waiting room."""
    context, page = open_page(browser, f"{base_url}/t/{code}", viewport)
    expect(page.locator("#join-code")).to_have_value(code)
    page.fill("#player-name", name)
    page.click("#join-button")
    expect(page.locator("#view-waiting")).to_be_visible()
    return context, page
