"""How a server runs its tables: the bots' pace and effort, the grace before a stand-in, the
pause between rounds, and the server's clock, deals, figures and job runner they share.

>>> Settings(bot_delay=0).grace_seconds
10.0
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dos.server.clock import Clock, SystemClock
from dos.server.deals import Deals
from dos.server.hosting.jobs import Jobs
from dos.server.metrics import Metrics


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server runs tables."""

    bot_delay: float = 1.0
    """Scale of the bots' delays: 1 human-like, 0 instant."""
    bot_effort: float = 1.0
    """The share of their levels' budgets (iterations and seconds) the searching bots think
    with: 1 as the levels say; less spares a small machine (the bots play weaker)."""
    grace_seconds: float = 10.0
    """After a turn timer runs out, or a player's connection closes during a game: the wait
    before a stand-in bot plays for them (longer than a reload)."""
    pause_seconds: float = 30.0
    """The longest pause between two rounds for the players to read the summary (0: none)."""
    clock: Clock = field(default_factory=SystemClock, compare=False, repr=False)
    """The server's time (``dos.server.clock``): turn timers, grace, pauses, the reaction
    test, idleness, rows' times; the cluster's leases and loops read the same one. Tests give
    a ``ManualClock`` and move it."""
    deals: Deals = field(default_factory=Deals)
    """Where new tables' deals come from (``dos.server.deals``): at random unless seeded."""
    metrics: Metrics = field(default_factory=Metrics, compare=False, repr=False)
    """Where the tables and their bots report their figures (``dos.server.metrics``): one
    registry per ``Settings``, so one per server unless servers share their settings."""
    jobs: Jobs | None = field(default=None, compare=False, repr=False)
    """The job runner the bots decide through (``dos.server.hosting.jobs``): the service's, which
    ``Service`` puts here; ``None``: the bots decide in this process (a table on its own)."""
