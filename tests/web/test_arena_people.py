"""An arena of 8 players run to its standings across a server restart, with 2 people in
Chromium and 6 agents through the agent API.

The people join on the tournament's page, land at their seats as they are paired (the page's
"Go to your table"), and play every move through the table page's controls (``play_round``:
the first match or lay, "DOS! with this move" armed whenever offered, so nothing can be
caught); the agents play the first legal action of their turns, with the call. Every table
deals from a known seed, and a game is one round (``target_score`` 1): the arena is a function
of the seed and the moves. The server (``inprocess``: `dos serve`'s, in this process) keeps
its time on a ``ManualClock``: the test opens and closes the arena's window by moving it. In
the middle of the first game the server is stopped and started again on the same data and
port; the people's pages come back by themselves, at their seats, and play on. The standings
both pages show at the end are those the stored games' records give.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from dos.i18n import text
from dos.server.clock import ManualClock
from dos.tournaments.scoring import ARENA
from web.conftest import DESKTOP, free_port
from web.inprocess import InProcessServer
from web.pages import WAIT_MS, body, open_page, play_round

pytestmark = pytest.mark.usefixtures("chromium")

SEED = 2026
"""Every table's deal (the server deals from this known seed)."""
SEATS = 4
OPENS_IN = 60.0
"""Seconds from the arena's creation to its window's opening: everyone enters first."""
ARENA_SECONDS = 30.0
"""The window: shorter than a turn timer, so moving the clock past it times no turn out."""
RESTART_AFTER = 3
"""The people's moves in the first game before the server is restarted."""
PEOPLE = ("Ada", "Bea")
AGENTS = tuple(f"Bot{n}" for n in range(1, 7))

STANDINGS_JS = """() => [...document.querySelectorAll('#tour-standings tr')].map(row => ({
  cells: [...row.cells].map(cell => cell.textContent), you: row.classList.contains('you')}))"""


@dataclass
class Agent:
    """An entrant playing through the agent API: its player token, its seat's grant."""

    name: str
    token: str
    grant: dict[str, Any] = field(default_factory=dict)


class Site:
    """The running server, through HTTP: restarted on the same data folder and port."""

    def __init__(self, data: Path) -> None:
        self.data, self.port = data, free_port()
        self.server = InProcessServer(data, self.port, ManualClock(), SEED).start()
        self.http = httpx.Client(base_url=self.server.url, timeout=30)

    def restart(self) -> None:
        """Stopped (every client told goodbye) and started again, its clock where it was."""
        at = self.server.clock.time()
        self.server.stop()
        self.http.close()
        self.server = InProcessServer(self.data, self.port, ManualClock(start=at), SEED).start()
        self.http = httpx.Client(base_url=self.server.url, timeout=30)

    def close(self) -> None:
        self.http.close()
        self.server.stop()

    def ask(self, method: str, path: str, body: Any = None, *, grant: Agent | None = None) -> Any:
        headers = {"authorization": f"Bearer {grant.grant['token']}"} if grant else {}
        answer = self.http.request(method, path, json=body, headers=headers)
        assert answer.status_code in (200, 201), answer.text
        ndjson = answer.headers["content-type"].startswith("application/x-ndjson")
        return answer.text if ndjson else answer.json()

    def agents_play(self, table: dict[int, Agent]) -> dict[str, Any]:
        """The agents' turns at one table, each their first legal action (with the call
        "DOS!" when it leaves two cards), until a person's turn or the game's end; the table
        as its agents see it then."""
        seen: dict[str, Any] = self.ask("GET", "/api/agent/seat", grant=next(iter(table.values())))
        while seen["result"] is None and seen["view"]["turn"] in table:
            mover = table[seen["view"]["turn"]]
            own = self.ask("GET", "/api/agent/seat", grant=mover)
            move = next(a["action"] for a in own["legal"] if not a["action"].startswith("catch"))
            body = {"action": move, "version": own["version"], "dos": True}
            seen = self.ask("POST", "/api/agent/seat/actions", body, grant=mover)
        return seen

    def stored(self, table: dict[int, Agent]) -> str:
        """The record of the table's game (``dos.records``) as the server stored it, once its
        end is stored (the table says so only then; its agents name the game)."""
        agent = next(iter(table.values()))
        seen = self.ask("GET", "/api/agent/seat", grant=agent)
        while seen["table"]["status"] != "finished":
            path = f"/api/agent/seat/wait?version={seen['version']}&change={seen['change']}"
            seen = self.ask("GET", f"{path}&until=change", grant=agent)
        headers = {"authorization": f"Bearer {agent.grant['token']}"}
        named = self.http.get("/api/agent/seat/record", headers=headers)
        assert named.status_code == 200, named.text
        record: str = self.ask("GET", f"/api/games/{named.headers['dos-game-id']}/record")
        return record


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    running = Site(tmp_path)
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def contexts() -> Iterator[list[BrowserContext]]:
    """The people's browser contexts, closed after the test whatever its end."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def seated(site: Site, arena: str, agents: list[Agent]) -> dict[str, dict[int, Agent]]:
    """Each table under way: its agents by seat (their grants looked up, as a page does)."""
    tables: dict[str, dict[int, Agent]] = {}
    for agent in agents:
        grant = site.ask("POST", f"/api/tournaments/{arena}/seat", {"player_token": agent.token})
        agent.grant = grant["seat"]
        tables.setdefault(agent.grant["code"], {})[agent.grant["seat"]] = agent
    return tables


def to_table(page: Page, base: str, code: str, seat: int) -> None:
    """The person goes to their table from the tournament's page, and lands at their seat."""
    expect(page.locator("#tour-play")).to_be_visible(timeout=WAIT_MS)
    page.click("#tour-play")
    expect(page).to_have_url(f"{base}/t/{code}")
    expect(page.locator("#view-table")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("body")).to_have_attribute("data-seat", str(seat))


