"""A seeded game between bots, printed turn by turn (``dos watch``, the ``make run`` demo).

Presentation only: it reads the state through the official rule set's public API, so it
prints the games of that engine alone (``prints``).
"""

from __future__ import annotations

from collections.abc import Callable

from dos import ruleset, seeds
from dos.bots.registry import make_player
from dos.play.official import DosReferee
from dos.rules.official import (
    RULES,
    Action,
    Kind,
    Options,
    Phase,
    State,
    apply,
    new_game,
    view,
)
from dos.rules.official.actions import format_card
from dos.rules.official.cards import NAMES
from dos.rules.official.matching import NO_DESIGNATION, match_kind, resolve


def prints(entry: ruleset.Entry) -> bool:
    """Whether ``dos watch`` prints games of the rule set of ``entry``: those of the engine
    ``bot_game`` plays and tells, the official rules' (``RULES``).

    >>> prints(ruleset.entry("official")), prints(ruleset.entry("classic"))
    (True, False)
    """
    return entry.rules() is RULES


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(NAMES[c] for c in cards) or "-"


def _center(state: State) -> str:
    return "  ".join(f"{i}:{NAMES[c]}" for i, c in enumerate(state.center))


def describe(state: State, action: Action) -> str:
    """A short gloss of an action about to be applied, in the rulebook's words."""
    if action.kind == Kind.MATCH:
        target = state.center[action.target]
        kind = match_kind(action.cards, action.designations, target)
        gloss = f"{kind} on {NAMES[target]}"
        resolved = resolve(action.cards, action.designations, target)
        if resolved is not None:
            shown, target_colour = resolved
            wilds = [
                format_card(c, d)
                for c, d in zip(action.cards, shown, strict=True)
                if d != NO_DESIGNATION
            ]
            if target_colour != NO_DESIGNATION:
                wilds.append(f"target {format_card(target, target_colour)}")
            if wilds:
                gloss += f" ({', '.join(wilds)})"
        return gloss
    if action.kind == Kind.CATCH:
        return f"catches seat {action.target}: 2 penalty cards"
    if action.kind == Kind.CALL:
        return 'calls "DOS!"'
    if action.kind == Kind.LAY:
        return "lays a card in the Center Row"
    if action.kind == Kind.PLACE:
        return "colour bonus: places a card"
    return ""


def bot_game(
    players: int,
    seed: int,
    bots: list[str],
    target_score: int = 200,
    out: Callable[[str], None] = print,
) -> State:
    """Plays and prints a game between bots or levels (names cycle over the seats)."""
    seated = [make_player(bots[seat % len(bots)]) for seat in range(players)]
    names = [bots[seat % len(bots)] for seat in range(players)]
    state = new_game(Options(players=players, target_score=target_score), seed)
    rngs = [seeds.generator(seed, "seat", seat) for seat in range(players)]
    referee = DosReferee(state, seated, seeds.generator(seed, "race"))
    out(f"DOS · official rules · {players} players · target {target_score} · seed {seed}")
    out("Seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(names)))
    for number, drawn in enumerate(state.dealer_draws, 1):
        shown = ", ".join(f"seat {s} {NAMES[c]}" for s, c in drawn)
        out(f"Draw for dealer, pass {number}: {shown}")
    last_header: tuple[int, int] | None = None
    rounds_seen = 0
    while state.winner is None:
        for action in referee.settle(state):
            out(f"    {action!s:<16} {describe(state, action)}".rstrip())
        if state.winner is not None:
            break
        if last_header != (state.round, state.turn) and state.phase == Phase.TURN:
            if last_header is None or last_header[0] != state.round:
                starts = "dealer" if state.options.dealer_starts else "left of dealer"
                out(f"\nRound {state.round} · seat {state.dealer} deals · {starts} starts")
            sizes = " ".join(str(len(h)) for h in state.hands)
            out(f"seat {state.turn} │ Center Row {_center(state)} │ hands {sizes}")
            last_header = (state.round, state.turn)
        seat = state.turn
        player = seated[seat]
        action = player.bot.choose(view(state, seat), rngs[seat], player.budget)
        gloss = describe(state, action)
        apply(state, action)
        out(f"    {action!s:<16} {gloss}".rstrip())
        if len(state.round_results) > rounds_seen:
            result = state.round_results[-1]
            rounds_seen += 1
            left = " · ".join(
                f"seat {s}: {_cards(h)}" for s, h in enumerate(result.hands) if s != result.winner
            )
            out(f"Round {result.round} won by seat {result.winner}: +{result.points} points")
            out(f"    hands left: {left}")
            out("    scores: " + "  ".join(f"seat {s} {v}" for s, v in enumerate(state.scores)))
    assert state.winner is not None
    out(
        f"\nGame over after {len(state.round_results)} rounds: seat {state.winner} "
        f"({names[state.winner]}) wins with {state.scores[state.winner]} points."
    )
    return state
