"""``dos play``: checks the command line's choices, then runs the terminal application."""

from __future__ import annotations

from pathlib import Path

from dos import records, ruleset
from dos.errors import DosError
from dos.i18n import LANGS

DEFAULT_TARGET = 200
"""The official target score (RULES.md §7)."""


class PlayError(DosError):
    """A ``dos play`` option that cannot be used (the CLI exits with status 2)."""


def _read_record(path: str) -> records.Record:
    try:
        data = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise PlayError(f"{path}: cannot read: {error.strerror}") from None
    return records.loads(data)


def build_app(
    *,
    players: int = 2,
    level: str = "medium",
    lang: str = "en",
    seed: int = 0,
    target: int | None = None,
    save: str | None = None,
    resume: str | None = None,
    replay: str | None = None,
    rules: str | None = None,
    bots: str | None = None,
) -> object:
    """The application ``dos play`` runs (a ``DosApp``), after checking every choice.

    ``bots`` names the bot of every other seat instead of ``level``: any name
    ``dos.bots.registry.make_player`` takes (a bot, a level, ``policy:FILE`` or your own
    ``FILE.py:CLASS``), made for this table first so that a refusal comes before the game.

    ``rules`` is ``official`` or ``classic`` (RULES.md §9); ``None``: the rule set of the
    record resumed or replayed, else ``official``. A record says its rule set: ``rules``, when
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
    rules = rules or "official"
    entry = ruleset.entry(rules)
    levels = entry.bots().levels() if entry.bots is not None else []
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
    """Builds the application (``build_app``) and runs it until the person quits."""
    from dos.tui.app import DosApp

    app = build_app(**options)  # type: ignore[arg-type]
    assert isinstance(app, DosApp)
    app.run()
