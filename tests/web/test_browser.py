"""The browser client in real headless Chromium against the real game server.

Two browser contexts (two players, each with their own storage) sit at one table with a bot and
play a whole round through the page's controls; at every step neither page holds a card of the
other's hand. A reload comes back to the same seat and state; a server restart shows the page
reconnecting, then the same seat again; a DOS race between two pages has one winner and the
loser is told; screenshots at phone and desktop sizes show the table. Keys alone play a turn;
a refused action says why and changes nothing; a finished game offers rematch and replay; a
spectator sees no hand; the classic rule set plays too, between two pages and against a server
bot (its turns, and the reaction tests timed by the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect
from playwright.sync_api import Error as PlaywrightError

from dos.i18n import text
from server.support import WsPlayer, join_table
from server.support import create_table as create_api_table

from .conftest import DESKTOP, PHONE, Server
from .pages import (
    LONG_FIRST_ROUND,
    MAX_STEPS,
    assert_no_foreign_cards,
    body,
    create_table,
    describe_pages,
    dialog_kind,
    hand,
    join_by_link,
    my_turn,
    open_page,
    play_round,
    race,
    set_language,
    start,
    version,
    wait_for_change,
)

# Selects the first card of the hand, or pair, that lights up a Center Row card, if any.
SELECT_JS = """() => {
  const cards = () => [...document.querySelectorAll('#hand button.card')];
  const lit = () => document.querySelector('#center-row .card.target');
  const n = cards().length;
  for (let i = 0; i < n; i++) {
    cards()[i].click();
    if (lit()) return true;
    for (let j = i + 1; j < n; j++) {
      cards()[j].click();
      if (lit()) return true;
      cards()[j].click();
    }
    cards()[i].click();
  }
  return false;
}"""


def dos_pending(page: Page) -> bool:
    return page.locator("#btn-dos:enabled").count() > 0


def check_screenshot(path: Path, viewport: dict[str, int]) -> None:
    """The file is a PNG of the viewport that is not blank: many colours (cards, text)."""
    from PIL import Image

    with Image.open(path) as image:
        assert image.size == (viewport["width"], viewport["height"])
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
        assert colours is not None
        assert len(colours) > 200, f"{path} looks blank: {len(colours)} colours"


WHOLE_ROUND_DEAL = 68
"""The deal of the whole round between two pages and an ``easy`` bot: under ``play_round``'s
play its first round ends after ``WHOLE_ROUND``, past the screenshots (Ada's turn after the
first step) and the reload (Bo's turn after the second), with no DOS! owed but with a move and
the bot never at two cards: the round is a function of the seed and the moves."""
WHOLE_ROUND = {"steps": 6, "owed": 0, "caught": 0}


def test_two_pages_and_a_bot_play_a_whole_round(
    browser: Browser, server: Server, output_dir: Path
) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, PHONE)
    try:
        set_language(bo, "ja")  # the phone plays in Japanese, from the same catalog
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy", seed=WHOLE_ROUND_DEAL)
        join_by_link(bo, server.url, code, "Bo")
        expect(ada.locator("#seat-list li")).to_have_count(3)
        expect(ada.locator("#seat-list")).to_contain_text("Bo")
        expect(bo.locator("#seat-list")).to_contain_text("Ada")
        expect(bo.locator("#start-button")).to_be_hidden()
        start(ada, bo)
        # A spectator follows the game by the same link: no hand, no controls, no secrets.
        watcher_context, watcher = open_page(browser, f"{server.url}/t/{code}", PHONE)
        watcher.click("#watch-button")
        expect(watcher.locator("#view-table")).to_be_visible()
        expect(watcher.locator(".hand-area")).to_be_hidden()
        expect(ada.locator("#center-row button.card").first).to_be_visible()
        expect(bo.locator("#center-title")).to_have_text(text("ja", "game.center_row"))
        shots: dict[str, Path] = {}
        reloaded: list[bool] = []

        def on_step(steps: int) -> None:
            for player in (ada, bo):
                assert_no_foreign_cards(watcher, hand(player))
            assert watcher.locator("#hand [data-card]").count() == 0
            if steps >= 1 and not shots and my_turn(ada):
                ada.evaluate(SELECT_JS)  # show a selection and the targets it lights up
                for page, name, viewport in ((ada, "desktop", DESKTOP), (bo, "phone", PHONE)):
                    expect(page.locator("#view-table")).to_be_visible()
                    expect(page.locator("#hand button.card").first).to_be_visible()
                    # The layout fits the width: nothing to scroll sideways.
                    assert page.evaluate(
                        "() => document.documentElement.scrollWidth <= window.innerWidth"
                    ), name
                    path = output_dir / f"table-{name}.png"
                    page.screenshot(path=path, animations="disabled")
                    check_screenshot(path, viewport)
                    shots[name] = path
                ada.keyboard.press("Escape")
            if steps >= 2 and not reloaded and my_turn(bo) and not dos_pending(bo):
                # Bo's turn: nobody else can change Bo's hand now (only calls and catches of
                # others can happen), so it must come back: the same seat, hand, turn and log.
                cards, seen, log = hand(bo), version(bo), bo.locator("#log li").count()
                bo.reload()
                expect(bo.locator("#view-table")).to_be_visible()
                assert int(version(bo)) >= int(seen)
                assert hand(bo) == cards
                expect(bo.locator("body")).to_have_attribute("data-my-turn", "true")
                expect(bo.locator("#opponents li.me .name")).to_contain_text("Bo")
                # The log comes in its own message after the state: waited for, not read once.
                bo.wait_for_function(
                    "n => document.querySelectorAll('#log li').length >= n", arg=log
                )
                reloaded.append(True)

        played = play_round([ada, bo], on_step)
        assert played == WHOLE_ROUND, f"WHOLE_ROUND_DEAL plays otherwise: {played}"
        # The round summary: every hand left and its points, on both pages.
        for page in (ada, bo):
            try:
                expect(page.locator("#dialog")).to_be_visible()
            except AssertionError as error:
                raise AssertionError(describe_pages([ada, bo])) from error
            expect(page.locator("#dialog .summary tr[data-seat]")).to_have_count(3)
        for page, name, viewport in ((ada, "desktop", DESKTOP), (bo, "phone", PHONE)):
            path = output_dir / f"round-summary-{name}.png"
            page.screenshot(path=path, animations="disabled")
            check_screenshot(path, viewport)
        shots["summary"] = path
        assert set(shots) == {"desktop", "phone", "summary"}
        assert reloaded, "the round did not last long enough to reload Bo's page"
        for page in (ada, bo):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
        watcher_context.close()
    finally:
        ada_context.close()
        bo_context.close()


RACE_DEAL = 7
"""The deal of the DOS race's table (its course up to the race is a function of it)."""


def _drive_to_a_dos_race(url: str, seed: int) -> str:
    """A table of two people, Ada and Bo, played over the WebSocket API (matches first, never
    a call or a catch) until a hand has just become two cards: DOS! is owed and may be caught.
    Returns the table's code; the seats are the pages' from here on (``seat_page``)."""

    async def play() -> str:
        host = create_api_table(url, name="Ada", seats=[None, None], seed=seed)
        guest = join_table(url, host["code"], "Bo")
        ws_url = "ws" + url.removeprefix("http")
        players = [
            await WsPlayer(ws_url, host["code"], host["token"]).connect(),
            await WsPlayer(ws_url, guest["code"], guest["token"]).connect(),
        ]
        await players[0].send({"type": "start"})
        for player in players:
            await player.expect("state")
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            for player in players:
                while player.version < max(p.version for p in players):
                    await player.recv()
            views = [player.view or {} for player in players]
            if any(a.endswith("dos") for view in views for a in view.get("legal", [])):
                break
            for player in players:
                if player.waited_for:  # a round's summary: the next round
                    player.waited_for = False
                    await player.send({"type": "continue"})
            turn = [p for p in players if (p.view or {}).get("turn") == p.seat]
            actor = turn[0] if turn else None
            legal = [] if actor is None else (actor.view or {}).get("legal", [])
            moves = [a for a in legal if ":" not in a and "catch" not in a and a != "dos"]
            if actor is None or not moves:  # between rounds: what the server says next
                for player in players:
                    with contextlib.suppress(TimeoutError):
                        await player.recv(timeout=0.2)
                continue
            matches = [a for a in moves if "@" in a]
            await actor.act(rng.choice(matches or moves))
        else:
            raise AssertionError(f"no hand became two cards in {MAX_STEPS} moves")
        for player in players:
            await player.close()
        code: str = host["code"]
        seat_tokens[code] = {0: host["token"], 1: guest["token"]}
        return code

    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        return thread.submit(asyncio.run, play()).result()


seat_tokens: dict[str, dict[int, str]] = {}
"""The seat tokens of the tables this module made over the API, by code and seat."""


def seat_page(page: Page, base_url: str, code: str, seat: int) -> None:
    """The page takes a seat made over the API (its token in the page's storage, as the
    page keeps its own) and shows the table."""
    page.evaluate(
        "([code, grant]) => localStorage.setItem(`dos.seat.${code}`, JSON.stringify(grant))",
        [code, {"seat": seat, "token": seat_tokens[code][seat]}],
    )
    page.goto(f"{base_url}/t/{code}")
    expect(page.locator("#view-table")).to_be_visible()


def test_a_dos_race_between_two_pages(browser: Browser, server: Server) -> None:
    """Played over the API up to the moment a hand becomes two cards; from there the two
    pages race: one presses DOS!, the other Catch!, at the same instant; one wins, and the
    loser, if it pressed in time, is told its action was refused."""
    code = _drive_to_a_dos_race(server.url, RACE_DEAL)
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, DESKTOP)
    try:
        seat_page(ada, server.url, code, 0)
        seat_page(bo, server.url, code, 1)
        names = {ada: "Ada", bo: "Bo"}
        caller = next(p for p in (ada, bo) if p.locator("#btn-dos:enabled").count())
        for page in (ada, bo):
            for other in (ada, bo):
                if other is not page:
                    assert_no_foreign_cards(page, hand(other))
        catcher = bo if caller is ada else ada
        seat = body(caller, "seat")
        expect(catcher.locator(f".catch-button[data-seat='{seat}']")).to_be_visible()
        assert race(caller, catcher, names, "en") in ("call", "catch")
        for page in (ada, bo):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        bo_context.close()


