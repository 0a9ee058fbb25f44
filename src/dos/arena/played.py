"""One scheduled game, played: the result of ``dos.play.official.play_game`` with its seating.

In a sandboxed tournament (``GameSpec.sandbox``) every bot by path plays in a process of its own
(``dos.bots.sandbox``), and a bot's error forfeits its game (``dos.arena.forfeits``) instead of
ending the tournament.

``play`` is a plain top-level function of a picklable ``GameSpec``, so any backend (this
process, local worker processes, a Ray cluster) can run it. It builds fresh players for every
game, so no bot carries anything from one game to the next and a game's result depends only
on its spec: whichever backend or worker plays it, the same spec gives the same game. Only the
decision times (wall clock) differ from run to run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dos import ruleset
from dos.arena.forfeits import Deciding, Forfeit, Watched, forfeit, standing
from dos.arena.schedule import GameSpec
from dos.bots.base import BotError
from dos.bots.loading import is_file_bot
from dos.bots.reflex import Reflex
from dos.bots.registry import CLASSIC_DEFAULT_BUDGET, DEFAULT_BUDGET, make_player
from dos.bots.sandbox.bot import SandboxedBot, child
from dos.play.official import Player, play_game
from dos.rules.official import Options


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What one game of a tournament came to; seats map to bots through ``seating``."""

    index: int
    deal: int
    rotation: int
    seed: int
    seating: tuple[str, ...]
    winner: int
    """The winning seat."""
    scores: tuple[int, ...]
    """Final scores by seat."""
    rounds: int
    decisions: tuple[int, ...]
    calls: tuple[int, ...]
    caught: tuple[int, ...]
    decision_seconds: tuple[tuple[float, ...], ...]
    """Wall time of each decision, by seat: the one part that is not reproducible."""
    forfeit: Forfeit | None = None
    """The forfeit that ended the game, if one did (``dos.arena.forfeits``)."""

    @property
    def winner_bot(self) -> str:
        """The name at the winning seat."""
        return self.seating[self.winner]

    def outcome(self) -> tuple[Any, ...]:
        """Everything but the decision times: equal for the same spec on any backend."""
        return (
            self.index,
            self.deal,
            self.rotation,
            self.seed,
            self.seating,
            self.winner,
            self.scores,
            self.rounds,
            self.decisions,
            self.calls,
            self.caught,
            None if self.forfeit is None else self.forfeit.to_json(),
        )

    def to_json(self) -> dict[str, Any]:
        """The game as a JSON object; decision times as the total seconds of each seat."""
        return {
            "index": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "seating": list(self.seating),
            "winner": self.winner,
            "winner_bot": self.winner_bot,
            "scores": list(self.scores),
            "rounds": self.rounds,
            "decisions": list(self.decisions),
            "calls": list(self.calls),
            "caught": list(self.caught),
            "decision_seconds": [sum(times) for times in self.decision_seconds],
            "forfeit": None if self.forfeit is None else self.forfeit.to_json(),
        }


def play(spec: GameSpec) -> PlayedGame:
    """Plays one scheduled game with fresh players made by name (how: the rule set's registry
    entry, ``Entry.arena_game``)."""
    arena_game = ruleset.entry(spec.rules).arena_game
    if arena_game is None:
        raise ValueError(f"tournaments do not play the {spec.rules} rules")
    return ruleset.checked(arena_game(spec), PlayedGame, f"{spec.rules}: arena_game")


def _official_player(spec: GameSpec, name: str) -> Player:
    """The seat's player: in a process of its own for a bot by path in a sandboxed
    tournament, else as the registry makes it."""
    sandbox = spec.sandbox
    if sandbox is None or not is_file_bot(name):
        return make_player(name, players=spec.options.players)
    loaded = child(name, spec.rules, sandbox)
    bot = SandboxedBot(name, spec.rules, sandbox)
    return Player(bot, loaded.reflex or Reflex(), loaded.budget or DEFAULT_BUDGET)


def _classic_player(spec: GameSpec, name: str) -> Any:
    """As ``_official_player``, at a classic table."""
    from dos.play.classic import ClassicPlayer

    sandbox = spec.sandbox
    if sandbox is None or not is_file_bot(name):
        return make_player(name, spec.rules, players=spec.options.players)
    loaded = child(name, spec.rules, sandbox)
    bot = SandboxedBot(name, spec.rules, sandbox)
    return ClassicPlayer(bot, loaded.budget or CLASSIC_DEFAULT_BUDGET)


