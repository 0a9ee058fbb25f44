"""Classic rules: the reaction test shows at once, with its whole time.

The server's clock over a reaction test starts when it sends the state that starts the test
(docs/protocol.md, the classic rule set). A message that answers the player's own action, or
starts their reaction test, is shown at once (with whatever waited before it), not when the
page's animation queue reaches it: a player who plays their card while the bot's last move is
still on show (the reading pace, 600 ms) gets the targets then, with all their time. The
countdown runs from the moment the page received the test, so it says the time the server
gives.

The table is scripted (``scripted.py``): the frames of a real game, at the exact moments.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Route, expect

from dos.rules.classic import Phase

from .conftest import DESKTOP, Server
from .pages import open_page
from .scripted import ScriptedTable

LIMIT_MS = 3000  # the classic default

# Once the page has handled the frame that starts this seat's reaction test: whether the test
# is on show, and what its countdown says.
REACTION_WATCH_JS = """() => {
  window.reaction = null;
  window.afterFrame.push((frame) => {
    if (frame.phase === 'reaction' && frame.reaction && frame.reaction.seat === 0
        && window.reaction === null) {
      const countdown = document.getElementById('reaction-countdown');
      window.reaction = {shown: !!document.getElementById('reaction-area'),
        countdown: countdown ? countdown.textContent : null};
    }
  });
}"""

# A quick player: plays `card` the moment the state of version `v` (the bot's move) shows.
PLAY_AT_ONCE_JS = """([v, card]) => {
  new MutationObserver((changes, observer) => {
    if (document.body.dataset.version !== String(v)) return;
    observer.disconnect();
    document.querySelector(`#hand button.card[data-card="${card}"]`).click();
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
}"""


def moment(table: ScriptedTable) -> tuple[Any, str] | None:
    """The bot's card play now, after which the page's seat plays a plain card (no wish to
    ask) that leaves it two cards: the reaction test. None if this is not such a moment."""
    rules, state = table.rules, table.state
    if rules.turn(state) != 1 or state.phase != Phase.PLAY or len(state.hands[1]) < 4:
        return None
    for bot_move in rules.legal_actions(state, 1):
        if str(bot_move) == "draw":
            continue
        after = rules.copy(state)
        rules.apply(after, bot_move)
        if rules.turn(after) != 0 or after.phase != Phase.PLAY or len(after.hands[0]) != 3:
            continue
        for mine in rules.legal_actions(after, 0):
            if str(mine) == "draw" or "=" in str(mine):
                continue
            played = rules.copy(after)
            rules.apply(played, mine)
            if played.phase == Phase.REACTION and rules.turn(played) == 0:
                return bot_move, str(mine)
    return None


def test_the_reaction_test_shows_at_once_with_its_whole_time(
    browser: Browser, server: Server
) -> None:
    table = ScriptedTable.at(
        "classic", lambda t: moment(t) is not None, {"reaction_time_ms": LIMIT_MS}
    )
    found = moment(table)
    assert found is not None
    bot_move, mine = found
    context, page = open_page(browser, server.url, DESKTOP, motion=True)
    try:
        table.open(page)
        page.evaluate(REACTION_WATCH_JS)
        page.evaluate(PLAY_AT_ONCE_JS, [table.version + 1, mine])
        answered: list[str] = []

        def answer(action: dict[str, Any]) -> None:  # the server's answer to the page's play
            if not answered:
                answered.append(action["action"])
                table.send(table.step(action["action"], 0, id=action["id"], by_bot=False))

        table.on_action = answer
        table.send(table.step(bot_move, 1))
        expect(page.locator("#reaction-area .reaction-target").first).to_be_visible()
        assert answered == [mine]
        seen = page.evaluate("() => window.reaction")
        frames = page.evaluate("() => window.frames_in.map((f) => [f.type, f.version, f.phase])")
        assert seen is not None and seen["shown"], (seen, frames)
        seconds = float(re.findall(r"\d+(?:[.,]\d+)?", seen["countdown"])[0].replace(",", "."))
        assert seconds >= LIMIT_MS / 1000 - 0.3, seen
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()


def test_the_page_says_it_shows_a_state_only_once_its_hand_is_drawn(
    browser: Browser, server: Server
) -> None:
    """The test above once failed in CI: classic.js (loaded at the first classic table) came
    late, and the page had already put the state's version on <body> with no hand drawn, so
    a player (here, the test) acting on that version found no card to play. The version on
    <body> says what the page shows: none, and no table, until the classic view has drawn
    it."""
    table = ScriptedTable.at("classic", lambda t: t.rules.turn(t.state) == 0)
    context, page = open_page(browser, server.url, DESKTOP)
    held: list[Route] = []

    def hold(route: Route) -> None:  # a plain function: Playwright wraps the handler
        held.append(route)

    try:
        page.route(re.compile(r"/js/classic\.js"), hold)
        table.open(page, wait=False)
        page.wait_for_function("() => window.frames_in.some((f) => f.type === 'state')")
        while not held:
            page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
        assert page.evaluate("() => document.body.dataset.version") is None
        expect(page.locator("#view-table")).to_be_hidden()
        held[0].continue_()
        expect(page.locator("#view-table")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-version", str(table.version))
        hand = len(table.state.hands[0])
        assert page.locator("#hand button.card").count() == hand
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