def test_keyboard_play_and_a_refused_action(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.fill("#create-timer", "300")  # a turn timer, shown on the table
        page.fill("#create-target", "1")  # one round: the game left here ends soon
        create_table(page, "Kei", seats=2, bots=1, level="easy", seed=LONG_FIRST_ROUND)
        start(page)
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=20_000)
        expect(page.locator("#timer-info")).to_have_text(re.compile(r"\d+ s left"))
        expect(page.locator("body")).to_have_attribute("data-phase", "start")
        # Every card is a labelled button; colour is never the only clue.
        first = page.locator("#hand button.card").first
        assert first.get_attribute("aria-label")
        assert re.search(r"[●▲■★]", first.inner_text())
        # Draw with D, select the first card with 1, lay it with L.
        page.keyboard.press("d")
        expect(page.locator("body")).to_have_attribute("data-phase", "drawn")
        expect(page.locator("#log")).to_contain_text(
            re.compile(r"Kei drew [^.]+\.")
        )  # the card, to Kei
        page.keyboard.press("1")
        expect(page.locator("#hand-0")).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("l")
        expect(page.locator("#log")).to_contain_text("Kei laid")
        # A refused action changes nothing and says why: press Draw twice before the
        # server answers; the second draw was made on a state that is gone.
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'true'"
            " && document.body.dataset.phase === 'start'",
            timeout=20_000,
        )
        cards = len(hand(page))
        page.evaluate(
            "() => { const b = document.getElementById('btn-draw'); b.click(); b.click(); }"
        )
        expect(page.locator("#error-banner")).to_be_visible()
        expect(page.locator("#error-banner")).to_contain_text("Too late")
        expect(page.locator("body")).to_have_attribute("data-phase", "drawn")
        assert len(hand(page)) == cards + 1
        # The rules page lists the keys.
        page.keyboard.press("?")
        expect(page.locator("#view-rules")).to_be_visible()
        expect(page.locator("#rules-body kbd", has_text="D")).to_have_count(1)
        page.click("#rules-close")
        expect(page.locator("#view-table")).to_be_visible()
    finally:
        context.close()


