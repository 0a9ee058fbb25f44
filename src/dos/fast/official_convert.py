"""Between the fast core's flat official games and ``dos.rules.official``: states and
actions, both ways, so that every step can be compared and every action written in notation.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dos.errors import IllegalActionError, NotationError
from dos.fast import official_layout
from dos.fast._jit import njit
from dos.fast.official import legal as fast_legal
from dos.rng import seed_state
from dos.rules.official.actions import Action, Kind
from dos.rules.official.matching import NO_DESIGNATION, colour_match, number_match
from dos.rules.official.options import Options
from dos.rules.official.setup import draw_for_dealer
from dos.rules.official.state import Phase, RoundResult, State
from dos.rules.official.views import SeatView

I64 = npt.NDArray[np.int64]
_MASK = (1 << 64) - 1


def write_options(s: I64, options: Options) -> None:
    """Puts ``options`` into the option slots of the flat game ``s``."""
    s[official_layout.PLAYERS] = options.players
    s[official_layout.TARGET] = options.target_score
    s[official_layout.DEALER_STARTS] = int(options.dealer_starts)
    s[official_layout.DEAL_PASSES_LEFT] = int(options.deal_passes_left)
    s[official_layout.MANDATORY] = int(options.bonus_lay_mandatory)


def read_options(s: I64) -> Options:
    """The options of the flat game ``s``."""
    return Options(
        players=int(s[official_layout.PLAYERS]),
        target_score=int(s[official_layout.TARGET]),
        dealer_starts=bool(s[official_layout.DEALER_STARTS]),
        deal_passes_left=bool(s[official_layout.DEAL_PASSES_LEFT]),
        bonus_lay_mandatory=bool(s[official_layout.MANDATORY]),
    )


def _hand(s: I64, base: int) -> list[int]:
    return [t for t in range(official_layout.TYPES) for _ in range(int(s[base + t]))]


def last_round(s: I64) -> RoundResult:
    """The result of the last round finished in ``s`` (``State.round_results[-1]``)."""
    players = int(s[official_layout.PLAYERS])
    hands = tuple(
        tuple(_hand(s, official_layout.LAST_HANDS + seat * official_layout.TYPES))
        for seat in range(players)
    )
    return RoundResult(
        int(s[official_layout.LAST_ROUND]),
        int(s[official_layout.LAST_WINNER]),
        int(s[official_layout.LAST_POINTS]),
        hands,
    )


def to_python_state(
    s: I64,
    seed: int | None = None,
    history: list[Action] | None = None,
    round_results: list[RoundResult] | None = None,
) -> State:
    """The engine's ``State`` equal to the flat game ``s``.

    The flat game does not keep what is only a record: ``dealer_draws`` is worked out again
    from ``seed`` (empty when it is ``None``), and ``history`` and ``round_results`` are the
    lists given (empty by default; ``dos.fast.api.Game`` keeps them).
    """
    options = read_options(s)
    players = options.players
    n_center = int(s[official_layout.N_CENTER])
    matched: dict[int, tuple[int, ...]] = {}
    for index in range(n_center):
        a = int(s[official_layout.MATCH_A + index])
        if a >= 0:
            b = int(s[official_layout.MATCH_B + index])
            matched[index] = (a,) if b < 0 else (a, b)
    winner = int(s[official_layout.WINNER])
    draws = [] if seed is None else draw_for_dealer(seed_state(seed), players)[2]
    return State(
        options=options,
        rng=int(s[official_layout.RNG]) & _MASK,
        hands=[
            _hand(s, official_layout.HANDS + seat * official_layout.TYPES)
            for seat in range(players)
        ],
        center=[int(c) for c in s[official_layout.CENTER : official_layout.CENTER + n_center]],
        draw_pile=[
            int(c)
            for c in s[official_layout.DRAW : official_layout.DRAW + s[official_layout.N_DRAW]]
        ],
        discard=[
            int(c)
            for c in s[
                official_layout.DISCARD : official_layout.DISCARD + s[official_layout.N_DISCARD]
            ]
        ],
        dealer=int(s[official_layout.DEALER]),
        turn=int(s[official_layout.TURN]),
        phase=Phase(int(s[official_layout.PHASE])),
        drew=bool(s[official_layout.DREW]),
        matched=matched,
        single_bonuses=int(s[official_layout.SINGLE_BONUSES]),
        double_bonuses=int(s[official_layout.DOUBLE_BONUSES]),
        placements_left=int(s[official_layout.PLACEMENTS_LEFT]),
        penalties=[
            int(p) for p in s[official_layout.PENALTIES : official_layout.PENALTIES + players]
        ],
        dos_open=int(s[official_layout.DOS_OPEN]),
        scores=[int(p) for p in s[official_layout.SCORES : official_layout.SCORES + players]],
        round=int(s[official_layout.ROUND]),
        winner=None if winner < 0 else winner,
        round_results=list(round_results or []),
        dealer_draws=draws,
        history=list(history or []),
    )


def from_python_state(state: State) -> I64:
    """A flat game equal to the engine's ``state`` (history and records are not copied;
    ``DECISIONS`` and ``ROUNDS`` count them).

    Search bots convert a state per simulation, so this is quick: the state goes to compiled
    code as one short list (the header slots, then each part with its length first) and is
    unpacked there (``_unpack``)."""
    options = state.options
    header = [0] * official_layout.HEADER
    rng = state.rng
    header[official_layout.RNG] = rng - (1 << 64) if rng >= 1 << 63 else rng
    header[official_layout.PLAYERS] = options.players
    header[official_layout.TARGET] = options.target_score
    header[official_layout.DEALER_STARTS] = int(options.dealer_starts)
    header[official_layout.DEAL_PASSES_LEFT] = int(options.deal_passes_left)
    header[official_layout.MANDATORY] = int(options.bonus_lay_mandatory)
    header[official_layout.DEALER] = state.dealer
    header[official_layout.TURN] = state.turn
    header[official_layout.PHASE] = int(state.phase)
    header[official_layout.DREW] = int(state.drew)
    header[official_layout.SINGLE_BONUSES] = state.single_bonuses
    header[official_layout.DOUBLE_BONUSES] = state.double_bonuses
    header[official_layout.PLACEMENTS_LEFT] = state.placements_left
    header[official_layout.DOS_OPEN] = state.dos_open
    header[official_layout.ROUND] = state.round
    header[official_layout.WINNER] = -1 if state.winner is None else state.winner
    header[official_layout.ROUNDS] = len(state.round_results)
    header[official_layout.DECISIONS] = len(state.history)
    header[official_layout.N_CENTER] = len(state.center)
    header[official_layout.N_DRAW] = len(state.draw_pile)
    header[official_layout.N_DISCARD] = len(state.discard)
    header[official_layout.N_MATCHED] = len(state.matched)
    header[official_layout.LAST_WINNER] = -1
    packed = header
    packed += state.penalties
    packed += state.scores
    for hand in state.hands:
        packed.append(len(hand))
        packed += hand
    packed += state.center
    packed += state.draw_pile
    packed += state.discard
    for index, cards in state.matched.items():
        packed += (index, cards[0], cards[1] if len(cards) == 2 else -1)
    if state.round_results:
        last = state.round_results[-1]
        packed[official_layout.LAST_ROUND] = last.round
        packed[official_layout.LAST_WINNER] = last.winner
        packed[official_layout.LAST_POINTS] = last.points
        for last_hand in last.hands:
            packed.append(len(last_hand))
            packed += last_hand
    s = np.empty(official_layout.SIZE, dtype=np.int64)
    _unpack(s, np.array(packed, dtype=np.int64))
    return s


@njit
def _unpack(s: I64, packed: I64) -> None:
    """Fills the flat game ``s`` from ``from_python_state``'s packed list."""
    s[:] = 0
    s[: official_layout.HEADER] = packed[: official_layout.HEADER]
    players = s[official_layout.PLAYERS]
    at = official_layout.HEADER
    for seat in range(players):
        s[official_layout.PENALTIES + seat] = packed[at + seat]
        s[official_layout.SCORES + seat] = packed[at + players + seat]
    at += 2 * players
    for seat in range(players):
        size = packed[at]
        at += 1
        held = 0
        twice = 0
        for k in range(size):
            card = packed[at + k]
            bit = 1 << card
            if held & bit:
                twice |= bit
            held |= bit
            s[official_layout.HANDS + seat * official_layout.TYPES + card] += 1
        at += size
        s[official_layout.HAND_SIZE + seat] = size
        s[official_layout.HELD + seat] = held
        s[official_layout.TWICE + seat] = twice
    for index in range(official_layout.CAPACITY):
        s[official_layout.MATCH_A + index] = -1
        s[official_layout.MATCH_B + index] = -1
    for part, length in (
        (official_layout.CENTER, s[official_layout.N_CENTER]),
        (official_layout.DRAW, s[official_layout.N_DRAW]),
        (official_layout.DISCARD, s[official_layout.N_DISCARD]),
    ):
        s[part : part + length] = packed[at : at + length]
        at += length
    for _ in range(s[official_layout.N_MATCHED]):
        s[official_layout.MATCH_A + packed[at]] = packed[at + 1]
        s[official_layout.MATCH_B + packed[at]] = packed[at + 2]
        at += 3
    if s[official_layout.LAST_WINNER] >= 0:
        for seat in range(players):
            size = packed[at]
            for k in range(size):
                s[
                    official_layout.LAST_HANDS + seat * official_layout.TYPES + packed[at + 1 + k]
                ] += 1
            at += 1 + size


