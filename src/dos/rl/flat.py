"""The compiled pieces of the fast environments: official games on ``dos.fast``'s flat arrays.

What the environments on the compiled core share (``dos.rl.fast_game`` for one game,
``dos.rl.fast_vector`` for batches), all of it numba-compiled and exactly what the Python side
computes (tests compare them bit for bit):

* ``observe``: the observation of any seat (``dos.rl.official_observation``, either layout);
* ``look``: the observation of the seat that decides, its legal-action mask
  (``dos.rl.official_actions``) and its legal indices in ascending order;
* ``find``: the action code of the seat to act behind an index;
* ``advance``: plays on until a caller's seat decides: the DOS race after each action, the
  seats of the registry's ``random`` bot (their ``random.Random`` as a compiled Mersenne
  Twister, so their choices are the Python bot's), and stops for what needs Python (another
  bot, a round's record).

The race is the runner's referee (``dos.play.official.DosReferee``): each obligation that opens
is raced once, the owner's call against the quickest catch, each seat with its reflexes. In
``RACE_EXACT`` it draws what the referee draws from its ``random.Random`` (kept as a compiled
Mersenne Twister: ``random()``, then ``lognormvariate`` by Kinderman and Monahan's method as
CPython computes it), so the games are the Python engine's; in ``RACE_COMPILED`` from a
SplitMix64 generator of the game's own (the batches' race, ``dos.rl.fast_vector``).

Per game, besides its flat state, an ``int64`` row ``ext`` (``EXT`` slots) holds what the
environment keeps: the race's bits, the last legal count, the generators of the compiled race
and of ``random_actions`` (SplitMix64), the hands as the race last saw them, and a trail of
the codes applied (for the history a bot's view shows); ``mts`` [players + 1, ``MT_SIZE``]
holds the Mersenne Twisters of the ``random`` seats and, last, the exact race's. ``cfg`` says
how a table is played: the race (``RACE_*``), whether codes are recorded, and each seat's
kind (``CALLER``: the environment's caller decides, ``RANDOM``: the compiled ``random`` bot,
``BOT``: a bot in Python). ``reflex`` is a ``float64`` [players, 4] array: each seat's call
and catch reliability, median reaction time and spread (``dos.play.reflex.Reflex``).
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from dos.fast import official as fast_official
from dos.fast import official_layout
from dos.fast._jit import njit, njit_inline
from dos.fast.rng import MT_SIZE, mt_next32, mt_randbelow, splitmix_next
from dos.rl import official_actions as table
from dos.rl.official_observation import DECK_SIZE, SIZE_SCALE
from dos.rules.official.cards import DECK_COUNTS, N_TYPES

_SLOT_BASE = np.full((N_TYPES, 12), -1, np.int64)
for _t in range(N_TYPES):
    for _k in range(DECK_COUNTS[_t]):
        _SLOT_BASE[_t, _k] = table.SLOT_BASE[_t][_k]
_COMBO = np.full((N_TYPES, N_TYPES, N_TYPES + 1), -1, np.int64)
"""``_COMBO[target, card1, card2 + 1]``: the combination's number among ``COMBOS[target]``."""
for _t in range(N_TYPES):
    for _j, _cards in enumerate(table.COMBOS[_t]):
        _COMBO[_t, _cards[0], (_cards[1] if len(_cards) == 2 else -1) + 1] = _j
_DECK = np.array(DECK_COUNTS, np.float32)

SLICES = (
    "hand",
    "center",
    "matched",
    "played",
    "discard",
    "unseen",
    "phase",
    "bonuses",
    "players",
    "to_act",
    "hand_sizes",
    "dos_open",
    "penalties",
    "scores",
    "draw_pile",
)
"""The slices whose offsets ``offsets`` gives (``-1``: not in the layout)."""

# ext: per game.
RACED = 0
"""The race's bits: seats whose open obligation has been raced (``DosReferee.raced``)."""
TRAIL_N = 1
"""Codes in the trail."""
ROUNDS_SEEN = 2
"""Rounds finished when the round records were last read."""
LEGAL_N = 3
"""Legal indices written by the last ``look`` (the mask is cleared through them)."""
RNG_RACE = 4
RNG_PICK = 5
"""SplitMix64 states: the compiled race's, ``random_actions``'."""
SNAP = 8
"""The hands as the race last saw them (``MAX_PLAYERS * TYPES`` counts)."""
TRAIL = SNAP + official_layout.MAX_PLAYERS * official_layout.TYPES
TRAIL_SIZE = 256
EXT = TRAIL + TRAIL_SIZE