def test_a_refused_action_says_why_in_the_pages_language(browser: Browser, server: Server) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        set_language(page, "ja")

        def route(socket: WebSocketRoute) -> None:
            # The page only offers legal actions: its draw is turned into an illegal match.
            upstream = socket.connect_to_server()

            def forward(message: str | bytes) -> None:
                data = json.loads(message)
                if data.get("type") == "action" and data.get("action") == "draw":
                    data["action"] = "R7@9"  # there is no Center Row card 9
                upstream.send(json.dumps(data))

            socket.on_message(forward)

        page.route_web_socket(re.compile(r"/ws"), route)
        # A deal on which the bot owes no DOS! when Kei's first turn comes: a late call of its
        # would move the game first, and the action would be refused as too late instead.
        page.fill("#create-target", "1")  # one round: the game left here ends soon
        create_table(page, "Kei", seats=2, bots=1, level="easy", seed=LONG_FIRST_ROUND)
        start(page)
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=20_000)
        page.keyboard.press("d")
        reason = text("ja", "game.err_no_such_target", index=9)
        banner = page.locator("#error-banner")
        expect(banner).to_have_text(text("ja", "web.error_refused", reason=reason))
        expect(page.locator("body")).to_have_attribute("data-phase", "start")
    finally:
        context.close()


