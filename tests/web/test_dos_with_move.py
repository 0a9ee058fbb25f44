"""A person can win the DOS race against `expert`.

The expert bot catches as soon as an obligation opens (here in tens of milliseconds), so a
person who presses DOS! once the hand shows two cards is too late. The toggle "DOS! with this
move" (key W) sends the call with the move that leaves two cards (``"dos": true``), applied
with it on the server: the person is never caught.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from dos.i18n import text

from .conftest import DESKTOP, Server
from .pages import (
    MAX_STEPS,
    NEWER_JS,
    WAIT_MS,
    create_table,
    open_page,
    seen_by,
    start,
    take_step,
    version,
)

# Plays a move that leaves two cards in hand through the page's controls: one card (hand of
# 3) or two (hand of 4) that light a Center Row card, or laying one card from a hand of 3.
LEAVE_TWO_JS = """() => {
  if (document.getElementById('dialog').open) return null;
  const cards = () => [...document.querySelectorAll('#hand button.card')];
  const target = () => document.querySelector('#center-row button.card.target');
  const pressed = () => document.querySelector('#hand button.card[aria-pressed=true]');
  const answer = () => {
    const dialog = document.getElementById('dialog');
    if (dialog.open && !dialog.dataset.kind) dialog.querySelector('#dialog-buttons button').click();
  };
  while (pressed()) pressed().click();
  const n = cards().length;
  if (n === 3) {
    for (let i = 0; i < n; i++) {
      cards()[i].click();
      if (target()) { target().click(); answer(); return 'single'; }
      const lay = document.getElementById('btn-lay');
      if (!lay.hidden && !lay.disabled && cards()[i].classList.contains('layable')) {
        lay.click(); return 'lay';
      }
      cards()[i].click();
    }
  } else if (n === 4) {
    for (let i = 0; i < n; i++) {
      cards()[i].click();
      for (let j = i + 1; j < n; j++) {
        cards()[j].click();
        if (target()) { target().click(); answer(); return 'double'; }
        cards()[j].click();
      }
      cards()[i].click();
    }
  }
  return null;
}"""

ME, BOT = "Ada", "Bot 2 (expert)"

TWO_CALLS_SOON = 55
"""A deal on which, at two seats against an ``expert`` bot, Ada's moves under this test's play
leave her two cards twice in the first round, after ``ACTIONS`` of her actions, and she never
owes DOS! but with a move: the game is a function of the seed and the moves."""
ACTIONS = 5


def later_log(page: Page, seen: int) -> list[str]:
    return page.locator("#log li").all_inner_texts()[seen:]


def test_dos_with_the_move_beats_an_expert_bot(browser: Browser, server: Server) -> None:
    """Twice a move that leaves two cards, with the toggle armed: the call goes with it, so no
    DOS! is owed after it, and by the expert's next action it has caught nobody."""
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        create_table(page, ME, seats=2, bots=1, level="expert", seed=TWO_CALLS_SOON)
        start(page)
        toggle = page.locator("#btn-dos-move")
        called = text("en", "game.log_call", player=ME)
        caught = text("en", "game.log_catch", player=BOT, caught=ME)
        wins = actions = 0
        for _ in range(MAX_STEPS):
            state = seen_by([page])[0]
            assert state["dialog"] is None, "the round ended before two moves left two cards"
            assert not state["dos"], "DOS! owed without a move to call it with"
            if not state["turn"]:  # the bot's next action
                page.wait_for_function(NEWER_JS, arg=state["version"], timeout=WAIT_MS)
                continue
            actions += 1
            if toggle.is_visible():
                expect(toggle).to_have_attribute("aria-pressed", "false")
                expect(toggle).to_have_attribute("aria-keyshortcuts", "W")
                page.keyboard.press("w")
                expect(toggle).to_have_attribute("aria-pressed", "true")
                seen = len(page.locator("#log li").all_inner_texts())
                before = int(version(page))
                if page.evaluate(LEAVE_TWO_JS) is None:  # no such move with these controls
                    page.keyboard.press("w")
                    expect(toggle).to_have_attribute("aria-pressed", "false")
                    take_step(page)
                    continue
                # The move and its call: two updates, applied together on the server.
                page.wait_for_function(
                    "v => Number(document.body.dataset.version) >= v + 2",
                    arg=before,
                    timeout=WAIT_MS,
                )
                assert page.evaluate("() => document.body.dataset.lastSentDos") == "true"
                expect(page.locator("#btn-dos:enabled")).to_have_count(0)  # nothing owed
                log = later_log(page, seen)
                assert called in log[1:3], log
                wins += 1
                if wins == 2:
                    # The expert's next action, which may end the round (then its summary
                    # shows): by then it has caught nobody.
                    page.wait_for_function(NEWER_JS, arg=str(before + 2), timeout=WAIT_MS)
                    break
                continue
            take_step(page)
        else:
            raise AssertionError(f"no two calls with the move in {MAX_STEPS} looks")
        log = page.locator("#log li").all_inner_texts()
        assert caught not in log, log
        assert (wins, actions) == (2, ACTIONS), f"TWO_CALLS_SOON plays otherwise: {actions}"
    finally:
        context.close()


def test_the_toggle_is_in_the_keyboard_help_in_every_language(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.keyboard.press("?")
        expect(page.locator("#view-rules")).to_be_visible()  # drawn, then shown
        help_text = page.locator("#rules-body").inner_text()
        assert text("en", "web.key_dos_with_move") in help_text
        english = text("en", "web.dos_with_move")
        for lang in ("cy", "de", "fr", "it", "ja", "nl"):  # a real translation in each
            assert text(lang, "web.dos_with_move") != english
            assert text(lang, "web.key_dos_with_move") != text("en", "web.key_dos_with_move")
    finally:
        context.close()
