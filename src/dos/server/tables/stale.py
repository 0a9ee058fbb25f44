"""Which version an action may be made on: the current one, or one that only calls followed.

A client acts on the last state it received, and says which (``version``). An action made on
an older state is refused as ``stale``: that is what makes the DOS race fair (RULES.md §6:
of a call and a catch sent on the same version, the first accepted wins and the other is too
late). But a "DOS!" call changes nothing another seat may do except catch the caller, so an
action made on the version before a call means the same after it: a person who draws while a
bot calls would otherwise be told "too late" for a draw nobody changed. Such an action is
taken if it is still legal; one that the calls made illegal (a catch of the caller) lost the
race and is refused as ``stale``.
"""

from __future__ import annotations

from dos.ruleset import Entry
from dos.server.protocol.refusals import RefusedError
from dos.server.storage.table_store import StoredGame


def only_calls_since(entry: Entry, game: StoredGame | None, version: int) -> bool:
    """Whether ``game`` has moved on from ``version`` by "DOS!" calls alone (a rule set
    without calls: never). The current version itself is not "since" anything: ``False``."""
    is_call = entry.is_call
    if is_call is None or game is None or not 0 <= version < len(game.actions):
        return False
    rules = entry.rules()
    return all(is_call(rules.parse_action(text)) for text in game.actions[version:])


def stale(current: int, version: int) -> RefusedError:
    """The refusal of an action made on ``version`` when the game is at ``current``."""
    return RefusedError(
        "stale",
        f"the game is at version {current}, the action was made on version {version}: look again",
    )