# cfg: per table.
RACE_MODE = 0
RECORD = 1
KINDS = 2
CFG = KINDS + official_layout.MAX_PLAYERS
RACE_NONE = 0
"""``race="agents"``: nothing is settled between decisions."""
RACE_COMPILED = 1
"""The race drawn from the game's ``RNG_RACE`` generator (SplitMix64)."""
RACE_EXACT = 2
"""The race drawn as the runner's referee draws from its ``random.Random`` (the last row of
``mts``)."""
CALLER = 0
RANDOM = 1
BOT = 2

# What advance stops for.
DECIDE = 0
"""A caller's seat decides."""
OVER = 1
BOT_TURN = 2
"""A bot in Python decides."""
FLUSH = 3
"""The trail is full: Python reads it."""
ROUND = 4
"""A round ended while recording: Python reads its result."""

TURN_SHIFT = 17
"""``play``'s answer: the status in bits 0-2, the legal count in 3-16, the seat to act above."""
COUNT_BITS = (1 << (TURN_SHIFT - 3)) - 1
_MARGIN = 2 * official_layout.MAX_PLAYERS + 2
"""Trail room kept for one action and the race that follows it."""
_UNIT = 2.0**-53
_NV_MAGICCONST: float = random.NV_MAGICCONST  # type: ignore[attr-defined]
"""CPython's constant of ``normalvariate`` (``4 * exp(-0.5) / sqrt(2)``), the same float."""
_CALL_KIND = 5
_CATCH_KIND = 6


def offsets(layout: Any) -> np.ndarray:
    """Where each of ``SLICES`` starts in an observation of ``layout`` (a ``Layout``)."""
    names = {part.name for part in layout}
    return np.array([layout[name].start if name in names else -1 for name in SLICES], np.int64)


def reflex_table(reflexes: Any) -> np.ndarray:
    """Each seat's reflexes (``dos.play.reflex.Reflex``) as the compiled race reads them."""
    return np.array(
        [[r.call_reliability, r.catch_reliability, r.reaction, r.spread] for r in reflexes],
        np.float64,
    )


def new_cfg(kinds: list[int], race: int, record: bool) -> np.ndarray:
    """A table's ``cfg``: each seat's kind, the race, whether codes are recorded."""
    cfg = np.zeros(CFG, np.int64)
    cfg[RACE_MODE] = race
    cfg[RECORD] = int(record)
    cfg[KINDS : KINDS + len(kinds)] = kinds
    return cfg


@njit
def index(s: Any, code: int) -> int:
    """The action index of a code of the seat to act (``dos.rl.official_actions``)."""
    kind = code & 7
    card1 = ((code >> 8) & 63) - 1
    card2 = ((code >> 14) & 63) - 1
    target = (code >> 20) - 1
    if kind == official_layout.MATCH:
        card = s[official_layout.CENTER + target]
        copy = 0
        for at in range(target):
            if s[official_layout.CENTER + at] == card:
                copy += 1
        return int(_SLOT_BASE[card, copy] + _COMBO[card, card1, card2 + 1])
    if kind == official_layout.DRAW_KIND:
        return table.DRAW_INDEX
    if kind == official_layout.END:
        return table.END_INDEX
    if kind == official_layout.LAY:
        return table.LAY_BASE + card1
    if kind == official_layout.PLACE:
        return table.PLACE_BASE + card1
    if kind == official_layout.CALL:
        return table.CALL_INDEX
    players = s[official_layout.PLAYERS]
    return int(table.CATCH_BASE + (target - s[official_layout.TURN]) % players - 1)


@njit
def _code(s: Any, codes: Any, k: int) -> int:
    """Legal code number ``k``, from ``codes`` when it holds it (written by ``legal``)."""
    if k < codes.size:
        return int(codes[k])
    return int(fast_official.legal(s, codes[:0], k))


@njit_inline
def find(legal: Any, count: int, action: int) -> int:
    """The code behind index ``action`` among the ``count`` legal indices ``look`` wrote
    (``legal[0]`` ascending, ``legal[1]`` their codes), or ``-1`` if it is not one of them."""
    low = 0
    high = count
    while low < high:
        middle = (low + high) // 2
        if legal[0, middle] < action:
            low = middle + 1
        else:
            high = middle
    if low < count and legal[0, low] == action:
        return int(legal[1, low])
    return -1


