"""The fast core's Python API: batches of flat games, and single games (see ``dos.fast``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dos import ruleset
from dos.fast.compiled import I64, Core


def core(rules: str) -> Core:
    """The compiled core of rule set ``rules`` (``"official"`` or ``"classic"``); raises
    ``ValueError`` for an unknown name."""
    fast_core = ruleset.entry(rules).fast_core  # raises ValueError naming the known rule sets
    if fast_core is None:
        raise ValueError(f"the fast core has no {rules!r} rule set")
    return ruleset.checked(fast_core(), Core, f"{rules}: fast_core")


class Batch:
    """``N`` games of one rule set, each a row of ``states`` (an ``int64`` array [N, size]).

    The rows are the games: copy, store or hand them to compiled code as they are.
    """

    def __init__(
        self,
        rules: str,
        seeds: Sequence[int],
        options: dict[str, Any] | None = None,
        record: bool = False,
    ) -> None:
        self.core = core(rules)
        self.rules = rules
        self.options = options
        self.seeds = [int(seed) for seed in seeds]
        self.states: I64 = np.zeros((len(self.seeds), self.core.size), dtype=np.int64)
        self.record = record
        self.histories: list[list[Any]] = [[] for _ in self.seeds]
        self.round_results: list[list[Any]] = [[] for _ in self.seeds]
        for i, seed in enumerate(self.seeds):
            self.core.new_game(self.states[i], options, seed)
        self._codes = np.empty(256, dtype=np.int64)

    @property
    def size(self) -> int:
        """How many games."""
        return len(self.seeds)

    def reset(self, i: int, seed: int) -> None:
        """Deals game ``i`` again, as a new game from ``seed``."""
        self.seeds[i] = int(seed)
        self.core.new_game(self.states[i], self.options, int(seed))
        self.histories[i] = []
        self.round_results[i] = []

    def over(self) -> npt.NDArray[np.bool_]:
        """Which games have ended."""
        return np.array([self.core.over(row) for row in self.states], dtype=np.bool_)

    def legal_count(self, i: int) -> int:
        """How many legal actions game ``i`` has (every seat's)."""
        return self.core.legal(self.states[i], self._codes[:0], -1)

    def legal_codes(self, i: int) -> I64:
        """The codes of game ``i``'s legal actions, in the order of the engine's
        ``all_legal_actions`` (a new array)."""
        s = self.states[i]
        n = self.core.legal(s, self._codes, -1)
        if n > self._codes.size:
            self._codes = np.empty(2 * n, dtype=np.int64)
            self.core.legal(s, self._codes, -1)
        return self._codes[:n].copy()

    def legal_actions(self, i: int) -> list[Any]:
        """Game ``i``'s legal actions as the engine's ``Action`` objects, in its order."""
        action_of = self.core.action_of
        return [action_of(int(code)) for code in self.legal_codes(i)]

    def apply_index(self, i: int, k: int) -> None:
        """Applies legal action number ``k`` of game ``i``; ``IndexError`` if there is none."""
        s = self.states[i]
        code = self.core.legal(s, self._codes[:0], k) if k >= 0 else -1
        if code < 0:
            raise IndexError(f"game {i} has no legal action number {k}")
        self._apply(i, code, -1, None)

    def apply(self, i: int, action: Any) -> None:
        """Applies an engine ``Action`` (or notation text) to game ``i``; an illegal one
        raises the engine's own ``IllegalActionError`` or ``NotationError`` and changes
        nothing."""
        if isinstance(action, str):
            action = ruleset.get(self.rules).parse_action(action)
        s = self.states[i]
        code, bonus = self.core.prepare(s, action)
        if code < 0:
            # Not legal here: the Python engine says why, in its own words.
            state = self.to_python_state(i)
            ruleset.get(self.rules).apply(state, action)
            raise RuntimeError(f"fast core: {action} is legal in the engine but not here")
        self._apply(i, code, bonus, action)

    def _apply(self, i: int, code: int, bonus: int, action: Any) -> None:
        s = self.states[i]
        rounds = s[self.core.rounds_slot]
        turn = int(s[self.core.turn_slot])
        self.core.apply(s, code, bonus)
        if self.record:
            recorded = self.core.action_of(code) if action is None else action
            if recorded.seat is not None and recorded.seat == turn:
                # As the engine's history: the seat to act is written as None.
                recorded = recorded._replace(seat=None)
            self.histories[i].append(recorded)
            if s[self.core.rounds_slot] != rounds and self.core.last_round is not None:
                self.round_results[i].append(self.core.last_round(s))

    def step(self, indices: I64) -> None:
        """Applies, in every game at once, legal action number ``indices[i]`` (``-1``: game
        ``i`` waits; a game that is over is left alone). Nothing is recorded."""
        self.core.step_batch(self.states, np.asarray(indices, dtype=np.int64))

    def to_python_state(self, i: int) -> Any:
        """Game ``i`` as the engine's ``State`` (history and round results only when the
        batch records)."""
        return self.core.to_python_state(
            self.states[i],
            self.seeds[i],
            self.histories[i] if self.record else None,
            self.round_results[i] if self.record else None,
        )

    def decisions(self, i: int) -> int:
        """Actions applied so far in game ``i`` (``len(state.history)``)."""
        return int(self.states[i][self.core.decisions_slot])

    def rounds(self, i: int) -> int:
        """Rounds finished so far in game ``i``."""
        return int(self.states[i][self.core.rounds_slot])


class Game(Batch):
    """One game that records its history and round results, so that ``to_python_state()``
    equals the engine's state in every field.

    >>> game = Game("official", seed=7)
    >>> n = game.step(game.legal_actions().index(game.legal_actions()[-1]))
    """

    def __init__(self, rules: str, seed: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(rules, [seed], options, record=True)
        self.state = self.states[0]
        self._draws: list[Any] | None = None
        """The draw for dealer of a game loaded from a state (else worked out from the seed)."""

    @classmethod
    def from_python_state(cls, rules: str, state: Any) -> Game:
        """A game that goes on from the engine's ``state`` (a position, a search sample),
        its history and round results carried over."""
        game = cls.__new__(cls)
        Batch.__init__(game, rules, [], None, record=True)
        game.states = game.core.from_python_state(state)[None, :].copy()
        game.seeds = [0]
        game.histories = [list(state.history)]
        game.round_results = [list(getattr(state, "round_results", []))]
        game.state = game.states[0]
        draws = getattr(state, "dealer_draws", None)  # the classic game draws no dealer
        game._draws = None if draws is None else list(draws)
        return game

    def legal_actions(self, i: int = 0) -> list[Any]:
        """The legal actions, in the engine's order."""
        return super().legal_actions(i)

    def step(self, k: Any) -> Any:
        """Applies legal action number ``k``; returns how many legal actions follow."""
        self.apply_index(0, int(k))
        return self.legal_count(0)

    def to_python_state(self, i: int = 0) -> Any:
        """The engine's ``State`` of this game, history and round results included."""
        state = super().to_python_state(i)
        if self._draws is not None:
            state.dealer_draws = list(self._draws)
        return state
