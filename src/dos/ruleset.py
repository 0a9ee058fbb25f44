"""What every rule set offers: the interface bots, tools, clients and the server rely on, and
the registry of rule sets.

A rule set is an object with the methods of ``RuleSet``; ``get(name)`` returns one by name.
Each rule set keeps its own ``State`` and ``Action`` types; everything outside the rule set
handles them only through these methods, and actions as notation text.

Each rule set has one ``Entry`` in the registry (``register``, ``entry``, ``entries``): its
engine and what the other layers need of it (views, bots, the fast core, the RL codec, the
agents' text, the explainer, the terminal client), each a factory imported only when asked
for, and the capabilities that set rule sets apart (hints, reviews, rated play, bot levels, a
target score, a DOS race, a reaction test). Code outside ``dos.rules`` and ``dos.rulesets``
asks the entry, never compares names; where a rule set must be named without a choice made,
it is ``DEFAULT``.

This module names no type of the layers above it: a factory of an entry is typed by what it
returns to the registry (``Any``, or the small protocols below, such as ``Bots``), and the
layer that calls it checks what it got (``checked``).

The built-in entries (``dos.rulesets``) are registered on the first look-up, then the
plug-ins (``load_plug_ins``): every entry point of the group ``dos.rulesets`` and every
module named in the environment variable ``DOS_RULESETS``, so that a server plays a rule set
of another package without a line of this one changed (``docs/engine.md``, "Rule sets").
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, Protocol, TypeVar

from dos.errors import DosError

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
    (``dos.server.tables.reaction``): how long the test under way allows, and an answer as the
    server records it once it has measured the time."""

    time_limit: Callable[[Any], float | None]
    """Seconds the test under way in a state allows (``None``: no test is under way)."""
    at_least: Callable[[Any, int], Any]
    """An action as recorded when the server measured ``ms`` milliseconds: an answer to the
    test that claims less takes the measured time; any other action stays as it is."""


NAMES: Final = ("official", "classic")
"""The built-in rule sets, in the order they are listed (``names()``: every registered one)."""

DEFAULT: Final = "official"
"""The rule set played where none is named: the commands' ``--rules``, a new table, an agent's
``create_table``."""

PRIVATE: Final = ("seat", "hand", "legal")
"""The keys of a JSON view that depend on the seat."""

PLUG_IN_GROUP: Final = "dos.rulesets"
"""The entry point group of plug-in rule sets: each entry point names a module (imported) or a
callable (called), which registers its rule sets."""

PLUG_IN_VARIABLE: Final = "DOS_RULESETS"
"""The environment variable naming plug-in modules, separated by commas: each is imported, and
importing it registers its rule sets."""

T = TypeVar("T")


class Bots(Protocol):
    """What a rule set's bots offer the layers above (``dos.bots.kits.BotKit`` is the built-in
    rule sets'): names, levels, players, and what a table needs to let them play."""

    def names(self) -> list[str]:
        """Every bot and level name ``make_player`` takes, bots first."""
        ...

    def levels(self) -> list[str]:
        """The levels, easiest first."""
        ...

    def search_levels(self) -> set[str]:
        """The levels whose bot searches (a decision takes up to its budget's time)."""
        ...

    def make_player(self, name: str, players: int | None, /) -> Any:
        """A seat's player for a bot or level name at a table of ``players`` seats (``None``:
        not said); ``ValueError`` for an unknown name."""
        ...

    def seat_view(self, state: Any, seat: int) -> Any:
        """The view a bot of ``seat`` decides from."""
        ...

    def obligations(self, state: Any, /) -> dict[int, Any]:
        """Seats with an open DOS obligation, each with a key that changes with a new one."""
        ...

    def reacting(self, state: Any, /) -> bool:
        """Whether the seat to act is taking a reaction test (answered in real time)."""
        ...


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule set in the registry: its engine, its capabilities and what each layer needs
    of it. A factory that is ``None`` means the layer does not offer the rule set (no bots, no
    fast core...); factories import their layer only when called, so that the registry
    imports neither numba, textual nor the server.

    >>> official = entry("official")
    >>> official.rules().name, official.target_score, official.dos_race
    ('official', True, True)
    >>> official.hints, official.reviews, official.rated, official.levels()[0]
    (True, True, True, 'easy')
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
    the version before a call if it is still legal (``dos.server.tables.stale``)."""
    reaction: ReactionTest | None = None
    """Its real-time reaction test, which the server times (``None``: it has none)."""
    hints: bool = False
    """Whether the server hints at its casual tables (``dos.server.tables.hints``: the ``expert``
    bot's pick for the seat's own view, and why, in the words of the official cards and
    matches, so only a rule set told in them offers it)."""
    reviews: bool = False
    """Whether its finished games can be reviewed, seat by seat (``dos.review``, the server's
    ``/api/games/{id}/review``), which judges official decisions."""
    fast_rl: bool = False
    """Whether the RL environments can run this rule set on the compiled core."""

    # --- views ----------------------------------------------------------------------------------
    public_json: Callable[[Any, bool], dict[str, Any]] | None = None
    """The public part of a view straight from a state (``(state, history)``), when the rule
    set has a quicker way than ``view_json`` less ``PRIVATE``."""
    private_json: Callable[[Any, int], dict[str, Any]] | None = None
    """A seat's ``hand`` and ``legal`` straight from a state, likewise."""
    seat_view: Callable[[dict[str, Any]], Any] | None = None
    """The engine's seat view (what its bots decide from) read back from its JSON (the JSON of
    ``view_json``, with or without its ``history``): how a job, a hint or an agent's bot gets
    a view it was sent. JSON that is no view raises ``KeyError``, ``TypeError`` or
    ``ValueError`` (``dos.agents.seat_view`` says so by name)."""

    # --- layers: each factory's result is checked by the layer that asks for it ----------------
    bots: Callable[[], Bots] | None = None
    """Its bots and levels (``Bots``; the built-in rule sets': ``dos.bots.kits``)."""
    fast_core: Callable[[], Any] | None = None
    """Its compiled core (a ``dos.fast.compiled.Core``)."""
    codec: Callable[..., Any] | None = None
    """Its RL codec for ``(players, **options)`` (a ``dos.rl.codec.Codec``)."""
    text: Callable[[], Any] | None = None
    """How the agents' text format tells its views and actions (a
    ``dos.agents.text.TextView``)."""
    explainer: Callable[[], Any] | None = None
    """How a refusal is told in words (a ``dos.i18n.explain.Explainer``)."""
    terminal: Callable[[], Any] | None = None
    """Its terminal client (a ``dos.tui.terminals.Terminal``)."""
    arena_game: Callable[[Any], Any] | None = None
    """Plays one scheduled tournament game (a ``dos.arena.schedule.GameSpec``), giving a
    ``dos.arena.played.PlayedGame``."""
    options: Callable[[Mapping[str, Any]], Any] | None = None
    """The engine's options object from JSON (tournaments schedule games with it)."""
    ranks: Callable[[dict[str, Any], int], list[int]] | None = None
    """The finishing ranks of a result (``dos.ratings``); ``None``: its games are not rated."""

    @property
    def rated(self) -> bool:
        """Whether its games can be rated (it tells finishing ranks, ``ranks``)."""
        return self.ranks is not None

    def levels(self) -> list[str]:
        """The bot levels a table of this rule set offers, easiest first (none where bots
        cannot play it)."""
        return self.bots().levels() if self.bots is not None else []

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


