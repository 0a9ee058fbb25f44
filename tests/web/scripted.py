"""A table whose server side the test plays: exact moments, made of the real game's messages.

Some of what the page must get right depends on when messages arrive: a bot's DOS! call that
comes a few milliseconds after its move, a refusal that lands while a bot is about to move, a
reaction test answered while the last move is still on show. With a real server and bots those
moments come when the cards allow, and late. Here the page's WebSocket is routed to the test
(Playwright ``route_web_socket``, never reaching a server), which sends what the game server
would send, when the test says so: every frame is made by the server's own code
(``dos.server.tables.views``: ``Views``, ``head``) from a state of the real engine, so the page
reads exactly the messages of a real table. Everything else (the page, its HTTP requests) comes from
the real server of the tests.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from dos import ruleset
from dos.server.protocol.server_messages import server_message
from dos.server.tables.views import Views, head

CODE = "SCRIPT"
NAMES = ("Ada", None)
"""Seat 0, the page's, is a person; seat 1 a bot."""
BOT = "Bot 2 (hard)"
"""Seat 1 as the page names it (English)."""

# Every frame the page receives, as it receives it: the message's type, version, legal
# actions, phase and reaction, and when (performance.now()). The listener is the first on the
# socket (added as it is made), so it runs before the page's own.
FRAMES_JS = """() => {
  window.frames_in = [];
  window.afterFrame = [];  // checks to run once the page has handled a frame
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const m = JSON.parse(event.data);
        const frame = {type: m.type, version: m.version, id: m.id ?? null,
          legal: m.view ? (m.view.legal || []) : null, phase: m.view ? m.view.phase : null,
          reaction: m.view ? m.view.reaction ?? null : null, at: performance.now()};
        window.frames_in.push(frame);
        setTimeout(() => { for (const check of window.afterFrame) check(frame); }, 0);
      });
    }
  };
}"""


class ScriptedTable:
    """The server side of one page's table, played by the test with frames of a real game.

    ``rules``: the rule set's name; the game is a 2-seat game of it, the page's seat 0 and a
    ``hard`` bot at seat 1. ``state`` is the engine's state, ``version`` the number of actions
    applied (as the server counts them); ``step`` applies an action and returns the ``update``
    the page would get for it."""

    def __init__(self, rules: str, options: dict[str, Any] | None = None, seed: int = 0) -> None:
        self.rules = ruleset.get(rules)
        self.state = self.rules.new_game({"players": 2, **(options or {})}, seed)
        self.version = 0
        self.socket: WebSocketRoute | None = None
        self.from_page: list[dict[str, Any]] = []
        self.on_action: Callable[[dict[str, Any]], None] | None = None
        """Called (on Playwright's thread) with each action the page sends."""

    # --- the game ---------------------------------------------------------------------------

    def legal(self, seat: int) -> list[Any]:
        actions: list[Any] = self.rules.legal_actions(self.state, seat)
        return actions

    def step(self, text: str | Any, seat: int, id: str | None = None, by_bot: bool = True) -> str:
        """Applies ``text`` (notation or an action) for ``seat``; the ``update`` frame of it
        for the page's seat (with ``id``: the answer to the page's own action)."""
        action = self.rules.parse_action(text) if isinstance(text, str) else text
        action = self.rules.by_seat(self.state, action, seat)
        self.rules.apply(self.state, action)
        self.version += 1
        result = self.rules.result(self.state) if self.rules.is_over(self.state) else None
        fields = {"version": self.version, "action": str(action), "seat": seat}
        prefix = head("update", id=id, **fields, result=result, by_bot=by_bot)
        return Views(self.rules, self.state).with_head(prefix, 0)

    @classmethod
    def at(
        cls,
        rules: str,
        found: Callable[[ScriptedTable], bool],
        options: dict[str, Any] | None = None,
    ) -> ScriptedTable:
        """A game played at random (no calls, no catches) up to the first moment ``found``
        says is the one; the same game every time (fixed seeds)."""
        for seed in range(100):
            table = cls(rules, options, seed)
            rng = random.Random(seed)
            while not table.rules.is_over(table.state) and table.version < 1000:
                if found(table):
                    return table
                turn = table.rules.turn(table.state)
                moves = [a for a in table.legal(turn) if not re.search(r"dos$|catch", str(a))]
                if not moves:
                    break
                table.step(rng.choice(moves), turn)
        raise AssertionError("no such moment in 100 games")

    def table_info(self) -> dict[str, Any]:
        return {
            "code": CODE,
            "rules": self.rules.name,
            "options": self.rules.options_json(self.state),
            "public": False,
            "rated": False,
            "status": "playing",
            "host": 0,
            "turn_seconds": None,
            "game": 1,
            "game_id": 1,
            "seats": [
                {
                    "seat": s,
                    "name": n,
                    "bot": None if n else "hard",
                    "connected": True,
                    "away": False,
                }
                for s, n in enumerate(NAMES)
            ],
            "spectators": 0,
        }

    def state_frame(self) -> str:
        return Views(self.rules, self.state, history=True).message(
            "state", 0, version=self.version, table=self.table_info(), result=None, timer=None
        )

    # --- the page ---------------------------------------------------------------------------

    def open(self, page: Page, wait: bool = True) -> None:
        """Seats ``page`` at this table (seat 0) and shows it the game as it stands now
        (``wait``: until the page shows it)."""
        page.route_web_socket(re.compile(r"/ws/"), self._route)
        page.add_init_script(f"({FRAMES_JS})()")  # after the route's: it wraps the routed one
        page.evaluate(
            "code => localStorage.setItem(`dos.seat.${code}`, "
            "JSON.stringify({seat: 0, token: 'scripted'}))",
            CODE,
        )
        page.goto(page.url.rstrip("/") + f"/t/{CODE}")
        if wait:
            expect(page.locator("#view-table")).to_be_visible()
            expect(page.locator("body")).to_have_attribute("data-version", str(self.version))

    def _route(self, socket: WebSocketRoute) -> None:
        self.socket = socket
        socket.on_message(self._received)

    def _received(self, text: str | bytes) -> None:
        message = json.loads(text)
        self.from_page.append(message)
        if message.get("type") == "hello":
            self.send(server_message("welcome", protocol=1, seat=0, player_id="p_scripted"))
            self.send(self.state_frame())
        elif message.get("type") == "action" and self.on_action is not None:
            self.on_action(message)

    def send(self, *frames: str | dict[str, Any]) -> None:
        """Sends frames to the page, in order, at once."""
        assert self.socket is not None, "the page has not connected"
        for frame in frames:
            self.socket.send(frame if isinstance(frame, str) else json.dumps(frame))

    def actions(self) -> list[dict[str, Any]]:
        return [m for m in self.from_page if m.get("type") == "action"]

    def wait_for_action(self, page: Page, timeout: float = 10.0) -> dict[str, Any]:
        """The first action the page sends (it reaches this side through Playwright, whose
        messages are handled while the test waits on the page)."""
        deadline = time.monotonic() + timeout
        while not self.actions():
            assert time.monotonic() < deadline, "the page sent no action"
            page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
        return self.actions()[0]


def refusal(code: str, id: str | None = None) -> dict[str, Any]:
    """An ``error`` frame as the server sends it (its English is never shown)."""
    return {"type": "error", "code": code, "message": "in English, for logs", "id": id}
