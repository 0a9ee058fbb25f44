"""Table chat: through the server's WebSocket, the author from the connection;
texts shown as text (never HTML), quick reactions in the reader's language, a length cap and
a rate limit; a player can mute another; spectators read, and write once the host allows.

The chat is kept with the table, bounded (``dos.server.tables.chat.HISTORY_MAX``):
a reload, a player or spectator who comes later, and a server restart get the lines said
before; the waiting room has the chat, the round summary leaves it in reach, and long words
and links wrap inside the list."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, expect

from dos.i18n import text
from dos.server.tables.chat import TEXT_MAX

from .conftest import DESKTOP, PHONE, Server
from .pages import (
    create_table,
    join_by_link,
    open_and_join,
    open_page,
    play_away,
    set_language,
    start,
)


def last_line(page: Page) -> Locator:
    """The words of the chat's last line, with its author (not its mute button)."""
    return page.locator("#chat-log li").last.locator(".who, .words")


HOSTILE = '<img src=x onerror="window.hacked=1"><b>bold</b>'


LONG_WORD = "W" * TEXT_MAX
"""The longest word a text may be: one that does not fit on any line."""
LINK = "https://example.com/" + "a" * (TEXT_MAX - len("https://example.com/"))
"""A link as long as a text may be: shown as text, never as a link."""

FITS_JS = """() => { const list = document.getElementById('chat-log');
  return [list.scrollWidth, list.clientWidth]; }"""

SEND_ON_TOP_JS = """() => { const send = document.getElementById('chat-send');
  const box = send.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return hit === send || send.contains(hit); }"""


def say(page: Page, words: str) -> None:
    """Sends a chat text through the page's form, and waits until it is back from the server."""
    page.fill("#chat-input", words)
    page.click("#chat-send")
    expect(page.locator("#chat-log li .words").last).to_have_text(words)


def chat_words(page: Page) -> Locator:
    return page.locator("#chat-log li .words")


def assert_the_chat_fits(page: Page) -> None:
    """No line makes the chat list wider than it is: long words and links wrap."""
    scroll_width, client_width = page.evaluate(FITS_JS)
    assert scroll_width <= client_width, f"the chat list scrolls sideways: {scroll_width} px"
    assert page.locator("#chat-log a").count() == 0  # a link is shown as text


def test_chat_between_players_and_a_spectator(browser: Browser, server: Server) -> None:
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context = None
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy")
        bo_context, bo = open_and_join(browser, server.url, code, "Bo", DESKTOP)
        start(ada, bo)
        set_language(bo, "fr")
        # Markup is shown as the text it is.
        ada.fill("#chat-input", HOSTILE)
        ada.click("#chat-send")
        expect(last_line(bo)).to_have_text(["Ada:", HOSTILE])
        assert bo.locator("#chat-log img, #chat-log b").count() == 0
        assert bo.evaluate("() => window.hacked") is None
        # A quick reaction, said in the reader's language.
        bo.locator("#chat-reactions button[data-reaction='gg']").click()
        expect(last_line(ada)).to_have_text(["Bo:", text("en", "web.reaction_gg")])
        expect(last_line(bo)).to_have_text(["Bo:", text("fr", "web.reaction_gg")])
        # The input holds 200 characters at most.
        ada.fill("#chat-input", "x" * 250)
        assert len(ada.input_value("#chat-input")) == 200
        ada.fill("#chat-input", "")
        # Bo mutes Ada: her lines go, and her next ones do not show.
        bo.locator("#chat-log li .mute[data-seat='0']").first.click()
        expect(bo.locator("#chat-log li")).to_have_count(1)
        ada.locator("#chat-reactions button[data-reaction='wow']").click()
        expect(last_line(ada)).to_have_text(["Ada:", text("en", "web.reaction_wow")])
        bo.locator("#chat-reactions button[data-reaction='nice']").click()
        expect(bo.locator("#chat-log li")).to_have_count(2)
        expect(bo.locator("#chat-log")).not_to_contain_text("Ada")
        # The longest word and link wrap inside the list, and a link is only text.
        for words in (LONG_WORD, LINK):
            say(bo, words)
        for page in (ada, bo):
            expect(page.locator("#chat-log li .words").last).to_have_text(LINK)
            assert_the_chat_fits(page)
        # A spectator reads, and writes only once the host allows it.
        watcher_context, watcher = open_page(browser, f"{server.url}/t/{code}", DESKTOP)
        watcher.click("#watch-button")
        expect(watcher.locator("#view-table")).to_be_visible()
        expect(watcher.locator("#chat-input")).to_be_disabled()
        expect(watcher.locator("#chat-read-only")).to_be_visible()
        expect(bo.locator("#chat-host")).to_be_hidden()
        ada.check("#chat-spectators")
        expect(watcher.locator("#chat-input")).to_be_enabled()
        watcher.fill("#chat-input", "hello from the rail")
        watcher.click("#chat-send")
        expect(last_line(ada)).to_have_text(["Spectator:", "hello from the rail"])
        watcher_context.close()
        # Flooding: past the burst, the server refuses, and the page says so in its words.
        for number in range(6):
            ada.fill("#chat-input", f"spam {number}")
            ada.click("#chat-send")
        expect(ada.locator("#error-banner")).to_have_text(text("en", "web.err_chat_rate_limited"))
        expect(bo.locator("#chat-log")).not_to_contain_text("spam 5")
    finally:
        ada_context.close()
        if bo_context is not None:
            bo_context.close()


