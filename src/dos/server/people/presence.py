"""Presence: where a player is on the site, as their friends and followers see it.

Each page of the site a signed-in player has open says where it is at every pulse
(``dos.server.people.friends.Friends.pulse``): on the site (``site``), seated at a table
(``table``) or watching one (``watching``), with the table's code. The last of these is kept
in the database (``dos_presence``), so every process of a server of many reads the same
presence whichever process the player's page pulses on. A player seen within
``ONLINE_SECONDS`` is there; after it, offline. A player who hides their presence is shown
offline to everyone: nothing of where they are leaves the server.

>>> seen = Seen(where="table", code="K7M2QX", seen_at=100.0, hidden=False)
>>> shown(seen, now=110.0)
Shown(state='playing', code='K7M2QX')
>>> shown(seen, now=100.0 + ONLINE_SECONDS + 1)
Shown(state='offline', code=None)
>>> shown(seen._replace(hidden=True), now=110.0)
Shown(state='offline', code=None)
"""

from __future__ import annotations

from typing import Literal, NamedTuple

ONLINE_SECONDS = 45.0
"""How long after a page's last pulse its player still counts as there."""
REFRESH_SECONDS = 20.0
"""How often a pulse that says nothing new is written again (to keep the player there)."""
PULSE_SECONDS = 4.0
"""How often a page pulses (``poll_ms`` of the answer): the wait before an invitation shows."""
WAITING_PULSE_SECONDS = 1.0
"""How often the page of a player whose challenge awaits its answer pulses: they are taken to
the table within a second of its acceptance (at most ``MAX_OPEN_CHALLENGES`` such challenges,
each for two minutes)."""

Where = Literal["site", "table", "watching"]
"""Where a page says it is."""
State = Literal["online", "playing", "watching", "offline"]
"""What a friend sees."""

_STATES: dict[str, State] = {"site": "online", "table": "playing", "watching": "watching"}


class Seen(NamedTuple):
    """A player's presence as kept: where and when a page of theirs last pulsed, and whether
    they hide it."""

    where: str
    code: str | None
    seen_at: float
    hidden: bool


class Shown(NamedTuple):
    """A player's presence as another sees it: the state and, playing or watching, the
    table's code."""

    state: State
    code: str | None


OFFLINE = Shown("offline", None)


def shown(seen: Seen | None, now: float) -> Shown:
    """What others see of a player whose presence is ``seen`` (``None``: never seen), at
    ``now``: offline when hidden, never seen or not seen for ``ONLINE_SECONDS``."""
    if seen is None or seen.hidden or now - seen.seen_at > ONLINE_SECONDS:
        return OFFLINE
    state = _STATES.get(seen.where, "online")
    return Shown(state, seen.code if state in ("playing", "watching") else None)


def needs_writing(
    last: tuple[str, str | None, float] | None, where: str, code: str | None, now: float
) -> bool:
    """Whether a pulse saying ``where``/``code`` at ``now`` must be written, given what this
    process last wrote for the player (``(where, code, at)``, ``None``: nothing): when it says
    something new, or ``REFRESH_SECONDS`` have passed.

    >>> needs_writing(("site", None, 100.0), "site", None, 110.0)
    False
    >>> needs_writing(("site", None, 100.0), "table", "ABC", 101.0)
    True
    >>> needs_writing(("site", None, 100.0), "site", None, 100.0 + REFRESH_SECONDS)
    True
    """
    if last is None:
        return True
    last_where, last_code, at = last
    return (last_where, last_code) != (where, code) or now - at >= REFRESH_SECONDS
