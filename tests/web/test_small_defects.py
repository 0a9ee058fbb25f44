"""Small things, each seen, in headless Chromium on a server of this module's
own (its leaderboard holds only the ratings a test writes):

- the leaderboard opens on a board that has players, the player's own one first, and marks
  the player's row;
- an invite link says who invites, to which rules and seats, and hides what is empty; a
  table whose game has started says so and offers to watch it (the join refusal `started`);
- a bot is "Bot N" with its level beside it everywhere, and on a phone both stay whole;
- the hand's heading shows the hand's card points and the score, each named;
- the wild designation question shows the cards played and their target;
- counted words take each language's plural forms (Welsh six, Japanese one).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from dos.i18n import LANGS, text
from dos.i18n.describe import card_name, cards_text
from dos.ratings.policy import ESTABLISHED_GAMES
from dos.rules.official.cards import POINTS, parse_card

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page, set_language, start

ME = "p_smalldefects1"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's own server: no other test's rated games on its leaderboard."""
    server = Server(data=tmp_path_factory.mktemp("small-defects"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _rate(data: Path, rows: list[tuple[str, str, int, str, int]]) -> None:
    """Writes ratings (player, rules, players, name, games) into the running server's
    database, as if those games had been played."""
    with sqlite3.connect(data / "dos.sqlite3", timeout=30) as connection:
        for index, (player, rules, players, name, games) in enumerate(rows):
            mu, sigma = 30.0 - index, 4.0
            connection.execute(
                "INSERT INTO dos_ratings (player_id, rules, players, name, mu, sigma, ordinal,"
                " games, wins, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (player, rules, players, name, mu, sigma, mu - 3 * sigma, games, 1, time.time()),
            )
    connection.close()


def test_the_leaderboard_opens_on_a_board_with_players_and_marks_mine(
    browser: Browser, fresh: Server
) -> None:
    """No two-player ratings, three at tables of 3 (the player's among them), four at tables
    of 4: the player's page opens on the board of 3, with their row marked; someone who is on
    no board sees the fullest one. The bots are on the bots' board: the people's board of 3
    lists the player alone, that of 4 two people."""
    _rate(
        fresh.data,
        [
            ("bot:easy", "official", 3, "easy", 12),
            ("bot:medium", "official", 3, "medium", 12),
            (ME, "official", 3, "Mona", ESTABLISHED_GAMES),
            *[(f"bot:{level}", "official", 4, level, 9) for level in ("easy", "medium", "hard")],
            ("bot:expert", "official", 4, "expert", 9),
            ("p_xena", "official", 4, "Xena", ESTABLISHED_GAMES),
            ("p_yuri", "official", 4, "Yuri", ESTABLISHED_GAMES),
        ],
    )
    context, page = open_page(browser, f"{fresh.url}/leaderboard", DESKTOP)
    other, stranger = open_page(browser, f"{fresh.url}/leaderboard", DESKTOP)
    try:
        page.evaluate("id => localStorage.setItem('dos.player_id', id)", ME)
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#board-players")).to_have_value("3")
        expect(page.locator("#board-rows tr")).to_have_count(1)
        mine = page.locator("#board-rows tr[aria-current='true']")
        expect(mine).to_have_count(1)
        expect(mine).to_contain_text("Mona")
        expect(mine).to_contain_text(f"({text('en', 'game.you')})")
        expect(page.locator("#board-empty")).to_be_hidden()
        # On no board: the fullest board, never an empty one while others have players.
        expect(stranger.locator("#board-players")).to_have_value("4")
        expect(stranger.locator("#board-rows tr")).to_have_count(2)
        expect(stranger.locator("#board-rows tr[aria-current]")).to_have_count(0)
        # An address that names a board still opens that board, even an empty one.
        stranger.goto(f"{fresh.url}/leaderboard?rules=official&players=2")
        expect(stranger.locator("#board-empty")).to_be_visible()
        assert page.errors == [] and stranger.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
        other.close()


def test_an_invite_says_who_invites_and_a_started_game_offers_to_be_watched(
    browser: Browser, fresh: Server, output_dir: Path
) -> None:
    host_context, host = open_page(browser, fresh.url, DESKTOP)
    guest_context = None
    try:
        code = create_table(host, "Ada", seats=3, bots=1, level="easy")
        guest_context, guest = open_page(browser, f"{fresh.url}/t/{code}", DESKTOP)
        invite = guest.locator("#invite")
        expect(invite).to_be_visible()
        # Nothing empty on an invite: no "Listed tables" without a list.
        expect(guest.locator("#listed-tables")).to_be_hidden()
        expect(guest.locator("#invite-host")).to_have_text(
            text("en", "web.invite_from", host="Ada")
        )
        rules = text("en", "web.waiting_rules", rules=text("en", "web.rules_official"), seats=3)
        expect(guest.locator("#invite-rules")).to_have_text(rules)
        seats = guest.locator("#invite-seats li")
        expect(seats).to_have_count(3)
        expect(seats.nth(0).locator(".who")).to_have_text("Ada")
        expect(seats.nth(0)).to_contain_text(text("en", "web.host"))
        expect(seats.nth(1).locator(".who")).to_have_text(text("en", "web.open_seat"))
        expect(seats.nth(2).locator(".who")).to_have_text(text("en", "game.bot_name", number=3))
        expect(seats.nth(2).locator(".level")).to_have_text(text("en", "web.level_easy"))
        expect(guest.locator("#invite-started")).to_be_hidden()

        start(host)  # meanwhile, the host starts: the guest's Join comes too late
        guest.fill("#player-name", "Bea")
        guest.click("#join-button")
        expect(guest.locator("#invite-started")).to_have_text(text("en", "web.err_started"))
        expect(guest.locator("#error-banner")).not_to_have_text(text("en", "web.err_bad_state"))
        answer = guest.request.post(f"{fresh.url}/api/tables/{code}/join", data={"name": "Cy"})
        assert answer.status == 409 and answer.json()["code"] == "started"
        watch = guest.locator("#invite-watch")
        expect(watch).to_be_focused()
        guest.screenshot(path=str(output_dir / "invite-started.png"))
        watch.click()
        expect(guest.locator("#view-table")).to_be_visible()
        expect(guest.locator("#watching-note")).to_be_visible()
        assert guest.errors == []  # type: ignore[attr-defined]
    finally:
        host_context.close()
        if guest_context is not None:
            guest_context.close()


FITS_JS = """() => [...document.querySelectorAll('#opponents li')].flatMap((li) => {
  const box = li.getBoundingClientRect();
  return [...li.querySelectorAll('.who, .level')].filter((el) => {
    const r = el.getBoundingClientRect();
    return el.scrollWidth > el.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1;
  }).map((el) => el.textContent);
})"""
"""The names and levels of the seat boxes that are cut or stick out of their box."""

LEVELS = ["easy", "medium", "hard"]


def _bot_seats(page: Page, where: str, lang: str) -> None:
    """Each bot seat of ``where`` says "Bot N" and, apart, its level, in ``lang``."""
    for seat, level in enumerate(LEVELS, 1):
        li = page.locator(f"{where} li[data-seat='{seat}']")
        bot = text(lang, "game.bot_name", number=seat + 1)
        expect(li.locator(".who")).to_have_text(bot)
        expect(li.locator(".level")).to_have_text(text(lang, f"web.level_{level}"))


def test_a_bot_is_named_alike_everywhere_and_whole_on_a_phone(
    browser: Browser, fresh: Server, output_dir: Path
) -> None:
    context, page = open_page(browser, fresh.url, PHONE)
    try:
        set_language(page, "cy")
        create_table(page, "Ada", seats=4, bots=3, level=LEVELS)
        _bot_seats(page, "#seat-list", "cy")
        start(page)
        for lang in ("cy", "ja"):
            set_language(page, lang)
            _bot_seats(page, "#opponents", lang)
            bot, level = text(lang, "game.bot_name", number=3), text(lang, "web.level_medium")
            named = text(lang, "web.bot_named", bot=bot, level=level)
            label = page.locator("#opponents li[data-seat='2']")
            expect(label).to_have_attribute("aria-label", re.compile(re.escape(named)))
            assert page.evaluate(FITS_JS) == []
        page.screenshot(path=str(output_dir / "bot-levels-phone-ja.png"))
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


HAND = ["R5", "DOS", "B3", "Y#"]
CENTER = ["R7", "G4"]


def _patched(data: dict[str, Any]) -> dict[str, Any]:
    """The state as if it were this seat's turn with ``HAND`` before ``CENTER``, 33 points
    scored, compulsory bonus placements: a Wild DOS's colour then changes the outcome."""
    view = data["view"]
    seat = view["seat"]
    view.update(turn=seat, phase="start", drew=False, hand=HAND, center=CENTER, matched=[])
    view.update(dos_open=[], legal=["R5+DOS@0", "draw"])
    view["hand_sizes"][seat] = len(HAND)
    view["scores"] = [33 if s == seat else 12 for s in range(len(view["scores"]))]
    view["options"]["bonus_lay_mandatory"] = True
    return data


def test_the_hand_shows_its_points_and_the_wild_question_its_cards_and_target(
    browser: Browser, fresh: Server, output_dir: Path
) -> None:
    context, page = open_page(browser, fresh.url, DESKTOP)
    patched: list[bool] = []
    try:

        def route(socket: WebSocketRoute) -> None:
            upstream = socket.connect_to_server()

            def to_page(message: str | bytes) -> None:
                data = json.loads(message)
                if data.get("type") == "state" and data.get("view"):
                    patched.append(True)
                    socket.send(json.dumps(_patched(data)))
                elif not (patched and data.get("type") in ("update", "log", "timer")):
                    socket.send(message)  # after the patch the table stands still

            upstream.on_message(to_page)

        page.route_web_socket(re.compile(r"/ws/"), route)
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        start(page)
        expect(page.locator("body")).to_have_attribute("data-my-turn", "true")
        # The score is the game's score, named so; the hand's value is its cards' points.
        expect(page.locator("#my-score")).to_have_text(text("en", "web.your_score", score=33))
        from dos.i18n import plural

        points = sum(POINTS[parse_card(card)] for card in HAND)
        assert points == 68
        expect(page.locator("#hand-points")).to_have_text(
            plural("en", "web.hand_points", points, points=points)
        )
        page.click("#hand button[data-card='R5']")
        page.click("#hand button[data-card='DOS']")
        page.click("#center-0")
        dialog = page.locator("#dialog")
        expect(dialog).to_be_visible()
        move = dialog.locator(".designation-move")
        expect(move.locator(".played [data-card]")).to_have_count(2)
        assert move.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)") == [
            "R5",
            "DOS",
            "R7",
        ]
        said = text(
            "en",
            "web.designation_move",
            cards=cards_text("en", [parse_card(c) for c in ("R5", "DOS")]),
            target=card_name("en", parse_card("R7")),
        )
        expect(move).to_contain_text(said)
        page.screenshot(path=str(output_dir / "designation-dialog.png"))
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        set_language(page, "ja")
        expect(page.locator("#hand-points")).to_have_text(
            plural("ja", "web.hand_points", points, points=points)
        )
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


