"""The PettingZoo AEC environment: every seat an agent, one decision at a time.

>>> from dos.rl import env
>>> game = env(rules="official", players=2)
>>> game.reset(seed=42)
>>> obs, reward, terminated, truncated, info = game.last()
>>> bool(obs["action_mask"].any()), game.agent_selection in game.agents
(True, True)

Agents are ``player_0`` ... ``player_{N-1}`` (the seats). The agent to act is the engine's
seat to act; its observation is ``{"observation": float32 tensor, "action_mask": int8}``
(``dos.rl.codec``), and the mask of any other agent is all zeros. DOS calls and catches follow
``race`` (``dos.rl.race``). Rewards come at the end: official +1 for the winner and
-1/(N-1) for the others, classic by final place from +1 to -1. ``max_steps`` truncates a game
(``None``: never).

An action outside the mask is never applied nor replaced by a legal one. ``env()`` wraps the
game as PettingZoo's classic environments are (``TerminateIllegalWrapper``): it ends the game
at once, ``ILLEGAL_REWARD`` (-1) for the agent that chose it and 0 for the others, every agent
terminated (and truncated, as that wrapper marks them). ``raw_env`` alone refuses it with
``ValueError``, as PettingZoo's raw classic environments assert.

Nothing the environment returns holds the game seed (it would deal the hidden cards again):
``infos`` stay empty, and the seeds are drawn from a private generator seeded by ``reset``.
``render()`` (``render_mode="ansi"``) writes the view of the seat to act (``render_view``):
the table, every seat's hand size and score, and that seat's own hand, never another's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from dos.bots.reflex import Reflex
from dos.cards import NAMES as OFFICIAL_NAMES
from dos.rl.codec import make_codec
from dos.rl.race import Race
from dos.rules import classic, official
from dos.rules.classic.cards import COLOUR_NAMES
from dos.rules.classic.cards import NAMES as CLASSIC_NAMES
from dos.rules.classic.views import PHASE_NAMES as CLASSIC_PHASES
from dos.rules.official.views import phase_name

Observation = dict[str, np.ndarray]

ILLEGAL_REWARD = -1.0
"""The reward for an action outside the mask, which ends the episode (the agent's alone)."""


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def render_view(view: official.SeatView | classic.SeatView) -> str:
    """One seat's view as text: whose turn, the table (official: the Center Row, each card
    with what was matched on it this turn, the discard pile; classic: the top of the discard
    pile, the colour to follow, the direction), every seat's hand size and score (classic: its
    place once it has one), and the viewing seat's own hand. Made from the view alone, so it
    shows nothing that seat may not know.

    >>> from dos.rules.official import Options, new_game, view
    >>> print(render_view(view(new_game(Options(players=2), seed=1), 1)))
    official rules, round 1: player_1 to act (start)
    Center Row: R1 | Y6
    Discard: empty; draw pile: 92 cards
    player_0: 7 cards, score 0
    player_1: 7 cards, score 0
    Hand of player_1: B8 G6 G8 G9 R7 Y9 DOS

    A card of the Center Row matched this turn is followed by ``<-`` and the cards played
    on it (``B7 <- R# Y1``).
    """
    if isinstance(view, classic.SeatView):
        return _render_classic(view)
    names = OFFICIAL_NAMES
    if view.phase == official.Phase.OVER:
        status = f"over, player_{view.winner} wins"
    else:
        phase = phase_name(view.phase, view.drew, bool(view.matched))
        status = f"player_{view.turn} to act ({phase})"
    matched = dict(view.matched)
    row = [
        names[card] + (" <- " + " ".join(names[c] for c in matched[i]) if i in matched else "")
        for i, card in enumerate(view.center)
    ]
    top = f"{names[view.discard[-1]]} ({len(view.discard)} cards)" if view.discard else "empty"
    lines = [
        f"official rules, round {view.round}: {status}",
        "Center Row: " + " | ".join(row),
        f"Discard: {top}; draw pile: {view.draw_pile_size} cards",
    ]
    if view.single_bonuses or view.double_bonuses or view.placements_left:
        lines.append(
            f"Colour bonuses: {view.single_bonuses} single, {view.double_bonuses} double, "
            f"{view.placements_left} placements left"
        )
    for seat, size in enumerate(view.hand_sizes):
        line = f"player_{seat}: {size} cards, score {view.scores[seat]}"
        if seat in view.dos_open:
            line += ", DOS open"
        if view.penalties[seat]:
            line += f", {view.penalties[seat]} penalty cards"
        lines.append(line)
    lines.append(f"Hand of player_{view.seat}: " + " ".join(names[c] for c in view.hand))
    return "\n".join(lines)


def _render_classic(view: classic.SeatView) -> str:
    names = CLASSIC_NAMES
    if view.phase == classic.Phase.OVER:
        status = "over, places " + ", ".join(f"player_{s}" for s in view.ranking)
    else:
        status = f"player_{view.turn} to act ({CLASSIC_PHASES[view.phase]})"
    direction = "clockwise" if view.direction == 1 else "counter-clockwise"
    table = f"Discard top: {names[view.top]}, colour {COLOUR_NAMES[view.colour]}, {direction}"
    if view.pending:
        table += f", {view.pending} cards to draw"
    lines = [
        f"classic rules: {status}",
        table,
        f"Draw pile: {view.draw_pile_size} cards",
    ]
    for seat, size in enumerate(view.hand_sizes):
        line = f"player_{seat}: {size} cards"
        if seat in view.ranking:
            line += f", placed {_ordinal(view.ranking.index(seat) + 1)}"
        lines.append(line)
    lines.append(f"Hand of player_{view.seat}: " + " ".join(names[c] for c in view.hand))
    return "\n".join(lines)


def observation_space(size: int, actions: int) -> spaces.Dict:
    """The observation space: the tensor (values in [-1, 20]) and the legal-action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 20.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )


class DosAEC(AECEnv):  # type: ignore[misc]
    """DOS as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "dos_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "official",
        players: int = 2,
        *,
        race: str = "reflex",
        reflexes: Sequence[Reflex] | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.codec = make_codec(rules, players, **options)
        self.race_mode = race
        self.reflexes = reflexes
        Race(rules, players, race, 0, reflexes)  # checks the arguments now
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        space = observation_space(self.codec.layout.size, self.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._seeds, _ = seeding.np_random(None)
        self.state_: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds, _ = seeding.np_random(seed)
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.state_ = self.codec.new_game(game_seed)
        self._race = Race(
            self.codec.rules, self.codec.players, self.race_mode, game_seed, self.reflexes
        )
        self._race.settle(self.state_)
        self.steps = 0
        self._mask_now = np.zeros(self.codec.size, np.int8)
        self._mask_step = -1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.codec.turn(self.state_)]

    def _mask(self) -> np.ndarray:
        """The mask of the seat to act, worked out once per decision."""
        if self._mask_step != self.steps:
            self.codec.mask(self.state_, self.codec.turn(self.state_), self._mask_now)
            self._mask_step = self.steps
        return self._mask_now

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        state = self.state_
        if not self.codec.is_over(state) and seat == self.codec.turn(state):
            mask = self._mask().copy()
        else:
            mask = np.zeros(self.codec.size, np.int8)
        return {"observation": self.codec.observe(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        seat = self.possible_agents.index(agent)
        if action is None or not self._mask()[int(action)]:
            # Unwrapped, as PettingZoo's raw classic environments; env() ends the game instead.
            raise ValueError(f"{agent}: action {action} is not legal here (see action_mask)")
        self.codec.apply(state, self.codec.action(state, seat, int(action)))
        self._race.settle(state)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self.codec.is_over(state):
            for s, reward in enumerate(self.codec.rewards(state)):
                self.rewards[self.possible_agents[s]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        if not self.codec.is_over(state):
            self.agent_selection = self.possible_agents[self.codec.turn(state)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The view of the seat to act as text (``render_view``), for ``render_mode="ansi"``."""
        if self.render_mode != "ansi":
            return None
        return render_view(self.codec.view(self.state_, self.codec.turn(self.state_)))

    def close(self) -> None:
        pass


def env(rules: str = "official", players: int = 2, **kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic environments are: an action
    outside the mask ends the game, ``ILLEGAL_REWARD`` for the agent that chose it and 0 for
    the others (``TerminateIllegalWrapper``); one outside the action space raises; the order of
    calls is checked.

    ``kwargs``: ``race``, ``reflexes``, ``max_steps``, ``render_mode`` and the rule set's
    options (``target_score=100``, ...).
    """
    raw = DosAEC(rules, players, **kwargs)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


raw_env = DosAEC