def checked(made: object, kind: type[T], what: str) -> T:
    """``made`` (what an entry's factory made), if it is a ``kind``; else ``TypeError``
    naming ``what`` (the entry and its factory). The layer that calls a factory checks its
    result so, since the registry cannot name the layer's types.

    >>> checked(3, int, "official: fast_core")
    3
    >>> checked("3", int, "toy: fast_core")
    Traceback (most recent call last):
    ...
    TypeError: toy: fast_core: a int wanted, not a str
    """
    if not isinstance(made, kind):
        raise TypeError(f"{what}: a {kind.__name__} wanted, not a {type(made).__name__}")
    return made


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


class PlugInError(DosError, ImportError):
    """A plug-in rule set that failed to load or to register; the message names it."""


_ENTRIES: dict[str, Entry] = {}
_READY: list[bool] = []
"""Holds ``True`` once the built-in entries and the plug-ins are registered."""
_BUSY: list[bool] = []
"""Holds ``True`` while they are: registering looks the registry up, and finds it as it is."""
_FAILED: list[PlugInError] = []
"""The plug-in that failed, raised again by every look-up: a server never runs without a rule
set it was told to play."""
_LOADING = threading.RLock()


def _registry() -> dict[str, Entry]:
    if not _READY:
        with _LOADING:  # reentrant: registering an entry looks the registry up
            if not _READY and not _BUSY:
                _BUSY.append(True)
                try:
                    import dos.rulesets  # noqa: F401  (registers the built-in entries)

                    try:
                        points = importlib.metadata.entry_points(group=PLUG_IN_GROUP)
                        load_plug_ins(points, os.environ.get(PLUG_IN_VARIABLE, ""))
                    except PlugInError as error:
                        _FAILED.append(error)
                    _READY.append(True)
                finally:
                    _BUSY.clear()
    if _FAILED:
        raise _FAILED[0]
    return _ENTRIES


def load_plug_ins(points: Iterable[importlib.metadata.EntryPoint], modules: str) -> None:
    """Registers plug-in rule sets: each entry point of ``points`` (of the group
    ``PLUG_IN_GROUP``) loaded, and called if it names a callable; then each module named in
    ``modules`` (comma-separated, as ``PLUG_IN_VARIABLE`` holds them) imported. Raises
    ``PlugInError`` naming the first that fails to load or to register. The registry does this
    once, on its first look-up, after the built-in entries.

    >>> load_plug_ins([], "dos.rulesets")  # imported already: nothing more to register
    >>> load_plug_ins([], "dos.no_such_rules")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dos.ruleset.PlugInError: DOS_RULESETS: the module 'dos.no_such_rules' failed to load: ...
    """
    for point in points:
        try:
            loaded = point.load()
            if callable(loaded) and not isinstance(loaded, ModuleType):
                loaded()
        except Exception as error:
            raise PlugInError(
                f"the rule set plug-in {point.name!r} ({point.value}, entry point group "
                f"{PLUG_IN_GROUP}) failed to load: {type(error).__name__}: {error}"
            ) from error
    for name in (part.strip() for part in modules.split(",")):
        if not name:
            continue
        try:
            importlib.import_module(name)
        except Exception as error:
            raise PlugInError(
                f"{PLUG_IN_VARIABLE}: the module {name!r} failed to load: "
                f"{type(error).__name__}: {error}"
            ) from error


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
    """Every registered rule set, in the order registered (the built-in ones first, then the
    plug-ins)."""
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
