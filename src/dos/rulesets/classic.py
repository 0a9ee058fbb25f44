"""The registry entry of the classic rule set (RULES.md §9): what each layer needs of it.

Every layer is named by its module and imported when a caller asks for it, never on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dos.ruleset import Entry, ReactionTest, deferred, loaded


def time_limit(state: Any) -> float | None:
    """Seconds the reaction test under way allows (RULES.md §9), or ``None`` when the game is
    not in one.

    >>> from dos.rules.classic import new_game
    >>> time_limit(new_game(seed=1)) is None
    True
    """
    from dos.rules.classic import Phase

    if state.phase != Phase.REACTION:
        return None
    limit: float = state.options.reaction_time_ms / 1000
    return limit


def at_least(action: Any, ms: int) -> Any:
    """``action`` as recorded when the server measured ``ms``: a ``react`` that claims less
    takes the measured time; anything else stays as it is.

    >>> from dos.rules.classic.actions import react
    >>> str(at_least(react(2, 40), 1250)), str(at_least(react(2, 1400), 1250))
    ('react 2 1250ms', 'react 2 1400ms')
    """
    from dos.rules.classic import Kind
    from dos.rules.classic.actions import react

    if action.kind != Kind.REACT or ms <= action.ms:
        return action
    return react(action.hits, ms, action.seat)


def _options(data: Mapping[str, Any]) -> Any:
    from dos.rules.classic import Options

    return Options.from_json(dict(data))


CLASSIC = Entry(
    name="classic",
    rules=loaded("dos.rules.classic:RULES"),
    summary="the classic rules (seed 004): UNO-style DOS with a reaction test, to a ranking",
    reaction=ReactionTest(time_limit, at_least),
    seat_view=deferred("dos.rules.classic.views:view_from_json"),
    bots=loaded("dos.bots.kits:CLASSIC_BOTS"),
    fast_core=loaded("dos.fast.classic_api:CORE"),
    codec=deferred("dos.rl.codec:ClassicCodec"),
    text=loaded("dos.agents.text:CLASSIC_TEXT"),
    explainer=loaded("dos.i18n.explain:CLASSIC_WORDS"),
    terminal=loaded("dos.tui.terminals:CLASSIC_TERMINAL"),
    arena_game=deferred("dos.arena.played:play_classic"),
    options=_options,
    ranks=deferred("dos.ratings.ranks:classic_ranks"),
)
"""The classic rule set's entry."""
