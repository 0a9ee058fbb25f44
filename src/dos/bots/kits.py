"""Each rule set's bots as one kit: the names and levels ``make_player`` takes, how to make a
seat's player, and what a table needs to let them play (the view a bot decides from, the
DOS obligations bots race for, whether a real-time reaction test is under way).

A rule set's registry entry (``dos.ruleset.Entry.bots``) gives its kit; ``dos.bots.registry``
and the server ask the kit, never the rule set's name.

>>> OFFICIAL_BOTS.levels()
['easy', 'medium', 'hard', 'expert']
>>> sorted(CLASSIC_BOTS.search_levels())
['expert', 'hard']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dos.bots.registry import (
    BOTS,
    CLASSIC_LEVELS,
    LEVELS,
    SEARCH_BOTS,
    classic_player,
    official_player,
)
from dos.bots.registry import (
    CLASSIC_BOTS as CLASSIC_BOT_CLASSES,
)


@dataclass(frozen=True, slots=True)
class BotKit:
    """The bots of one rule set."""

    bots: Mapping[str, str]
    """Bot name -> ``module:class``."""
    level_table: Mapping[str, tuple[Any, ...]]
    """Level -> (bot name, ...), easiest first (``dos.bots.registry``)."""
    make_player: Callable[[str, int | None], Any]
    """A seat's player for a bot or level name at a table of so many seats (``None``: not
    said); raises ``ValueError`` for an unknown name."""
    view: Callable[[Any, int], Any]
    """The view a bot of a seat decides from (the engine's ``SeatView``)."""
    obligations: Callable[[Any], dict[int, Any]]
    """Seats with an open DOS obligation, each with a key that changes with a new one (empty
    where there is no DOS race)."""
    reacting: Callable[[Any], bool]
    """Whether the seat to act is taking a reaction test (answered in real time)."""

    def names(self) -> list[str]:
        """The bot and level names, bots first."""
        return [*self.bots, *self.level_table]

    def levels(self) -> list[str]:
        """The levels, easiest first."""
        return list(self.level_table)

    def search_levels(self) -> set[str]:
        """The levels whose bot searches (a decision takes up to its budget's time)."""
        return {level for level, (bot, *_) in self.level_table.items() if bot in SEARCH_BOTS}

    def seat_view(self, state: Any, seat: int) -> Any:
        """The view a bot of ``seat`` decides from."""
        return self.view(state, seat)


def _official_view(state: Any, seat: int) -> Any:
    from dos.rules.official import view

    return view(state, seat)


def _official_obligations(state: Any) -> dict[int, Any]:
    return {
        seat: (state.round, tuple(hand))
        for seat, hand in enumerate(state.hands)
        if state.dos_open >> seat & 1
    }


def _classic_view(state: Any, seat: int) -> Any:
    from dos.rules.classic import view

    return view(state, seat)


def _classic_reacting(state: Any) -> bool:
    from dos.rules.classic import Phase

    return bool(state.phase == Phase.REACTION)


OFFICIAL_BOTS = BotKit(
    bots=BOTS,
    level_table=LEVELS,
    make_player=official_player,
    view=_official_view,
    obligations=_official_obligations,
    reacting=lambda state: False,
)
"""The official bots (``dos.bots``)."""

CLASSIC_BOTS = BotKit(
    bots=CLASSIC_BOT_CLASSES,
    level_table=CLASSIC_LEVELS,
    make_player=classic_player,
    view=_classic_view,
    obligations=lambda state: {},  # no DOS race in the classic rules
    reacting=_classic_reacting,
)
"""The classic bots (``dos.bots.classic``, RULES.md §9)."""
