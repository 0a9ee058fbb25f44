"""Who among the players waiting for a table ("Play people") sits down together, and when.

``match(queue, now)`` is a pure function of the waiting players and the time: the server
calls it in one database transaction (``dos.server.matchmaking``) and seats what it returns.
Its rules, all of them here (``docs/matchmaking.md``):

- **Same game.** Players are matched only with players who asked for the same rule set and
  the same table size (2-4 seats).
- **Rating band.** A player's band is ``BAND_START`` skill points either side of their skill
  at once, and widens by ``BAND_STEP`` every ``BAND_EVERY`` seconds waited (``band``). Two
  players fit when their skills differ by no more than the wider of their two bands: who has
  waited longer has widened for both. Everyone at a table fits everyone else there.
- **Blocks.** A player is never matched with someone they blocked or who blocked them.
- **Fairness.** The longest waiting player is matched first, with the others in the order
  they came (ties by player id): a newcomer never takes a place that someone waiting longer
  could have had.
- **Bots.** A table is filled with bots only once every person at it has waited at least the
  time they chose (``Entry.bots_after``; ``None``: never); before that, it waits for people.
- **Rated** when every person at it may play rated (``Entry.rated``: an account with a
  rating, in a rule set that rates), else casual.

>>> a = Entry("a", "Ada", "official", 2, since=0.0, skill=25.0)
>>> b = Entry("b", "Bo", "official", 2, since=5.0, skill=26.0)
>>> tables, waiting = match([a, b], now=6.0)
>>> [p.player for p in tables[0].people], tables[0].bots, waiting
(['a', 'b'], 0, [])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

BAND_START = 3.0
"""The half-width of a player's rating band as they join, in skill points (openskill's mu,
25 for a new player)."""
BAND_STEP = 1.0
"""How much the band widens on each side every ``BAND_EVERY`` seconds waited."""
BAND_EVERY = 10.0
"""Seconds between two widenings of the band."""

MIN_SEATS = 2
MAX_SEATS = 4
"""The table sizes a player may ask for."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One player waiting: what they asked for, since when, and whom they never meet."""

    player: str
    """Their player id (from their token, never from what they say)."""
    name: str
    """The name they play under."""
    rules: str
    """The rule set they asked for."""
    seats: int
    """The table size they asked for."""
    since: float
    """When they joined the queue (the server's clock, in seconds)."""
    skill: float = 25.0
    """Their rating's skill (mu) in this rule set and table size; a new player's default."""
    rated: bool = False
    """Whether they may play rated: an account with a rating, in a rule set that rates."""
    bots_after: float | None = None
    """Seconds waited after which bots may fill the empty seats of their table; ``None``:
    never (people only)."""
    blocked: frozenset[str] = field(default_factory=frozenset)
    """The players they blocked or who blocked them."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table ``match`` made: its people in seat order (the longest waiting first, the
    host) and how many bots fill the rest."""

    rules: str
    seats: int
    people: tuple[Entry, ...]
    bots: int
    rated: bool


def band(entry: Entry, now: float) -> float:
    """The half-width of ``entry``'s rating band at ``now``: ``BAND_START``, and
    ``BAND_STEP`` more for every whole ``BAND_EVERY`` seconds waited.

    >>> e = Entry("a", "Ada", "official", 2, since=100.0)
    >>> band(e, 100.0), band(e, 109.9), band(e, 110.0), band(e, 135.0)
    (3.0, 3.0, 4.0, 6.0)
    """
    waited = max(0.0, now - entry.since)
    return BAND_START + BAND_STEP * math.floor(waited / BAND_EVERY)


def fits(a: Entry, b: Entry, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit at one table: the same game, neither blocked by the
    other, and their skills within the wider of their bands.

    >>> a = Entry("a", "Ada", "official", 2, since=0.0, skill=25.0)
    >>> b = Entry("b", "Bo", "official", 2, since=0.0, skill=29.0)
    >>> fits(a, b, now=0.0), fits(a, b, now=10.0)
    (False, True)
    """
    if (a.rules, a.seats) != (b.rules, b.seats):
        return False
    if a.player == b.player or a.player in b.blocked or b.player in a.blocked:
        return False
    return abs(a.skill - b.skill) <= max(band(a, now), band(b, now))


def bots_due(entry: Entry, now: float) -> bool:
    """Whether ``entry`` has waited long enough for bots to fill their table.

    >>> e = Entry("a", "Ada", "official", 2, since=0.0, bots_after=30.0)
    >>> bots_due(e, 29.0), bots_due(e, 30.0), bots_due(Entry("b", "Bo", "official", 2, 0.0), 1e9)
    (False, True, False)
    """
    return entry.bots_after is not None and now - entry.since >= entry.bots_after


def waiting_order(queue: Iterable[Entry]) -> list[Entry]:
    """The queue, the longest waiting first (ties by player id)."""
    return sorted(queue, key=lambda entry: (entry.since, entry.player))


def _gather(anchor: Entry, others: Sequence[Entry], now: float, want: int) -> list[Entry]:
    """``anchor`` and the first of ``others`` (in their order) who fit everyone gathered so
    far, up to ``want`` people."""
    group = [anchor]
    for other in others:
        if len(group) == want:
            break
        if all(fits(member, other, now) for member in group):
            group.append(other)
    return group


def _table(group: Sequence[Entry], seats: int) -> Table:
    first = group[0]
    return Table(
        rules=first.rules,
        seats=seats,
        people=tuple(group),
        bots=seats - len(group),
        rated=all(entry.rated for entry in group),
    )


def match(queue: Iterable[Entry], now: float) -> tuple[list[Table], list[Entry]]:
    """The tables the waiting players make at ``now``, and who still waits (longest
    waiting first). Each player is in one table at most; the rules are the module's.

    >>> alone = Entry("a", "Ada", "classic", 3, since=0.0, bots_after=60.0)
    >>> match([alone], now=59.0)[0], match([alone], now=60.0)[0][0].bots
    ([], 2)
    """
    waiting = waiting_order(queue)
    tables: list[Table] = []
    taken: set[str] = set()
    for anchor in waiting:
        if anchor.player in taken:
            continue
        free = [e for e in waiting if e.player not in taken and e.player != anchor.player]
        group = _gather(anchor, free, now, anchor.seats)
        if len(group) < anchor.seats:
            if not bots_due(anchor, now):
                continue
            # Bots join only the people whose own wait for them is over.
            group = _gather(anchor, [e for e in free if bots_due(e, now)], now, anchor.seats)
        tables.append(_table(group, anchor.seats))
        taken.update(entry.player for entry in group)
    return tables, [entry for entry in waiting if entry.player not in taken]
