"""A first visit offers the tutorial, and a newcomer's first table is not lost before
they play.

- A visitor who has never played sees one offer of the tutorial in the lobby (a panel with a
  link to /learn, not a modal); dismissing or following it is remembered, and a browser that
  has played never sees it.
- Every bot level menu (Play now, and each bot of the create form) starts at easy for someone
  who has not finished a game, says the chosen level's strength in words next to it, and
  keeps a returning player's last choice; once a game is finished, the default is medium.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, PHONE, Server
from .pages import create_table, open_page, play_away, set_language

OFFER = "#tutorial-offer"


def words(lang: str, level: str, rules: str = "official") -> str:
    key = f"guide.level_words_{'classic_' if rules == 'classic' else ''}{level}"
    return text(
        lang, "guide.level_said", level=text(lang, f"web.level_{level}"), words=text(lang, key)
    )


def described_by(page: Page, select: str) -> str:
    """The text of what describes a menu (its aria-describedby), as a screen reader says it."""
    return str(
        page.evaluate(
            """(selector) => {
              const id = document.querySelector(selector).getAttribute('aria-describedby');
              return id ? document.getElementById(id).textContent : '';
            }""",
            select,
        )
    )


def test_the_tutorial_is_offered_once_and_a_dismissal_is_remembered(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, PHONE)
    try:
        offer = page.locator(OFFER)
        expect(offer).to_have_count(1)
        expect(offer).to_be_visible()
        expect(offer.locator("h3")).to_have_text(text("en", "guide.offer_title"))
        expect(offer.locator("a")).to_have_attribute("href", "/learn")
        expect(offer.locator("a")).to_have_text(text("en", "guide.offer_start"))
        assert page.evaluate("() => !document.getElementById('dialog').open")  # not a modal
        set_language(page, "de")  # drawn again in the new language, still one offer
        expect(offer).to_have_count(1)
        expect(offer.locator("button")).to_have_text(text("de", "guide.offer_dismiss"))
        page.click("#tutorial-offer-dismiss")
        expect(offer).to_have_count(0)
        expect(page.locator("#lobby-title")).to_be_focused()
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#view-lobby")).to_be_visible()
        expect(offer).to_have_count(0)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_a_followed_offer_is_not_made_again_nor_to_who_has_played(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        expect(page.locator(OFFER)).to_be_visible()
        page.click("#tutorial-offer-start")
        page.wait_for_url("**/learn")
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#view-lobby")).to_be_visible()
        expect(page.locator(OFFER)).to_have_count(0)
    finally:
        context.close()
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        expect(page.locator(OFFER)).to_be_visible()
        create_table(page, "Ada", seats=2, bots=1)  # seated at a first table: no longer new
        expect(page.locator(OFFER)).to_have_count(0)
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator(OFFER)).to_have_count(0)
    finally:
        context.close()


def test_a_newcomers_bots_start_easy_with_their_strength_in_words(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        expect(page.locator("#play-now-level")).to_have_value("easy")
        expect(page.locator("#play-now-level-words")).to_have_text(words("en", "easy"))
        assert described_by(page, "#play-now-level") == words("en", "easy")
        page.fill("#create-seats", "3")
        page.fill("#create-bots", "2")
        for number in (1, 2):
            expect(page.locator(f"#create-level-{number}")).to_have_value("easy")
            expect(page.locator(f"#create-level-words-{number}")).to_have_text(words("en", "easy"))
        page.select_option("#create-level-2", "expert")
        expect(page.locator("#create-level-words-2")).to_have_text(words("en", "expert"))
        assert described_by(page, "#create-level-2") == words("en", "expert")
        page.select_option("#play-now-level", "hard")
        expect(page.locator("#play-now-level-words")).to_have_text(words("en", "hard"))
        set_language(page, "nl")
        expect(page.locator("#play-now-level-words")).to_have_text(words("nl", "hard"))
        expect(page.locator("#create-level-words-2")).to_have_text(words("nl", "expert"))
        page.select_option("#create-rules", "classic")  # the classic levels' own strengths
        expect(page.locator("#create-level-words-2")).to_have_text(words("nl", "expert", "classic"))
        # A returning player keeps their last choice in both places.
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#play-now-level")).to_have_value("hard")
        page.fill("#create-bots", "1")
        expect(page.locator("#create-level-1")).to_have_value("expert")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_after_a_finished_game_the_default_level_is_medium(
    browser: Browser, server: Server
) -> None:
    """The page remembers a finished game itself: a game of one round against an easy bot."""
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.fill("#create-target", "1")
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        play_away(page, server.url, code)  # played over the API; the page sees its end
        expect(page.locator("#dialog")).to_have_attribute("data-kind", "over")
        page.goto(server.url)
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#play-now-level")).to_have_value("medium")
        expect(page.locator("#play-now-level-words")).to_have_text(words("en", "medium"))
        page.fill("#create-bots", "1")
        # The create form's menu keeps the level last chosen in it (easy, for this game).
        expect(page.locator("#create-level-1")).to_have_value("easy")
        page.evaluate("() => localStorage.removeItem('dos.lobby.level')")
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.fill("#create-bots", "1")
        expect(page.locator("#create-level-1")).to_have_value("medium")
        expect(page.locator(OFFER)).to_have_count(0)
    finally:
        context.close()
