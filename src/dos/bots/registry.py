"""Bots and difficulty levels by name: what ``dos tournament --bots`` and the clients accept.

A *bot* name gives the bot with diligent reflexes and a default budget; a *level* name
(``easy``, ``medium``, ``hard``) gives the bot, reflexes and budget that level stands for
(``docs/bots.md``).

Each rule set has its own bots under the same names, in its bot kit (its registry entry's
``bots``, ``dos.bots.kits``): ``make_player(name, rules)`` asks the kit of ``rules``, so that
``make_player(name)`` builds a player of the default rules (``dos.ruleset.DEFAULT``, the
official ones), ``make_player(name, "classic")`` a classic one (``dos.bots.classic``, RULES.md
§9).

``policy:FILE`` names a trained policy, played by the RL layer's bot (``dos.rl.policy_bot``,
imported by name only when asked: the bots never import the RL layer), which plays only the
rule set and player count it was trained for: ``make_player(name, rules, players=n)`` refuses
any other table (``PolicyRefusedError``), so every caller that knows its table says it.

``FILE.py:CLASS`` names your own bot class in a file (``dos.bots.loading``): loaded (its code
run) and checked when the player is made, refused (``BotFileError``) for a missing file or
class, a class that is not a bot, or a bot of the other rule set.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, overload

from dos import ruleset
from dos.bots import loading
from dos.bots.base import Bot, Budget
from dos.bots.loading import is_file_bot
from dos.bots.reflex import Reflex
from dos.play.official import Player
from dos.rules import classic as classic_rules
from dos.rules import official as official_rules

if TYPE_CHECKING:
    from dos.play.bot import ClassicBot
    from dos.play.classic import ClassicPlayer

BOTS: dict[str, str] = {
    "random": "dos.bots.random_bot:RandomBot",
    "greedy": "dos.bots.greedy:GreedyBot",
    "mcts": "dos.bots.mcts:MctsBot",
    "sage": "dos.bots.sage:SageBot",
}
"""Bot name -> ``module:class``; the class takes keyword settings."""

LEVELS: dict[str, tuple[str, dict[str, Any], Reflex, Budget]] = {
    "easy": (
        "random",
        {},
        Reflex(call_reliability=0.6, catch_reliability=0.3, reaction=2.0),
        Budget(),
    ),
    "medium": (
        "greedy",
        {},
        Reflex(call_reliability=0.9, catch_reliability=0.6, reaction=1.2, own_call=0.5),
        Budget(),
    ),
    # The bare `mcts` bot is hard's search with the bare bots' reflexes (`mcts` against `greedy`
    # measures the search alone); the level adds quicker reflexes, as a strong player has.
    "hard": (
        "mcts",
        {"search": "flat", "prior": "greedy"},
        Reflex(call_reliability=1.0, catch_reliability=0.9, reaction=0.8, own_call=0.0),
        Budget(iterations=400, seconds=1.0),
    ),
    # The bare `sage` bot is expert's play with the bare bots' reflexes; the level calls DOS
    # with its move and catches like a quick human.
    "expert": (
        "sage",
        {},
        Reflex(call_reliability=1.0, catch_reliability=0.95, reaction=0.6, own_call=0.0),
        Budget(iterations=800, seconds=1.0),
    ),
}
"""Level -> (bot name, bot settings, reflexes, budget)."""

DEFAULT_BUDGET = Budget(iterations=400, seconds=1.0)

BOT_BUDGETS: dict[str, Budget] = {"sage": LEVELS["expert"][3]}
"""A bare bot's budget where it is not ``DEFAULT_BUDGET``: ``sage`` thinks as ``expert`` does."""

SEARCH_BOTS = frozenset({"mcts", "sage"})
"""The bots (of either rule set) that search: a decision takes up to its budget's time."""


CLASSIC_BOTS: dict[str, str] = {
    "random": "dos.bots.classic.random_bot:ClassicRandomBot",
    "greedy": "dos.bots.classic.greedy:ClassicGreedyBot",
    "mcts": "dos.bots.classic.mcts:ClassicMctsBot",
    "sage": "dos.bots.classic.sage:ClassicSageBot",
}
"""Classic bot name -> ``module:class``; the class takes keyword settings."""

CLASSIC_LEVELS: dict[str, tuple[str, dict[str, Any], tuple[float, float], Budget]] = {
    "easy": ("random", {}, (1.6, 0.1), Budget()),
    "medium": ("greedy", {}, (1.0, 0.03), Budget()),
    "hard": ("mcts", {}, (0.7, 0.0), Budget(iterations=200, seconds=0.5)),
    "expert": ("sage", {}, (0.5, 0.0), Budget(iterations=200, seconds=0.5)),
}
"""Classic level -> (bot name, bot settings, reaction test reflex as (seconds per target,
chance of missing a target), budget). With the default 3 s limit ``easy`` fails about 72% of
its two-target tests (12% at one target), ``medium`` 9% (3%), ``hard`` and ``expert``
practically never. ``expert`` is the ``sage`` search (``dos.bots.classic.sage``), whose
iteration is one determinization with every legal action simulated on it."""

CLASSIC_DEFAULT_BUDGET = Budget(iterations=200, seconds=0.5)


POLICY_PREFIX = "policy:"
"""``policy:FILE`` names a trained policy file (``POLICY_BOT``): a name of either rule set, so
that a policy at a table it does not play is refused by the policy itself, saying what it
plays."""

POLICY_BOT = "dos.rl.policy_bot"
"""The module of the bot that plays a ``policy:FILE`` (``PolicyBot``, ``load_for``,
``PolicyRefusedError``): the RL layer's, above the bots, so it is named here and imported only
when a policy is asked for, as ``BOTS`` names the other bots' classes."""