def play_game(
    site: Site,
    tables: dict[str, dict[int, Agent]],
    people: dict[str, Page],
    view: dict[str, Any],
    *,
    restart_after: int | None = None,
) -> None:
    """Plays every table under way to its game's end: each person's table through their
    pages, the agents between their moves (and, ``restart_after`` people's moves into the
    first table, the server restarted: the pages reconnect and play on)."""
    names = {row["player_id"]: row["name"] for row in view["standings"]}
    for table in view["tables"]:
        code, at = table["code"], [names[p["player_id"]] for p in table["players"]]
        pages = [people[name] for name in at if name in people]
        for seat, name in enumerate(at):
            if name in people:
                to_table(people[name], site.server.url, code, seat)
        if not pages:
            assert site.agents_play(tables[code])["result"] is not None
            continue

        def between(steps: int, code: str = code, pages: list[Page] = pages) -> None:
            nonlocal restart_after
            if restart_after is not None and steps >= restart_after:
                restart_after = None
                restart(site, pages)
            site.agents_play(tables[code])

        restarting = restart_after is not None
        played = play_round(pages, between, privacy=False)
        if restarting:  # the game went on through the pages after the restart
            assert restart_after is None and played["steps"] > RESTART_AFTER
        restart_after = None


def restart(site: Site, pages: list[Page]) -> None:
    """The server restarted under the open pages: each comes back by itself (its connection
    lost, then open again), at its seat, showing the game where it was."""
    before = [(body(page, "seat"), body(page, "version")) for page in pages]
    for page in pages:
        page.evaluate(WATCH_CONNECTION_JS)
    site.restart()
    for page, (seat, version) in zip(pages, before, strict=True):
        page.wait_for_function(BACK_JS, timeout=WAIT_MS)
        assert (body(page, "seat"), body(page, "version")) == (seat, version)


WATCH_CONNECTION_JS = """() => {
  window.connectionsSeen = [];
  new MutationObserver(() => window.connectionsSeen.push(document.body.dataset.connection))
    .observe(document.body, {attributes: true, attributeFilter: ['data-connection']});
}"""
"""Keeps every status the page's connection takes (``data-connection``) from now on."""
BACK_JS = """() => window.connectionsSeen.includes('reconnecting')
  && document.body.dataset.connection === 'open'"""
