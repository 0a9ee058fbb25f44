"""Why an action is refused, in words any client can say in its own language.

The engine's own messages name the rule in English (``RULES §3: …``); a player gets a
sentence from the catalog instead (``game.err_*`` and ``classic.err_*`` texts). The engine
is the one judge: each refusal it raises says which it is (``IllegalActionError.reason``,
with its particulars), and this module only finds the words for it, so the English message
and every translation always give the same reason.

A reason is ``Words``: a catalog key and its placeholders, which are numbers, texts, other
``Words`` (a card's name) or a list of ``Words`` (joined with ``", "``). Nothing in it is in
a language yet: the terminal renders it (``render``), the server sends it (``Words.json``) and
the browser renders it in the page's language.

>>> from dos.rules.official import new_game, parse_action
>>> reason = official_reason(new_game(seed=1), 0, parse_action("R7@9"))
>>> reason.json()
{'key': 'game.err_no_such_target', 'params': {'index': 9}}
>>> render("de", reason)
'Es gibt keine Karte 9 in der Mittelreihe.'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from dos import ruleset
from dos.errors import IllegalActionError, NotationError
from dos.i18n import catalog, text
from dos.rules.classic import Action as ClassicAction
from dos.rules.classic import State as ClassicState
from dos.rules.classic import cards as classic_cards
from dos.rules.official import Action, State
from dos.rules.official.cards import COLOUR, IS_WILD_NUMBER, NUMBER, WILD_DOS
from dos.rules.official.matching import NO_DESIGNATION

COLOUR_KEYS = ("blue", "green", "red", "yellow")
"""Catalog suffixes of the colours, in the engine's colour order (``B G R Y``)."""


@dataclass(frozen=True, slots=True)
class Words:
    """A catalog text not yet in a language: its key and its placeholders."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        """As JSON: ``{"key": ..., "params": {...}}``, nested words as the same, lists as lists."""
        return {"key": self.key, "params": {name: _json(v) for name, v in self.params.items()}}


Param: TypeAlias = int | str | Words | tuple[Words, ...]
"""A placeholder's value: a number, a text (notation), words, or words joined by commas."""


def _json(value: Param) -> Any:
    if isinstance(value, Words):
        return value.json()
    if isinstance(value, tuple):
        return [item.json() for item in value]
    return value


def words(key: str, **params: Param) -> Words:
    """``Words`` of ``key`` with ``params``."""
    return Words(key, params)


def render(lang: str, what: Words) -> str:
    """``what`` in ``lang``, nested words first."""
    return text(lang, what.key, **{name: _render(lang, v) for name, v in what.params.items()})


def _render(lang: str, value: Param) -> object:
    if isinstance(value, Words):
        return render(lang, value)
    if isinstance(value, tuple):
        return ", ".join(render(lang, item) for item in value)
    return value


# --- official -------------------------------------------------------------------------------


def colour_words(colour: int) -> Words:
    """A colour by its number (0-3, ``B G R Y``)."""
    return words(f"game.colour_{COLOUR_KEYS[colour]}")


def card_words(card: int, designation: int = NO_DESIGNATION) -> Words:
    """An official card, with its designation if it has one."""
    if card == WILD_DOS:
        if designation == NO_DESIGNATION:
            return words("game.wild_dos")
        return words("game.wild_dos_as", colour=colour_words(designation))
    colour = COLOUR_KEYS[COLOUR[card]]
    if IS_WILD_NUMBER[card]:
        name = words(f"game.wild_number_{colour}")
        if designation == NO_DESIGNATION:
            return name
        return words("game.wild_number_as", card=name, number=designation)
    return words(f"game.card_{colour}", number=NUMBER[card])


def cards_words(cards: Sequence[int], designations: Sequence[int] = ()) -> Param:
    """One official card or two (``"red 5 and Wild DOS"``)."""
    marks = list(designations) or [NO_DESIGNATION] * len(cards)
    names = tuple(card_words(c, d) for c, d in zip(cards, marks, strict=True))
    if len(names) == 2:
        return words("game.cards_pair", first=names[0], second=names[1])
    return names[0] if len(names) == 1 else names


def refusal(rules_name: str, state: Any, seat: int, action: Any) -> IllegalActionError | None:
    """The engine's own refusal of ``action`` by ``seat`` (``None`` if it is legal), found
    by applying it to a copy: the engine stays the one judge of why."""
    rules = ruleset.get(rules_name)
    mine = rules.by_seat(state, action, seat)
    if mine is None:
        return IllegalActionError("not your seat", "not_your_turn")
    try:
        rules.apply(rules.copy(state), mine)
    except IllegalActionError as error:
        return error
    except NotationError:
        return IllegalActionError("not allowed", "not_allowed")
    return None


@dataclass(frozen=True, slots=True)
class Explainer:
    """How a rule set's refusals are told: its catalog namespace (``namespace.err_<reason>``,
    else ``game.err_<reason>``), its cards' words, and whether played cards carry Wild DOS
    designations. A rule set's registry entry gives it (``dos.ruleset.Entry.explainer``)."""

    namespace: str
    card: Callable[[int], Words]
    designated: bool

    def error_words(self, error: IllegalActionError, action: Any) -> Words:
        """The words of a refusal the engine has just raised (no second look)."""
        return _words(self, error, action)


