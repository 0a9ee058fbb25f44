"""Your own bot, by path: ``FILE.py:CLASS`` wherever a bot name is taken (``dos tournament``,
``dos ladder``, ``dos watch``, ``dos play --bots``, ``dos agent-play``), with no change to the
registry (``docs/bots.md``, "Write your own bot").

**Loading a file runs its code**, as ``python FILE.py`` would: name only files you trust.
The file is imported once per process as a module of its own (its folder is put on the
import path, so it may import its neighbours), and the class is made with no arguments.

What a class must be, each checked before the first game with a refusal that names the
problem (``BotFileError``; the commands exit with status 2):

* a class (``CLASS``; a file holding exactly one bot class may leave ``:CLASS`` out);
* a bot: a ``choose(view, rng, budget)`` method and a ``name`` (a short string);
* for the table's rule set: a class says which it plays with ``rules = "official"`` or
  ``rules = "classic"`` (any rule set with bots, ``dos rules``); without it, the annotation
  of ``choose``'s ``view`` decides (the rule set whose package defines that ``SeatView``),
  and failing that it plays the default rules (``dos.ruleset.DEFAULT``, the official ones);
* made without arguments.

Optional class attributes: ``reflex`` (a ``dos.bots.reflex.Reflex``: its DOS calls and
catches in simulated races; the bare bots' by default) and ``budget`` (a
``dos.bots.base.Budget``, handed to ``choose``; 400 iterations or 1 s by default, the classic
default 200 or 0.5 s).

>>> is_file_bot("bots/mine.py:MyBot"), is_file_bot("mine.py"), is_file_bot("greedy")
(True, True, False)
>>> split_name("C:/bots/mine.py:MyBot")
('C:/bots/mine.py', 'MyBot')
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import re
import sys
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dos import ruleset
from dos.bots.answers import Checked
from dos.bots.base import Budget
from dos.bots.reflex import Reflex
from dos.errors import DosError

_NAME = re.compile(r"^(?P<path>.+\.py)(?::(?P<cls>[A-Za-z_][A-Za-z0-9_]*))?$")


class BotFileError(DosError, ValueError):
    """A bot named by path that cannot play here: the file, the class, or the rule set."""


def is_file_bot(name: str) -> bool:
    """Whether ``name`` names a bot by path: ``FILE.py`` or ``FILE.py:CLASS``."""
    return _NAME.match(name) is not None


def split_name(name: str) -> tuple[str, str | None]:
    """The file and the class (``None``: not said) of a ``FILE.py[:CLASS]`` name."""
    found = _NAME.match(name)
    if found is None:
        raise BotFileError(f"{name!r}: a bot by path is FILE.py:CLASS")
    return found["path"], found["cls"]


@dataclass(frozen=True, slots=True)
class FileBot:
    """A bot class loaded from a file, and what it plays with."""

    cls: type
    rules: str
    reflex: Reflex
    budget: Budget | None
    """``None``: the rule set's default."""

    def make(self, name: str) -> Any:
        """A new bot of the class (``name``: the bot's name on the command line, for
        messages), its answers checked to be actions (``dos.bots.answers.Checked``)."""
        return Checked(self.instance(name))

    def instance(self, name: str) -> Any:
        """A new bot of the class itself (``name`` as for ``make``)."""
        try:
            return self.cls()
        except Exception as error:
            raise BotFileError(
                f"{name}: {self.cls.__name__}() failed ({type(error).__name__}: {error}); "
                "a bot by path is made with no arguments"
            ) from None


_loaded: dict[tuple[str, int, int], Any] = {}
"""Modules loaded, by resolved path, modification time and size: a file is run once per
process (a tournament makes a bot for every game), again only once it changed."""


def _module(path: Path, shown: str) -> Any:
    try:
        stat = path.stat()
    except OSError:
        raise BotFileError(f"{shown}: no such file") from None
    if not path.is_file():
        raise BotFileError(f"{shown}: not a file")
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    module = _loaded.get(key)
    if module is not None:
        return module
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    module_name = f"dos_user_bot_{path.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BotFileError(f"{shown}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)  # its neighbours import as they would for a script
    sys.modules[module_name] = module  # dataclasses and pickling look classes up there
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise BotFileError(f"{shown}: running it failed: {type(error).__name__}: {error}") from None
    _loaded[key] = module
    return module


