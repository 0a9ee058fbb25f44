"""What the public history tells about a hidden hand (for search bots, official rules).

Two kinds of turns tell what a player does *not* hold:

* **A match turn that ended by itself.** The engine ends a player's matching as soon as the
  hand left can make no match on the Center Row cards not yet matched that turn
  (RULES.md §3-§4; ``dos.rules.official.transitions``), and an ``end`` is recorded only when
  the player stopped while a match was left. So when the history shows the last match with no
  ``end`` after it, it is a *fact* that the hand then (the cards kept, and the cards placed
  afterwards for bonuses) matched nothing on the row cards left unmatched.
* **A fruitless draw.** A player who draws and then lays (RULES.md §3: "If you make none, you
  must lay one card") showed that the hand after the draw made no match on the row they
  faced — *if* they match whenever they can: a lay sheds one card, a match at least one, and
  players rarely prefer the lay (``greedy`` does about one time in twenty, when a lay sheds as
  many points). This is likely, not certain.

``read_history`` reads every such turn of the round, of every other player (``dos.bots.replay``
rebuilds the round from the history); where that replay gives up, ``last_turn`` reads the
turn of the player who acted just before the seat, which the view alone settles: the row they
left is the seat's own Center Row less what arrived after (refills, placements, the laid
card). ``Rule`` is what one reading asks of a sampled hand.

>>> from dos.rules.official import new_game, view
>>> last_turn(view(new_game(seed=5), 0)) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from dos.bots.replay import Reading, Replayed, read_round
from dos.rules.official import Action, Kind, Phase, SeatView
from dos.rules.official.cards import N_TYPES
from dos.rules.official.legal import matches
from dos.rules.official.matching import PAIR_MASK, SINGLE_MASK
from dos.rules.official.setup import CENTER_ROW_SIZE


@dataclass(frozen=True, slots=True)
class NoMatch:
    """``cards`` of the seat's current hand, together with the public cards ``extra`` (laid or
    placed from that same hand), made no match on the row cards ``faced``. ``proven``: a fact
    of the rules (a match turn that ended by itself), else a likely reading of a fruitless
    draw."""

    seat: int
    cards: int
    faced: tuple[int, ...]
    extra: tuple[int, ...]
    proven: bool

    def allows(self, part: list[int]) -> bool:
        """Whether ``part`` could be what the seat kept from that hand."""
        return not matches([*part, *self.extra], list(self.faced), {})


def last_turn(view: SeatView) -> NoMatch | None:
    """What the last turn of the player who acted just before ``view``'s seat tells about
    their hand (see the module), or ``None`` when it tells nothing the view can settle.

    The seat's own turn so far is skipped (its draw and matches: the Center Row does not
    change until its matching ends, RULES.md §4); in its placing phase the row has changed and
    nothing is inferred.
    """
    if view.phase != Phase.TURN or view.seat != view.turn:
        return None
    previous = (view.turn - 1) % len(view.hand_sizes)
    own = int(view.drew) + len(view.matched)
    caught = 0
    tail: list[Action] = []
    for action in reversed(view.history):
        if action.kind == Kind.CATCH:
            caught += action.target == previous
            continue
        if action.kind == Kind.CALL:
            continue
        if own:
            own -= 1
            continue
        tail.append(action)
        # Enough to read the turn: its placements and one action before them, and one more
        # (the draw before a lay, or catches among the matches before the last one).
        if len(tail) > 12:
            break
    found = _read(view, tail)
    if found is None:
        return None
    faced, extra, proven = found
    cards = view.hand_sizes[previous] - 2 * caught
    if cards <= 0 or not faced:
        return None
    return NoMatch(previous, cards, faced, extra, proven)


def _read(
    view: SeatView, tail: list[Action]
) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
    """The row left unmatched, the public cards of that hand and whether it is a fact, from
    the previous player's last actions (newest first)."""
    center = view.center
    if len(tail) >= 2 and tail[0].kind == Kind.LAY and tail[1].kind == Kind.DRAW:
        laid = tail[0].cards[0]
        # The row they faced held two cards at least (RULES.md §4.2): a shorter one means the
        # lay was in another round, or the piles ran dry; either way nothing is inferred.
        if len(center) < 3 or center[-1] != laid:
            return None
        return center[:-1], (laid,), False
    i = 0
    declined = bool(tail) and tail[0].kind == Kind.END
    if declined:
        i = 1
    placed: list[int] = []
    while i < len(tail) and tail[i].kind == Kind.PLACE:
        placed.append(tail[i].cards[0])
        i += 1
    if i >= len(tail) or tail[i].kind != Kind.MATCH:
        return None
    if declined and not placed:
        return None  # "match, end": a voluntary end, or every placement declined
    if not view.discard:
        return None  # the match ended a round: this row was dealt since
    # The row now: the cards left unmatched, then refills up to two, then the placements.
    left = len(center) - len(placed)
    if left <= CENTER_ROW_SIZE:
        return None  # refilled or not: which cards were left is not settled
    if tuple(center[left:]) != tuple(reversed(placed)):
        return None
    return center[:left], tuple(placed), True


def read_history(view: SeatView) -> Replayed:
    """What the history tells about the other hands (``dos.bots.replay.read_round``), or
    where the round cannot be replayed, what ``last_turn`` tells."""
    found = read_round(view)
    if found is not None:
        return found
    last = last_turn(view)
    if last is None:
        return Replayed((), ())
    since = view.hand_sizes[last.seat] - last.cards
    return Replayed((Reading(last.seat, last.faced, last.extra, since, last.proven),), ())


@functools.cache
def _partners(target: int) -> tuple[int, ...]:
    """``_partners(target)[c]``: the card types that make a Double Number Match on ``target``
    together with ``c`` (a bit mask over types)."""
    masks = [0] * N_TYPES
    pairs = PAIR_MASK[target]
    for low in range(N_TYPES):
        for high in range(low, N_TYPES):
            if pairs[low] >> high & 1:
                masks[low] |= 1 << high
                masks[high] |= 1 << low
    return tuple(masks)


@dataclass(frozen=True, slots=True)
class Rule:
    """What one ``Reading`` asks of a sampled hand of the seat: its ``size - since`` oldest
    cards (those still held from then) may not be of the types in ``banned`` (a Single Number
    Match, or a Double with a public card of that hand), and no two of them ``partners``
    (``partners[c]``: the types that make a Double Number Match with ``c``)."""

    since: int
    proven: bool
    banned: int
    partners: tuple[int, ...]

    @staticmethod
    def of(reading: Reading) -> Rule | None:
        """The rule of ``reading``; ``None`` when its public cards alone make a match (a
        likely reading the player did not follow)."""
        faced = list(reading.faced)
        if matches(list(reading.extra), faced, {}):
            return None
        tables = [_partners(target) for target in set(faced)]
        partners = tuple(_or(table[c] for table in tables) for c in range(N_TYPES))
        banned = _or(SINGLE_MASK[target] for target in faced)
        for card in reading.extra:
            banned |= partners[card]
        return Rule(reading.since, reading.proven, banned, partners)


def _or(masks: Iterable[int]) -> int:
    total = 0
    for mask in masks:
        total |= mask
    return total
