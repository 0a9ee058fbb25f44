"""The game's actions with what a log needs to tell them in words: kept as the game is played.

A client writes its log from the updates it receives; one that was away (a reload, a dropped
connection, a second tab) missed some. So after each ``state`` the server sends ``log``: the
latest actions of the current game (a page of at most ``LOG_PAGE``) with their seats and a
brief of the public view just before each (the Center Row, the phase, the turn, the
scores...), and the brief of the view now; the client tells them in words exactly as it tells
updates. A client asks for an earlier page with ``{"type": "log", "before": N}``. Only public
facts: no hand is in a brief; the one private fact is, for the connecting seat's own draws,
the cards it drew (``drawn``).

A table keeps its log as the game goes (``GameLog``): each accepted action adds one entry,
built from the brief the previous action left, so a connect costs a page of ready JSON, never
a replay. The latest ``LOG_KEEP`` entries stay in memory; a table loaded from the database
(a restart, a late visitor) builds its tail by replaying the game once, on a worker thread
(``replay_entries``), and so does a page older than the tail.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dos import ruleset
from dos.ruleset import RuleSet

LOG_PAGE = 200
"""The most entries one ``log`` message carries."""
LOG_KEEP = 1000
"""The latest entries a table keeps in memory (older pages are replayed when asked for)."""

BRIEF_KEYS = (
    "round",
    "dealer",
    "turn",
    "phase",
    "hand_sizes",
    "center",
    "bonuses",
    "scores",
    "winner",
    "pending",
    "top",
    "colour",
)
"""The public view's keys a log line may need."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def public(rules: RuleSet[Any, Any], state: Any) -> dict[str, Any]:
    """The public part of a view of ``state`` (no hand, no legal actions, no history)."""
    return ruleset.entry(rules.name).public_view(state)


def brief(view: dict[str, Any]) -> dict[str, Any]:
    """What a log line needs of a public view: ``BRIEF_KEYS``, the number of rounds
    finished and the last round's winner and points."""
    out = {k: view[k] for k in BRIEF_KEYS if k in view}
    results = view.get("round_results")
    if results is not None:
        out["rounds"] = len(results)
        if results:
            out["result"] = {"winner": results[-1]["winner"], "points": results[-1]["points"]}
    return out


def _hand(rules: RuleSet[Any, Any], state: Any, seat: int) -> list[str]:
    hand: list[str] = rules.view_json(state, seat)["hand"]
    return hand


def _new_cards(before: list[str], after: list[str]) -> list[str]:
    left = list(before)
    fresh = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            fresh.append(card)
    return fresh


def _is_draw(text: str) -> bool:
    return text.rsplit(":", maxsplit=1)[-1].strip() == "draw"


@dataclass(frozen=True, slots=True)
class Entry:
    """One action of the log: its public JSON, and the cards its seat drew (draws only)."""

    index: int
    seat: int
    public: str
    """``{"action", "seat", "before"}`` as JSON text."""
    drawn: tuple[str, ...] | None = None
    """What the seat drew, told to that seat alone."""

    def text(self, viewer: int | None) -> str:
        """The entry as JSON text for ``viewer``."""
        if self.drawn is None or viewer != self.seat:
            return self.public
        return self.public[:-1] + ',"drawn":' + _dumps(list(self.drawn)) + "}"


class Step:
    """Builds the entry of one action around its application to the state."""

    __slots__ = ("held", "index", "rules", "seat", "text")

    def __init__(
        self, rules: RuleSet[Any, Any], state: Any, index: int, text: str, seat: int
    ) -> None:
        self.rules = rules
        self.index = index
        self.text = text
        self.seat = seat
        self.held = _hand(rules, state, seat) if _is_draw(text) else None

    def entry(self, state: Any, before: str) -> Entry:
        """The entry, once the action is applied to ``state``; ``before`` is the brief
        before it as JSON text."""
        public = (
            ('{"action":' + _dumps(self.text) + ',"seat":' + str(self.seat))
            + ',"before":'
            + before
            + "}"
        )
        drawn = None
        if self.held is not None:
            drawn = tuple(_new_cards(self.held, _hand(self.rules, state, self.seat)))
        return Entry(self.index, self.seat, public, drawn)


def replay_entries(
    rules: RuleSet[Any, Any],
    options: Any,
    seed: int,
    actions: Sequence[str],
    seats: Sequence[int],
    *,
    start: int,
) -> tuple[list[Entry], str]:
    """The entries of ``actions[start:]`` and the brief after the last one (JSON text), by
    replaying the game from its seed (the engine is deterministic). Pure: run it on a
    worker thread."""
    state = rules.new_game(options, seed)
    entries = []
    before: str | None = None
    for index, (text, seat) in enumerate(zip(actions, seats, strict=True)):
        if index < start:
            rules.apply(state, rules.parse_action(text))
            continue
        if before is None:
            before = _dumps(brief(public(rules, state)))
        step = Step(rules, state, index, text, seat)
        rules.apply(state, rules.parse_action(text))
        entries.append(step.entry(state, before))
        before = _dumps(brief(public(rules, state)))
    if before is None:
        before = _dumps(brief(public(rules, state)))
    return entries, before


