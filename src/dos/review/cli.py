"""``dos review GAME.jsonl --seat N [--json] [--iterations K] [--seed S] [--cache DIR]``.

Reviews one seat of a game record (official rules; ``docs/review.md``) and prints the review:
one line a decision in numbers and notation, or the JSON of ``Review.to_json`` with
``--json``. With ``--cache DIR`` a review is kept in ``DIR`` under the record's hash, the seat
and the settings, and read back instead of made again.

Exit status: 0 on success, 2 when the input is rejected (the reason on stderr: a file that
cannot be read or is not a record that replays, a seat the game does not have, a game of a rule
set without reviews (classic), the compiled core missing).

>>> main(["/no/such/file.jsonl", "--seat", "0"])
2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from dos import records
from dos.errors import DosError
from dos.review.estimate import ReviewUnavailableError
from dos.review.review import SAMPLES, VERSION, Review, review_record, reviewed, reviewed_rules


class _RejectedError(Exception):
    """Bad input: printed on stderr, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments, for ``dos review`` or a parser of its own."""
    parser.add_argument("file", metavar="GAME.jsonl", help="a game record (docs/records.md)")
    parser.add_argument("--seat", type=int, required=True, help="the seat to review (0-based)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--iterations",
        type=int,
        default=SAMPLES,
        help=f"determinizations per decision and stage (default {SAMPLES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="the review's seed (default 0)")
    parser.add_argument("--cache", metavar="DIR", help="keep reviews in DIR and reuse them")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``dos review`` on its own."""
    parser = argparse.ArgumentParser(
        prog="dos review",
        description="judge each decision of one seat of a game, from that seat's view only",
    )
    add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Runs the command for parsed ``args``; returns the exit status."""
    try:
        review = _review(args)
    except (_RejectedError, DosError, ReviewUnavailableError, ValueError) as error:
        print(f"dos review: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(review.to_json(), indent=2))
    else:
        sys.stdout.write(review.render())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``dos review`` with ``argv`` (``sys.argv[1:]`` when ``None``); the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # argparse rejects bad arguments with status 2
        return int(stop.code or 0)
    return run(args)


def cache_path(directory: Path, text: str, seat: int, iterations: int, seed: int) -> Path:
    """Where the review of ``seat`` in the record ``text`` with these settings is kept."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    return directory / f"{digest}-seat{seat}-k{iterations}-s{seed}-v{VERSION}.json"


def _review(args: argparse.Namespace) -> Review:
    if args.iterations < 2:
        raise _RejectedError("--iterations: at least 2")
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        raise _RejectedError(f"{args.file}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise _RejectedError(f"{args.file}: not a text file") from None
    record = records.loads(text)
    if not reviewed(record.rules):
        raise _RejectedError(
            f"{args.file}: a {record.rules} game; the review reads {reviewed_rules()} games"
        )
    cached = None
    if args.cache:
        cached = cache_path(Path(args.cache), text, args.seat, args.iterations, args.seed)
        if cached.is_file():
            try:
                return Review.from_json(json.loads(cached.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError):
                pass  # a damaged cache entry is made again
    review = review_record(record, args.seat, samples=args.iterations, seed=args.seed)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        temporary = cached.with_suffix(".tmp")
        temporary.write_text(json.dumps(review.to_json()), encoding="utf-8")
        temporary.replace(cached)
    return review


if __name__ == "__main__":
    sys.exit(main())
