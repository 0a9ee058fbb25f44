"""What the table shows, as plain values: the lines and hints the game screen draws.

Pure functions of the controller (no Textual), so they are easy to test and the screen only
places them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from dos.bots import registry
from dos.i18n import text
from dos.rules.official import Action, Kind, Phase
from dos.rules.official.views import phase_name
from dos.tui.controller import HUMAN, GameController
from dos.tui.widgets.cards import face

LEVELS = tuple(registry.LEVELS)
"""The official rules' bot levels, easiest first, each named by ``tui.level_<level>``."""


class OpponentLine(NamedTuple):
    """One opponent as shown: the seat, the words, and two marks for styling."""

    seat: int
    text: str
    to_play: bool
    dos_open: bool


def header(c: GameController) -> str:
    """Round, target score and bot level."""
    level = text(c.lang, f"tui.level_{c.level}") if c.level in LEVELS else c.level
    state = c.state
    return text(
        c.lang, "tui.header", round=state.round, target=state.options.target_score, level=level
    )


def opponent_lines(c: GameController) -> list[OpponentLine]:
    """Each opponent: ``▶`` when to play, name, hand size, score, dealer, ``⚠`` not called.

    >>> from dos.tui.clock import ManualClock
    >>> game = GameController(players=2, level="easy", seed=1, clock=ManualClock())
    >>> opponent_lines(game)[0].text.split(" · ")[1:]
    ['cards: 7', 'Score 0']
    """
    state = c.state
    lines = []
    for seat in range(1, state.players):
        to_play = state.turn == seat and not c.over
        dos_open = bool(state.dos_open >> seat & 1)
        parts = [
            ("▶ " if to_play else "  ") + c.names[seat],
            text(c.lang, "game.cards_count", count=len(state.hands[seat])),
            f"{text(c.lang, 'game.score')} {state.scores[seat]}",
        ]
        if state.dealer == seat:
            parts.append(text(c.lang, "game.dealer"))
        if dos_open:
            parts.append("⚠ " + text(c.lang, "tui.not_called"))
        lines.append(OpponentLine(seat, " · ".join(parts), to_play, dos_open))
    return lines


def hand_title(c: GameController) -> str:
    """ "Your hand", its size, the score, and whether you deal."""
    state = c.state
    parts = [
        text(c.lang, "game.your_hand"),
        text(c.lang, "game.cards_count", count=len(state.hands[HUMAN])),
        f"{text(c.lang, 'game.score')} {state.scores[HUMAN]}",
    ]
    if state.dealer == HUMAN:
        parts.append(text(c.lang, "game.dealer"))
    return " · ".join(parts)


def status_line(c: GameController) -> str:
    """Whose turn, the phase, the piles (and bonus placements left)."""
    state = c.state
    phase = phase_name(state.phase, state.drew, bool(state.matched))
    discard = f"{face(state.discard[-1])} ({len(state.discard)})" if state.discard else "—"
    if c.human_turn:
        turn = text(c.lang, "tui.your_turn")
    else:
        turn = text(c.lang, "game.turn_of", player=c.names[state.turn])
    parts = [
        turn,
        f"{text(c.lang, 'game.phase')}: {text(c.lang, 'game.phase_' + phase)}",
        f"{text(c.lang, 'game.draw_pile')}: {len(state.draw_pile)}",
        f"{text(c.lang, 'game.discard_pile')}: {discard}",
    ]
    if state.phase == Phase.PLACING:
        parts.append(text(c.lang, "tui.placements_left", count=state.placements_left))
    return " · ".join(parts)


def matched_line(c: GameController) -> str:
    """The cards played on Center Row cards this turn: ``0 ← ■R5 + ✦DOS``."""
    return "  ".join(
        f"{index} ← " + " + ".join(face(card) for card in cards)
        for index, cards in sorted(c.state.matched.items())
    )


def alerts(c: GameController) -> list[str]:
    """The DOS race: your own obligation, and each opponent you may catch."""
    found = []
    if HUMAN in c.dos_open() and not c.over:
        found.append(text(c.lang, "tui.dos_prompt"))
    found += [
        text(c.lang, "tui.catch_prompt", player=c.names[seat])
        for seat in c.dos_open()
        if seat != HUMAN
    ]
    return found


def turn_actions(actions: Iterable[Action]) -> list[Action]:
    """The actions that belong to a turn (no calls or catches)."""
    return [a for a in actions if a.kind not in (Kind.CALL, Kind.CATCH)]


def hinted_targets(actions: Iterable[Action], selection: Counter[int]) -> set[int]:
    """Center Row indices a legal match can target: with exactly the selected cards, or with
    any cards when none is selected."""
    matches = [a for a in actions if a.kind == Kind.MATCH]
    if not selection:
        return {a.target for a in matches}
    return {a.target for a in matches if Counter(a.cards) == selection}


def hinted_cards(actions: Iterable[Action], selection: Counter[int]) -> set[int]:
    """Hand cards that take part in a legal action together with the selected cards."""
    cards: set[int] = set()
    for action in actions:
        placing = action.kind in (Kind.LAY, Kind.PLACE)
        fits = action.kind == Kind.MATCH and not (selection - Counter(action.cards))
        if placing or fits:
            cards.update(action.cards)
    return cards