def _is_bot_class(value: object) -> bool:
    return inspect.isclass(value) and callable(getattr(value, "choose", None))


def playable() -> list[str]:
    """The rule sets a bot may play: those with bots (``dos.ruleset.Entry.bots``).

    >>> playable()[:2]
    ['official', 'classic']
    """
    return [entry.name for entry in ruleset.entries() if entry.bots is not None]


def _either(names: Sequence[str], form: str = "{!r}") -> str:
    """``names`` as choices in words: ``'official' or 'classic'``."""
    return " or ".join(form.format(name) for name in names)


def _package(engine: object) -> str:
    """The package (or the module, for a rule set in one module) that defines ``engine``."""
    module = type(engine).__module__
    return getattr(sys.modules.get(module), "__package__", None) or module


def _rules_of(view: object) -> str | None:
    """The rule set whose engine's package defines the type ``view``, if one does."""
    module = getattr(view, "__module__", "")
    for entry in ruleset.entries():
        if entry.bots is None:
            continue
        package = _package(entry.rules())
        if module == package or module.startswith(package + "."):
            return entry.name
    return None


def _declared_rules(cls: type) -> str | None:
    """The rule set a class says it plays: its ``rules``, else its ``choose``'s annotation."""
    declared = getattr(cls, "rules", None)
    if isinstance(declared, str):
        return declared
    try:
        hints = typing.get_type_hints(cls.choose)  # type: ignore[attr-defined]
    except Exception:
        return None
    return _rules_of(hints.get("view"))


def load(name: str) -> FileBot:
    """The bot class a ``FILE.py[:CLASS]`` name names, checked (``BotFileError`` says what is
    wrong: no such file, no such class, not a bot, an unknown rule set, a bad ``reflex`` or
    ``budget``)."""
    path_text, class_name = split_name(name)
    path = Path(path_text).expanduser().resolve()
    module = _module(path, path_text)
    bots = sorted(
        key
        for key, value in vars(module).items()
        if _is_bot_class(value) and value.__module__ == module.__name__
    )
    if class_name is None:
        if len(bots) != 1:
            found = f"it has {', '.join(bots)}" if bots else "it has none"
            raise BotFileError(
                f"{path_text}: name the bot class, as {path_text}:CLASS "
                f"(a class with a choose method; {found})"
            )
        class_name = bots[0]
    cls = getattr(module, class_name, None)
    if cls is None:
        found = f"bot classes in it: {', '.join(bots)}" if bots else "it has no bot class"
        raise BotFileError(f"{path_text}: no class {class_name!r} ({found})")
    if not inspect.isclass(cls):
        raise BotFileError(f"{path_text}:{class_name} is not a class")
    if not callable(getattr(cls, "choose", None)):
        raise BotFileError(
            f"{path_text}:{class_name} is not a bot: it has no choose(view, rng, budget) "
            "method (docs/bots.md)"
        )
    if not isinstance(getattr(cls, "name", None), str):
        raise BotFileError(
            f"{path_text}:{class_name} is not a bot: give it a name, a class attribute "
            'such as name = "mine" (docs/bots.md)'
        )
    rules = _declared_rules(cls) or ruleset.DEFAULT
    if rules not in playable():
        raise BotFileError(
            f"{path_text}:{class_name}: rules = {rules!r}; a bot plays {_either(playable())}"
        )
    reflex = getattr(cls, "reflex", Reflex())
    if not isinstance(reflex, Reflex):
        raise BotFileError(f"{path_text}:{class_name}: reflex must be a dos.bots.reflex.Reflex")
    budget = getattr(cls, "budget", None)
    if budget is not None and not isinstance(budget, Budget):
        raise BotFileError(f"{path_text}:{class_name}: budget must be a dos.bots.base.Budget")
    return FileBot(cls, rules, reflex, budget)


def load_for(name: str, rules: str) -> FileBot:
    """``load(name)``, refused (``BotFileError``) unless the bot plays ``rules``."""
    bot = load(name)
    if bot.rules != rules:
        says = _either(playable(), 'rules = "{}"')
        raise BotFileError(
            f"{name} plays the {bot.rules} rules, not the {rules} rules of this table "
            f"(a bot class says which it plays: {says})"
        )
    return bot
