"""``dos play``: checks the command line's choices, then runs the terminal application.

A newcomer's first table is not lost before they play: without ``--level`` the
bots play at ``easy`` until a game has been finished, then at the level last chosen with
``--level`` (``medium`` if none). ``dos play`` remembers both in a small file
(``memory_path``: ``$XDG_STATE_HOME/dos/play.json``, by default under ``~/.local/state``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from dos import records, ruleset
from dos.errors import DosError
from dos.i18n import LANGS, catalog, text

DEFAULT_TARGET = 200
"""The official target score (RULES.md §7)."""

NEWCOMER_LEVEL = "easy"
"""The bots' level until a first game is finished: they lose, and the rules are learnt."""
RETURNING_LEVEL = "medium"
"""The bots' level after a finished game, for a player who never chose one."""


class PlayError(DosError):
    """A ``dos play`` option that cannot be used (the CLI exits with status 2)."""


def _read_record(path: str) -> records.Record:
    try:
        data = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise PlayError(f"{path}: cannot read: {error.strerror}") from None
    return records.loads(data)


def memory_path() -> Path:
    """Where ``dos play`` remembers a finished game and the last level chosen."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "dos" / "play.json"


def load_memory(path: Path) -> dict[str, Any]:
    """What ``dos play`` remembers (``{"finished": bool, "levels": {rules: level}}``); an
    absent or unreadable file is a newcomer's empty memory."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_memory(path: Path, memory: dict[str, Any]) -> None:
    """Writes the memory; a home that cannot be written only loses it (the game was played)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(memory, sort_keys=True), encoding="utf-8")
    except OSError:
        pass


def default_level(levels: list[str], memory: dict[str, Any], rules: str) -> str:
    """The level of a table whose player named none: the last one they chose for ``rules``,
    else ``easy`` until they finished a game, then ``medium``.

    >>> default_level(["easy", "medium", "hard"], {}, "official")
    'easy'
    >>> default_level(["easy", "medium", "hard"], {"finished": True}, "official")
    'medium'
    >>> default_level(["easy", "medium"], {"levels": {"official": "hard"}}, "official")
    'easy'
    """
    kept = memory.get("levels", {}).get(rules) if isinstance(memory.get("levels"), dict) else None
    if kept in levels:
        return str(kept)
    wanted = RETURNING_LEVEL if memory.get("finished") is True else NEWCOMER_LEVEL
    return wanted if wanted in levels else levels[0]


def level_words(level: str, rules: str = ruleset.DEFAULT, lang: str = "en") -> str:
    """A level's strength in words (``easy: plays any legal move at random; ...``).

    >>> level_words("easy").startswith("easy: plays any legal move")
    True
    """
    # A rule set whose levels play differently has words of its own for them.
    own = f"guide.level_words_{rules}_{level}"
    words = own if own in catalog(lang) else f"guide.level_words_{level}"
    name = text(lang, f"web.level_{level}")
    return text(lang, "guide.level_said", level=name, words=text(lang, words))


def levels_help(bot_levels: dict[str, list[str]]) -> str:
    """``--level``'s help: each level's strength in words (the default rule set's levels),
    and the default."""
    levels = bot_levels.get(ruleset.DEFAULT, [])
    described = "; ".join(level_words(level) for level in levels)
    return (
        f"the bots' level: {described}. Default: {NEWCOMER_LEVEL} until you have finished a "
        f"game, then the level you last chose ({RETURNING_LEVEL} if none)"
    )


def build_app(
    *,
    players: int = 2,
    level: str | None = None,
    lang: str = "en",
    seed: int = 0,
    target: int | None = None,
    save: str | None = None,
    resume: str | None = None,
    replay: str | None = None,
    rules: str | None = None,
    bots: str | None = None,
    memory: dict[str, Any] | None = None,
) -> object:
    """The application ``dos play`` runs (a ``DosApp``), after checking every choice.

    ``bots`` names the bot of every other seat instead of ``level``: any name
    ``dos.bots.registry.make_player`` takes (a bot, a level, ``policy:FILE`` or your own
    ``FILE.py:CLASS``), made for this table first so that a refusal comes before the game.

    ``level`` ``None``: ``default_level`` of ``memory`` (what ``dos play`` remembers; none:
    a newcomer's, ``easy``).

    ``rules`` is a rule set with a terminal client (``playable_rules``: ``official`` or
    ``classic``, RULES.md §9); ``None``: the rule set of the record resumed or replayed, else
    ``ruleset.DEFAULT``. A record says its rule set: ``rules``, when
    given, must agree with it. ``target`` is the official target score (default 200); the
    classic rules have none (a ranking), so it is refused with them."""
    playable = playable_rules()
    if rules is not None and rules not in playable:
        raise PlayError(f"--rules: {' or '.join(playable)}, not {rules!r}")
    if not 2 <= players <= 4:
        raise PlayError(f"--players: 2 to 4, not {players}")
    if lang not in LANGS:
        raise PlayError(f"--lang: one of {', '.join(LANGS)}, not {lang!r}")
    path = replay if replay is not None else resume
    record = None if path is None else _read_record(path)
    if record is not None:
        if record.rules not in playable:
            raise PlayError(f"{path}: a record of {record.rules!r} rules cannot be played here")
        if rules is not None and rules != record.rules:
            option = "--replay" if replay is not None else "--resume"
            raise PlayError(
                f"--rules {rules}: {path} is a record of a {record.rules} game; "
                f"leave --rules out ({option} takes the rule set from the record)"
            )
        rules = record.rules
    rules = rules or ruleset.DEFAULT
    entry = ruleset.entry(rules)
    levels = entry.bots().levels() if entry.bots is not None else []
    if level is None:
        level = default_level(levels, memory or {}, rules)
    if level not in levels:
        raise PlayError(f"--level: one of {', '.join(levels)}, not {level!r}")
    if bots is not None:
        level = _checked_bots(bots, rules, players if record is None else None)
    if not entry.target_score and target is not None:
        raise PlayError(
            f"--target: the {rules} rules have no target score (play goes on to a full "
            "ranking); leave --target out"
        )
    if target is not None and target < 1:
        raise PlayError("--target: must be at least 1")
    from dos.tui.app import DosApp, Settings

    save_path = Path(save) if save else (Path(resume) if resume else None)
    settings = Settings(
        players, level, lang, seed, target or DEFAULT_TARGET, save_path, rules=rules
    )
    if replay is not None:
        assert record is not None
        records.replay(record)  # checks every action before showing any
        return DosApp(settings, replay=record, replay_title=Path(replay).name)
    if record is not None:
        return DosApp(settings, resume=record)
    return DosApp(settings)


def playable_rules() -> tuple[str, ...]:
    """The rule sets the terminal client plays: those whose registry entry has a terminal.

    >>> playable_rules()[:2]
    ('official', 'classic')
    """
    return tuple(e.name for e in ruleset.entries() if e.terminal is not None)


def _checked_bots(name: str, rules: str, players: int | None) -> str:
    """``name`` once a player of it is made for the table (``--bots``), else ``PlayError``."""
    from dos.bots.registry import make_player

    try:
        make_player(name, rules, players=players)
    except DosError as error:
        raise PlayError(f"--bots: {error}") from None
    except (OSError, ValueError) as error:
        raise PlayError(f"--bots: {name!r} cannot be loaded: {error}") from None
    return name


def play(**options: object) -> None:
    """Builds the application (``build_app``) and runs it until the person quits; remembers
    the level chosen with ``--level`` and whether a game was finished (``memory_path``)."""
    from dos.tui.app import DosApp

    path = memory_path()
    memory = load_memory(path)
    app = build_app(**options, memory=memory)  # type: ignore[arg-type]
    assert isinstance(app, DosApp)
    remember_choice(memory, options.get("level"), app.settings.rules, options.get("bots"))
    seed = app.settings.seed
    app.run()
    if app.replay is None and finished(app, seed):
        memory["finished"] = True
    save_memory(path, memory)


def remember_choice(memory: dict[str, Any], level: object, rules: str, bots: object) -> None:
    """Keeps a level named with ``--level`` (not ``--bots``) as the rule set's next default."""
    if isinstance(level, str) and bots is None:
        kept = memory.get("levels")
        memory["levels"] = {**(kept if isinstance(kept, dict) else {}), rules: level}


def finished(app: object, first_seed: int) -> bool:
    """Whether a game of this run came to its end: the last one is over, or a new game
    (the next seed) followed a finished one."""
    from dos.tui.app import DosApp

    assert isinstance(app, DosApp)
    over = app.controller is not None and app.controller.over
    return over or app.settings.seed != first_seed