def _played(
    spec: GameSpec, players: list[Any], game: Callable[[list[Any]], PlayedGame]
) -> PlayedGame:
    """``game`` played with ``players``; in a sandboxed tournament, or where a bot by path
    plays in process, a ``BotError`` forfeits the game of the seat deciding
    (``dos.arena.forfeits``)."""
    if spec.sandbox is None and not any(is_file_bot(name) for name in spec.seating):
        return game(players)
    deciding = Deciding()
    watched = [
        replace(player, bot=Watched(player.bot, seat, deciding))
        for seat, player in enumerate(players)
    ]
    try:
        return game(watched)
    except BotError as error:
        if deciding.seat is None:
            raise
        return _forfeited(spec, deciding.seat, deciding.view, str(error))


def _forfeited(spec: GameSpec, seat: int, view: Any, reason: str) -> PlayedGame:
    """The game of ``spec`` forfeited by ``seat`` deciding from ``view``."""
    record, result = forfeit(
        spec.rules,
        spec.options.to_json(),
        spec.seed,
        bot=spec.seating[seat],
        seat=seat,
        view=view,
        reason=reason,
    )
    count = len(spec.seating)
    places = standing(result, count, seat)
    scores = [0] * count
    for place, placed in enumerate(places):
        scores[placed] = count - 1 - place
    zeros = (0,) * count
    return PlayedGame(
        index=spec.index,
        deal=spec.deal,
        rotation=spec.rotation,
        seed=spec.seed,
        seating=spec.seating,
        winner=places[0],
        scores=tuple(scores),
        rounds=int(result.get("rounds", 0)),
        decisions=zeros,
        calls=zeros,
        caught=zeros,
        decision_seconds=((),) * count,
        forfeit=record,
    )


def play_official(spec: GameSpec) -> PlayedGame:
    """An official game (RULES.md §1-§8), scores as the engine counts them."""
    assert isinstance(spec.options, Options)
    players = [_official_player(spec, name) for name in spec.seating]
    return _played(spec, players, lambda seated: _official_game(spec, seated))


def _official_game(spec: GameSpec, players: list[Player]) -> PlayedGame:
    assert isinstance(spec.options, Options)
    result = play_game(players, spec.seed, spec.options)
    return PlayedGame(
        index=spec.index,
        deal=spec.deal,
        rotation=spec.rotation,
        seed=spec.seed,
        seating=spec.seating,
        winner=result.winner,
        scores=tuple(result.scores),
        rounds=result.rounds,
        decisions=tuple(result.decisions),
        calls=tuple(result.calls),
        caught=tuple(result.caught),
        decision_seconds=tuple(tuple(times) for times in result.decision_seconds),
    )


def play_classic(spec: GameSpec) -> PlayedGame:
    """A classic game (RULES.md §9) in the same terms: the winner is first place, each seat
    scores one point for each player it finished ahead of, the "calls" are reaction tests
    passed and "caught" those failed."""
    from dos.rules.classic import Options as ClassicOptions

    assert isinstance(spec.options, ClassicOptions)
    players = [_classic_player(spec, name) for name in spec.seating]
    return _played(spec, players, lambda seated: _classic_game(spec, seated))


def _classic_game(spec: GameSpec, players: list[Any]) -> PlayedGame:
    from dos.play.classic import play_game as play_classic
    from dos.rules.classic import Options as ClassicOptions

    assert isinstance(spec.options, ClassicOptions)
    result = play_classic(players, spec.seed, spec.options)
    count = len(players)
    return PlayedGame(
        index=spec.index,
        deal=spec.deal,
        rotation=spec.rotation,
        seed=spec.seed,
        seating=spec.seating,
        winner=result.ranking[0],
        scores=tuple(count - 1 - place for place in result.places),
        rounds=1,
        decisions=tuple(result.decisions),
        calls=tuple(result.reactions_passed),
        caught=tuple(result.reactions_failed),
        decision_seconds=tuple(tuple(times) for times in result.decision_seconds),
    )


def play_batch(specs: Sequence[GameSpec]) -> list[PlayedGame]:
    """Plays several games in order: the unit of work a backend hands to a worker."""
    return [play(spec) for spec in specs]
