"""Official DOS as an OpenSpiel game, for OpenSpiel's algorithms (the ``openspiel`` extra).

Importing this module registers ``python_dos`` with ``pyspiel``::

    import pyspiel
    import dos.rl.openspiel_game  # noqa: F401 (registers python_dos)
    game = pyspiel.load_game("python_dos", {"players": 2, "target_score": 1})

The game is our engine (``dos.rules.official``) behind the RL codec (``dos.rl.codec``):

* **Actions** are the official action table's 13,326 indices (``dos.rl.official_actions``),
  the same at every player count; ``legal_actions(p)`` is the codec's mask of seat ``p``,
  ascending. Only the seat to act has legal actions.
* **Chance** is explicit, one node at the start: its outcome is the deal, a seed among
  ``deals`` equally likely ones, which fixes every card dealt and drawn after it (the engine
  draws from the game's own generator). Nothing else is random, so a game is reproduced from
  its chance outcome and its actions.
* **The DOS race** goes to the seat to act (``dos.rl.race``'s ``agents``): a DOS call and the
  catches open to it are indices in its mask, so the game is turn-based throughout.
* **Returns**: +1 to the winner, -1/(players-1) to every other seat (zero-sum), at the end of
  the game (``target_score``: 1 by default, so one round is a game).
* **Observation**: the tensor is the padded official observation
  (``dos.rl.official_observation``; its named slices in docs/rl.md); the string is the seat's
  view in card notation. **Information state** (perfect recall): the seat's view after the
  deal, then every action in order, each with the seat's view after it; so two states with
  the same information state offer the seat the same legal actions (OpenSpiel's ISMCTS keys
  its nodes by it). Its tensor is not provided: the observation tensor is the network's
  input.
* ``resample_from_infostate(p, sampler)`` deals the cards ``p`` has not seen at random
  (``dos.rl.sampler``), drawing its generator's seed from ``sampler``: OpenSpiel's ISMCTS
  determinizes through it.

>>> import pyspiel
>>> game = pyspiel.load_game("python_dos")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.deals
(True, True)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), game.num_distinct_actions()
(True, 13326)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from dos.rl.codec import OfficialCodec
from dos.rl.official_actions import SIZE
from dos.rules.official import State
from dos.rules.official.cards import NAMES
from dos.rules.official.options import MAX_PLAYERS, MIN_PLAYERS

SHORT_NAME = "python_dos"

DEFAULTS: dict[str, Any] = {"players": 2, "target_score": 1, "deals": 1 << 16}
"""The game's parameters: seats, the score that ends the game, and how many deals the chance
node chooses among."""

MAX_GAME_LENGTH = 20_000
"""A bound on decisions in a game, which OpenSpiel asks for up front: far above the tens of
decisions a round takes in random play (``tests/rl/test_openspiel_game.py`` checks its
games against it)."""

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="DOS (official rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class DosGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_dos`` game (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        self.players = int(given["players"])
        self.deals = int(given["deals"])
        self.codec = OfficialCodec(self.players, int(given["target_score"]), layout="padded")
        info = pyspiel.GameInfo(
            num_distinct_actions=SIZE,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, given)

    def new_initial_state(self) -> DosState:
        """The chance node of the deal."""
        return DosState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DosObserver:
        """The observer of the observation (or, for perfect recall, the information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return DosObserver(self, perfect_recall)


class DosState(pyspiel.State):  # type: ignore[misc]
    """A game of DOS: before the deal, a chance node; after it, the engine's state."""

    def __init__(self, game: DosGame) -> None:
        super().__init__(game)
        self.codec = game.codec
        self.deals = game.deals
        self.engine: State | None = None
        self.seen: list[list[str]] = [[] for _ in range(game.players)]
        """Per seat, its information state's lines: its view after the deal, then each action
        with its view after it."""
        self.public: list[str] = []
        """Every action since the deal, as every seat saw it."""

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.codec.is_over(self.engine):
            return int(pyspiel.PlayerId.TERMINAL)
        return self.codec.turn(self.engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(deal, p) for deal in range(self.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None or player != self.current_player():
            return []
        seat = self.codec.turn(self.engine)
        return sorted(self.codec.indices(self.engine, seat, self.codec.legal(self.engine, seat)))

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.engine = self.codec.new_game(int(action))
            self.seen = [[_view_text(self.codec, self.engine, s)] for s in range(len(self.seen))]
            return
        state = self.engine
        seat = self.codec.turn(state)
        self.codec.apply(state, self.codec.action(state, seat, int(action)))
        public = f"p{seat} {self.codec.names[action]}"
        self.public = [*self.public, public]
        for s in range(len(self.seen)):
            self.seen[s] = [*self.seen[s], f"{public} => {_view_text(self.codec, state, s)}"]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.codec.names[action])

    def is_terminal(self) -> bool:
        return self.engine is not None and self.codec.is_over(self.engine)

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.codec.players
        return [float(r) for r in self.codec.rewards(self.engine)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DosState:
        """A state that ``player_id`` cannot tell from this one: the cards it has not seen
        dealt again, with a generator seeded from ``probability_sampler``."""
        sample: DosState = self.clone()
        if self.engine is not None and not self.is_terminal():
            rng = random.Random(int(probability_sampler() * 2**53))
            sample.engine = engine = self.codec.resample(
                self.codec.view(self.engine, player_id), rng
            )
            # The other seats' information states would give their real cards away: in the
            # sample each starts from the hand it was dealt there, then the public actions.
            for s in range(len(self.seen)):
                if s != player_id:
                    sample.seen[s] = [
                        *self.public,
                        f"sampled => {_view_text(self.codec, engine, s)}",
                    ]
        return sample

    def __deepcopy__(self, memo: dict[int, Any]) -> DosState:
        copied = DosState(self.get_game())
        copied.engine = None if self.engine is None else self.engine.copy()
        copied.seen = [list(lines) for lines in self.seen]
        copied.public = self.public
        return copied

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        hands = "; ".join(f"p{s} {_cards(h)}" for s, h in enumerate(self.engine.hands))
        return f"turn p{self.engine.turn}; center {_cards(self.engine.center)}; {hands}"


class DosObserver:
    """OpenSpiel's observer of a seat: ``tensor`` (the observation) and ``string_from``."""

    def __init__(self, game: DosGame, perfect_recall: bool) -> None:
        self.codec = game.codec
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else self.codec.layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DosState, player: int) -> None:
        if self.perfect_recall:
            return
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            self.codec.observe(state.engine, player, self.tensor)

    def string_from(self, state: DosState, player: int) -> str:
        if state.engine is None:
            return f"p{player} before the deal"
        if self.perfect_recall:
            return "\n".join(state.seen[player])
        return _view_text(self.codec, state.engine, player)


def _view_text(codec: OfficialCodec, state: State, seat: int) -> str:
    """What ``seat`` sees of ``state``, in card notation."""
    view = codec.view(state, seat)
    sizes = " ".join(f"p{s}:{n}" for s, n in enumerate(view.hand_sizes))
    return (
        f"p{seat} hand {_cards(view.hand)} | center {_cards(view.center)} | hands {sizes} | "
        f"pile {view.draw_pile_size} | turn p{view.turn} | phase {view.phase.name.lower()}"
        f"{' drew' if view.drew else ''} | dos open {list(view.dos_open)} | "
        f"scores {list(view.scores)} | round {view.round}"
    )


def _cards(cards: Any) -> str:
    return " ".join(NAMES[c] for c in cards) or "-"


pyspiel.register_game(_GAME_TYPE, DosGame)
