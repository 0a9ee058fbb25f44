"""The Gymnasium single-agent environment: one seat learns, bots from the registry play the
others (``dos/Official-v0``, ``dos/Classic-v0``).

>>> import gymnasium
>>> import dos.rl
>>> game = gymnasium.make("dos/Official-v0", opponents=["greedy"])
>>> obs, info = game.reset(seed=3)
>>> bool(obs["action_mask"].any()), info["seat"]
(True, 0)

The agent sits at ``seat``; the other seats are played by the bots named in ``opponents``
(``dos.bots.registry``: ``random``, ``greedy``, ``mcts`` or a level), one name per other seat
or one name for all. An opponent sees only its seat's view, as in ``dos tournament``. DOS calls
and catches follow ``race`` (``dos.rl.race``): with ``"reflex"`` each seat races with its
player's reflexes (the agent's are ``reflex``).

Seeds: each game seed is derived one way from the seed of ``reset`` (``dos.rl.deals``; with
``deal_key``, the caller's secret, too), and each bot's generator and the race's one way from
the game seed (``dos.seeds.generator(game_seed, "seat", s)``, ``(game_seed, "race")``), so a
seeded episode repeats exactly and nothing an opponent or the agent is handed leads back to
a game seed, which would deal the other hands and the draw pile again
(``codec.new_game(seed)``). ``info`` holds only ``seat`` and ``legal_actions`` (and
``illegal_action``), and the deals do not come from ``np_random``. ``reset`` never returns a
game that is over: a deal the bots finish before the agent acts is replaced by the next.

The reward is 0 until the game ends, then the codec's (``dos.rl.codec``). An action outside
the mask is never replaced by a legal one: it ends the episode with reward ``ILLEGAL_REWARD``
and ``info["illegal_action"]``, an all-zero mask and no ``legal_actions``. ``render()``
(``render_mode="ansi"``) writes the agent's view as ``dos.rl.aec.render_view`` does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from dos import ruleset, seeds
from dos.bots import registry
from dos.play.reflex import Reflex
from dos.rl.aec import (
    ILLEGAL_REWARD,
    choose_backend,
    legal_indices,
    observation_space,
    render_view,
)
from dos.rl.codec import make_codec
from dos.rl.deals import Deals
from dos.rl.layout import check_layout
from dos.rl.race import Race


class Opponents:
    """The bots at the other seats, and their generators for one game."""

    def __init__(self, rules: str, players: int, seat: int, names: Sequence[str]) -> None:
        names = list(names)
        if len(names) == 1:
            names *= players - 1
        if len(names) != players - 1:
            raise ValueError(f"{len(names)} opponents for {players - 1} other seats")
        self.rules = rules
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        self.players: dict[int, Any] = {
            s: registry.make_player(name, rules, players=players)
            for s, name in zip(others, names, strict=True)
        }
        self.rngs: dict[int, random.Random] = {}

    def reflexes(self, agent: Reflex) -> list[Reflex]:
        """Every seat's reflexes, the agent's at its seat (official rules only)."""
        seats = range(len(self.players) + 1)
        return [agent if s == self.seat else self.players[s].reflex for s in seats]

    def seed(self, game_seed: int) -> None:
        """Seeds each bot's generator one way from ``game_seed`` (``dos.seeds``)."""
        self.rngs = {s: seeds.generator(game_seed, "seat", s) for s in self.players}

    def choose(self, codec: Any, state: Any) -> Any:
        """The action of the opponent to act."""
        seat = codec.turn(state)
        player = self.players[seat]
        return player.bot.choose(codec.view(state, seat), self.rngs[seat], player.budget)


