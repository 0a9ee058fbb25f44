"""Helpers of the suite every rule set must pass (``tests/rulesets/``).

The suite drives each registered rule set (``dos.ruleset.names()``) through the ``RuleSet``
interface and the records API only. What the interface cannot tell, a rule set may say
through an ``Adapter`` here, keyed by its name (``ADAPTERS``): the options hypothesis draws,
how a random game picks its actions, its deck (and a quicker way to count a state's cards),
near misses the rules must refuse and the rule their refusals name, how long its games are
walked, and the keys of its views. These are the only rule-set-specific lines of the suite.
A rule set with no adapter is still tested, with ``DEFAULT``: default options, uniform choices
among every seat's legal actions, the cards its first position lists, and refusals drawn from
the actions that were legal earlier in the game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from dos.errors import IllegalActionError, NotationError
from dos.rules.classic import Kind as ClassicKind
from dos.rules.classic import Phase as ClassicPhase
from dos.rules.classic.actions import react
from dos.rules.classic.cards import full_deck as classic_deck
from dos.rules.official import Action as OfficialAction
from dos.rules.official import Kind as OfficialKind
from dos.rules.official.actions import match
from dos.rules.official.cards import IS_WILD_NUMBER, N_TYPES, WILD_DOS
from dos.rules.official.cards import full_deck as official_deck
from dos.rules.official.matching import NO_DESIGNATION
from dos.ruleset import RuleSet
from support import VIEW_KEYS

Rules = RuleSet[Any, Any]
Candidates = Callable[[Rules, Any, random.Random], Iterator[tuple[Any, bool]]]
"""Actions to try in a state: ``(action, refused)``, where ``refused`` says the rules must
refuse it; one with ``refused`` false may apply, but if refused it must change nothing."""


NO_OPTIONS: st.SearchStrategy[dict[str, Any]] = st.just({})


@dataclass(frozen=True, slots=True)
class Adapter:
    """What the shared suite needs to know of one rule set beyond the ``RuleSet`` interface."""

    options: st.SearchStrategy[dict[str, Any]] = NO_OPTIONS
    """The option sets hypothesis draws (JSON, without ``players``)."""
    choose: Callable[[Rules, Any, random.Random], Any] | None = None
    """How a random game picks its next action (``None``: uniformly among every seat's)."""
    cards: Callable[[Any], list[Any]] | None = None
    """Every card of a state, wherever it is: a quicker count than its position's
    (``None``: ``cards_in(to_position(state))``)."""
    deck: tuple[Any, ...] | None = None
    """Every card of the deck, sorted, as ``cards`` gives them (``None``: the cards the game
    starts with)."""
    candidates: Candidates | None = None
    """Actions to try that the rules should refuse, besides those legal earlier in the game."""
    refusals: tuple[type[Exception], ...] = (IllegalActionError, NotationError)
    """What ``apply`` may raise for an action it refuses."""
    rule: str = r"^RULES §"
    """What the message of an ``IllegalActionError`` starts with (the rule it names)."""
    long_game: int = 300
    """How many actions a long random game plays (the replay property)."""
    refusal_steps: int = 100
    """How many states of each game the refusal property tries actions in."""
    view_every: int = 5
    """The view property looks at every seat in every ``view_every``-th state."""
    view_keys: frozenset[str] | None = None
    """The keys of every JSON view (``None``: not checked)."""


# --- the official rules -----------------------------------------------------------------------


def _random_card(chooser: random.Random, state: Any) -> int:
    """Mostly cards of the hand to act (near misses), sometimes any card type."""
    hand = state.hands[state.turn]
    if hand and chooser.random() < 0.7:
        return int(chooser.choice(hand))
    return chooser.randrange(N_TYPES)


def _random_designation(chooser: random.Random, card: int) -> int:
    roll = chooser.random()
    if roll < 0.3:
        return NO_DESIGNATION
    if roll < 0.4:  # out of range, or a designation on a card that takes none
        return chooser.choice([0, 11, 4, 99, -5])
    if IS_WILD_NUMBER[card]:
        return chooser.randint(1, 10)
    if card == WILD_DOS:
        return chooser.randrange(4)
    return NO_DESIGNATION


_OFFICIAL_KINDS = list(OfficialKind)


def _random_official_action(chooser: random.Random, state: Any) -> OfficialAction:
    """A well-formed action with random kind, cards, target, seat and designations."""
    players = state.players
    seat = chooser.choice(
        [None, None, state.turn, chooser.randrange(players), chooser.choice([-1, players, 99])]
    )
    kind = chooser.choice(_OFFICIAL_KINDS)
    if kind == OfficialKind.MATCH:
        count = chooser.choice([1, 1, 2, 2, 2, 0, 3])
        cards = tuple(_random_card(chooser, state) for _ in range(count))
        target = chooser.randrange(-1, len(state.center) + 2)
        designations: tuple[int, ...] = ()
        if chooser.random() < 0.35:
            designations = tuple(_random_designation(chooser, c) for c in cards)
        return match(cards, target, designations, seat)
    if kind in (OfficialKind.LAY, OfficialKind.PLACE):
        count = chooser.choice([1, 1, 1, 1, 0, 2])
        cards = tuple(_random_card(chooser, state) for _ in range(count))
        return OfficialAction(kind, cards, seat=seat)
    if kind == OfficialKind.CATCH:
        return OfficialAction(kind, target=chooser.randrange(-1, players + 1), seat=seat)
    return OfficialAction(kind, seat=seat)


_OFFICIAL_WORDS = ["draw", "end", "dos", "lay", "place", "catch", "R7", "DOS", "G#=4", "B3+Y4"]
_OFFICIAL_WORDS += ["@0", "@1", "@9", "R11", "DOS=Q", "1:", "9:", "+", "=", "lay Z9", "catch x"]
_OFFICIAL_WORDS += ["", " "]


def _official_candidates(rules: Rules, state: Any, chooser: random.Random) -> Iterator[Any]:
    """Random well-formed actions (25), and random notation (5) that parses."""
    turn = state.turn
    legal = {_normalised(a, turn) for a in rules.all_legal_actions(state)}
    for _ in range(25):
        action = _random_official_action(chooser, state)
        if _normalised(action, turn) in legal:
            continue
        plain = _normalised(action._replace(designations=()), turn)
        # Designations only narrow a legal match: it may apply or be refused.
        narrowed = action.kind == OfficialKind.MATCH and action.designations and plain in legal
        yield action, not narrowed
    for _ in range(5):
        text = " ".join(chooser.choice(_OFFICIAL_WORDS) for _ in range(chooser.randint(1, 3)))
        try:
            action = rules.parse_action(text)
        except NotationError:
            continue
        if _normalised(action, turn) not in legal and not action.designations:
            yield action, True


def _normalised(action: OfficialAction, turn: int) -> OfficialAction:
    """The action as the legal-action list writes it: the seat to act as ``None``."""
    return action._replace(seat=None) if action.seat == turn else action


OFFICIAL = Adapter(
    options=st.fixed_dictionaries(
        {
            "target_score": st.integers(min_value=30, max_value=80),
            "dealer_starts": st.booleans(),
            "deal_passes_left": st.booleans(),
            "bonus_lay_mandatory": st.booleans(),
        }
    ),
    cards=lambda state: state.all_cards(),
    deck=tuple(sorted(official_deck())),
    candidates=_official_candidates,
    long_game=400,
    refusal_steps=120,
    view_every=7,
    view_keys=frozenset(VIEW_KEYS),
)


# --- the classic rules ------------------------------------------------------------------------


def _classic_choose(rules: Rules, state: Any, chooser: random.Random) -> Any:
    """A legal action; in a reaction test, sometimes any reaction within the rules."""
    if state.phase == ClassicPhase.REACTION and chooser.random() < 0.5:
        return react(chooser.randint(0, len(state.targets)), chooser.randint(0, 6000))
    return chooser.choice(rules.all_legal_actions(state))


_CLASSIC_WORDS = ["R7", "B0", "GS", "YR", "B+2", "W=R", "W+4=G", "draw", "timeout", "react 2 10ms"]
_CLASSIC_WORDS += ["react 1 5000ms", "react 3 1ms", "1: draw", "3: R7", "11: draw", "G9", "Y+2"]


def _classic_candidates(rules: Rules, state: Any, chooser: random.Random) -> Iterator[Any]:
    """Five actions from a list of notation, legal or not in most states."""
    legal = set(rules.all_legal_actions(state))
    for text in chooser.sample(_CLASSIC_WORDS, 5):
        action = rules.parse_action(text)
        if action in legal or action.seat == state.turn:
            continue
        # any reaction within the targets is accepted and judged
        reacting = action.kind == ClassicKind.REACT and state.phase == ClassicPhase.REACTION
        yield action, not (reacting and action.hits <= len(state.targets))


CLASSIC = Adapter(
    options=st.fixed_dictionaries(
        {
            "reaction_time_ms": st.integers(min_value=200, max_value=5000),
            "penalty_cards": st.integers(min_value=0, max_value=3),
            "stacking": st.booleans(),
        }
    ),
    choose=_classic_choose,
    cards=lambda state: state.all_cards(),
    deck=tuple(sorted(classic_deck())),
    candidates=_classic_candidates,
    refusals=(IllegalActionError,),
    refusal_steps=80,
    rule=r"^RULES §9",
    view_keys=frozenset(
        {"rules", "seat", "options", "turn", "phase", "hand", "hand_sizes", "top", "colour"}
        | {"direction", "pending", "discard", "draw_pile_size", "reaction", "ranking"}
        | {"starter", "history", "legal"}
    ),
)


ADAPTERS = {"official": OFFICIAL, "classic": CLASSIC}
DEFAULT = Adapter()


def adapter(name: str) -> Adapter:
    """The adapter of the rule set ``name`` (``DEFAULT`` when it has none)."""
    return ADAPTERS.get(name, DEFAULT)


# --- games through the interface ----------------------------------------------------------


def walk(
    rules: Rules, state: Any, chooser: random.Random, max_steps: int, choose: Any = None
) -> Iterator[Any]:
    """Yields ``state`` before each action, then applies one (``choose``, or uniformly among
    every seat's legal actions); stops when the game is over or after ``max_steps`` actions."""
    for _ in range(max_steps):
        yield state
        if rules.is_over(state):
            return
        actions = rules.all_legal_actions(state)
        assert actions, f"no legal action in a game that is not over: {position(rules, state)}"
        rules.apply(
            state, chooser.choice(actions) if choose is None else choose(rules, state, chooser)
        )
    yield state


def position(rules: Rules, state: Any) -> str:
    return json.dumps(rules.to_position(state))


def failure(rules: Rules, state: Any, action: object = None) -> str:
    """Where a check failed: the action (if any) and the position it was tried in."""
    if action is None:
        return f"in position {position(rules, state)}"
    try:
        text = str(action)
    except IndexError:  # a malformed action (a lay of no card) has no notation
        text = repr(action)
    return f"action {text} in position {position(rules, state)}"


def cards_in(value: object, listed: bool = False) -> list[str]:
    """The cards of a position: the strings in its lists, at any depth (positions write cards
    as lists of notation, docs/positions.md; their other fields are numbers, flags and words).

    >>> cards_in({"phase": "start", "hands": [["R1"], []], "matched": [{"cards": ["G2"]}]})
    ['R1', 'G2']
    """
    if isinstance(value, str):
        return [value] if listed else []
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item, True)]
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item, listed)]
    return []