def _policy_bot() -> ModuleType:
    """The policy bot's module (``POLICY_BOT``), imported now."""
    return importlib.import_module(POLICY_BOT)


class _Names(list[str]):
    """The known names; ``in`` also accepts any ``policy:FILE`` and any ``FILE.py[:CLASS]``
    (checked when it is loaded)."""

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or (
            isinstance(name, str)
            and ((name.startswith(POLICY_PREFIX) and len(name) > 7) or is_file_bot(name))
        )


def names(rules: str = ruleset.DEFAULT) -> list[str]:
    """Every name ``make_player`` accepts for the rule set ``rules`` (none if it has no bots),
    and any ``policy:FILE`` or ``FILE.py[:CLASS]`` (checked against the table when it is
    loaded); raises ``ValueError`` for an unknown rule set.

    >>> names() == names("classic") == [
    ...     "random", "greedy", "mcts", "sage", "easy", "medium", "hard", "expert"
    ... ]
    True
    >>> "policy:trained.npz" in names() and "policy:trained.npz" in names("classic")
    True
    >>> "bots/mine.py:MyBot" in names()
    True
    """
    kit = ruleset.entry(rules).bots
    return _Names(kit().names() if kit is not None else [])


def make_bot(name: str, **settings: Any) -> Bot:
    """A bot by name; raises ``ValueError`` listing the known names."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    module, _, cls = BOTS[name].partition(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(**settings)
    return bot


def make_classic_bot(name: str, **settings: Any) -> ClassicBot:
    """A classic bot by name; raises ``ValueError`` listing the known names."""
    if name not in CLASSIC_BOTS:
        raise ValueError(f"unknown classic bot {name!r} (known: {', '.join(CLASSIC_BOTS)})")
    module, _, cls = CLASSIC_BOTS[name].partition(":")
    bot: ClassicBot = getattr(importlib.import_module(module), cls)(**settings)
    return bot


@overload
def make_player(name: str, *, players: int | None = None) -> Player: ...
@overload
def make_player(name: str, rules: str, *, players: int | None = None) -> Any: ...


def make_player(name: str, rules: str = ruleset.DEFAULT, *, players: int | None = None) -> Any:
    """A seat's player for a bot or a level name, made by the bot kit of the rule set
    ``rules`` (its registry entry's ``bots``), at a table of ``players`` seats (``None``: not
    said; a ``policy:FILE`` then checks its first view). Its type is the kit's: a ``Player``
    for the default (official) rules, a ``ClassicPlayer`` for the classic ones. A
    ``policy:FILE`` that plays another game raises ``PolicyRefusedError``; a rule set without
    bots, ``ValueError``.

    >>> type(make_player("medium", "classic").bot).__module__
    'dos.bots.classic.greedy'
    """
    kit = ruleset.entry(rules).bots
    if kit is None:
        raise ValueError(f"no bots play the {rules} rules")
    return kit().make_player(name, players)


def official_player(name: str, players: int | None) -> Player:
    """An official seat's player for a bot or a level name (``make_player``)."""
    if name in LEVELS:
        bot, settings, reflex, budget = LEVELS[name]
        return Player(make_bot(bot, **settings), reflex, budget)
    if name in BOTS:
        return Player(make_bot(name), Reflex(), BOT_BUDGETS.get(name, DEFAULT_BUDGET))
    rules = official_rules.RULES.name
    if name.startswith(POLICY_PREFIX):
        policy: Bot = _policy_bot().PolicyBot(name[len(POLICY_PREFIX) :], rules, players)
        return Player(policy, Reflex(), DEFAULT_BUDGET)
    if is_file_bot(name):
        own = loading.load_for(name, rules)
        return Player(own.make(name), own.reflex, own.budget or DEFAULT_BUDGET)
    raise ValueError(f"unknown bot or level {name!r} (known: {', '.join(names(rules))})")


def classic_player(name: str, players: int | None) -> ClassicPlayer:
    """A classic seat's player for a bot or a level name (``make_player``)."""
    from dos.bots.classic.base import ReactionReflex
    from dos.play.classic import ClassicPlayer

    rules = classic_rules.RULES.name
    if name.startswith(POLICY_PREFIX):
        policy_bot = _policy_bot()
        # Trained policies play the official rules: this refuses, saying what the file plays.
        policy_bot.load_for(name[len(POLICY_PREFIX) :], rules, players)
        raise policy_bot.PolicyRefusedError(f"{name}: policies play the official rules only")
    if name in CLASSIC_LEVELS:
        bot, settings, (seconds, miss), budget = CLASSIC_LEVELS[name]
        reflex = ReactionReflex(seconds_per_target=seconds, miss=miss)
        return ClassicPlayer(make_classic_bot(bot, reaction=reflex, **settings), budget)
    if name in CLASSIC_BOTS:
        return ClassicPlayer(make_classic_bot(name), CLASSIC_DEFAULT_BUDGET)
    if is_file_bot(name):
        own = loading.load_for(name, rules)
        return ClassicPlayer(own.make(name), own.budget or CLASSIC_DEFAULT_BUDGET)
    raise ValueError(f"unknown classic bot or level {name!r} (known: {', '.join(names(rules))})")


def warm_up() -> None:
    """Readies the compiled rollouts of both rule sets' search bots (compiled on a machine's
    first use, under a minute; loaded from the disk cache after), once per process and only
    where the fast core is installed, so that no game's first searched move waits for it."""
    from dos.bots import mcts
    from dos.bots.classic import sage

    if mcts.fast_installed():
        mcts.warm_up()
    if sage.fast_installed():
        sage.warm_up()