def test_the_waiting_room_chat_reaches_late_comers_and_a_reload(
    browser: Browser, server: Server
) -> None:
    """Said in the waiting room before anyone came: a player who joins later, a spectator and
    a reloaded page read it all, once; it stays with the table when the game starts."""
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    contexts = [ada_context]
    try:
        code = create_table(ada, "Ada", seats=3, bots=1, level="easy")
        expect(ada.locator("#view-waiting #chat-form")).to_be_visible()
        said = ["hello, anyone?", LONG_WORD, LINK]
        for words in said:
            say(ada, words)
        assert_the_chat_fits(ada)
        bo_context, bo = open_and_join(browser, server.url, code, "Bo", PHONE)
        contexts.append(bo_context)
        expect(chat_words(bo)).to_have_text(said)
        assert_the_chat_fits(bo)
        say(bo, "hi Ada")
        said.append("hi Ada")
        expect(chat_words(ada)).to_have_text(said)
        ada.reload()
        expect(ada.locator("#view-waiting")).to_be_visible()
        expect(chat_words(ada)).to_have_text(said)
        watcher_context, watcher = open_page(browser, f"{server.url}/t/{code}", DESKTOP)
        contexts.append(watcher_context)
        watcher.click("#watch-button")
        expect(watcher.locator("#view-waiting")).to_be_visible()
        expect(chat_words(watcher)).to_have_text(said)
        expect(watcher.locator("#chat-input")).to_be_disabled()
        start(ada, bo)
        expect(watcher.locator("#view-table")).to_be_visible()
        for page in (ada, bo, watcher):
            expect(page.locator("#view-table #chat-log")).to_be_visible()
            expect(chat_words(page)).to_have_text(said)
        bo.reload()
        expect(bo.locator("#view-table")).to_be_visible()
        expect(chat_words(bo)).to_have_text(said)
        assert_the_chat_fits(bo)
        for page in (ada, bo, watcher):
            assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        for context in contexts:
            context.close()


def test_the_chat_is_reachable_during_the_round_pause(browser: Browser, server: Server) -> None:
    """The round summary leaves the chat in reach, on a phone and on a desktop (the same page,
    resized): its Send button is on top where it is, and lines and reactions go out."""
    context, page = open_page(browser, server.url, PHONE)
    try:
        code = create_table(page, "Ada", seats=2, bots=1, level="easy")
        say(page, LONG_WORD)
        play_away(page, server.url, code, until="round")  # the round, over the API
        expect(page.locator("#dialog")).to_have_attribute("data-kind", "round")
        expect(page.locator("body")).to_have_attribute("data-paused", "true")
        said = [LONG_WORD]
        for viewport, words in ((PHONE, "gg from a phone"), (DESKTOP, "gg from a desktop")):
            page.set_viewport_size(viewport)
            send = page.locator("#chat-send")
            send.scroll_into_view_if_needed()
            assert page.evaluate(SEND_ON_TOP_JS), f"the round summary covers Send ({viewport})"
            page.fill("#chat-input", words)
            send.click()
            said.append(words)
            expect(chat_words(page)).to_have_text(said)
            assert_the_chat_fits(page)
        page.locator("#chat-reactions button[data-reaction='gg']").click()
        said.append(text("en", "web.reaction_gg"))
        expect(chat_words(page)).to_have_text(said)
        expect(page.locator("body")).to_have_attribute("data-paused", "true")  # still reading
        page.click("#round-continue")
        expect(page.locator("#dialog")).to_be_hidden()
        expect(page.locator("#view-table #chat-log")).to_be_visible()
        expect(chat_words(page)).to_have_text(said)
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_the_chat_survives_a_server_restart(browser: Browser, server: Server) -> None:
    """A table loaded after a restart has its chat back: the page that reconnects shows each
    line once, and so does a page opened afresh."""
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, "Ada", seats=2, bots=1, level="easy")
        start(page)
        said = ["before the restart", "still here?"]
        for words in said:
            say(page, words)
        server.stop()  # the shared server: it starts again below, with every table
        expect(page.locator("body")).to_have_attribute("data-connection", "reconnecting")
        server.start()
        expect(page.locator("body")).to_have_attribute("data-connection", "open", timeout=20_000)
        say(page, "yes")  # it comes after the history the reconnect brought
        expect(chat_words(page)).to_have_text([*said, "yes"])  # each line once
        page.reload()
        expect(page.locator("#view-table")).to_be_visible()
        expect(chat_words(page)).to_have_text([*said, "yes"])
    finally:
        context.close()


def test_a_line_stays_its_authors_when_the_seat_changes_hands(
    browser: Browser, server: Server
) -> None:
    """Bo speaks in the waiting room and leaves; Cy takes Bo's seat: Bo's line still reads as
    Bo's, on the host's page and on Cy's."""
    ada_context, ada = open_page(browser, server.url, DESKTOP)
    bo_context = None
    try:
        code = create_table(ada, "Ada", seats=2, bots=0)
        bo_context, bo = open_and_join(browser, server.url, code, "Bo", PHONE)
        say(bo, "bye for now")
        bo.click("#leave-button")
        expect(bo.locator("#view-lobby")).to_be_visible()
        expect(ada.locator("#seat-list li[data-seat='1']")).not_to_contain_text("Bo")
        join_by_link(bo, server.url, code, "Cy")
        expect(ada.locator("#seat-list li[data-seat='1']")).to_contain_text("Cy")
        for page in (ada, bo):
            line = page.locator("#chat-log li").filter(has_text="bye for now")
            expect(line.locator(".who")).to_have_text("Bo: ")
        assert ada.errors == [] and bo.errors == []  # type: ignore[attr-defined]
    finally:
        ada_context.close()
        if bo_context is not None:
            bo_context.close()
