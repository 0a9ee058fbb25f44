"""One rule set seen as an RL game: its action table, its observer, its rewards.

A ``Codec`` is what the environments, the vector environment and the policy bot share, so each
of them handles both rule sets through one interface and never reaches into a rule set's
tensors-free engine for more than its public API.

>>> codec = make_codec("official", 2)
>>> state = codec.new_game(seed=5)
>>> mask = codec.mask(state, codec.turn(state))
>>> int(mask.sum()) == len(codec.legal(state, codec.turn(state)))
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np

from dos import ruleset
from dos.rl import classic_observation, official_observation
from dos.rl.classic_actions import ClassicActions
from dos.rl.layout import Layout
from dos.rl.official_actions import OfficialActions
from dos.rules import classic, official


class Codec(Protocol):
    """What an environment needs from a rule set (``Any`` stands for its State and Action)."""

    rules: str
    players: int
    size: int
    """The number of action indices."""
    names: tuple[str, ...]
    """A name for each action index."""
    layout: Layout
    layout_name: str
    """``"padded"`` or ``"exact"`` (``dos.rl.layout``)."""

    def new_game(self, seed: int) -> Any:
        """A new game of these options from ``seed``."""
        ...

    def legal(self, state: Any, seat: int) -> list[Any]:
        """The engine's legal actions of ``seat`` (the seat to act: its turn actions, then
        its own call and catches)."""
        ...

    def indices(self, state: Any, seat: int, actions: list[Any]) -> list[int]:
        """The action indices of ``seat``'s actions, in order."""
        ...

    def action(self, state: Any, seat: int, index: int) -> Any:
        """The engine action of ``seat`` with this index."""
        ...

    def apply(self, state: Any, action: Any) -> None:
        """Applies an engine action (``IllegalActionError`` if it is not legal)."""
        ...

    def observe(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation tensor of ``seat`` (only what it may know)."""
        ...

    def observe_view(self, view: Any, out: np.ndarray | None = None) -> np.ndarray:
        """The same tensor from the seat's ``SeatView``."""
        ...

    def view(self, state: Any, seat: int) -> Any:
        """The engine's ``SeatView`` of ``seat``."""
        ...

    def view_indices(self, view: Any, actions: list[Any]) -> list[int]:
        """``indices`` for the view's seat, from its view."""
        ...

    def turn(self, state: Any) -> int:
        """The seat to act."""
        ...

    def is_over(self, state: Any) -> bool:
        """Whether the game has ended."""
        ...

    def rewards(self, state: Any) -> list[float]:
        """Each seat's reward: zero until the game ends (see the rule set's codec)."""
        ...

    def resample(self, view: Any, rng: random.Random) -> Any:
        """A full state consistent with the view, hidden cards dealt with ``rng``."""
        ...

    def mask(self, state: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The ``int8`` legal-action mask of ``seat``."""
        ...


def _mask(size: int, indices: list[int], out: np.ndarray | None) -> np.ndarray:
    mask = np.zeros(size, np.int8) if out is None else out
    if out is not None:
        mask.fill(0)
    mask[indices] = 1
    return mask


class OfficialCodec:
    """The official rule set (``dos.rl.official_actions``, ``dos.rl.official_observation``)."""

    rules = "official"
    _table = OfficialActions()

    def __init__(
        self, players: int, target_score: int = 200, *, layout: str = "padded", **options: Any
    ) -> None:
        self.options = official.Options(players=players, target_score=target_score, **options)
        self.players = players
        self.size = self._table.size
        self.names = self._table.names
        self.layout = official_observation.official_layout(players, layout)
        self.layout_name = layout

    def new_game(self, seed: int) -> official.State:
        return official.new_game(self.options, seed)

    def legal(self, state: official.State, seat: int) -> list[official.Action]:
        return official.legal_actions(state, seat)

    def indices(
        self, state: official.State, seat: int, actions: list[official.Action]
    ) -> list[int]:
        return self._table.indices(actions, seat, self.players, state.center)

    def action(self, state: official.State, seat: int, index: int) -> official.Action:
        return self._table.action_in(state, seat, index)

    def apply(self, state: official.State, action: official.Action) -> None:
        official.apply(state, action)

    def observe(
        self, state: official.State, seat: int, out: np.ndarray | None = None
    ) -> np.ndarray:
        return official_observation.observe(state, seat, out, self.layout_name)

    def observe_view(self, view: official.SeatView, out: np.ndarray | None = None) -> np.ndarray:
        return official_observation.observe_view(view, out, self.layout_name)

    def view(self, state: official.State, seat: int) -> official.SeatView:
        return official.view(state, seat)

    def view_indices(self, view: official.SeatView, actions: list[official.Action]) -> list[int]:
        return self._table.indices(actions, view.seat, self.players, list(view.center))

    def mask(self, state: official.State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return _mask(self.size, self.indices(state, seat, self.legal(state, seat)), out)

    def turn(self, state: official.State) -> int:
        return state.turn

    def is_over(self, state: official.State) -> bool:
        return state.phase == official.Phase.OVER

    def rewards(self, state: official.State) -> list[float]:
        """+1 for the winner, -1/(players-1) for everyone else (zero-sum); 0 before the end."""
        if state.winner is None:
            return [0.0] * self.players
        loss = -1.0 / (self.players - 1)
        return [1.0 if s == state.winner else loss for s in range(self.players)]

    def resample(self, view: official.SeatView, rng: random.Random) -> official.State:
        from dos.bots.determinize import Sampler

        return Sampler(view).sample(rng)


class ClassicCodec:
    """The classic rule set (``dos.rl.classic_actions``, ``dos.rl.classic_observation``)."""

    rules = "classic"
    _table = ClassicActions()

    def __init__(self, players: int, *, layout: str = "padded", **options: Any) -> None:
        self.options = classic.Options(players=players, **options)
        self.players = players
        self.size = self._table.size
        self.names = self._table.names
        self.layout = classic_observation.classic_layout(players, layout)
        self.layout_name = layout

    def new_game(self, seed: int) -> classic.State:
        return classic.new_game(self.options, seed)

    def legal(self, state: classic.State, seat: int) -> list[classic.Action]:
        return classic.legal_actions(state, seat)

    def indices(self, state: classic.State, seat: int, actions: list[classic.Action]) -> list[int]:
        return self._table.indices(actions)

    def action(self, state: classic.State, seat: int, index: int) -> classic.Action:
        if seat != state.turn:
            raise ValueError(f"seat {seat} has no action while seat {state.turn} is to act")
        return self._table.action_in(state, index)

    def apply(self, state: classic.State, action: classic.Action) -> None:
        classic.apply(state, action)

    def observe(self, state: classic.State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return classic_observation.observe(state, seat, out, self.layout_name)

    def observe_view(self, view: classic.SeatView, out: np.ndarray | None = None) -> np.ndarray:
        return classic_observation.observe_view(view, out, self.layout_name)

    def view(self, state: classic.State, seat: int) -> classic.SeatView:
        return classic.view(state, seat)

    def view_indices(self, view: classic.SeatView, actions: list[classic.Action]) -> list[int]:
        return self._table.indices(actions)

    def mask(self, state: classic.State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return _mask(self.size, self.indices(state, seat, self.legal(state, seat)), out)

    def turn(self, state: classic.State) -> int:
        return state.turn

    def is_over(self, state: classic.State) -> bool:
        return state.phase == classic.Phase.OVER

    def rewards(self, state: classic.State) -> list[float]:
        """By final place, evenly from +1 (first) to -1 (last): zero-sum; 0 before the end."""
        if state.phase != classic.Phase.OVER:
            return [0.0] * self.players
        rewards = [0.0] * self.players
        for place, seat in enumerate(state.ranking):
            rewards[seat] = 1.0 - 2.0 * place / (self.players - 1)
        return rewards

    def resample(self, view: classic.SeatView, rng: random.Random) -> classic.State:
        from dos.bots.classic.mcts import sample_state

        return sample_state(view, rng)


def make_codec(rules: str, players: int, **options: Any) -> Codec:
    """The codec of rule set ``rules`` for ``players`` seats and the given rule options
    (``layout="padded"`` or ``"exact"`` chooses the observation layout, ``dos.rl.layout``)."""
    entry = ruleset.find(rules)
    if entry is None or entry.codec is None:
        known = ", ".join(e.name for e in ruleset.entries() if e.codec is not None)
        raise ValueError(f"unknown rule set {rules!r} (known: {known})")
    codec: Codec = entry.codec(players, **options)  # a Protocol: isinstance cannot check it
    return codec


__all__ = ["ClassicCodec", "Codec", "OfficialCodec", "make_codec"]
