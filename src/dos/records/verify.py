"""Checking a record's shuffles: every deal follows from the commitment published before it.

``verify`` checks, in order: the record starts from a seed (a game from a position was not
dealt); it carries the commitment and reveals the salt; ``sha256("dos-deal:SEED:SALT")`` is
the commitment (``dos.records.commitment``); replaying from the seed, every action applies and
every round's deal is the one the record shows (``dos.records.deals``: a record that shows
any deal must show every round's); the result is the recorded one. Each round passed gives a
line; the first check that fails gives the last line, and the record is not verified.

>>> from dos import records
>>> from dos.records.commitment import commitment
>>> from dos.rules.official import new_game
>>> salt = "ab" * 16
>>> record = records.record_of("official", new_game(seed=42), seed=42)
>>> record.commitment, record.salt = commitment(42, salt), salt
>>> report = verify(records.with_deals(record))
>>> report.verified, report.lines
(True, ['round 1: the deal follows from its commitment'])
>>> record.salt = "cd" * 16
>>> verify(record).lines[-1].startswith("the seed and salt do not open the commitment")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dos.errors import RecordError
from dos.records import Record, replay
from dos.records.commitment import commitment
from dos.records.deals import Deal, DealMismatchError

FOLLOWS = "round {round}: the deal follows from its commitment"
"""The line of a round whose deal was checked."""


@dataclass(slots=True)
class Report:
    """What ``verify`` found: a line per round checked, then the first failure if any."""

    verified: bool = False
    lines: list[str] = field(default_factory=list)
    rounds: int = 0
    """How many rounds' deals were checked and follow from the commitment."""


def verify(record: Record) -> Report:
    """Checks that every deal of ``record`` follows from its commitment (see the module)."""
    report = Report()
    opened = _opening(record)
    if opened is not None:
        report.lines.append(opened)
        return report
    shows_deals = bool(record.deals)

    def on_deal(deal: Deal, shown: Deal | None) -> None:
        number = deal.round
        if shows_deals and shown is None:
            raise DealMismatchError(number, None, "the record shows no deal for it")
        report.rounds += 1
        report.lines.append(FOLLOWS.format(round=number))

    try:
        replay(record, on_deal=on_deal)
    except DealMismatchError as error:
        where = f" (line {error.line})" if error.line is not None else ""
        report.lines.append(
            f"round {error.round}: the deal does not follow from its commitment: "
            f"{error.what}{where}"
        )
        return report
    except RecordError as error:
        report.lines.append(f"the record does not replay: {error}")
        return report
    report.verified = True
    return report


def _opening(record: Record) -> str | None:
    """Why the record's commitment is not opened by its seed and salt (``None``: it is)."""
    if record.seed is None:
        return "the record starts from a position: it has no deal to check"
    if record.commitment is None:
        return "the record has no commitment: its deals cannot be checked"
    if record.salt is None:
        return "the record reveals no salt: its commitment cannot be opened"
    computed = commitment(record.seed, record.salt)
    if computed != record.commitment:
        return (
            "the seed and salt do not open the commitment: their SHA-256 is "
            f"{computed}, the commitment {record.commitment}"
        )
    return None
