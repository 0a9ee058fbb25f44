"""Observations: the declared layout, only what the seat may know, and the mask."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dos.rl import make_codec, resample_from_infostate
from dos.rl.codec import Codec
from rl.support import positions

CASES = [("official", 2), ("official", 4), ("classic", 2), ("classic", 4)]


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_changing_hidden_cards_never_changes_the_observation(rules: str, players: int) -> None:
    codec = make_codec(rules, players)
    rng = random.Random(7)
    changed = 0
    for number, state in enumerate(positions(codec, seed=3, limit=600)):
        seat = number % players
        other = resample_from_infostate(rules, state, seat, rng)
        changed += other.hands != state.hands or other.draw_pile != state.draw_pile
        assert np.array_equal(codec.observe(other, seat), codec.observe(state, seat))
        assert np.array_equal(codec.mask(other, seat), codec.mask(state, seat))
    assert changed > 500  # the samples did hide something: the property was tested


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_the_observation_from_a_view_is_the_observation_from_the_state(
    rules: str, players: int
) -> None:
    codec = make_codec(rules, players)
    for number, state in enumerate(positions(codec, seed=4, limit=300)):
        seat = number % players
        view = codec.view(state, seat)
        assert np.array_equal(codec.observe_view(view), codec.observe(state, seat))


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_the_mask_is_never_empty_for_the_seat_to_act(rules: str, players: int) -> None:
    codec = make_codec(rules, players)
    for state in positions(codec, seed=5, limit=1500):
        mask = codec.mask(state, codec.turn(state))
        assert mask.dtype == np.int8
        assert mask.any()


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_the_observation_fills_exactly_the_declared_layout(rules: str, players: int) -> None:
    codec: Codec = make_codec(rules, players)
    state = codec.new_game(1)
    obs = codec.observe(state, 0)
    assert obs.shape == (codec.layout.size,)
    assert obs.dtype == np.float32
    assert sum(part.size for part in codec.layout) == codec.layout.size
    hand = obs[codec.layout["hand"]]
    assert hand.sum() == len(state.hands[0])
    assert obs[codec.layout["to_act"]].argmax() == (codec.turn(state) - 0) % players
    unseen = obs[codec.layout["unseen"]].sum()
    assert unseen == 108 - len(state.hands[0]) - (
        len(state.center) if rules == "official" else len(state.discard)
    )


@pytest.mark.parametrize("layout", ["padded", "exact"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_observer_sees_what_the_python_one_sees_and_no_more(
    players: int, layout: str
) -> None:
    # The fast backend's observer (dos.rl.flat), from the same state and from a state with the
    # hidden cards dealt anew: the Python observation, mask and legal indices, unchanged.
    from dos.fast.official_convert import from_python_state
    from dos.rl import flat

    codec = make_codec("official", players, layout=layout)
    at = flat.offsets(codec.layout)
    rng = random.Random(8)
    codes = np.zeros(4096, np.int64)

    def looked(state: object, seat: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
        obs = np.zeros(codec.layout.size, np.float32)
        mask = np.zeros(codec.size, np.int8)
        legal = np.zeros((2, codec.size), np.int64)
        ext = np.zeros(flat.EXT, np.int64)
        count = flat.look(from_python_state(state), ext, seat, obs, mask, legal, codes, at)
        return obs, mask, legal[0, :count].tolist()

    changed = 0
    for number, state in enumerate(positions(codec, seed=6, limit=400)):
        seat = number % players
        other = resample_from_infostate("official", state, seat, rng)
        changed += other.hands != state.hands or other.draw_pile != state.draw_pile
        obs, mask, legal = looked(state, seat)
        assert np.array_equal(obs, codec.observe(state, seat))
        if seat == codec.turn(state):
            assert np.array_equal(mask, codec.mask(state, seat))
        else:
            assert not mask.any()
        assert legal == np.flatnonzero(mask).tolist()
        again = looked(other, seat)
        assert np.array_equal(again[0], obs)
        assert np.array_equal(again[1], mask)
        assert again[2] == legal
    assert changed > 300