_KINDS = tuple(Kind)
_ACTIONS: dict[int, Action] = {}


def action_of(code: int) -> Action:
    """The engine's ``Action`` for an action code (``str`` of it is its notation)."""
    action = _ACTIONS.get(code)
    if action is None:
        kind = _KINDS[code & 7]
        seat = ((code >> 3) & 31) - 1
        a = ((code >> 8) & 63) - 1
        b = ((code >> 14) & 63) - 1
        target = (code >> 20) - 1
        cards = () if a < 0 else (a,) if b < 0 else (a, b)
        action = Action(kind, cards, target, None if seat < 0 else seat)
        _ACTIONS[code] = action
    return action


def code_of(action: Action, turn: int) -> int:
    """The code of an engine action in a game whose seat to act is ``turn`` (designations
    aside: see ``designated_bonus``).

    Raises ``NotationError`` for an action no code can stand for (the engine would reject it
    as malformed); whether it is legal is for the caller to check against the legal list.
    """
    seat = -1 if action.seat is None or action.seat == turn else action.seat
    if type(seat) is not int or not -1 <= seat < official_layout.MAX_PLAYERS:
        raise IllegalActionError(f"RULES §2: there is no seat {action.seat}")
    cards = action.cards
    if action.kind == Kind.MATCH:
        if len(cards) not in (1, 2):
            raise IllegalActionError("RULES §3: a match plays one card or two")
        low, high = min(cards), max(cards)
        a, b = low, high if len(cards) == 2 else -1
    elif len(cards) == 1:
        a, b = cards[0], -1
    elif cards:
        raise NotationError(f"malformed {action.kind.name.lower()} action")
    else:
        a = b = -1
    for card in (a, b):
        if type(card) is not int or not -1 <= card < official_layout.TYPES:
            raise NotationError(f"not a card: {card!r}")
    target = action.target
    if type(target) is not int or not -1 <= target < 1 << 40:
        raise IllegalActionError(f"RULES §3: no such target {target!r}")
    code = int(action.kind) | (seat + 1) << 3 | (a + 1) << 8 | (b + 1) << 14 | (target + 1) << 20
    return code