def test_the_page_reconnects_to_the_same_seat_after_a_server_restart(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        page.fill("#create-target", "1")  # one round: the game left here ends soon
        create_table(page, "Rhys", seats=2, bots=1, level="easy")
        start(page)
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=20_000)
        cards, seen = hand(page), version(page)
        server.stop()  # the shared server: it starts again below, with every table
        expect(page.locator("#conn-status")).to_be_visible()
        expect(page.locator("#conn-status")).to_have_text(text("en", "web.reconnecting"))
        server.start()
        expect(page.locator("#conn-status")).to_be_hidden(timeout=20_000)
        expect(page.locator("body")).to_have_attribute("data-version", seen)
        assert hand(page) == cards
        expect(page.locator("#opponents li.me .name")).to_contain_text("Rhys")
    finally:
        context.close()


def _play_a_game_to_its_end(url: str) -> str:
    """Gwen's game against an ``easy`` bot to a target of 1 point (the first round won with
    points decides it), played over the WebSocket API until the server has stored its end;
    returns the table's code (Gwen's seat 0 is a page's from here on: ``seat_page``)."""

    async def play() -> str:
        grant = create_api_table(
            url, name="Gwen", seats=[None, "easy"], options={"target_score": 1}
        )
        ws_url = "ws" + url.removeprefix("http")
        gwen = await WsPlayer(ws_url, grant["code"], grant["token"]).connect()
        await gwen.send({"type": "start"})
        await gwen.expect("state")
        await gwen.play_to_end(random.Random(3))
        while gwen.table is None or gwen.table["status"] != "finished":
            await gwen.recv()  # the table message sent once the game's end is stored
        await gwen.close()
        code: str = grant["code"]
        seat_tokens[code] = {0: grant["token"]}
        return code

    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        return thread.submit(asyncio.run, play()).result()


def test_game_over_rematch_and_replay(browser: Browser, server: Server) -> None:
    """A finished game (played over the API) on its host's page: the game over dialog, the
    replay, and a rematch at the same table."""
    code = _play_a_game_to_its_end(server.url)
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        seat_page(page, server.url, code, 0)
        expect(page.locator("#dialog")).to_have_attribute("data-kind", "over")
        expect(page.locator("#dialog .winner-line")).to_contain_text("wins the game")
        expect(page.locator("#dialog .summary tr[data-seat]")).to_have_count(2)
        # The replay steps through the finished game with every hand shown. Its shuffle check
        # shows once its words have come: never as an empty heading (held here until then).
        held: list[Route] = []
        page.route("**/api/i18n/*/shuffle", lambda route: held.append(route))  # noqa: PLW0108 (Playwright wants a Python function)
        with page.expect_request("**/api/i18n/*/shuffle"):
            page.click("#replay-button")
        expect(page.locator("#view-replay")).to_be_visible()
        expect(page.locator("#replay-action")).to_have_text("The deal.")
        expect(page.locator("#shuffle-panel")).to_be_hidden()
        held[0].continue_()
        expect(page.locator("#shuffle-panel summary")).to_have_text(text("en", "shuffle.title"))
        expect(page.locator("#replay-action")).to_have_text("The deal.")
        expect(page.locator("#replay-board .replay-hands li")).to_have_count(2)
        first_hand = page.locator("#replay-board .replay-hands li").first.locator(".card")
        expect(first_hand).to_have_count(7)
        page.click("#replay-next")
        expect(page.locator("#replay-step")).to_contain_text("Step 1 of")
        expect(page.locator("#replay-action")).not_to_have_text("The deal.")
        page.keyboard.press("End")
        expect(page.locator("#replay-next")).to_be_visible()
        # The shuffle check: the revealed seed and salt open the commitment, round by round.
        page.click("#shuffle-panel summary")
        expect(page.locator("#shuffle-rounds li")).to_have_text(["Round 1: shuffle verified"])
        expect(page.locator("#shuffle-panel")).to_have_attribute("data-check", "verified")
        page.click("#replay-close")
        # Rematch: a new game at the same table, same seats.
        expect(page.locator("#view-table")).to_be_visible()
        page.click("#btn-rematch")
        expect(page.locator("body")).not_to_have_attribute("data-phase", "over")
        expect(page.locator("#over-actions")).to_be_hidden()
        expect(page.locator("#dialog")).to_be_hidden()
        expect(page.locator("#opponents li")).to_have_count(2)
        expect(page.locator("#opponents li.me")).to_contain_text("Gwen")
        # The new game's log opens with its commitment, shown before its first card is played.
        expect(page.locator("#log li.shuffle")).to_contain_text("The deal is sealed: commitment")
    finally:
        context.close()


