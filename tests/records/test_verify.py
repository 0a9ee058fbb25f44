"""Shuffles anyone can check: a record's commitment, its reveal and its deals
(``dos.records.commitment``, ``dos.records.deals``, ``dos.records.verify``, ``dos verify``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from dos import records
from dos.errors import RecordError
from dos.records.commitment import commitment, new_salt
from dos.records.deals import DealMismatchError
from dos.records.verify import verify
from dos.rules.official import Options, new_game
from support import play_randomly, run_cli

SEED = 20261129
SALT = "5a" * 16


@pytest.fixture(scope="module")
def record_text() -> str:
    """A whole three-player game of several rounds, with its commitment, salt and deals."""
    state = play_randomly("official", new_game(Options(players=3, target_score=100), SEED), 3)
    record = records.record_of("official", state, seed=SEED)
    record.commitment, record.salt = commitment(SEED, SALT), SALT
    return records.with_deals(record).dumps()


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def _text(lines: list[dict[str, object]]) -> str:
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def _deal_lines(lines: list[dict[str, object]]) -> list[int]:
    return [n for n, line in enumerate(lines) if "deal" in line]


def test_the_commitment_is_the_sha256_of_the_text_a_person_can_hash() -> None:
    digest = hashlib.sha256(f"dos-deal:{SEED}:{SALT}".encode()).hexdigest()
    assert commitment(SEED, SALT) == digest
    assert new_salt() != new_salt()


def test_a_real_record_passes_round_by_round(record_text: str) -> None:
    record = records.loads(record_text)
    report = verify(record)
    assert report.verified, report.lines
    rounds = len(record.deals)
    assert rounds >= 2  # a game of several rounds: every deal is shown
    assert report.rounds == rounds
    assert report.lines == [
        f"round {n}: the deal follows from its commitment" for n in range(1, rounds + 1)
    ]


def test_a_changed_card_in_a_deal_fails_naming_the_round_and_the_card(record_text: str) -> None:
    lines = _lines(record_text)
    second = _deal_lines(lines)[1]
    deal = lines[second]["deal"]
    assert isinstance(deal, dict)
    hand = deal["hands"][1]
    hand[0] = "DOS" if hand[0] != "DOS" else "B1"
    report = verify(records.loads(_text(lines)))
    assert not report.verified
    assert report.lines[0] == "round 1: the deal follows from its commitment"
    assert report.lines[-1].startswith(
        "round 2: the deal does not follow from its commitment: seat 1's hand, card 1: "
    )
    assert report.lines[-1].endswith(f"(line {second + 1})")


def test_a_changed_seed_fails_its_commitment(record_text: str) -> None:
    lines = _lines(record_text)
    lines[0]["seed"] = SEED + 1
    report = verify(records.loads(_text(lines)))
    assert not report.verified
    assert report.lines == [
        "the seed and salt do not open the commitment: their SHA-256 is "
        f"{commitment(SEED + 1, SALT)}, the commitment {commitment(SEED, SALT)}"
    ]


def test_a_changed_salt_fails_its_commitment(record_text: str) -> None:
    lines = _lines(record_text)
    lines[0]["salt"] = "a5" * 16
    report = verify(records.loads(_text(lines)))
    assert not report.verified
    assert report.lines[0].startswith("the seed and salt do not open the commitment")


def test_a_new_seed_committed_anew_fails_on_the_deals_it_does_not_give(record_text: str) -> None:
    lines = _lines(record_text)
    lines[0]["seed"] = SEED + 1
    lines[0]["commitment"] = commitment(SEED + 1, SALT)
    report = verify(records.loads(_text(lines)))
    assert not report.verified
    assert report.lines[-1].startswith("round 1: the deal does not follow from its commitment")


def test_a_missing_reveal_or_commitment_fails(record_text: str) -> None:
    lines = _lines(record_text)
    del lines[0]["salt"]
    report = verify(records.loads(_text(lines)))
    assert report.lines == ["the record reveals no salt: its commitment cannot be opened"]
    del lines[0]["commitment"]
    report = verify(records.loads(_text(lines)))
    assert report.lines == ["the record has no commitment: its deals cannot be checked"]
    assert not report.verified


def test_a_record_that_shows_deals_must_show_every_round(record_text: str) -> None:
    lines = _lines(record_text)
    del lines[_deal_lines(lines)[2]]
    report = verify(records.loads(_text(lines)))
    assert report.lines[-1] == (
        "round 3: the deal does not follow from its commitment: the record shows no deal for it"
    )


def test_a_record_without_deal_lines_is_checked_from_its_seed(record_text: str) -> None:
    lines = [line for line in _lines(record_text) if "deal" not in line]
    report = verify(records.loads(_text(lines)))
    assert report.verified and report.rounds == len(_deal_lines(_lines(record_text)))


def test_replay_refuses_a_changed_deal_and_a_deal_out_of_place(record_text: str) -> None:
    lines = _lines(record_text)
    first = _deal_lines(lines)[0]
    changed = json.loads(json.dumps(lines))
    changed[first]["deal"]["center"].reverse()
    with pytest.raises(DealMismatchError, match="deal of round 1: the Center Row, card 1"):
        records.replay(records.loads(_text(changed)))
    moved = [*lines[: first + 2], lines[first], *lines[first + 2 :]]
    del moved[first]
    with pytest.raises(RecordError, match="no round is dealt at this point"):
        records.replay(records.loads(_text(moved)))


def test_a_bad_commitment_or_salt_is_refused_on_reading(record_text: str) -> None:
    lines = _lines(record_text)
    lines[0]["salt"] = "not hex"
    with pytest.raises(RecordError, match="line 1: salt"):
        records.loads(_text(lines))
    lines = _lines(record_text)
    lines[0]["commitment"] = "AB" * 32
    with pytest.raises(RecordError, match="line 1: commitment"):
        records.loads(_text(lines))


def test_the_record_round_trips_with_its_deals(record_text: str) -> None:
    assert records.loads(record_text).dumps() == record_text


def test_dos_verify_exits_0_for_a_good_record_and_1_for_a_changed_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record_text: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(record_text, encoding="utf-8")
    status, out, _ = run_cli(capsys, "verify", str(path))
    assert status == 0
    assert out.splitlines()[0] == "round 1: the deal follows from its commitment"
    assert out.splitlines()[-1].startswith("verified: the ")

    lines = _lines(record_text)
    lines[0]["seed"] = SEED + 1
    path.write_text(_text(lines), encoding="utf-8")
    status, out, _ = run_cli(capsys, "verify", str(path))
    assert status == 1
    assert out.startswith("the seed and salt do not open the commitment")


def test_dos_verify_exits_2_for_what_is_not_a_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("not json\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "verify", str(path))
    assert status == 2 and err.startswith("dos verify: line 1: not JSON")
    status, _, err = run_cli(capsys, "verify", str(tmp_path / "missing.jsonl"))
    assert status == 2 and "cannot read" in err
