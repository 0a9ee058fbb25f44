"""What a rated game requires, and whose games move whose rating (``docs/ratings.md``).

Every rule against bought ratings is here, with its constants:

* **Long enough**: an ``official`` game counts only if its target score is at least
  ``MIN_TARGET`` (a game to 1 point is one hand, over in seconds). A ``classic`` game has no
  target: it is always one full deal played out to a full ranking, and no option shortens it,
  so every finished classic game is long enough.
* **Standing**: a person is *established* in a category (rule set and number of seats) once
  ``ESTABLISHED_GAMES`` games have counted for them in it, *provisional* before. A bot level
  (``bot:<level>``) always has standing as an opponent.
* **Whose games move whom**: a person's rating moves only from the bots and established
  persons at the table; a bot level's only from the established persons (never from
  provisional persons, nor from other bots). A player with no such opponent is not moved,
  and the game does not count for it.
* **Two boards** (``board_of``): the *people's* board lists established persons only; the
  *bots'* board the bot levels and the established AI players (players who play through the
  agent API or MCP: their own bots, learned policies, language models). Both boards are views
  of the one rating each player has, on the same scale: a person sees where they stand
  against ``hard`` in the same numbers, and a bot builder where their bot stands against the
  levels and the other bots. An AI player has standing as a person has (10 counted games):
  AI players cost as little to make as guests do, so the same rules keep them from buying
  ratings.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from dos import ruleset

MIN_TARGET = 100
"""The lowest target score of a rated official game (the default is 200)."""

ESTABLISHED_GAMES = 10
"""The games that must have counted for a person in a category before they are established:
their games then move the bots' ratings, other persons' too, and they are on the board."""

BOT_PREFIX = "bot:"
"""The player id of a bot level is this prefix and the level."""

PEOPLE = "people"
"""The board of the established persons."""
BOTS = "bots"
"""The board of the bot levels and the established AI players."""
BOARDS = (PEOPLE, BOTS)
"""The leaderboards, people's first (the default)."""


def is_bot(player_id: str) -> bool:
    """Whether a rated player is a bot level.

    >>> is_bot("bot:hard"), is_bot("p_ada")
    (True, False)
    """
    return player_id.startswith(BOT_PREFIX)


def established(player_id: str, games: int) -> bool:
    """Whether a person with ``games`` counted games in a category is established (a bot
    level always counts as established: it is never provisional).

    >>> established("p_ada", 9), established("p_ada", 10), established("bot:easy", 0)
    (False, True, True)
    """
    return is_bot(player_id) or games >= ESTABLISHED_GAMES


def provisional(player_id: str, games: int) -> bool:
    """Whether a rating is provisional: a person's, before ``ESTABLISHED_GAMES`` games."""
    return not established(player_id, games)


def _official_target(options: Mapping[str, Any]) -> int | None:
    from dos.rules.official.options import Options

    target = options.get("target_score", Options(players=2).target_score)
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def board_of(player_id: str, games: int, ai: bool) -> str | None:
    """The board that lists a player with ``games`` counted games in a category (``ai``:
    it played through the agent API or MCP), or ``None`` while it is provisional.

    >>> board_of("bot:hard", 0, False), board_of("p_ada", 10, False), board_of("p_bot", 12, True)
    ('bots', 'people', 'bots')
    >>> board_of("p_new", 3, True) is None
    True
    """
    if not established(player_id, games):
        return None
    return BOTS if is_bot(player_id) or ai else PEOPLE


def long_enough(rules: str, options: Mapping[str, Any]) -> bool:
    """Whether a finished game of ``rules`` with these stored options is long enough to be
    rated (an unknown rule set is not).

    >>> long_enough("official", {"target_score": 1}), long_enough("official", {})
    (False, True)
    >>> long_enough("classic", {"players": 2})
    True
    """
    entry = ruleset.find(rules)
    if entry is None or entry.ranks is None:
        return False
    if entry.target_score:
        target = _official_target(options)
        return target is not None and target >= MIN_TARGET
    return True


def opponents_with_standing(
    players: Sequence[str], established_persons: Collection[str]
) -> dict[str, set[str]]:
    """For each player of a game (``players[seat]``, a player may hold several seats), the
    opponents whose result moves its rating: for a person, the bot levels and the established
    persons at the table; for a bot level, the established persons only.

    >>> got = opponents_with_standing(["p_new", "bot:easy", "p_old"], {"p_old"})
    >>> {player: sorted(them) for player, them in got.items()}
    {'p_new': ['bot:easy', 'p_old'], 'bot:easy': ['p_old'], 'p_old': ['bot:easy']}
    """
    seated = list(dict.fromkeys(players))
    standing: dict[str, set[str]] = {}
    for player in seated:
        others = (other for other in seated if other != player)
        if is_bot(player):
            standing[player] = {o for o in others if not is_bot(o) and o in established_persons}
        else:
            standing[player] = {o for o in others if is_bot(o) or o in established_persons}
    return standing
