"""Reading the whole current round from the public history (for search bots, official rules).

A view holds the history of actions, but not the Center Rows the round went through, who
took which turn (a seat's own actions are recorded without its seat) or where the round
began. All of it follows from what is public: this module replays the round with the
hidden cards left unknown, and checks the replay against the view.

* **The Center Row cards.** Cards laid or placed are public. A card dealt or refilled into
  the row is unknown when it arrives, but every row card ends either matched, then discarded
  right after the played cards in a fixed order (RULES.md §4.1; ``_end_matches`` of the
  engine), or still in the row: the discard pile and the current row name each one.
* **Where each turn's matching ended.** After a match the engine ends the matching by itself
  exactly when the hand left matches nothing more; a later ``end`` is recorded only for a
  player who stopped while a match was left. So a match followed by another match is either
  one player's next match or, if the matching ended by itself, the next player's first. The
  replay tries both, depth first (the matching going on first), and keeps the first replay
  that passes every check: the discard pile card by card, hand sizes (a DOS call or a catch
  needs a hand of two), the draw pile, and at the end everything the view shows. (In the
  tests every view of every seat, over greedy and random games of two to four players, is
  read exactly as the games went.)
* **Who decided what.** Each turn decision of the other players, with the public state
  before it, taken since they received their last card but one (``Decision``): what their
  hand was then follows from their hand now, up to that one card.
* **Where the round began.** A new round deals seven cards each, two to the Center Row, and
  an empty discard pile, with the draw pile full (``dos.rules.official.setup``): the replay
  starts at the latest point of the history from which it agrees with the view. It gives up
  (``None``) when the draw pile was reshuffled during the round (the discard pile no longer
  names the cards matched before), for a position not dealt from a full deck, or when the
  work runs past a bound.

What a replay yields (``Reading``): every point of the round at which a player's hand made no
match on the row before them — a *fact* when their matching ended by itself, a *likely*
reading when they drew instead of matching or laid after a fruitless draw — with the public
cards that were in that hand (played later, before any card came in) and how many cards the
player has received since. The cards they hold now were, all but that many, in that hand.

>>> from dos.rules.official import new_game, view
>>> read_round(view(new_game(seed=5), 0))
Replayed(readings=(), decisions=())
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from dos.rules.official import Action, Kind, Phase, SeatView, State
from dos.rules.official.matching import colour_match
from dos.rules.official.setup import CENTER_ROW_SIZE, HAND_SIZE, first_player

MAX_STEPS = 20_000
"""Actions replayed for one view, over every start and every branch, before giving up."""


@dataclass(frozen=True, slots=True)
class Reading:
    """At some point of the round, ``seat``'s hand made no Single or Double Number Match on
    the Center Row cards ``faced``. ``extra``: public cards that were in that hand (played
    since, before the seat received any card). ``since``: cards the seat received after that
    point; all but ``since`` of the cards it holds now were in that hand. ``proven``: a fact of
    the rules (its matching ended by itself), else a likely reading (it drew, or laid after a
    fruitless draw, while a player who can match usually does)."""

    seat: int
    faced: tuple[int, ...]
    extra: tuple[int, ...]
    since: int
    proven: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """A turn decision ``seat`` took since it last received a card, or before its last card:
    ``action`` in ``before`` (the public state then; every hand holds placeholder cards of the
    right number). ``played``: the cards ``seat`` played from that decision on. Its hand then
    was its hand now plus ``played`` — less the card received since, if ``received`` is not
    ``None``: one of the hand now or of the cards ``received`` lists, played after it came."""

    seat: int
    before: State
    action: Action
    played: tuple[int, ...]
    received: tuple[int, ...] | None


class Replayed(NamedTuple):
    """What a replay of the round found."""

    readings: tuple[Reading, ...]
    """Oldest first."""
    decisions: tuple[Decision, ...]
    """Oldest first."""


class _DeadEndError(Exception):
    """The replay cannot go on this way (a check failed) or must stop (a reshuffle)."""


class _Trace:
    """The public state of the round as replayed so far; row cards are card types, or
    ``-1 - k`` for the ``k``-th unknown card dealt or refilled into the row."""

    __slots__ = (
        "decisions",
        "discarded",
        "doubles",
        "drew",
        "hands",
        "log",
        "matched",
        "names",
        "penalties",
        "phase",
        "pile",
        "placements",
        "row",
        "singles",
        "turn",
        "unknown",
    )

    def __init__(self, players: int, pile: int, turn: int) -> None:
        self.hands = [HAND_SIZE] * players
        self.penalties = [0] * players
        self.row = [-1, -2]
        self.unknown = CENTER_ROW_SIZE
        self.names: dict[int, int] = {}
        self.pile = pile
        self.discarded = 0
        self.turn = turn
        self.phase = Phase.TURN
        self.drew = False
        self.matched: dict[int, Action] = {}
        self.singles = self.doubles = self.placements = 0
        self.log: list[_Event] = []
        """What happened to each seat's hand, in order."""
        self.decisions: list[tuple[int, Action, _Snapshot]] = []
        """Other seats' turn decisions: (position in ``log``, action, public state before)."""

    def copy(self) -> _Trace:
        other = _Trace.__new__(_Trace)
        other.hands = self.hands[:]
        other.penalties = self.penalties[:]
        other.row = self.row[:]
        other.unknown = self.unknown
        other.names = dict(self.names)
        other.pile = self.pile
        other.discarded = self.discarded
        other.turn = self.turn
        other.phase = self.phase
        other.drew = self.drew
        other.matched = dict(self.matched)
        other.singles = self.singles
        other.doubles = self.doubles
        other.placements = self.placements
        other.log = self.log[:]
        other.decisions = self.decisions[:]
        return other

    def snapshot(self) -> _Snapshot:
        return (
            self.turn,
            tuple(self.row),
            self.discarded,
            tuple(self.hands),
            self.pile,
            self.phase,
            self.drew,
            tuple(self.matched.items()),
            self.singles,
            self.doubles,
            self.placements,
            tuple(self.penalties),
        )


