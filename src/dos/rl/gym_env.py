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
player's reflexes (the agent's are ``reflex``). Each bot's generator and the race's are seeded
from the game's seed, itself drawn from a generator of the environment's own seeded by
``reset(seed=...)``, so a seeded episode repeats exactly. The game seed is never shown: it
would deal the other hands and the draw pile again (``codec.new_game(seed)``), so ``info``
holds only ``seat`` (and ``illegal_action``), and the deals do not come from ``np_random``,
which Gymnasium exposes. The reward is 0 until the game ends, then the codec's
(``dos.rl.codec``). An action outside the mask is never replaced by a legal one: it ends the
episode with reward ``ILLEGAL_REWARD`` and ``info["illegal_action"]``. ``render()``
(``render_mode="ansi"``) writes the agent's view as ``dos.rl.aec.render_view`` does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from dos.bots import registry
from dos.bots.reflex import Reflex
from dos.rl.aec import ILLEGAL_REWARD, observation_space, render_view
from dos.rl.codec import make_codec
from dos.rl.race import Race

_DEALS = 0xDEA15
"""Keeps the generator of the game seeds apart from ``np_random`` for the same seed."""


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
        self.rngs = {s: random.Random(f"{game_seed}/seat{s}") for s in self.players}

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
        rules: str = "official",
        players: int = 2,
        opponents: Sequence[str] = ("random",),
        *,
        seat: int = 0,
        race: str = "reflex",
        reflex: Reflex | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.codec = make_codec(rules, players, **options)
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
        self.state: Any = None
        self._deals: np.random.Generator | None = None
        """Draws the game seeds: private, never returned (see the module docstring)."""

    def _reflexes(self) -> list[Reflex] | None:
        if self.codec.rules != "official":
            return None
        return self.opponents.reflexes(self.reflex)

    def _observation(self) -> dict[str, np.ndarray]:
        state = self.state
        mask = np.zeros(self.codec.size, np.int8)
        if not self.codec.is_over(state) and self.codec.turn(state) == self.seat:
            self.codec.mask(state, self.seat, mask)
        return {"observation": self.codec.observe(state, self.seat), "action_mask": mask}

    def _play_opponents(self) -> None:
        codec, state = self.codec, self.state
        while not codec.is_over(state) and codec.turn(state) != self.seat:
            codec.apply(state, self.opponents.choose(codec, state))
            self.race.settle(state)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._deals is None:
            self._deals = np.random.default_rng(None if seed is None else [seed, _DEALS])
        game_seed = int(self._deals.integers(0, 2**63 - 1))
        self.state = self.codec.new_game(game_seed)
        self.opponents.seed(game_seed)
        self.race = Race(
            self.codec.rules, self.codec.players, self.race_mode, game_seed, self._reflexes()
        )
        self.race.settle(self.state)
        self._play_opponents()
        self.ended = False
        return self._observation(), {"seat": self.seat}

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        codec, state = self.codec, self.state
        if self.ended:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if not codec.mask(state, self.seat)[index]:
            # Never replaced by a legal action: the episode ends, lost (as PettingZoo's
            # TerminateIllegalWrapper does); the state is left as it was.
            self.ended = True
            info = {"seat": self.seat, "illegal_action": index}
            return self._observation(), ILLEGAL_REWARD, True, False, info
        codec.apply(state, codec.action(state, self.seat, index))
        self.race.settle(state)
        self._play_opponents()
        over = self.ended = codec.is_over(state)
        reward = codec.rewards(state)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, {"seat": self.seat}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return render_view(self.codec.view(self.state, self.seat))


def register() -> None:
    """Registers ``dos/Official-v0`` and ``dos/Classic-v0`` with Gymnasium (done on
    ``import dos.rl``)."""
    for env_id, rules in (("dos/Official-v0", "official"), ("dos/Classic-v0", "classic")):
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=DosGym, kwargs={"rules": rules})
