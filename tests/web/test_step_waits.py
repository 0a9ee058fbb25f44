"""The browser tests' wait for the answer to a step: a refusal that answers an *earlier*
action does not end it.

A clean CI run failed in the accessibility test's one-round game: a step clicked a card of a
hand that changed twice under it, then waited 30 s behind the game-over summary: the state it
had read, its own turn, was already gone. One way this happens, and the one the page allowed:
a refusal of an earlier action (a DOS call that lost its race to the bot's catch) arrives
after the next step has gone out, and ``wait_for_change`` took any banner for that step's
answer. The page now says which action it sent last and which one a refusal answers
(``data-sent``, ``data-refused``), and the wait ends only on an answer to the last.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, WebSocketRoute, expect

from .conftest import DESKTOP, Server
from .pages import CHANGED_JS, create_table, open_page, start, version, wait_for_change


def test_a_late_refusal_of_an_earlier_action_does_not_answer_the_latest(
    browser: Browser, server: Server
) -> None:
    context, page = open_page(browser, server.url, DESKTOP)
    draws: list[str] = []
    held: list[str | bytes] = []
    sockets: list[WebSocketRoute] = []
    try:

        def route(socket: WebSocketRoute) -> None:
            upstream = socket.connect_to_server()
            sockets.append(socket)

            def to_server(message: str | bytes) -> None:
                data = json.loads(message)
                if data.get("type") == "action" and data.get("action") == "draw":
                    draws.append(data["id"])
                upstream.send(message)

            def to_page(message: str | bytes) -> None:
                data = json.loads(message)
                if data.get("type") == "update" and draws and data.get("id") == draws[0]:
                    # The draw's answer waits; a refusal of an action before it comes first.
                    held.append(message)
                    stale = {"type": "error", "code": "stale", "message": "", "id": "a0"}
                    socket.send(json.dumps(stale))
                    return
                socket.send(message)

            socket.on_message(to_server)
            upstream.on_message(to_page)

        page.route_web_socket(re.compile(r"/ws"), route)
        create_table(page, "Rhys", seats=2, bots=1, level="easy")
        start(page)
        body = page.locator("body")
        expect(body).to_have_attribute("data-my-turn", "true", timeout=20_000)
        expect(body).to_have_attribute("data-phase", "start")
        page.click("#btn-draw")
        expect(page.locator("#error-banner")).to_be_visible()
        # The draw is still unanswered: the refusal on show is of another action. (The state
        # on show may have moved on by another seat's action meanwhile, in order before the
        # draw's answer and the refusal: a bot's DOS call, a moment after its move.)
        shown = version(page)
        assert len(held) == 1 and body.get_attribute("data-phase") == "start"
        assert page.evaluate(CHANGED_JS, shown) is False
        sockets[-1].send(held.pop())  # the draw's answer arrives
        wait_for_change(page, shown)
        assert version(page) != shown
        assert body.get_attribute("data-phase") != "start"
    finally:
        context.close()
