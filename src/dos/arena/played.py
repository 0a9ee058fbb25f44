"""One scheduled game, played: the result of ``dos.play.official.play_game`` with its seating.

``play`` is a plain top-level function of a picklable ``GameSpec``, so any backend (this
process, local worker processes, a Ray cluster) can run it. It builds fresh players for every
game, so no bot carries anything from one game to the next and a game's result depends only
on its spec: whichever backend or worker plays it, the same spec gives the same game. Only the
decision times (wall clock) differ from run to run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dos import ruleset
from dos.arena.schedule import GameSpec
from dos.bots.registry import make_player
from dos.play.official import play_game
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
        }


def play(spec: GameSpec) -> PlayedGame:
    """Plays one scheduled game with fresh players made by name (how: the rule set's registry
    entry, ``Entry.arena_game``)."""
    arena_game = ruleset.entry(spec.rules).arena_game
    if arena_game is None:
        raise ValueError(f"tournaments do not play the {spec.rules} rules")
    return ruleset.checked(arena_game(spec), PlayedGame, f"{spec.rules}: arena_game")


def play_official(spec: GameSpec) -> PlayedGame:
    """An official game (RULES.md §1-§8), scores as the engine counts them."""
    assert isinstance(spec.options, Options)
    seats = spec.options.players
    players = [make_player(name, players=seats) for name in spec.seating]
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
    from dos.play.classic import play_game as play_classic
    from dos.rules.classic import Options as ClassicOptions

    assert isinstance(spec.options, ClassicOptions)
    seats = spec.options.players
    players = [make_player(name, "classic", players=seats) for name in spec.seating]
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
