"""``dos play``: checks the command line's choices, then runs the terminal application."""

from __future__ import annotations

from pathlib import Path

from dos import records
from dos.bots.registry import CLASSIC_LEVELS, LEVELS
from dos.errors import DosError
from dos.i18n import LANGS


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
    target: int = 200,
    save: str | None = None,
    resume: str | None = None,
    replay: str | None = None,
    rules: str = "official",
) -> object:
    """The application ``dos play`` runs (a ``DosApp``), after checking every choice.
    ``rules`` is ``official`` or ``classic`` (RULES.md §9: ``--target``, ``--resume`` and
    ``--replay`` are for official games)."""
    if rules not in ("official", "classic"):
        raise PlayError(f"--rules: official or classic, not {rules!r}")
    if not 2 <= players <= 4:
        raise PlayError(f"--players: 2 to 4, not {players}")
    levels = CLASSIC_LEVELS if rules == "classic" else LEVELS
    if level not in levels:
        raise PlayError(f"--level: one of {', '.join(levels)}, not {level!r}")
    if rules == "classic" and (resume is not None or replay is not None):
        raise PlayError(
            "--resume and --replay: the terminal client resumes and replays official games"
        )
    if lang not in LANGS:
        raise PlayError(f"--lang: one of {', '.join(LANGS)}, not {lang!r}")
    if target < 1:
        raise PlayError("--target: must be at least 1")
    from dos.tui.app import DosApp, Settings

    save_path = Path(save) if save else (Path(resume) if resume else None)
    settings = Settings(players, level, lang, seed, target, save_path, rules=rules)
    if replay is not None:
        record = _read_record(replay)
        records.replay(record)  # checks every action before showing any
        return DosApp(settings, replay=record, replay_title=Path(replay).name)
    if resume is not None:
        return DosApp(settings, resume=_read_record(resume))
    return DosApp(settings)


def play(**options: object) -> None:
    """Builds the application (``build_app``) and runs it until the person quits."""
    from dos.tui.app import DosApp

    app = build_app(**options)  # type: ignore[arg-type]
    assert isinstance(app, DosApp)
    app.run()
