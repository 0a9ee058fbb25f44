"""The registry entry of the classic rule set (RULES.md §9): what each layer needs of it.

Every factory imports its layer when called, never on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dos.ruleset import Entry, ReactionTest

if TYPE_CHECKING:
    from dos.agents.text import TextView
    from dos.arena.played import PlayedGame
    from dos.arena.schedule import GameSpec
    from dos.bots.kits import BotKit
    from dos.fast.compiled import Core
    from dos.i18n.explain import Explainer
    from dos.rl.codec import Codec
    from dos.ruleset import RuleSet
    from dos.tui.terminals import Terminal


def _rules() -> RuleSet[Any, Any]:
    from dos.rules.classic import RULES

    return RULES


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


def _seat_view(data: dict[str, Any]) -> Any:
    from dos.agents.seat_view import classic_view

    return classic_view(data)


def _bots() -> BotKit:
    from dos.bots.kits import CLASSIC_BOTS

    return CLASSIC_BOTS


def _fast_core() -> Core:
    from dos.fast.classic_api import CORE

    return CORE


def _codec(players: int, **options: Any) -> Codec:
    from dos.rl.codec import ClassicCodec

    return ClassicCodec(players, **options)


def _text() -> TextView:
    from dos.agents.text import CLASSIC_TEXT

    return CLASSIC_TEXT


def _explainer() -> Explainer:
    from dos.i18n.explain import CLASSIC_WORDS

    return CLASSIC_WORDS


def _terminal() -> Terminal:
    from dos.tui.terminals import CLASSIC_TERMINAL

    return CLASSIC_TERMINAL


def _arena_game(spec: GameSpec) -> PlayedGame:
    from dos.arena.played import play_classic

    return play_classic(spec)


def _options(data: Mapping[str, Any]) -> Any:
    from dos.rules.classic import Options

    return Options.from_json(dict(data))


def _ranks(result: dict[str, Any], players: int) -> list[int]:
    from dos.ratings.ranks import classic_ranks

    return classic_ranks(result, players)


CLASSIC = Entry(
    name="classic",
    rules=_rules,
    summary="the classic rules (seed 004): UNO-style DOS with a reaction test, to a ranking",
    reaction=ReactionTest(time_limit, at_least),
    seat_view=_seat_view,
    bots=_bots,
    fast_core=_fast_core,
    codec=_codec,
    text=_text,
    explainer=_explainer,
    terminal=_terminal,
    arena_game=_arena_game,
    options=_options,
    ranks=_ranks,
)
"""The classic rule set's entry."""
