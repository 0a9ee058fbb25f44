"""The registry entry of the official rule set (RULES.md §1-§8): what each layer needs of it.

Every factory imports its layer when called, never on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dos.ruleset import Entry

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
    from dos.rules.official import RULES

    return RULES


def _public(state: Any, history: bool) -> dict[str, Any]:
    from dos.rules.official.views import public_json

    return public_json(state, history)


def _private(state: Any, seat: int) -> dict[str, Any]:
    from dos.rules.official.views import private_json

    return private_json(state, seat)


def _seat_view(data: dict[str, Any]) -> Any:
    from dos.agents.seat_view import official_view

    return official_view(data)


def _bots() -> BotKit:
    from dos.bots.kits import OFFICIAL_BOTS

    return OFFICIAL_BOTS


def _fast_core() -> Core:
    from dos.fast.official_api import CORE

    return CORE


def _codec(players: int, **options: Any) -> Codec:
    from dos.rl.codec import OfficialCodec

    return OfficialCodec(players, **options)


def _text() -> TextView:
    from dos.agents.text import OFFICIAL_TEXT

    return OFFICIAL_TEXT


def _explainer() -> Explainer:
    from dos.i18n.explain import OFFICIAL_WORDS

    return OFFICIAL_WORDS


def _terminal() -> Terminal:
    from dos.tui.terminals import OFFICIAL_TERMINAL

    return OFFICIAL_TERMINAL


def _arena_game(spec: GameSpec) -> PlayedGame:
    from dos.arena.played import play_official

    return play_official(spec)


def _options(data: Mapping[str, Any]) -> Any:
    from dos.rules.official import Options

    return Options.from_json(dict(data))


def _ranks(result: dict[str, Any], players: int) -> list[int]:
    from dos.ratings.ranks import official_ranks

    return official_ranks(result, players)


OFFICIAL = Entry(
    name="official",
    rules=_rules,
    summary="the official DOS rules (Mattel, 2018): rounds to a target score",
    target_score=True,
    dos_race=True,
    fast_rl=True,
    public_json=_public,
    private_json=_private,
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
"""The official rule set's entry."""