def _words(explainer: Explainer, error: IllegalActionError | None, action: Any) -> Words:
    """The catalog's words for the engine's refusal ``error`` (``namespace.err_<reason>``,
    else ``game.err_<reason>``), its placeholders made words: cards, colours."""
    if error is None:
        return words("game.err_not_allowed", action=str(action))
    namespace, card = explainer.namespace, explainer.card
    params: dict[str, Param] = {}
    given = error.params
    for name, value in given.items():
        if name in ("card", "target", "top") and isinstance(value, int):
            params[name] = card(value)
        elif name == "cards" and isinstance(value, tuple):
            if not explainer.designated:
                params[name] = tuple(card(c) for c in value)
            else:
                marks = given.get("designations", ())
                params[name] = cards_words(value, marks if isinstance(marks, tuple) else ())
        elif name == "colour" and isinstance(value, int):
            params[name] = colour_words(value)
        elif name != "designations" and isinstance(value, int):
            params[name] = value
    for key in (f"{namespace}.err_{error.reason}", f"game.err_{error.reason}"):
        if key.partition(".")[2] in _catalog_keys(key.partition(".")[0]):
            return words(key, **params)
    return words("game.err_not_allowed", action=str(action))


@functools.cache
def _catalog_keys(namespace: str) -> frozenset[str]:
    return frozenset(
        key.partition(".")[2] for key in catalog("en") if key.startswith(namespace + ".")
    )


def official_reason(state: State, seat: int, action: Action) -> Words:
    """Why ``seat`` may not make ``action`` in ``state`` (official rules): the engine's
    refusal in the catalog's words.

    >>> from dos.rules.official import new_game, parse_action
    >>> render("en", official_reason(new_game(seed=1), 0, parse_action("dos")))
    'Nobody has an open "DOS!" to call or catch.'
    """
    return _words(OFFICIAL_WORDS, refusal("official", state, seat, action), action)


def explain_official(lang: str, state: State, seat: int, action: Action) -> str:
    """``official_reason`` in ``lang``."""
    return render(lang, official_reason(state, seat, action))


# --- classic --------------------------------------------------------------------------------


def classic_card_words(card: int) -> Words:
    """A classic card: ``red 7``, ``blue Skip``, ``Wild Draw Four``."""
    if card == classic_cards.WILD:
        return words("classic.card_wild")
    if card == classic_cards.WILD_DRAW_FOUR:
        return words("classic.card_wild_four")
    rank = classic_cards.RANK[card]
    colour_index = classic_cards.COLOUR[card]
    colour = colour_words(colour_index)
    if rank == classic_cards.SKIP:
        return words("classic.card_skip", colour=colour)
    if rank == classic_cards.REVERSE:
        return words("classic.card_reverse", colour=colour)
    if rank == classic_cards.DRAW_TWO:
        return words("classic.card_draw_two", colour=colour)
    return words(f"game.card_{COLOUR_KEYS[colour_index]}", number=rank)


def classic_reason(state: ClassicState, seat: int, action: ClassicAction) -> Words:
    """Why ``seat`` may not make ``action`` in ``state`` (classic rules, RULES.md §9): the
    engine's refusal in the catalog's words.

    >>> from dos.rules.classic import new_game, parse_action
    >>> state = new_game(seed=1)
    >>> render("en", classic_reason(state, state.turn, parse_action("timeout")))
    'There is no reaction test now.'
    """
    return _words(CLASSIC_WORDS, refusal("classic", state, seat, action), action)


def explainer_of(entry: ruleset.Entry) -> Explainer:
    """How the rule set of ``entry`` tells its refusals: its entry's ``explainer``; a rule set
    with none of its own is told in the catalog's ``game`` words."""
    if entry.explainer is None:
        return OFFICIAL_WORDS
    return ruleset.checked(entry.explainer(), Explainer, f"{entry.name}: explainer")


def error_reason(entry: ruleset.Entry, error: IllegalActionError, action: Any) -> Words:
    """The words of a refusal the engine of ``entry`` has just raised (the server: no second
    look)."""
    return explainer_of(entry).error_words(error, action)


def reason_for(rules: str, state: Any, seat: int, action: Any) -> Words:
    """Why ``seat`` may not make ``action`` in ``state`` under the rule set called ``rules``
    (any registered one): the engine's refusal in the words of its explainer
    (``explainer_of``).

    >>> from dos.rules.classic import new_game, parse_action
    >>> state = new_game(seed=1)
    >>> render("en", reason_for("classic", state, state.turn, parse_action("timeout")))
    'There is no reaction test now.'
    """
    return _words(explainer_of(ruleset.entry(rules)), refusal(rules, state, seat, action), action)


def explain_classic(lang: str, state: ClassicState, seat: int, action: ClassicAction) -> str:
    """``classic_reason`` in ``lang``."""
    return render(lang, classic_reason(state, seat, action))


OFFICIAL_WORDS = Explainer("game", card_words, designated=True)
"""How official refusals are told (``game.*``)."""
CLASSIC_WORDS = Explainer("classic", classic_card_words, designated=False)
"""How classic refusals are told (``classic.*``, RULES.md §9)."""