class DosGym(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of DOS against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it)

    def __init__(
        self,
        rules: str = ruleset.DEFAULT,
        players: int = 2,
        opponents: Sequence[str] = ("random",),
        *,
        seat: int = 0,
        race: str = "reflex",
        reflex: Reflex | None = None,
        render_mode: str | None = None,
        backend: str = "auto",
        layout: str = "padded",
        deal_key: bytes | None = None,
        **options: Any,
    ) -> None:
        self.codec = make_codec(rules, players, layout=check_layout(layout), **options)
        self.backend = choose_backend(backend, rules)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of the {players} seats")
        self.seat = seat
        self.opponents = Opponents(rules, players, seat, opponents)
        self.race_mode = race
        self.reflex = reflex or Reflex()
        self.render_mode = render_mode
        space = observation_space(self.codec.layout.size, self.codec.size)
        self.observation_space = space  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.codec.size)
        self._state: Any = None
        self.fast: Any = None
        """The game on the compiled core (``dos.rl.fast_game.FastGame``) with the fast
        backend, else ``None``: for the caller that runs the environment, never an agent."""
        if self.backend == "fast":
            from dos.rl.fast_game import FastGame

            Race(rules, players, race, 0, self._reflexes())  # checks the arguments now
            self.fast = FastGame(
                players,
                {**options, "players": players},
                layout=layout,
                race=race,
                reflexes=self._reflexes(),
                bots=self.opponents.players,
                observer=seat,
            )
        self._deals = Deals(deal_key)
        """The game seeds: private, never returned (see the module docstring)."""
        self._zeros = np.zeros(self.codec.size, np.int8)
        self._size = self.codec.size

    @property
    def state(self) -> Any:
        """The engine's full state (for the caller that runs the game, never for the agent):
        the live state on the Python engine, a copy on the fast core (assign to load one)."""
        if self.fast is not None:
            return self.fast.state
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        if self.fast is not None:
            self.fast.state = state
        else:
            self._state = state

    def _reflexes(self) -> list[Reflex] | None:
        if not ruleset.entry(self.codec.rules).dos_race:
            return None
        return self.opponents.reflexes(self.reflex)

    def _observation(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        fast = self.fast
        if fast is not None:
            obs = {"observation": fast.obs.copy(), "action_mask": fast.mask.copy()}
            return obs, {"seat": self.seat, "legal_actions": fast.legal_indices()}
        state = self._state
        mask = self._zeros.copy()
        legal: tuple[int, ...] = ()
        if not self.codec.is_over(state) and self.codec.turn(state) == self.seat:
            legal = legal_indices(self.codec, state, self.seat)
            mask[list(legal)] = 1
        obs = {"observation": self.codec.observe(state, self.seat), "action_mask": mask}
        return obs, {"seat": self.seat, "legal_actions": legal}

    def _play_opponents(self) -> None:
        codec, state = self.codec, self._state
        while not codec.is_over(state) and codec.turn(state) != self.seat:
            codec.apply(state, self.opponents.choose(codec, state))
            self.race.settle(state)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._deals.reset(seed)
        self.ended = False
        while True:  # a game the bots finish before the agent acts is dealt anew
            game_seed = self._deals.next()
            if self.fast is not None:
                self.fast.new(game_seed)
                if not self.fast.over:
                    return self._observation()
                continue
            self._state = self.codec.new_game(game_seed)
            self.opponents.seed(game_seed)
            self.race = Race(
                self.codec.rules, self.codec.players, self.race_mode, game_seed, self._reflexes()
            )
            self.race.settle(self._state)
            self._play_opponents()
            if not self.codec.is_over(self._state):
                return self._observation()

    def _legal(self, index: int) -> bool:
        if not 0 <= index < self._size:
            return False
        state = self._state
        if self.codec.is_over(state) or self.codec.turn(state) != self.seat:
            return False
        if index not in self.codec.indices(state, self.seat, self.codec.legal(state, self.seat)):
            return False
        self.codec.apply(state, self.codec.action(state, self.seat, index))
        self.race.settle(state)
        self._play_opponents()
        return True

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.ended:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        fast = self.fast
        if fast is not None:  # the hot path: one compiled call, then the agent's arrays
            if 0 <= index < self._size and fast.act(index):
                over = self.ended = fast.over
                return (
                    {"observation": fast.obs.copy(), "action_mask": fast.mask.copy()},
                    fast.rewards()[self.seat] if over else 0.0,
                    over,
                    False,
                    {
                        "seat": self.seat,
                        "legal_actions": tuple(fast.indices[: fast.count].tolist()),
                    },
                )
        elif self._legal(index):  # plays the action and the opponents when it is legal
            over = self.ended = self.codec.is_over(self._state)
            reward = self.codec.rewards(self._state)[self.seat] if over else 0.0
            obs, info = self._observation()
            return obs, reward, over, False, info
        # Never replaced by a legal action: the episode ends, lost (as PettingZoo's
        # TerminateIllegalWrapper does); the state is left as it was.
        self.ended = True
        obs, info = self._observation()
        obs["action_mask"] = self._zeros.copy()
        info["legal_actions"] = ()
        info["illegal_action"] = index
        return obs, ILLEGAL_REWARD, True, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.fast is not None:
            return render_view(self.fast.view(self.seat))
        return render_view(self.codec.view(self._state, self.seat))


def env_id(rules: str) -> str:
    """The Gymnasium id of the environment of the rule set ``rules``.

    >>> env_id("official"), env_id("classic")
    ('dos/Official-v0', 'dos/Classic-v0')
    """
    return f"dos/{rules.capitalize()}-v0"


def register() -> None:
    """Registers an environment with Gymnasium for every rule set with an RL codec
    (``env_id``: ``dos/Official-v0``, ``dos/Classic-v0``; done on ``import dos.rl``);
    ``gymnasium.make_vec(env_id, num_envs=N)`` makes the vector environment of the rule set
    (``dos.rl.vector_env``)."""
    for entry in ruleset.entries():
        if entry.codec is not None and env_id(entry.name) not in gymnasium.registry:
            gymnasium.register(
                env_id(entry.name),
                entry_point=DosGym,
                # Gymnasium's passive checker would wrap every step; the environments pass
                # its full check_env instead (tests/rl/test_environments.py).
                disable_env_checker=True,
                vector_entry_point="dos.rl.vector_env:vector_env",
                kwargs={"rules": entry.name},
            )