"""Whether the page lost its connection since ``WATCH_CONNECTION_JS`` and has it again."""


def points_of(record: str, players: list[str]) -> dict[str, float]:
    """Each player's arena points from a stored game's record: the winner first, the others
    by their scores, tied ranks sharing the better place."""
    lines = [json.loads(line) for line in record.splitlines() if line.strip()]
    result = next(line["result"] for line in reversed(lines) if "result" in line)
    winner, scores = result["winner"], result["scores"]

    def rank(seat: int) -> int:
        if seat == winner:
            return 0
        return 1 + sum(
            score > scores[seat] for other, score in enumerate(scores) if other != winner
        )

    return {player: ARENA.points(rank(seat), len(players)) for seat, player in enumerate(players)}


def test_an_arena_of_people_and_agents_runs_to_its_standings_across_a_restart(
    browser: Browser, site: Site, contexts: list[BrowserContext]
) -> None:
    made = site.ask(
        "POST",
        "/api/tournaments",
        {
            "name": AGENTS[0],
            "title": "Friday arena",
            "format": "arena",
            "seats": SEATS,
            "minutes": ARENA_SECONDS / 60,
            "starts_in": OPENS_IN,
            "options": {"target_score": 1},
        },
    )
    arena = made["id"]
    page_url = f"{site.server.url}/tournaments/{arena}"
    people: dict[str, Page] = {}
    for name in PEOPLE:  # each joins on the tournament's page
        context, page = open_page(browser, page_url, DESKTOP)
        contexts.append(context)
        page.fill("#tour-name-input", name)
        page.click("#tour-join")
        expect(page.locator("#tour-standings tr.you")).to_contain_text(name, timeout=WAIT_MS)
        people[name] = page
    agents = [Agent(AGENTS[0], made["player_token"])]
    for name in AGENTS[1:]:
        joined = site.ask("POST", f"/api/tournaments/{arena}/join", {"name": name})
        agents.append(Agent(name, joined["player_token"]))

    site.server.advance(OPENS_IN)  # the window opens: two tables of four
    first = site.ask("GET", f"/api/tournaments/{arena}")
    assert first["status"] == "running" and len(first["tables"]) == 2
    tables = seated(site, arena, agents)
    play_game(site, tables, people, first, restart_after=RESTART_AFTER)
    games = {code: site.stored(table) for code, table in tables.items()}

    second = site.ask("GET", f"/api/tournaments/{arena}")  # paired again, by the standings
    assert len(second["games"]) == 2 and len(second["tables"]) == 2
    site.server.advance(ARENA_SECONDS)  # the window closes: the games under way play out
    for page in people.values():
        page.goto(page_url)
    tables = seated(site, arena, agents)
    play_game(site, tables, people, second)
    games.update({code: site.stored(table) for code, table in tables.items()})

    final = site.ask("GET", f"/api/tournaments/{arena}")
    assert final["status"] == "finished" and final["tables"] == []
    assert len(final["games"]) == 4
    expected: Counter[str] = Counter()
    names = {row["player_id"]: row["name"] for row in final["standings"]}
    for game in final["games"]:
        players = [names[p["player_id"]] for p in game["players"]]
        expected.update(points_of(games[game["code"]], players))
    assert {row["name"]: row["points"] for row in final["standings"]} == dict(expected)
    assert {row["games"] for row in final["standings"]} == {2}
    you = text("en", "game.you")
    for name, page in people.items():  # the standings page shows the same, to each
        page.goto(page_url)
        expect(page.locator("#tour-status")).to_have_text(
            text("en", "tour.finished"), timeout=WAIT_MS
        )
        shown = page.evaluate(STANDINGS_JS)
        assert [row["cells"][1] for row in shown if row["you"]] == [f"{name} ({you})"]
        rows = [
            (
                int(row["cells"][0]),
                row["cells"][1].removesuffix(f" ({you})"),
                float(row["cells"][2]),
            )
            for row in shown
        ]
        assert rows == [(r["place"], r["name"], r["points"]) for r in final["standings"]]
        assert page.errors == []  # type: ignore[attr-defined]