def classic_step(page: Page) -> None:
    """One move at a classic table through the page: the reaction test's targets, else the
    first playable card (wishing the first colour offered), else a draw."""
    before = version(page)
    if page.locator("#reaction-area").count():
        while page.locator(".reaction-target").count():
            page.locator(".reaction-target").first.click()
    elif page.locator("#hand button.card.playable").count():
        page.locator("#hand button.card.playable").first.click()
        if dialog_kind(page) is not None:
            page.locator("#dialog-buttons button").first.click()
    else:
        page.click("#btn-draw")
    try:
        wait_for_change(page, before)
    except PlaywrightError as error:
        raise AssertionError(f"the game stopped: {describe_pages([page])}") from error


CLASSIC_PAGES_DEAL = 2
"""A classic deal whose game between two pages lasts the test's twelve moves."""


def test_two_pages_play_the_classic_rule_set(browser: Browser, server: Server) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context, bo = open_page(browser, server.url, PHONE)
    try:
        ada.select_option("#create-rules", "classic")
        expect(ada.locator("#create-form .options-official")).to_be_hidden()
        code = create_table(ada, "Ada", seats=2, bots=0, seed=CLASSIC_PAGES_DEAL)
        join_by_link(bo, server.url, code, "Bo")
        start(ada, bo)
        expect(ada.locator("#center-title")).to_have_text("Discard Pile")
        expect(ada.locator("#center-row .card")).to_have_count(1)
        for _ in range(12):
            for viewer, other in ((ada, bo), (bo, ada)):
                assert_no_foreign_cards(viewer, hand(other))
            actor = next((page for page in (ada, bo) if my_turn(page)), None)
            if actor is None:
                break  # the game is over
            classic_step(actor)
        expect(ada.locator("#log li")).not_to_have_count(0)
        for page in (ada, bo):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        bo_context.close()


CLASSIC_BOT_DEAL = 2
"""A classic deal on which, against an ``easy`` bot, the page's own hand comes to a reaction
test after three of the bot's turns, the same every run (not the suite's deal seed)."""

REACTION_LOG = re.compile(r"hit \d+ targets? in \d+ ms\.|missed the reaction test\.")


def test_a_page_plays_classic_against_a_server_bot(browser: Browser, server: Server) -> None:
    """A classic table with a bot seat: the bot plays its turns on the server, and the reaction
    tests (the page's own through its targets, the bot's by its reflex) are taken in real
    time; the page holds no card but its own hand and the discard pile's top."""
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.select_option("#create-rules", "classic")
        code = create_table(page, "Ada", seats=2, bots=1, level="easy", seed=CLASSIC_BOT_DEAL)
        expect(page.locator("#seat-list li")).to_have_count(2)
        expect(page.locator("#seat-list li[data-seat='1']")).to_contain_text(
            re.compile("easy", re.IGNORECASE)
        )
        assert code
        start(page)
        bot_turns = 0
        own_tests = 0  # reaction tests the page showed and answered through its targets
        for _ in range(300):
            if body(page, "view") != "table" or body(page, "phase") == "over":
                # The game is over (its dialog open on the table, or back in the lobby): a
                # dialog also ends wait_for_change at once, so the loop must not go on.
                break
            assert_no_foreign_cards(page, [])
            if bot_turns and own_tests:
                break
            before = version(page)
            if my_turn(page):
                if page.locator("#reaction-area .reaction-target").count():
                    own_tests += 1
                classic_step(page)
            else:
                wait_for_change(page, before)  # the bot's move, made on the server
                bot_turns += 1
        log = page.locator("#log li").all_inner_texts()
        reactions = [entry for entry in log if REACTION_LOG.search(entry)]
        assert bot_turns > 0
        assert reactions, "no reaction test was taken"
        assert own_tests, log
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
