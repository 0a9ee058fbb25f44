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
the ``info`` of the agent to act holds only its ``legal_actions`` (the mask's indices,
ascending), the others' stay empty, and the seeds are drawn from a private generator seeded
by ``reset``. ``backend="auto"`` plays the official rules on the compiled core
(``dos.rl.fast_game``) when numba is installed, the same games as the Python engine.
``render()`` (``render_mode="ansi"``) writes the view of the seat to act (``render_view``):
the table, every seat's hand size and score, and that seat's own hand, never another's.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from dos import ruleset
from dos.play.reflex import Reflex
from dos.rl.codec import make_codec
from dos.rl.layout import check_layout
from dos.rl.race import Race
from dos.rules import classic, official
from dos.rules.classic.cards import COLOUR_NAMES
from dos.rules.classic.cards import NAMES as CLASSIC_NAMES
from dos.rules.classic.views import PHASE_NAMES as CLASSIC_PHASES
from dos.rules.official.cards import NAMES as OFFICIAL_NAMES
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


BACKENDS = ("auto", "fast", "python")


def choose_backend(backend: str, rules: str) -> str:
    """``"fast"`` or ``"python"``: the compiled core plays the official rules when numba is
    installed (the ``fast`` extra), the Python engine everything else; ``"auto"`` picks the
    fast one where it can. Raises ``ValueError`` for a backend that cannot play ``rules``."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if backend == "python":
        return backend
    fast_rl = ruleset.entry(rules).fast_rl
    available = fast_rl and importlib.util.find_spec("numba") is not None
    if backend == "fast" and not available:
        fast = " or ".join(e.name for e in ruleset.entries() if e.fast_rl)
        why = f"the {fast} rules only" if not fast_rl else "the fast extra (numba)"
        raise ValueError(f"the fast backend needs {why}; backend='python' plays {rules!r}")
    return "fast" if available else "python"


def legal_indices(codec: Any, state: Any, seat: int) -> tuple[int, ...]:
    """The legal indices of ``seat`` on the Python engine, ascending: what ``info``'s
    ``legal_actions`` holds (a tuple, so that Gymnasium's vector environments, which merge
    the ``info`` of their games into arrays, can merge lists of any length)."""
    return tuple(sorted(codec.indices(state, seat, codec.legal(state, seat))))


class DosAEC(AECEnv):  # type: ignore[misc]
    """DOS as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "dos_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = ruleset.DEFAULT,
        players: int = 2,
        *,
        race: str = "reflex",
        reflexes: Sequence[Reflex] | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
        backend: str = "auto",
        layout: str = "padded",
        **options: Any,
    ) -> None:
        super().__init__()
        self.codec = make_codec(rules, players, layout=check_layout(layout), **options)
        self.backend = choose_backend(backend, rules)
        self.race_mode = race
        self.reflexes = reflexes
        Race(rules, players, race, 0, reflexes)  # checks the arguments now
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(self.codec.layout.size, self.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._seeds, _ = seeding.np_random(None)
        self.fast: Any = None
        """The game on the compiled core (``dos.rl.fast_game.FastGame``) with the fast
        backend, else ``None``: for the caller that runs the environment, never an agent."""
        if self.backend == "fast":
            from dos.rl.fast_game import FastGame

            options = {**options, "players": players}
            self.fast = FastGame(players, options, layout=layout, race=race, reflexes=reflexes)
        self._state: Any = None
        self._zeros = np.zeros(self.codec.size, np.int8)
        self._size = self.codec.size
        self._lost = False
        """Whether the game ended on an illegal action (``lose``)."""
        self._deciding: str | None = None
        """The fast backend's agent whose observation and mask the last step wrote (the
        agent to act; ``None`` once the game is over)."""

    @property
    def state_(self) -> Any:
        """The engine's full state (for the caller that runs the game, never for an agent):
        the live state on the Python engine, a copy on the fast core (assign to load one)."""
        if self.fast is not None:
            return self.fast.state
        return self._state

    @state_.setter
    def state_(self, state: Any) -> None:
        if self.fast is not None:
            self.fast.state = state
            over = self.fast.over
            self._deciding = None if over else self.possible_agents[self.fast.turn]
        else:
            self._state = state
            self._mask_step = -1

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds, _ = seeding.np_random(seed)
        game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.steps = 0
        self._lost = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.fast is not None:
            self.fast.new(game_seed)
            turn = self.fast.turn
            legal = self.fast.legal_indices()
            self._deciding = self.possible_agents[turn]
        else:
            self._state = self.codec.new_game(game_seed)
            self._race = Race(
                self.codec.rules, self.codec.players, self.race_mode, game_seed, self.reflexes
            )
            self._race.settle(self._state)
            self._mask_now = np.zeros(self.codec.size, np.int8)
            self._mask_step = -1
            turn = self.codec.turn(self._state)
            legal = legal_indices(self.codec, self._state, turn)
        self.agent_selection = self.possible_agents[turn]
        self.infos[self.agent_selection] = {"legal_actions": legal}

    def _mask(self) -> np.ndarray:
        """The mask of the seat to act, worked out once per decision (Python engine)."""
        if self._mask_step != self.steps:
            self.codec.mask(self._state, self.codec.turn(self._state), self._mask_now)
            self._mask_step = self.steps
        return self._mask_now

    def observe(self, agent: str) -> Observation:
        fast = self.fast
        if fast is not None:
            if agent == self._deciding:  # the hot path: the arrays the last step wrote
                return {"observation": fast.obs.copy(), "action_mask": fast.mask.copy()}
            return {
                "observation": fast.observe(self._seat[agent]),
                "action_mask": self._zeros.copy(),
            }
        seat = self._seat[agent]
        state = self._state
        if not self._lost and not self.codec.is_over(state) and seat == self.codec.turn(state):
            mask = self._mask().copy()
        else:
            mask = self._zeros.copy()
        return {"observation": self.codec.observe(state, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        agent = self.agent_selection
        fast = self.fast
        if observe and fast is not None and agent == self._deciding:  # the hot path
            obs: Observation | None = {
                "observation": fast.obs.copy(),
                "action_mask": fast.mask.copy(),
            }
        else:
            obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal(self, action: Any) -> bool:
        """Whether ``action`` is a legal index of the agent to act (``False`` when it has
        ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent] or action is None:
            return False
        index = int(action)
        if not 0 <= index < self.codec.size:
            return False
        if self.fast is not None:
            return bool(self.fast.mask[index])
        return bool(self._mask()[index])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
        elif not self.play(agent, action):
            # Unwrapped, as PettingZoo's raw classic environments; env() ends the game.
            raise ValueError(f"{agent}: action {action} is not legal here (see action_mask)")

    def play(self, agent: str, action: Any) -> bool:
        """Applies ``action`` of ``agent`` (the agent to act, not ended) and what follows;
        ``False`` if it is not legal (nothing changed)."""
        fast = self.fast
        if fast is not None:
            if action is None or not 0 <= action < self._size or not fast.act(int(action)):
                return False
            if not fast.over:  # the hot path: the next agent to act and its legal indices
                # (every reward is 0 until the game ends: the cumulative rewards stay 0)
                self.steps += 1
                selected = self.agent_selection = self._deciding = self.possible_agents[fast.turn]
                infos = self.infos
                if selected != agent:
                    infos[agent] = {}
                infos[selected] = {"legal_actions": tuple(fast.indices[: fast.count].tolist())}
                if self.max_steps is not None and self.steps >= self.max_steps:
                    self.truncations = dict.fromkeys(self.agents, True)
                return True
            self._deciding = None
            over = True
            turn = fast.turn
        else:
            if not self.legal(action):
                return False
            state = self._state
            self.codec.apply(state, self.codec.action(state, self._seat[agent], int(action)))
            self._race.settle(state)
            over = self.codec.is_over(state)
            turn = self.codec.turn(state)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if over:
            rewards = fast.rewards() if fast is not None else self.codec.rewards(self._state)
            for s, reward in enumerate(rewards):
                self.rewards[self.possible_agents[s]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {}
            self._accumulate_rewards()
            return True
        if self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        selected = self.agent_selection = self.possible_agents[turn]
        if selected != agent:
            self.infos[agent] = {}
        self.infos[selected] = {"legal_actions": legal_indices(self.codec, self._state, turn)}
        # Every reward is 0 until the game ends: nothing to add to the cumulative rewards.
        return True

    def lose(self, agent: str) -> None:
        """Ends the game on an illegal action of ``agent``, as PettingZoo's
        ``TerminateIllegalWrapper`` does: ``ILLEGAL_REWARD`` for it, 0 for the others, every
        agent terminated and truncated (the action is never applied)."""
        EnvLogger.warn_on_illegal_move()
        self._lost = True  # nobody decides any more: no mask, no legal actions
        self._deciding = None
        self.infos = {a: {} for a in self.agents}
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(ILLEGAL_REWARD)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The view of the seat to act as text (``render_view``), for ``render_mode="ansi"``."""
        if self.render_mode != "ansi":
            return None
        if self.fast is not None:
            return render_view(self.fast.view(self.fast.turn))
        return render_view(self.codec.view(self._state, self.codec.turn(self._state)))

    def close(self) -> None:
        pass


_BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


class Checked(OrderEnforcingWrapper):  # type: ignore[misc]
    """What ``env()`` returns: the checks of PettingZoo's classic environments in one layer,
    with the same behaviour as their ``OrderEnforcingWrapper`` (errors before ``reset``),
    ``AssertOutOfBoundsWrapper`` (an action outside the action space raises) and
    ``TerminateIllegalWrapper`` (an action outside the mask ends the game, ``DosAEC.lose``).

    PettingZoo's three wrappers forward every attribute read through each layer's
    ``__getattr__``, which costs more than a whole step of the compiled game; here the
    attributes a loop reads are forwarded directly.
    """

    def __init__(self, env: DosAEC) -> None:
        super().__init__(env)
        self._raw = env

    def _live(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    @property
    def agents(self) -> list[str]:
        return self._live("agents")  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        return self._live("agent_selection")  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:
        return self._live("rewards")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:
        return self._live("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:
        return self._live("truncations")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._live("infos")  # type: ignore[no-any-return]

    @property
    def num_agents(self) -> int:
        return len(self._live("agents"))

    @property
    def possible_agents(self) -> list[str]:
        return self._raw.possible_agents

    def observe(self, agent: str) -> Observation | None:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            agent = raw.agent_selection
            ended = raw.terminations[agent] or raw.truncations[agent]
            inside = type(action) is int and 0 <= action < raw._size  # the common case, cheap
            if not inside and not (action is None and ended) and not _in_space(action, raw._size):
                raise AssertionError("action is not in action space")
            if ended:
                raw.step(action)
            elif not raw.play(agent, action):
                raw.lose(agent)

    def __str__(self) -> str:
        return str(self._raw)


def _in_space(action: Any, size: int) -> bool:
    """``spaces.Discrete(size).contains(action)``, without its cost."""
    if type(action) is int or isinstance(action, np.integer):
        return bool(0 <= action < size)
    return bool(spaces.Discrete(size).contains(action))


def env(rules: str = ruleset.DEFAULT, players: int = 2, **kwargs: Any) -> AECEnv:
    """The AEC environment, checked as PettingZoo's classic environments are (``Checked``):
    an action outside the mask ends the game, ``ILLEGAL_REWARD`` for the agent that chose it
    and 0 for the others; one outside the action space raises; the order of calls is checked.

    ``kwargs``: ``race``, ``reflexes``, ``max_steps``, ``render_mode``, ``backend``,
    ``layout`` and the rule set's options (``target_score=100``, ...).
    """
    return Checked(DosAEC(rules, players, **kwargs))


raw_env = DosAEC