_Snapshot = tuple[
    int,
    tuple[int, ...],
    int,
    tuple[int, ...],
    int,
    Phase,
    bool,
    tuple[tuple[int, Action], ...],
    int,
    int,
    int,
    tuple[int, ...],
]
"""The public state before a decision: turn, row, discards so far, hand sizes, draw pile,
phase, drew, this turn's matches, bonuses (single, double), placements left, penalties."""
_GOT, _PLAYED, _READ, _PROVEN = 0, 1, 2, 3
_Event = tuple[int, int, tuple[int, ...]]
"""(seat, what, cards): ``_GOT`` (cards received, their count in ``cards[0]``), ``_PLAYED``
the cards, ``_READ`` or ``_PROVEN`` (the hand matched nothing on these row cards)."""
_TURN_KINDS = frozenset((Kind.MATCH, Kind.DRAW, Kind.LAY, Kind.END, Kind.PLACE))
_FIRST_KINDS = frozenset((Kind.MATCH, Kind.DRAW))
_LAST_KINDS = frozenset((Kind.MATCH, Kind.LAY, Kind.PLACE, Kind.END))


class _Replay:
    """One view's replay: the checks it needs and the work it may spend."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.discard = view.discard
        self.players = len(view.hand_sizes)
        self.steps = 0

    # -- the search over starts and branches ------------------------------------------------

    def run(self) -> Replayed | None:
        view = self.view
        history = view.history
        cards = (
            sum(view.hand_sizes)
            + len(view.center)
            + len(view.discard)
            + view.draw_pile_size
            + sum(len(played) for _, played in view.matched)
        )
        full = cards - HAND_SIZE * self.players - CENTER_ROW_SIZE
        if full < 0:
            return None
        # Every match of the round sends its cards and its row card to the discard pile once
        # its turn's matching ends (the current turn's not yet): a start must account for
        # exactly the discard pile, and each earlier start for more.
        discarded = -sum(len(played) + 1 for _, played in view.matched)
        for start in range(len(history), -1, -1):
            if start < len(history):
                action = history[start]
                if action.kind == Kind.MATCH:
                    discarded += len(action.cards) + 1
                    if discarded > len(view.discard):
                        return None
                if action.kind not in _FIRST_KINDS:
                    continue
            if discarded != len(view.discard):
                continue
            if start and not (history[start - 1].kind in _LAST_KINDS and view.round_results):
                continue
            found = self._from(start, full)
            if found is not None:
                return found
            if self.steps > MAX_STEPS:
                return None
        return None

    def _from(self, start: int, full: int) -> Replayed | None:
        """The readings of a replay from ``start``, or ``None`` when none agrees with the view."""
        history = self.view.history
        view = self.view
        stack = [(_Trace(self.players, full, first_player(view.options, view.dealer)), start)]
        while stack:
            trace, i = stack.pop()
            try:
                while i < len(history):
                    self.steps += 1
                    if self.steps > MAX_STEPS:
                        return None
                    action = history[i]
                    i += 1
                    if action.kind in _TURN_KINDS and trace.turn != self.view.seat:
                        trace.decisions.append((len(trace.log), action, trace.snapshot()))
                    if action.kind == Kind.MATCH:
                        self._match(trace, action)
                        if trace.hands[trace.turn] and trace.phase == Phase.TURN:
                            # Either the matching goes on, or it ended by itself: try both.
                            ended = trace.copy()
                            try:
                                self._end_matches(ended, voluntary=False)
                                stack.append((ended, i))
                            except _DeadEndError:
                                pass
                        elif trace.phase == Phase.TURN:
                            self._end_matches(trace, voluntary=False)
                    else:
                        self._step(trace, action)
                return self._readings(trace)
            except _DeadEndError:
                continue
        return None

    # -- one action ----------------------------------------------------------------------

    def _step(self, trace: _Trace, action: Action) -> None:
        kind = action.kind
        if kind == Kind.CALL:
            seat = trace.turn if action.seat is None else action.seat
            if trace.hands[seat] != 2:
                raise _DeadEndError
        elif kind == Kind.CATCH:
            caught = action.target
            if trace.hands[caught] != 2:
                raise _DeadEndError
            if caught == trace.turn:
                trace.penalties[caught] += 2
            else:
                self._give(trace, caught, 2)
        elif kind == Kind.DRAW:
            if trace.phase != Phase.TURN or trace.drew or trace.matched:
                raise _DeadEndError
            trace.log.append((trace.turn, _READ, tuple(trace.row)))
            self._give(trace, trace.turn, 1)
            trace.drew = True
        elif kind == Kind.LAY:
            if trace.phase != Phase.TURN or not trace.drew or trace.matched:
                raise _DeadEndError
            card = action.cards[0]
            trace.log.append((trace.turn, _READ, tuple(trace.row)))
            self._play(trace, (card,))
            trace.row.append(card)
            self._finish(trace)
        elif kind == Kind.PLACE:
            if trace.phase != Phase.PLACING:
                raise _DeadEndError
            card = action.cards[0]
            self._play(trace, (card,))
            trace.row.append(card)
            trace.placements -= 1
            if not trace.placements or not trace.hands[trace.turn]:
                self._finish(trace)
        elif kind == Kind.END:
            if trace.phase == Phase.TURN:
                if not trace.matched:
                    raise _DeadEndError
                self._end_matches(trace, voluntary=True)
            elif self.view.options.bonus_lay_mandatory:
                raise _DeadEndError
            else:
                self._finish(trace)
        else:
            raise _DeadEndError

    def _match(self, trace: _Trace, action: Action) -> None:
        if trace.phase != Phase.TURN:
            raise _DeadEndError
        index = action.target
        if not 0 <= index < len(trace.row) or index in trace.matched:
            raise _DeadEndError
        self._play(trace, action.cards)
        trace.matched[index] = action

    def _play(self, trace: _Trace, cards: tuple[int, ...]) -> None:
        seat = trace.turn
        trace.hands[seat] -= len(cards)
        if trace.hands[seat] < 0:
            raise _DeadEndError
        trace.log.append((seat, _PLAYED, cards))

    def _give(self, trace: _Trace, seat: int, count: int) -> None:
        got = 0
        for _ in range(count):
            if not trace.pile:
                if trace.discarded:
                    raise _DeadEndError  # a reshuffle: the discard pile no longer names the cards
                break
            trace.pile -= 1
            got += 1
        if got:
            trace.hands[seat] += got
            trace.log.append((seat, _GOT, (got,)))

    def _end_matches(self, trace: _Trace, *, voluntary: bool) -> None:
        """RULES.md §4 steps 1-3a, the discard pile naming each matched row card."""
        discard = self.discard
        row = trace.row
        if not voluntary and trace.hands[trace.turn]:
            left = tuple(card for i, card in enumerate(row) if i not in trace.matched)
            if left:
                trace.log.append((trace.turn, _PROVEN, left))
        for index in sorted(trace.matched):
            action = trace.matched[index]
            played = action.cards
            at = trace.discarded
            end = at + len(played)
            if end >= len(discard) or tuple(discard[at:end]) != played:
                raise _DeadEndError
            card = discard[end]
            _name(trace, row[index], card)
            if colour_match(played, action.designations, card):
                if len(played) == 1:
                    trace.singles += 1
                else:
                    trace.doubles += 1
            trace.discarded = end + 1
        trace.row = row = [card for i, card in enumerate(row) if i not in trace.matched]
        trace.matched = {}
        while len(row) < CENTER_ROW_SIZE:
            if not trace.pile:
                if trace.discarded:
                    raise _DeadEndError
                break
            trace.pile -= 1
            trace.unknown += 1
            row.append(-trace.unknown)
        bonuses = trace.singles + trace.doubles
        if bonuses and trace.hands[trace.turn]:
            trace.phase = Phase.PLACING
            trace.placements = bonuses
            return
        self._finish(trace)

    def _finish(self, trace: _Trace) -> None:
        """RULES.md §4 steps 3b-5; a hand emptied ends the round, which cannot happen here."""
        turn = trace.turn
        for _ in range(trace.doubles):
            for k in range(1, self.players):
                self._give(trace, (turn + k) % self.players, 1)
        owed = trace.penalties[turn]
        if owed:
            trace.penalties[turn] = 0
            self._give(trace, turn, owed)
        trace.phase = Phase.TURN
        trace.drew = False
        trace.matched = {}
        trace.singles = trace.doubles = trace.placements = 0
        if not trace.hands[turn]:
            raise _DeadEndError
        trace.turn = (turn + 1) % self.players

    # -- the end: agree with the view, then read --------------------------------------------

    def _readings(self, trace: _Trace) -> Replayed:
        view = self.view
        if len(trace.row) != len(view.center):
            raise _DeadEndError
        for token, card in zip(trace.row, view.center, strict=True):
            _name(trace, token, card)
        for index, action in trace.matched.items():  # this turn's matches so far
            if colour_match(action.cards, action.designations, view.center[index]):
                if len(action.cards) == 1:
                    trace.singles += 1
                else:
                    trace.doubles += 1
        if (
            trace.hands != list(view.hand_sizes)
            or trace.pile != view.draw_pile_size
            or trace.discarded != len(view.discard)
            or trace.turn != view.turn
            or trace.phase != view.phase
            or trace.drew != view.drew
            or trace.placements != view.placements_left
            or trace.singles != view.single_bonuses
            or trace.doubles != view.double_bonuses
            or trace.penalties != list(view.penalties)
            or {i: a.cards for i, a in trace.matched.items()} != dict(view.matched)
        ):
            raise _DeadEndError
        names = trace.names
        found: list[Reading] = []
        log = trace.log
        for at, (seat, what, tokens) in enumerate(log):
            if what < _READ or seat == view.seat:
                continue
            faced = tuple(token if token >= 0 else names[token] for token in tokens)
            extra: list[int] = []
            since = 0
            for other, later, cards in log[at + 1 :]:
                if other != seat:
                    continue
                if later == _GOT:
                    since += cards[0]
                elif later == _PLAYED and not since:
                    extra.extend(cards)
            found.append(Reading(seat, faced, tuple(extra), since, what == _PROVEN))
        return Replayed(tuple(found), self._decisions(trace))

    def _decisions(self, trace: _Trace) -> tuple[Decision, ...]:
        """The other seats' decisions since each received its last card but one."""
        view = self.view
        log = trace.log
        names = trace.names
        found = []
        for at, action, snap in trace.decisions:
            seat = snap[0]
            played: list[int] = []
            after: list[int] = []
            received = 0
            for who, what, cards in log[at:]:
                if who != seat:
                    continue
                if what == _PLAYED:
                    played.extend(cards)
                    if received:
                        after.extend(cards)
                elif what == _GOT:
                    received += cards[0]
            if received > 1:
                continue
            (
                _,
                tokens,
                discarded,
                sizes,
                pile,
                phase,
                drew,
                matched,
                singles,
                doubles,
                placements,
                penalties,
            ) = snap
            row = [token if token >= 0 else names[token] for token in tokens]
            if phase == Phase.TURN:
                singles = doubles = 0
                for index, done in matched:
                    if colour_match(done.cards, done.designations, row[index]):
                        singles += len(done.cards) == 1
                        doubles += len(done.cards) == 2
            before = State(
                options=view.options,
                rng=0,
                hands=[[0] * size for size in sizes],
                center=row,
                draw_pile=[0] * pile,
                discard=list(view.discard[:discarded]),
                dealer=view.dealer,
                turn=seat,
                phase=phase,
                drew=drew,
                matched={index: done.cards for index, done in matched},
                single_bonuses=singles,
                double_bonuses=doubles,
                placements_left=placements,
                penalties=list(penalties),
                scores=list(view.scores),
                round=view.round,
            )
            found.append(
                Decision(seat, before, action, tuple(played), tuple(after) if received else None)
            )
        return tuple(found)


def _name(trace: _Trace, token: int, card: int) -> None:
    """Row card ``token`` is ``card``."""
    if token >= 0:
        if token != card:
            raise _DeadEndError
        return
    known = trace.names.get(token)
    if known is None:
        trace.names[token] = card
    elif known != card:
        raise _DeadEndError


def read_round(view: SeatView) -> Replayed | None:
    """What the history of the current round tells about the other hands (see the module):
    its readings, and the other players' decisions since each last received a card; ``None``
    when the history cannot be read that far (a reshuffle during the round, a loaded
    position, or too much work)."""
    if view.phase == Phase.OVER:
        return None
    return _Replay(view).run()
