"""What every rule set offers: the interface bots, tools, clients and the server rely on, and
the registry of rule sets.

A rule set is an object with the methods of ``RuleSet``; ``get(name)`` returns one by name.
Each rule set keeps its own ``State`` and ``Action`` types; everything outside the rule set
handles them only through these methods, and actions as notation text.

Each rule set has one ``Entry`` in the registry (``register``, ``entry``, ``entries``): its
engine and what the other layers need of it (views, bots, the fast core, the RL codec, the
agents' text, the explainer, the terminal client), each a factory imported only when asked
for, and the capabilities that set rule sets apart (a target score, a DOS race, a reaction
test). Code outside ``dos.rules`` asks the entry, never compares names. The built-in
entries (``dos.rulesets``) are registered on the first look-up.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from dos.agents.text import TextView
    from dos.arena.played import PlayedGame
    from dos.arena.schedule import GameSpec
    from dos.bots.kits import BotKit
    from dos.fast.compiled import Core
    from dos.i18n.explain import Explainer
    from dos.rl.codec import Codec
    from dos.tui.terminals import Terminal

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class RuleSet(Protocol[StateT, ActionT]):
    """The interface of one rule set."""

    name: str
    """The name used on the command line, in positions and in records: ``"official"``."""

    def new_game(self, options: dict[str, Any] | None, seed: int) -> StateT:
        """A new game from JSON options (``None``: defaults) and a seed."""
        ...

    def options_json(self, state: StateT) -> dict[str, Any]:
        """The options of a game, as JSON."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """An action from notation; raises ``NotationError``."""
        ...

    def by_seat(self, state: StateT, action: ActionT, seat: int) -> ActionT | None:
        """``action`` as made by ``seat``: an action that names no seat becomes ``seat``'s own
        (naming it unless ``seat`` is the seat to act, as the notation writes it); an action
        that names another seat gives ``None``. The server calls this with the seat of the
        authenticated connection, so no text can choose who acts."""
        ...

    def legal_actions(self, state: StateT, seat: int | None = None) -> list[ActionT]:
        """Every legal action of ``seat`` (default: the seat to act), in a fixed order."""
        ...

    def all_legal_actions(self, state: StateT) -> list[ActionT]:
        """Every legal action of every seat, the seat to act first."""
        ...

    def apply(self, state: StateT, action: ActionT) -> None:
        """Applies a legal action in place; raises ``IllegalActionError`` changing nothing."""
        ...

    def copy(self, state: StateT) -> StateT:
        """An independent copy of a state."""
        ...

    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended."""
        ...

    def turn(self, state: StateT) -> int:
        """The seat to act."""
        ...

    def players(self, state: StateT) -> int:
        """The number of seats."""
        ...

    def rounds_played(self, state: StateT) -> int:
        """Rounds finished so far."""
        ...

    def result(self, state: StateT) -> dict[str, Any]:
        """The outcome so far as JSON (winner, scores or ranking, rounds)."""
        ...

    def to_position(self, state: StateT) -> dict[str, Any]:
        """The state as a JSON position."""
        ...

    def from_position(self, data: object) -> StateT:
        """A state from a JSON position; raises ``PositionError`` naming the field."""
        ...

    def view_json(self, state: StateT, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON."""
        ...


@dataclass(frozen=True, slots=True)
class ReactionTest:
    """What the server needs to time a rule set's real-time reaction test
    (``dos.server.reaction``): how long the test under way allows, and an answer as the
    server records it once it has measured the time."""

    time_limit: Callable[[Any], float | None]
    """Seconds the test under way in a state allows (``None``: no test is under way)."""
    at_least: Callable[[Any, int], Any]
    """An action as recorded when the server measured ``ms`` milliseconds: an answer to the
    test that claims less takes the measured time; any other action stays as it is."""


NAMES = ("official", "classic")
"""The built-in rule sets, in the order they are listed (``names()``: every registered one)."""

PRIVATE = ("seat", "hand", "legal")
"""The keys of a JSON view that depend on the seat."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule set in the registry: its engine, its capabilities and what each layer needs
    of it. A factory that is ``None`` means the layer does not offer the rule set (no bots, no
    fast core...); factories import their layer only when called, so that the registry
    imports neither numba, textual nor the server.

    >>> official = entry("official")
    >>> official.rules().name, official.target_score, official.dos_race
    ('official', True, True)
    >>> entry("classic").reaction is not None, official.reaction is None
    (True, True)
    """

    name: str
    """The name used on the command line, in positions, records and the protocol."""
    rules: Callable[[], RuleSet[Any, Any]]
    """The engine (``RuleSet``)."""
    summary: str = ""
    """One line that says what the rule set is, for listings."""

    # --- capabilities ------------------------------------------------------------------------
    target_score: bool = False
    """Whether games are rounds played to a target score (``options.target_score``; a state
    keeps ``round_results`` with each round's points)."""
    dos_race: bool = False
    """Whether "DOS!" is called and caught out of turn, the first to act winning the race."""
    is_call: Callable[[Any], bool] | None = None
    """Whether an engine action is a seat's "DOS!" call (with ``dos_race``). A call changes
    nothing another seat may do but catch the caller, so the server takes an action made on
    the version before a call if it is still legal (``dos.server.stale``)."""
    reaction: ReactionTest | None = None
    """Its real-time reaction test, which the server times (``None``: it has none)."""
    fast_rl: bool = False
    """Whether the RL environments can run this rule set on the compiled core."""

    # --- views ----------------------------------------------------------------------------------
    public_json: Callable[[Any, bool], dict[str, Any]] | None = None
    """The public part of a view straight from a state (``(state, history)``), when the rule
    set has a quicker way than ``view_json`` less ``PRIVATE``."""
    private_json: Callable[[Any, int], dict[str, Any]] | None = None
    """A seat's ``hand`` and ``legal`` straight from a state, likewise."""
    seat_view: Callable[[dict[str, Any]], Any] | None = None
    """The engine's seat view from its JSON (``dos.agents.seat_view``)."""

    # --- layers ---------------------------------------------------------------------------------
    bots: Callable[[], BotKit] | None = None
    """Its bots and levels (``dos.bots.kits``)."""
    fast_core: Callable[[], Core] | None = None
    """Its compiled core (``dos.fast``)."""
    codec: Callable[..., Codec] | None = None
    """Its RL codec for ``(players, **options)`` (``dos.rl.codec``)."""
    text: Callable[[], TextView] | None = None
    """How the agents' text format tells its views and actions (``dos.agents.text``)."""
    explainer: Callable[[], Explainer] | None = None
    """How a refusal is told in words (``dos.i18n.explain``)."""
    terminal: Callable[[], Terminal] | None = None
    """Its terminal client (``dos.tui.terminals``)."""
    arena_game: Callable[[GameSpec], PlayedGame] | None = None
    """Plays one scheduled tournament game (``dos.arena.played``)."""
    options: Callable[[Mapping[str, Any]], Any] | None = None
    """The engine's options object from JSON (tournaments schedule games with it)."""
    ranks: Callable[[dict[str, Any], int], list[int]] | None = None
    """The finishing ranks of a result (``dos.ratings``); ``None``: its games are not rated."""

    def public_view(self, state: Any, history: bool = False) -> dict[str, Any]:
        """The public part of every seat's view of ``state`` (no ``seat``, ``hand``,
        ``legal``; no ``history`` unless asked for)."""
        if self.public_json is not None:
            return self.public_json(state, history)
        full = self.rules().view_json(state, 0)
        public = {k: v for k, v in full.items() if k not in PRIVATE}
        if not history:
            public.pop("history", None)
        return public

    def private_view(self, state: Any, seat: int) -> dict[str, Any]:
        """The part of ``seat``'s view only it may see: ``hand`` and ``legal``."""
        if self.private_json is not None:
            return self.private_json(state, seat)
        full = self.rules().view_json(state, seat)
        return {"hand": full.get("hand"), "legal": full.get("legal")}


def loaded(path: str) -> Callable[[], Any]:
    """A factory for an entry: ``"module:name"`` imported when the factory is called, not
    before, so that the registry imports no layer.

    >>> loaded("dos.rules.official:RULES")().name
    'official'
    """
    module, _, name = path.partition(":")
    return lambda: _attribute(module, name)


def deferred(path: str) -> Callable[..., Any]:
    """A function of an entry: ``"module:name"`` imported when first called, then called with
    the arguments given.

    >>> deferred("dos.ratings.ranks:official_ranks")({"winner": 1, "scores": [9, 200]}, 2)
    [1, 0]
    """
    module, _, name = path.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return _attribute(module, name)(*args, **kwargs)

    return call


def _attribute(module: str, name: str) -> Any:
    value: Any = importlib.import_module(module)
    for part in name.split("."):
        value = getattr(value, part)
    return value


_ENTRIES: dict[str, Entry] = {}
_LOADED: list[bool] = []
"""Holds ``True`` once the built-in entries are registered."""
_LOADING = threading.RLock()


def _registry() -> dict[str, Entry]:
    if not _LOADED:
        with _LOADING:  # reentrant: registering the built-in entries looks the registry up
            import dos.rulesets  # noqa: F401  (registers the built-in entries)

            _LOADED.append(True)
    return _ENTRIES


def register(new: Entry) -> None:
    """Adds a rule set to the registry; raises ``ValueError`` if its name is taken."""
    entries = _registry()
    if new.name in entries:
        raise ValueError(f"rule set {new.name!r} is registered already")
    entries[new.name] = new


def unregister(name: str) -> None:
    """Removes a rule set from the registry (tests that add their own)."""
    _registry().pop(name, None)


def entries() -> Iterator[Entry]:
    """Every registered rule set, in the order registered (the built-in ones first)."""
    return iter(list(_registry().values()))


def names() -> tuple[str, ...]:
    """The names of every registered rule set.

    >>> names()[:2]
    ('official', 'classic')
    """
    return tuple(_registry())


def find(name: str) -> Entry | None:
    """The entry of the rule set ``name``, or ``None``."""
    return _registry().get(name)


def entry(name: str) -> Entry:
    """The entry of the rule set ``name``; raises ``ValueError`` listing the known names."""
    found = _registry().get(name)
    if found is None:
        raise ValueError(f"unknown rule set {name!r} (known: {', '.join(names())})")
    return found


def get(name: str) -> RuleSet[Any, Any]:
    """The rule set called ``name``; raises ``ValueError`` listing the known names.

    >>> get("official").name, get("classic").name
    ('official', 'classic')
    """
    return entry(name).rules()