def designated_bonus(action: Action, center_card: int) -> int | None:
    """For a match on ``center_card``: ``-1`` without designations (the engine picks the
    best colour result), else ``None`` if the designations break the number rule, else
    whether it earns a colour bonus (1 or 0)."""
    designations = action.designations
    if not designations or all(d == NO_DESIGNATION for d in designations):
        return -1
    if not number_match(action.cards, designations, center_card):
        return None
    return int(colour_match(action.cards, designations, center_card))


def view_of(
    s: I64,
    seat: int,
    options: Options,
    *,
    history: tuple[Action, ...] = (),
    round_results: tuple[RoundResult, ...] = (),
    codes: I64 | None = None,
) -> SeatView:
    """The engine's ``SeatView`` of ``seat`` in the flat game ``s``, equal to
    ``dos.rules.official.view(to_python_state(s, ...), seat)`` without building the state:
    what a bot is shown. ``options`` are the game's (``read_options(s)``); ``history`` and
    ``round_results`` are the game's records, kept by the caller; ``codes`` is room for the
    legal codes (grown as needed)."""
    return view_and_codes(
        s, seat, options, history=history, round_results=round_results, codes=codes
    )[0]


_TYPES = np.arange(official_layout.TYPES)


def view_and_codes(
    s: I64,
    seat: int,
    options: Options,
    *,
    history: tuple[Action, ...] = (),
    round_results: tuple[RoundResult, ...] = (),
    codes: I64 | None = None,
) -> tuple[SeatView, list[int]]:
    """``view_of``, and the code of each of the view's legal actions."""
    players = int(s[official_layout.PLAYERS])
    if codes is None or codes.size < 256:
        codes = np.empty(256, dtype=np.int64)
    n = fast_legal(s, codes, -1)
    if n > codes.size:
        codes = np.empty(n, dtype=np.int64)
        fast_legal(s, codes, -1)
    written = 0 if seat == int(s[official_layout.TURN]) else seat + 1
    own = [code for code in codes[:n].tolist() if (code >> 3) & 31 == written]
    header = s[: official_layout.HEADER].tolist()
    n_center = header[official_layout.N_CENTER]
    center = s[official_layout.CENTER : official_layout.CENTER + n_center].tolist()
    firsts = s[official_layout.MATCH_A : official_layout.MATCH_A + n_center].tolist()
    seconds = s[official_layout.MATCH_B : official_layout.MATCH_B + n_center].tolist()
    matched = tuple(
        (index, (a,) if b < 0 else (a, b))
        for index, (a, b) in enumerate(zip(firsts, seconds, strict=True))
        if a >= 0
    )
    base = official_layout.HANDS + seat * official_layout.TYPES
    winner = header[official_layout.WINNER]
    dos_open = header[official_layout.DOS_OPEN]
    view = SeatView(
        seat=seat,
        options=options,
        round=header[official_layout.ROUND],
        dealer=header[official_layout.DEALER],
        turn=header[official_layout.TURN],
        phase=Phase(header[official_layout.PHASE]),
        drew=bool(header[official_layout.DREW]),
        hand=tuple(np.repeat(_TYPES, s[base : base + official_layout.TYPES]).tolist()),
        hand_sizes=tuple(
            s[official_layout.HAND_SIZE : official_layout.HAND_SIZE + players].tolist()
        ),
        center=tuple(center),
        matched=matched,
        single_bonuses=header[official_layout.SINGLE_BONUSES],
        double_bonuses=header[official_layout.DOUBLE_BONUSES],
        placements_left=header[official_layout.PLACEMENTS_LEFT],
        draw_pile_size=header[official_layout.N_DRAW],
        discard=tuple(
            s[
                official_layout.DISCARD : official_layout.DISCARD
                + header[official_layout.N_DISCARD]
            ].tolist()
        ),
        penalties=tuple(
            s[official_layout.PENALTIES : official_layout.PENALTIES + players].tolist()
        ),
        dos_open=tuple(seat for seat in range(players) if dos_open >> seat & 1),
        scores=tuple(s[official_layout.SCORES : official_layout.SCORES + players].tolist()),
        winner=None if winner < 0 else winner,
        round_results=round_results,
        history=history,
        legal=tuple(action_of(code) for code in own),
    )
    return view, own
