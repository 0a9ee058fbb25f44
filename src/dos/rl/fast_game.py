"""One official game on the compiled core: the fast backend of the single-game environments.

``FastGame`` plays what the Python engine plays for ``dos.rl.aec.DosAEC`` and
``dos.rl.gym_env.DosGym``, on a flat game of ``dos.fast``: the same deal from the same game
seed; the DOS race of the runner's referee, compiled (``dos.rl.flat.race``) and drawing what
the referee's ``random.Random`` draws; the bots at their seats with the same generators
(``dos.seeds.generator(seed, "seat", s)``, the race's ``(seed, "race")``) and
the same views (``dos.fast.official_convert.view_of``); the registry's ``random`` bot
compiled (its ``random.Random`` as a compiled Mersenne Twister, so it draws the same
numbers). So for the same seed and the same actions both backends give the same
observations, masks and rewards (``tests/rl/test_backends.py`` plays them side by side).
Observations, masks and legal indices come from compiled code (``dos.rl.flat``), one call per
decision of the caller.

>>> game = FastGame(2, {"target_score": 40})
>>> game.new(seed=7)
>>> int(game.mask.sum()) == game.count == len(game.legal_indices())
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from dos import seeds
from dos.bots.random_bot import RandomBot
from dos.fast import core
from dos.fast import official as fast_official
from dos.fast import official_layout as fast_layout
from dos.fast.official_convert import (
    action_of,
    from_python_state,
    last_round,
    to_python_state,
    view_and_codes,
    view_of,
)
from dos.fast.rng import MT_SIZE, mt_seed, seed_key
from dos.play.official import Player
from dos.play.reflex import Reflex
from dos.rl import flat
from dos.rl import official_actions as table
from dos.rl.official_observation import official_layout
from dos.rl.race import RACES
from dos.rules import official

CODES = 4096
"""Room for the legal codes of a position (more are found again one by one)."""
_CORE = core("official")
_play_packed = flat.play_packed
_TRAIL_N = flat.TRAIL_N
_HALF_TRAIL = flat.TRAIL_SIZE // 2
_OVER = flat.OVER
_COUNT_BITS = flat.COUNT_BITS
_TURN_SHIFT = flat.TURN_SHIFT


def is_compiled(player: Player) -> bool:
    """Whether ``player``'s bot is the registry's ``random`` bot, which the compiled code
    plays (its choices are the Python bot's)."""
    return type(player.bot) is RandomBot


def seat_kinds(players: int, bots: dict[int, Player]) -> list[int]:
    """Who decides at each seat, as ``dos.rl.flat`` knows them: the caller (no bot), the
    compiled ``random`` bot, or a bot asked in Python."""
    return [
        flat.CALLER if seat not in bots else flat.RANDOM if is_compiled(bots[seat]) else flat.BOT
        for seat in range(players)
    ]


class Record:
    """A flat game's past as its bots see it: its actions (the codes the compiled code
    applied come through ``ext``'s trail) and its round results.

    The codes, and the flat game at each round's end, are kept as they come and made
    ``Action``s and ``RoundResult``s only when ``actions`` or ``round_results`` is read (a
    bot's view, the engine's state): a game nobody looks back on never pays for them."""

    __slots__ = ("_actions", "_codes", "_ends", "_rounds")

    def __init__(self) -> None:
        self._actions: list[official.Action] = []
        self._codes: list[int] = []
        self._rounds: list[official.RoundResult] = []
        self._ends: list[np.ndarray] = []

    @property
    def round_results(self) -> list[official.RoundResult]:
        """The results of the rounds finished so far, in order."""
        if self._ends:
            self._rounds.extend(last_round(s) for s in self._ends)
            self._ends = []
        return self._rounds

    @round_results.setter
    def round_results(self, results: list[official.RoundResult]) -> None:
        self._rounds = results
        self._ends = []

    @property
    def actions(self) -> list[official.Action]:
        """The game's actions, in order (the list itself: append to it)."""
        if self._codes:
            self._actions.extend(action_of(code) for code in self._codes)
            self._codes = []
        return self._actions

    @actions.setter
    def actions(self, actions: list[official.Action]) -> None:
        self._actions = actions
        self._codes = []

    def flush(self, ext: np.ndarray) -> None:
        """Moves the codes applied in compiled code out of the trail, in order."""
        n = int(ext[flat.TRAIL_N])
        if n:
            start = flat.TRAIL
            self._codes.extend(ext[start : start + n].tolist())
            ext[flat.TRAIL_N] = 0

    def round_ended(self, s: np.ndarray, ext: np.ndarray) -> None:
        """Keeps the result of the round that just ended (``advance`` stopped for it)."""
        self.flush(ext)
        self._ends.append(s.copy())
        ext[flat.ROUNDS_SEEN] = s[fast_layout.ROUNDS]

    def view(
        self,
        s: np.ndarray,
        ext: np.ndarray,
        seat: int,
        options: official.Options,
        codes: np.ndarray,
    ) -> official.SeatView:
        """The engine's view of ``seat`` (what a bot is shown)."""
        self.flush(ext)
        return view_of(
            s,
            seat,
            options,
            history=tuple(self.actions),
            round_results=tuple(self.round_results),
            codes=codes,
        )

    def state(self, s: np.ndarray, ext: np.ndarray, seed: int) -> official.State:
        """The engine's ``State`` of the game, records included."""
        self.flush(ext)
        return to_python_state(s, seed, self.actions, self.round_results)

    def bot_move(
        self,
        s: np.ndarray,
        ext: np.ndarray,
        *,
        options: official.Options,
        player: Player,
        rng: random.Random,
        codes: np.ndarray,
    ) -> None:
        """The bot ``player`` at the seat to act chooses from its view and its action is
        applied, as ``dos.rl.gym_env.Opponents.choose`` then the engine's ``apply``."""
        seat = int(s[fast_layout.TURN])
        self.flush(ext)
        view, own = view_and_codes(
            s,
            seat,
            options,
            history=tuple(self.actions),
            round_results=tuple(self.round_results),
            codes=codes,
        )
        action = player.bot.choose(view, rng, player.budget)
        try:
            code, bonus = own[view.legal.index(action)], -1
        except ValueError:  # designations, or not legal: the engine's own checks
            code, bonus = _CORE.prepare(s, action)
        if code < 0:
            # Not legal here: the Python engine says why, in its own words.
            official.apply(to_python_state(s, None, self.actions, self.round_results), action)
            raise RuntimeError(f"fast core: {action} is legal in the engine but not here")
        fast_official.apply(s, code, bonus)
        if action.seat is not None and action.seat == seat:
            action = action._replace(seat=None)  # as the engine's history writes it
        self.actions.append(action)


class FastGame:
    """One official game of ``players`` seats and rule ``options`` on the compiled core.

    ``bots``: the registry players at some seats (``dos.bots.registry.make_player``), the
    others played by the caller; ``race`` and ``reflexes`` as ``dos.rl.race.Race``.
    ``layout``: the observation layout. After ``new`` and each ``act``, ``obs``, ``mask``
    and ``legal[0, :count]`` are those of the caller's seat that decides, or, once the game is
    over, ``obs`` is ``observer``'s observation and the mask is all zero.
    """

    def __init__(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        *,
        layout: str = "padded",
        race: str = "reflex",
        reflexes: Sequence[Reflex] | None = None,
        bots: dict[int, Player] | None = None,
        observer: int = -1,
    ) -> None:
        self.players = players
        self.options_json = {"players": players, **(options or {})}
        self.options = official.Options.from_json(self.options_json)
        self.layout = official_layout(players, layout)
        self.at = flat.offsets(self.layout)
        self.bots = dict(bots or {})
        if race not in RACES:
            raise ValueError(f"unknown race {race!r} (known: {', '.join(RACES)})")
        every = list(reflexes) if reflexes is not None else [Reflex()] * players
        if len(every) != players:
            raise ValueError(f"{len(every)} reflexes for {players} seats")
        self.reflex = flat.reflex_table(every)
        kinds = seat_kinds(players, self.bots)
        mode = flat.RACE_EXACT if race == "reflex" else flat.RACE_NONE
        self.cfg = flat.new_cfg(kinds, mode, record=True)
        self.observer = observer
        self.buffer, parts = flat.pack(
            [
                np.zeros(fast_layout.SIZE, np.int64),
                np.zeros(flat.EXT, np.int64),
                self.cfg,
                self.at,
                np.zeros(CODES, np.int64),
                np.zeros((2, table.SIZE), np.int64),
                np.zeros((players + 1, MT_SIZE), np.int64),
                self.reflex,
                np.zeros(self.layout.size, np.float32),
                np.zeros(table.SIZE, np.int8),
            ]
        )
        """Every array of the game in one buffer (``flat.pack``), each below as a view."""
        self.s, self.ext, self.cfg, self.at, self.codes, self.legal = parts[:6]
        self.mts, self.reflex, self.obs, self.mask = parts[6:]
        """``mts``: the compiled ``random`` seats' generators, then the race's. ``legal[0,
        :count]``: the legal indices, ascending; ``legal[1]``: their codes. ``obs``,
        ``mask``: the deciding seat's (or, once over, ``observer``'s observation)."""
        self.states = self.s[None, :]
        self.indices = self.legal[0]
        """``legal[0]``: ``indices[:count]`` are the legal indices."""
        self.count = 0
        """Legal indices in ``legal`` (0 when no caller decides)."""
        self.over = False
        self.turn = 0
        """The seat to act."""
        self._seed = 0
        """The game seed: hidden information, never shown (only ``state`` works it in)."""
        self.record = Record()
        self.rngs: dict[int, random.Random] = {}
        """The generators of the bots asked in Python (the compiled ones' are in ``mts``)."""

    # -- playing -----------------------------------------------------------------------------

    def new(self, seed: int) -> None:
        """Deals a new game from ``seed`` (a game seed: hidden information, never shown) and
        plays on until a caller decides."""
        self._seed = seed
        _CORE.new_game(self.s, self.options_json, seed)
        self.ext[:] = 0
        self.count = 0
        self.mask[:] = 0
        self.record = Record()
        # The compiled generators start where ``seeds.generator`` starts (Race's, the bots').
        mt_seed(self.mts[self.players], seed_key(seeds.derive(seed, "race")))
        self.rngs = {}
        for seat, player in self.bots.items():
            if is_compiled(player):
                mt_seed(self.mts[seat], seed_key(seeds.derive(seed, "seat", seat)))
            else:
                self.rngs[seat] = seeds.generator(seed, "seat", seat)
        answer = self._go_on(False)
        if answer & 7 > flat.OVER:
            answer = self._run(answer & 7)
        self.count = (answer >> 3) & flat.COUNT_BITS
        self.turn = answer >> flat.TURN_SHIFT
        self.over = answer & 7 == flat.OVER

    def act(self, index: int) -> bool:
        """Applies the deciding seat's action ``index`` and plays on until a caller decides
        or the game ends; ``False`` (nothing changed) if the index is not legal."""
        # The hot path of every step: module constants bound to globals, one compiled call.
        if self.ext[_TRAIL_N] > _HALF_TRAIL:
            self.record.flush(self.ext)
        answer = _play_packed(self.buffer, index, False, self.observer)
        if answer < 0:
            return False
        status = answer & 7
        if status > _OVER:
            answer = self._run(status)
            status = answer & 7
        self.count = (answer >> 3) & _COUNT_BITS
        self.turn = answer >> _TURN_SHIFT
        self.over = status == _OVER
        return True

    def _go_on(self, settled: bool) -> int:
        return flat.play_packed(self.buffer, -1, settled, self.observer)

    def _run(self, status: int) -> int:
        """Does what ``play`` stopped for (``status``), and goes on until a caller decides or
        the game is over; returns ``play``'s last answer."""
        s, ext = self.s, self.ext
        while True:
            settled = True
            if status == flat.FLUSH:
                self.record.flush(ext)
            elif status == flat.ROUND:
                self.record.round_ended(s, ext)
                settled = False
            else:
                seat = int(s[fast_layout.TURN])
                self.record.bot_move(
                    s,
                    ext,
                    options=self.options,
                    player=self.bots[seat],
                    rng=self.rngs[seat],
                    codes=self.codes,
                )
                settled = False
            answer = self._go_on(settled)
            status = answer & 7
            if status <= flat.OVER:
                return answer

    # -- what the environments read ----------------------------------------------------------

    @property
    def winner(self) -> int:
        """The winner's seat, ``-1`` while nobody has won."""
        return int(self.s[fast_layout.WINNER])

    def legal_indices(self) -> tuple[int, ...]:
        """The deciding seat's legal indices, ascending."""
        return tuple(self.indices[: self.count].tolist())

    def rewards(self) -> list[float]:
        """Each seat's reward, as ``dos.rl.codec.OfficialCodec.rewards``."""
        winner = self.winner
        if winner < 0:
            return [0.0] * self.players
        loss = -1.0 / (self.players - 1)
        return [1.0 if seat == winner else loss for seat in range(self.players)]

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat``."""
        obs = np.empty(self.layout.size, np.float32) if out is None else out
        flat.observe(self.s, seat, obs, self.at)
        return obs

    def view(self, seat: int) -> official.SeatView:
        """The engine's view of ``seat`` (what a bot is shown)."""
        return self.record.view(self.s, self.ext, seat, self.options, self.codes)

    @property
    def state(self) -> official.State:
        """The game as the engine's ``State``, equal to the Python backend's in every field
        (a copy: changing it changes nothing here; assign it to load a state)."""
        return self.record.state(self.s, self.ext, self._seed)

    @state.setter
    def state(self, state: official.State) -> None:
        self.s[:] = from_python_state(state)
        self.ext[flat.TRAIL_N] = 0
        self.ext[flat.ROUNDS_SEEN] = self.s[fast_layout.ROUNDS]
        self.record.actions = list(state.history)
        self.record.round_results = list(state.round_results)
        self.over = state.phase == official.Phase.OVER
        self.turn = state.turn
        self.count = flat.look(
            self.s,
            self.ext,
            self.observer,
            self.obs,
            self.mask,
            self.legal,
            self.codes,
            self.at,
        )