@njit_inline
def observe(s: Any, seat: int, obs: Any, at: Any) -> None:
    """The observation of ``seat`` (``dos.rl.official_observation.observe``) into ``obs``;
    ``at``: the layout's ``offsets``."""
    players = s[official_layout.PLAYERS]
    obs[:] = 0.0
    hand, center, matched, played, discard, unseen = at[0], at[1], at[2], at[3], at[4], at[5]
    for card in range(N_TYPES):
        obs[hand + card] = s[official_layout.HANDS + seat * N_TYPES + card]
    for i in range(s[official_layout.N_CENTER]):
        card = s[official_layout.CENTER + i]
        first = s[official_layout.MATCH_A + i]
        if first >= 0:
            obs[matched + card] += 1.0
            obs[played + first] += 1.0
            second = s[official_layout.MATCH_B + i]
            if second >= 0:
                obs[played + second] += 1.0
        else:
            obs[center + card] += 1.0
    for i in range(s[official_layout.N_DISCARD]):
        obs[discard + s[official_layout.DISCARD + i]] += 1.0
    for card in range(N_TYPES):
        seen = (
            obs[hand + card]
            + obs[center + card]
            + obs[matched + card]
            + obs[played + card]
            + obs[discard + card]
        )
        obs[unseen + card] = max(_DECK[card] - seen, 0.0)
    phase = s[official_layout.PHASE]
    if phase == fast_official.PLACING:
        obs[at[6] + 3] = 1.0
    elif phase == fast_official.TURN:
        if s[official_layout.N_MATCHED]:
            obs[at[6] + 2] = 1.0
        elif s[official_layout.DREW]:
            obs[at[6] + 1] = 1.0
        else:
            obs[at[6]] = 1.0
    obs[at[7]] = s[official_layout.SINGLE_BONUSES]
    obs[at[7] + 1] = s[official_layout.DOUBLE_BONUSES]
    obs[at[7] + 2] = s[official_layout.PLACEMENTS_LEFT]
    if at[8] >= 0:
        obs[at[8] + players - 2] = 1.0
    obs[at[9] + (s[official_layout.TURN] - seat) % players] = 1.0
    open_bits = s[official_layout.DOS_OPEN]
    for r in range(players):
        other = (seat + r) % players
        obs[at[10] + r] = s[official_layout.HAND_SIZE + other] / SIZE_SCALE
        obs[at[11] + r] = (open_bits >> other) & 1
        obs[at[12] + r] = s[official_layout.PENALTIES + other]
        # At most 1: only a winner's final score passes the target, by up to a round's points.
        obs[at[13] + r] = min(s[official_layout.SCORES + other] / s[official_layout.TARGET], 1.0)
    obs[at[14]] = s[official_layout.N_DRAW] / DECK_SIZE


@njit_inline
def look(  # noqa: PLR0917 (compiled: positional arguments)
    s: Any, ext: Any, seat: int, obs: Any, mask: Any, legal: Any, codes: Any, at: Any
) -> int:
    """The observation of ``seat`` (``-1``: the seat to act), and, when that seat is to act,
    its mask and its legal indices (``legal[0]``, ascending; ``legal[1]``: their codes, for
    ``find``), else an all-zero mask; returns how many legal indices. The mask is cleared
    through the indices of the last ``look`` (``ext[LEGAL_N]``), so nothing else may write
    it."""
    turn = s[official_layout.TURN]
    observer = turn if seat < 0 else seat
    observe(s, observer, obs, at)
    for k in range(ext[LEGAL_N]):
        mask[legal[0, k]] = 0
    found = 0
    if observer == turn and s[official_layout.PHASE] != fast_official.OVER:
        n = fast_official.legal(s, codes, -1)
        for k in range(n):
            code = _code(s, codes, k)
            if ((code >> 3) & 31) == 0:  # the seat to act's own actions (no seat written)
                i = index(s, code)
                mask[i] = 1
                at_ = found
                while at_ > 0 and legal[0, at_ - 1] > i:  # kept sorted: few, mostly in order
                    legal[0, at_] = legal[0, at_ - 1]
                    legal[1, at_] = legal[1, at_ - 1]
                    at_ -= 1
                legal[0, at_] = i
                legal[1, at_] = code
                found += 1
    ext[LEGAL_N] = found
    return found