COUNTS = [0, 1, 2, 3, 6, 7, 11, 1_000_000]


def test_counted_words_take_each_languages_plural_forms(browser: Browser, fresh: Server) -> None:
    """The classic log's reaction test ("hit 2 target(s)") and the lobby's free seats, per
    CLDR plural category, the same as the catalog's Python side picks."""
    context, page = open_page(browser, fresh.url, DESKTOP)
    try:
        said: dict[str, Any] = page.evaluate(
            """async ([langs, counts]) => {
              const i18n = await import('/static/js/i18n.js');
              const classic = await import('/static/js/classic.js');
              const said = {};
              for (const lang of langs) {
                await i18n.setLang(lang);
                said[lang] = counts.map((n) => [
                  classic.describe(`1: react ${n} 1840ms`, 1, { pending: 0 }, ['Ada', 'Bo']),
                  i18n.tn('web.table_entry', n, { code: 'K7M2', host: 'Ada', free: n }),
                ]);
              }
              await i18n.setLang('en');
              return said;
            }""",
            [list(LANGS), COUNTS],
        )
        from dos.i18n import plural

        for lang in LANGS:
            expected = [
                [
                    plural(lang, "web.classic_log_react", n, player="Bo", hits=n, ms=1840),
                    plural(lang, "web.table_entry", n, code="K7M2", host="Ada", free=n),
                ]
                for n in COUNTS
            ]
            assert said[lang] == expected, lang
        assert said["en"][1][0] == "Bo hit 1 target in 1840 ms."
        assert said["en"][2][0] == "Bo hit 2 targets in 1840 ms."
        assert len({row[0] for row in said["cy"][:6]}) > 1  # Welsh: forms of its own
    finally:
        context.close()
