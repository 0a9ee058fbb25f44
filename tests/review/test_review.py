"""The review of one seat's play (``dos.review``): it flags a planted blunder with the better
action, it is the same every time, and it reads nothing the seat could not see."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba", reason="the review runs on the compiled core (the `fast` extra)")

from dos.records import Record
from dos.review import (
    THRESHOLDS,
    Decision,
    decisions,
    estimate,
    review_decisions,
    review_game,
)
from dos.review.review import Entry, Review, game_key
from dos.rules.official import SeatView, State, new_game, parse_action, view
from review.games import OPTIONS, greedy_game, planted_game
from support import hidden_shuffled

SAMPLES = 48


def test_a_planted_blunder_is_flagged_with_the_move_that_went_out() -> None:
    record, index, went_out = planted_game(24, seat=0)
    review = review_game(record, 0, samples=SAMPLES)
    (entry,) = [e for e in review.entries if e.index == index]
    assert entry.chosen == "draw"
    assert entry.best == went_out
    assert entry.judgement == "blunder"
    assert entry.loss >= dict(THRESHOLDS)["blunder"]
    assert entry.round_before == 1.0  # the match takes the last card: the round is won
    assert review.count("blunder") >= 1


def test_the_same_review_twice_is_identical() -> None:
    record = greedy_game(5)
    random.seed(1)  # the global generator must not matter
    first = review_game(record, 1, samples=16, seed=3)
    random.seed(2)
    second = review_game(record, 1, samples=16, seed=3)
    assert first == second
    assert first.to_json() == second.to_json()
    assert first.entries


def test_another_seed_gives_other_samples() -> None:
    record = greedy_game(5)
    one = review_game(record, 1, samples=16, seed=3)
    two = review_game(record, 1, samples=16, seed=4)
    assert [e.index for e in one.entries] == [e.index for e in two.entries]
    assert one.to_json()["entries"] != two.to_json()["entries"]


def _states_before(record: Record, seat: int) -> dict[int, State]:
    """The full state before each of ``seat``'s decisions (for the tests only)."""
    from dos.records import start
    from dos.rules.official import apply

    state = start(record)
    found = {}
    wanted = {d.index for d in decisions(record, seat)[0]}
    for index, text in enumerate(record.actions):
        if index in wanted:
            found[index] = state.copy()
        apply(state, parse_action(text))
    return found


@pytest.mark.parametrize(("seed", "seat"), [(5, 0), (7, 1)])
def test_hidden_cards_dealt_anew_leave_the_review_unchanged(seed: int, seat: int) -> None:
    """Every decision's state with the other hand and the draw pile dealt anew (the same
    cards, another generator): the seat's view is the same, and so is the review."""
    record = greedy_game(seed)
    found, _, _, _ = decisions(record, seat)
    states = _states_before(record, seat)
    shuffled = []
    changed = 0
    for decision in found:
        state = states[decision.index]
        other = hidden_shuffled(state, seat, seed + decision.index)
        changed += other.hands != state.hands or other.draw_pile != state.draw_pile
        shuffled.append(Decision(decision.index, view(other, seat), decision.action))
    assert changed > len(found) // 2
    game = game_key(record)
    assert review_decisions(found, samples=12, seed=0, game=game) == review_decisions(
        shuffled, samples=12, seed=0, game=game
    )


def test_the_estimate_receives_views_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Structurally: every estimate of a review is handed a ``SeatView`` of the reviewed
    seat, never a ``State``."""
    import dos.review.review as module

    seen: list[object] = []

    def spy(given: object, *args: object, **kwargs: object) -> object:
        seen.append(given)
        return estimate(given, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "estimate", spy)
    review_game(greedy_game(5), 0, samples=4)
    assert seen
    assert all(type(v) is SeatView and v.seat == 0 for v in seen)
    with pytest.raises(TypeError):
        estimate(new_game(OPTIONS, 1), [], random.Random(0), 2)  # type: ignore[arg-type]


def test_decisions_are_the_seats_turn_actions_with_its_view() -> None:
    record = greedy_game(9)
    for seat in (0, 1):
        found, _, _, _ = decisions(record, seat)
        assert found
        for decision in found:
            assert decision.view.seat == seat == decision.view.turn
            assert decision.action.kind.name in {"MATCH", "DRAW", "LAY", "END", "PLACE"}


def test_review_json_has_its_summary_and_entries() -> None:
    review = review_game(greedy_game(5), 0, samples=8)
    data = review.to_json()
    assert data["format"] == "dos-review"
    assert data["summary"]["decisions"] == len(data["entries"]) == len(review.entries)
    for entry in data["entries"]:
        assert 0.0 <= entry["round_before"] <= 1.0 and 0.0 <= entry["game_before"] <= 1.0
        assert entry["loss"] >= 0.0
        assert entry["judgement"] in (None, "inaccuracy", "mistake", "blunder")
    assert type(review).from_json(data).to_json() == data


def test_a_review_read_back_from_its_json_writes_the_same_json() -> None:
    """The summary is made of what the JSON holds: losses whose rounding errors add up move
    no average when the review is read back (the cache, the server's review in parts)."""

    def entry(index: int, loss: float) -> Entry:
        return Entry(index, 1, 3, "draw", "draw", 0.5, 0.5, 0.5, 0.5, loss, 0.001, None)

    losses = (0.00004, 0.00004, 0.00013)  # exactly: 0.00007; as written: 0.0000333
    review = Review(0, 2, 200, 8, 0, tuple(entry(i, x) for i, x in enumerate(losses)), 0, 0, 0)
    data = review.to_json()
    assert Review.from_json(data).to_json() == data
    assert data["summary"]["average_loss"] == round(sum(round(x, 4) for x in losses) / 3, 4)
