"""The registry entry of the official rule set (RULES.md §1-§8): what each layer needs of it.

Every layer is named by its module and imported when a caller asks for it, never on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dos.ruleset import Entry, deferred, loaded


def _options(data: Mapping[str, Any]) -> Any:
    from dos.rules.official import Options

    return Options.from_json(dict(data))


OFFICIAL = Entry(
    name="official",
    rules=loaded("dos.rules.official:RULES"),
    summary="the official DOS rules (Mattel, 2018): rounds to a target score",
    target_score=True,
    dos_race=True,
    is_call=deferred("dos.rules.official.actions:is_call"),
    hints=True,
    reviews=True,
    fast_rl=True,
    public_json=deferred("dos.rules.official.views:public_json"),
    private_json=deferred("dos.rules.official.views:private_json"),
    seat_view=deferred("dos.rules.official.views:view_from_json"),
    bots=loaded("dos.bots.kits:OFFICIAL_BOTS"),
    fast_core=loaded("dos.fast.official_api:CORE"),
    codec=deferred("dos.rl.codec:OfficialCodec"),
    text=loaded("dos.agents.text:OFFICIAL_TEXT"),
    explainer=loaded("dos.i18n.explain:OFFICIAL_WORDS"),
    terminal=loaded("dos.tui.terminals:OFFICIAL_TERMINAL"),
    arena_game=deferred("dos.arena.played:play_official"),
    options=_options,
    ranks=deferred("dos.ratings.ranks:official_ranks"),
)
"""The official rule set's entry."""