@njit_inline
def _record(ext: Any, cfg: Any, code: int) -> None:
    if cfg[RECORD]:
        ext[TRAIL + ext[TRAIL_N]] = code
        ext[TRAIL_N] += 1


@njit_inline
def apply(s: Any, ext: Any, cfg: Any, code: int) -> None:
    """Applies a legal code, recorded in the trail when the table records."""
    fast_official.apply(s, code, -1)
    _record(ext, cfg, code)


@njit
def _uniform(ext: Any, slot: int) -> float:
    """A uniform deviate in (0, 1] from the SplitMix64 state ``ext[slot]`` (advanced)."""
    state, z = splitmix_next(np.uint64(ext[slot]))
    ext[slot] = np.int64(state)
    return (float(z >> np.uint64(11)) + 1.0) * _UNIT


@njit
def below(ext: Any, slot: int, n: int) -> int:
    """A uniform integer in [0, n) from ``ext[slot]`` (the multiply-shift map of the high 32
    bits, as ``dos.rng.shuffle``)."""
    state, z = splitmix_next(np.uint64(ext[slot]))
    ext[slot] = np.int64(state)
    return int(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit
def _delay(ext: Any, reflex: Any, seat: int, which: int) -> float:
    """A reaction of ``seat`` (``which`` 0: its call, 1: a catch) in seconds, or ``-1`` if it
    does not notice: lognormal (Box-Muller on two uniform draws of the race generator). The
    reliability is drawn only when it is below 1, so sure reflexes draw two numbers."""
    noticed = True
    if reflex[seat, which] < 1.0:
        noticed = _uniform(ext, RNG_RACE) <= reflex[seat, which]
    radius = np.sqrt(-2.0 * np.log(_uniform(ext, RNG_RACE)))
    normal = radius * np.cos(2.0 * np.pi * _uniform(ext, RNG_RACE))
    delay = reflex[seat, 2] * np.exp(reflex[seat, 3] * normal)
    return float(delay) if noticed else -1.0


@njit
def _mt_random(mt: Any) -> float:
    """``random.Random.random()`` of the Mersenne Twister ``mt`` (53 bits from two words)."""
    a = mt_next32(mt) >> 5
    b = mt_next32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit
def _exact_delay(mt: Any, reflex: Any, seat: int, which: int) -> float:
    """``Reflex.call_delay`` (``which`` 0) or ``catch_delay`` (1) of ``seat`` drawn from the
    Mersenne Twister ``mt`` as CPython draws them: ``random() < reliability``, then
    ``reaction * lognormvariate(0, spread)``; ``-1`` where the reflex returns ``None``."""
    noticed = _mt_random(mt) < reflex[seat, which]
    while True:
        u1 = _mt_random(mt)
        u2 = 1.0 - _mt_random(mt)
        z = _NV_MAGICCONST * (u1 - 0.5) / u2
        zz = z * z / 4.0
        if zz <= -math.log(u2):
            break
    delay = reflex[seat, 2] * math.exp(0.0 + z * reflex[seat, 3])
    return float(delay) if noticed else -1.0


@njit
def _hand_changed(s: Any, ext: Any, seat: int) -> bool:
    base = official_layout.HANDS + seat * official_layout.TYPES
    snap = SNAP + seat * official_layout.TYPES
    for card in range(official_layout.TYPES):  # noqa: SIM110 (compiled: no generator in any())
        if s[base + card] != ext[snap + card]:
            return True
    return False


@njit
def race(s: Any, ext: Any, cfg: Any, reflex: Any, mt: Any) -> None:
    """Each obligation not raced yet, the owner's call against the quickest catch, as
    ``dos.play.official.DosReferee.settle`` races (an obligation nobody acted on is not raced
    again until its owner's hand changes), drawn from ``ext[RNG_RACE]`` or, with
    ``RACE_EXACT``, from the Mersenne Twister ``mt``."""
    raced = ext[RACED]
    if s[official_layout.DOS_OPEN] == 0 and raced == 0:
        return
    players = s[official_layout.PLAYERS]
    for seat in range(players):
        if (raced >> seat) & 1 and _hand_changed(s, ext, seat):
            raced &= ~(1 << seat)
    raced &= s[official_layout.DOS_OPEN]
    fresh = s[official_layout.DOS_OPEN] & ~raced
    exact = cfg[RACE_MODE] == RACE_EXACT
    for owner in range(players):
        if not ((fresh & s[official_layout.DOS_OPEN]) >> owner) & 1:
            continue
        call = _exact_delay(mt, reflex, owner, 0) if exact else _delay(ext, reflex, owner, 0)
        quickest = np.inf
        catcher = -1
        for step in range(1, players):
            other = (owner + step) % players
            delay = _exact_delay(mt, reflex, other, 1) if exact else _delay(ext, reflex, other, 1)
            # The quickest catch, the lower seat on a tie (the referee's min() of pairs).
            if delay >= 0.0 and (delay < quickest or (delay == quickest and other < catcher)):
                quickest = delay
                catcher = other
        turn = s[official_layout.TURN]
        if call >= 0.0 and (catcher < 0 or call <= quickest):
            written = -1 if owner == turn else owner
            apply(s, ext, cfg, _CALL_KIND | (written + 1) << 3)
        elif catcher >= 0:
            written = -1 if catcher == turn else catcher
            apply(s, ext, cfg, _CATCH_KIND | (written + 1) << 3 | (owner + 1) << 20)
    raced |= fresh & s[official_layout.DOS_OPEN]
    ext[RACED] = raced
    if raced:
        for i in range(official_layout.MAX_PLAYERS * official_layout.TYPES):
            ext[SNAP + i] = s[official_layout.HANDS + i]


@njit
def _random_turn(s: Any, mt: Any, codes: Any) -> int:
    """The registry's ``random`` bot: its turn actions are the first legal codes (the seat
    to act's, before any call or catch); one drawn as ``rng.randrange(len(choices))``."""
    n = fast_official.legal(s, codes, -1)
    count = 0
    for k in range(n):
        code = _code(s, codes, k)
        if ((code >> 3) & 31) != 0 or (code & 7) >= _CALL_KIND:
            break
        count += 1
    return _code(s, codes, mt_randbelow(mt, count))


@njit_inline
def advance(  # noqa: PLR0917 (compiled: positional arguments)
    s: Any, ext: Any, mts: Any, cfg: Any, reflex: Any, codes: Any, settled: bool
) -> int:
    """Plays on after an action: the race (unless ``settled``: it was run for the last action
    already), then the compiled ``random`` seats, until a caller's seat decides (``DECIDE``),
    the game is over (``OVER``), or Python must act (``BOT_TURN``, ``FLUSH``, ``ROUND``; call
    again with ``settled`` true after a ``FLUSH``). ``mts``: the Mersenne Twister of each
    seat of the compiled bot, then the exact race's."""
    record = cfg[RECORD]
    skip = settled
    while True:
        if not skip:
            if record and s[official_layout.ROUNDS] != ext[ROUNDS_SEEN]:
                return ROUND
            if cfg[RACE_MODE] != RACE_NONE:
                race(s, ext, cfg, reflex, mts[mts.shape[0] - 1])
        skip = False
        if s[official_layout.PHASE] == fast_official.OVER:
            return OVER
        turn = s[official_layout.TURN]
        kind = cfg[KINDS + turn]
        if kind == CALLER:
            return DECIDE
        if kind == BOT:
            return BOT_TURN
        if record and ext[TRAIL_N] + _MARGIN > TRAIL_SIZE:
            return FLUSH
        apply(s, ext, cfg, _random_turn(s, mts[turn], codes))


@njit_inline
def play(  # noqa: PLR0917 (compiled: positional arguments)
    s: Any,
    ext: Any,
    mts: Any,
    cfg: Any,
    reflex: Any,
    codes: Any,
    action: int,
    settled: bool,
    seat: int,
    obs: Any,
    mask: Any,
    legal: Any,
    at: Any,
) -> int:
    """One decision of one game: applies the seat to act's index ``action`` (``-1``: none, go
    on from where ``advance`` stopped, ``settled`` as there), plays on (``advance``), and when
    a caller decides or the game is over, ``look``s from ``seat`` (``-1``: the seat to act).
    Returns ``advance``'s answer, plus 8 times the legal count, plus ``2**17`` times the
    seat to act; ``-1`` if ``action`` is not legal (nothing changed)."""
    if action >= 0:
        code = find(legal, ext[LEGAL_N], action)
        if code < 0:
            return -1
        apply(s, ext, cfg, code)
        settled = False
    status = advance(s, ext, mts, cfg, reflex, codes, settled)
    count = 0
    if status <= OVER:  # DECIDE or OVER
        count = look(s, ext, seat, obs, mask, legal, codes, at)
    return int(status | count << 3 | s[official_layout.TURN] << TURN_SHIFT)


@njit
def step_batch(  # noqa: PLR0917 (compiled: positional arguments)
    states: Any,
    actions: Any,
    ext: Any,
    mts: Any,
    cfg: Any,
    reflex: Any,
    codes: Any,
    legal: Any,
    status: Any,
) -> None:
    """Every game applies its index ``actions[g]`` (the caller checked it against the mask)
    and plays on (``advance``); ``status[g]``: where it stopped, ``-1`` if the index was not
    legal after all (that game unchanged)."""
    for g in range(states.shape[0]):
        s = states[g]
        code = find(legal[g], ext[g, LEGAL_N], actions[g])
        if code < 0:
            status[g] = -1
            continue
        apply(s, ext[g], cfg, code)
        status[g] = advance(s, ext[g], mts[g], cfg, reflex, codes, False)


@njit
def look_batch(  # noqa: PLR0917 (compiled: positional arguments)
    states: Any,
    ext: Any,
    seat: int,
    obs: Any,
    mask: Any,
    legal: Any,
    codes: Any,
    at: Any,
    seats: Any,
    counts: Any,
) -> None:
    """``look`` in every game (``seat`` as there); ``seats[g]``: the seat to act,
    ``counts[g]``: the legal count."""
    for g in range(states.shape[0]):
        seats[g] = states[g, official_layout.TURN]
        counts[g] = look(states[g], ext[g], seat, obs[g], mask[g], legal[g], codes, at)


@njit
def sample(ext: Any, legal: Any, counts: Any, out: Any) -> None:
    """A uniformly random legal index per game, from each game's ``RNG_PICK`` generator."""
    for g in range(out.size):
        out[g] = legal[g, 0, below(ext[g], RNG_PICK, counts[g])]


# One game in one buffer: the single-game environments call ``play_packed`` with every array of
# a game in one int64 array, since each array argument of a compiled call costs on every call.
PARTS = 10
"""The parts of a packed game, in order: the game, ``ext``, ``cfg``, the layout's offsets,
the codes, the legal indices and codes [2, SIZE], the Mersenne Twisters [players + 1,
MT_SIZE], the reflexes (float64 [players, 4]), the observation (float32), the mask (int8)."""
_OBS_SIZE = PARTS + 1
_HEADER = PARTS + 2
"""``buffer[0:PARTS + 1]``: where each part starts, then where the last ends; then the
observation's size."""


def pack(parts: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """One int64 buffer holding the ``PARTS`` arrays ``parts`` (each part in whole words,
    after a header saying where), and each part again as a view of the buffer, of its own
    dtype and shape: write to the views, the compiled code reads the buffer."""
    words = [-(-part.nbytes // 8) for part in parts]
    starts = np.cumsum([_HEADER, *words])
    buffer = np.zeros(int(starts[-1]), np.int64)
    buffer[: PARTS + 1] = starts
    buffer[_OBS_SIZE] = parts[8].size
    views = []
    for part, start, size in zip(parts, starts[:-1].tolist(), words, strict=True):
        view = buffer[start : start + size].view(part.dtype)[: part.size].reshape(part.shape)
        view[...] = part
        views.append(view)
    return buffer, views


@njit
def play_packed(buffer: Any, action: int, settled: bool, seat: int) -> int:
    """``play`` of the game packed in ``buffer`` (``pack``)."""
    s = buffer[buffer[0] : buffer[1]]
    ext = buffer[buffer[1] : buffer[2]]
    cfg = buffer[buffer[2] : buffer[3]]
    at = buffer[buffer[3] : buffer[4]]
    codes = buffer[buffer[4] : buffer[5]]
    legal = buffer[buffer[5] : buffer[6]].reshape((2, table.SIZE))
    mts = buffer[buffer[6] : buffer[7]]
    mts = mts.reshape((mts.size // MT_SIZE, MT_SIZE))
    reflex = buffer[buffer[7] : buffer[8]].view(np.float64)
    reflex = reflex.reshape((reflex.size // 4, 4))
    obs = buffer[buffer[8] : buffer[9]].view(np.float32)[: buffer[_OBS_SIZE]]
    mask = buffer[buffer[9] : buffer[10]].view(np.int8)[: table.SIZE]
    return play(s, ext, mts, cfg, reflex, codes, action, settled, seat, obs, mask, legal, at)