def log_entries(
    rules: RuleSet[Any, Any],
    options: Any,
    seed: int,
    actions: Sequence[str],
    seats: Sequence[int],
    *,
    viewer: int | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every action's entry as ``viewer`` is told it, and the brief after the last one
    (for tools and tests: a table keeps its log as it goes, ``GameLog``)."""
    entries, now = replay_entries(rules, options, seed, actions, seats, start=0)
    return [json.loads(e.text(viewer)) for e in entries], json.loads(now)


@dataclass(frozen=True, slots=True)
class Page:
    """A page of the log: its entries (oldest first) and the brief after the last one."""

    first: int
    entries: Sequence[Entry]
    now: str

    def message(self, game: int, total: int, viewer: int | None) -> str:
        """The ``log`` message of this page for ``viewer``."""
        body = ",".join(entry.text(viewer) for entry in self.entries)
        return ('{"type":"log","game":' + str(game) + ',"first":' + str(self.first)) + (
            ',"total":' + str(total) + ',"entries":[' + body + '],"now":' + self.now + "}"
        )


class GameLog:
    """The log of the game a table plays: entries added as actions are accepted, the latest
    ``LOG_KEEP`` kept; built from a replay on a worker thread when the table was loaded
    mid-game."""

    def __init__(self, rules: RuleSet[Any, Any], game: Any, state: Any) -> None:
        self.rules = rules
        self.game = game
        """The ``StoredGame``: its seed, options and every action accepted so far."""
        self.total = len(game.actions)
        self.tail: deque[Entry] = deque(maxlen=LOG_KEEP)
        self.now = _dumps(brief(public(rules, state)))
        self._built = self.total == 0
        """Whether the tail holds every kept entry (a log started at the deal does)."""
        self._building: asyncio.Task[None] | None = None
        self._step: Step | None = None

    # --- as the game is played ----------------------------------------------------------------

    def before_action(self, state: Any, text: str, seat: int) -> None:
        """Notes what the log needs of the state before an action is applied."""
        self._step = Step(self.rules, state, self.total, text, seat)

    def after_action(self, state: Any) -> None:
        """Adds the entry of the action just applied (and committed)."""
        step, self._step = self._step, None
        assert step is not None and step.index == self.total
        self.tail.append(step.entry(state, self.now))
        self.now = _dumps(brief(public(self.rules, state)))
        self.total += 1

    # --- pages ----------------------------------------------------------------------------------

    def _kept_from(self) -> int:
        """The index of the oldest entry in memory (``total`` when none is)."""
        return self.tail[0].index if self.tail else self.total

    async def _build(self) -> None:
        """The tail of a game loaded mid-way, replayed once on a worker thread."""
        if self._built:
            return
        if self._building is None:
            self._building = asyncio.get_running_loop().create_task(self._replay_tail())
        await asyncio.shield(self._building)

    async def _replay_tail(self) -> None:
        game = self.game
        stop = self._kept_from()
        start = max(0, stop - LOG_KEEP)
        actions, seats = list(game.actions[:stop]), list(game.action_seats[:stop])
        entries, _ = await asyncio.to_thread(
            replay_entries, self.rules, game.options, game.seed, actions, seats, start=start
        )
        kept = list(self.tail)
        if not kept or kept[0].index == stop:  # else so many actions came that none is needed
            self.tail = deque(entries + kept, maxlen=LOG_KEEP)
        self._built = True

    def _cached(self, before: int) -> Page | None:
        """The page of entries before ``before`` if memory holds it."""
        start = max(0, before - LOG_PAGE)
        kept = self._kept_from()
        if start < kept:
            return None
        entries = [self.tail[i - kept] for i in range(start, before)]
        now = self.now if before == self.total else _before_of(self.tail[before - kept].public)
        return Page(start, entries, now)

    def cost(self, before: int | None) -> int:
        """The replay work (actions replayed) the page before ``before`` costs now: 0 when
        memory holds it."""
        before = self.total if before is None else min(max(before, 0), self.total)
        if self._cached(before) is not None:
            return 0
        return before

    async def page(self, before: int | None = None) -> Page:
        """The page of entries before index ``before`` (``None``: the latest page)."""
        if not self._built:
            await self._build()
        last = self.total if before is None else min(max(before, 0), self.total)
        cached = self._cached(last)
        if cached is not None:
            return cached
        start = max(0, last - LOG_PAGE)
        game = self.game
        actions, seats = list(game.actions[:last]), list(game.action_seats[:last])
        entries, now = await asyncio.to_thread(
            replay_entries, self.rules, game.options, game.seed, actions, seats, start=start
        )
        return Page(start, entries, now)

    async def message(self, viewer: int | None, before: int | None = None) -> str:
        """The ``log`` message of a page for ``viewer``. The latest page is composed with no
        wait between the entries read and the message returned, so it holds every update
        sent before it."""
        page = await self.page(before)
        return page.message(self.game.number, self.total, viewer)


def _before_of(public: str) -> str:
    """The ``before`` brief of an entry's public JSON text."""
    before: Any = json.loads(public)["before"]
    return _dumps(before)
