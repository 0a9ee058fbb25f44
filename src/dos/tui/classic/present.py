"""What the classic table shows, as plain values: pure functions of the controller.

>>> from dos.tui.clock import ManualClock
>>> from dos.tui.classic.controller import ClassicController
>>> game = ClassicController(players=2, level="easy", seed=1, clock=ManualClock())
>>> opponent_lines(game)[0].text.split(" · ")[1]
'cards: 7'
"""

from __future__ import annotations

from collections.abc import Iterable

from dos.bots.registry import CLASSIC_LEVELS
from dos.i18n import text
from dos.rules.classic import Action, Kind, Phase, State
from dos.rules.classic.cards import IS_WILD
from dos.tui.classic.cards import colour_mark
from dos.tui.classic.controller import ClassicController
from dos.tui.classic.words import colour_words
from dos.tui.controller import HUMAN
from dos.tui.present import OpponentLine


def header(c: ClassicController) -> str:
    """The rule set and the bots' level."""
    level = text(c.lang, f"tui.level_{c.level}") if c.level in CLASSIC_LEVELS else c.level
    return text(c.lang, "classic.header", level=level)


def place_of(c: ClassicController, seat: int) -> int | None:
    """The place a seat has taken (1 for first), or ``None`` while it plays."""
    ranking = c.state.ranking
    return ranking.index(seat) + 1 if seat in ranking else None


def opponent_lines(c: ClassicController) -> list[OpponentLine]:
    """Each opponent: ``▶`` when to act, name, hand size, place once out, thinking, and the
    reaction test while they take it (the second mark)."""
    state = c.state
    lines = []
    for seat in range(1, state.players):
        to_act = state.turn == seat and not c.over
        reacting = c.bot_reacting == seat
        parts = [
            ("▶ " if to_act else "  ") + c.names[seat],
            text(c.lang, "game.cards_count", count=len(state.hands[seat])),
        ]
        place = place_of(c, seat)
        if place is not None:
            parts.append(text(c.lang, "classic.place", place=place))
        if reacting:
            parts.append(text(c.lang, "classic.reacting"))
        elif c.thinking == seat:
            parts.append(text(c.lang, "tui.thinking"))
        lines.append(OpponentLine(seat, " · ".join(parts), to_act, reacting))
    return lines


def pile_lines(c: ClassicController) -> str:
    """Beside the top card: the colour to follow (the wish after a wild), the pending draw,
    the direction and the draw pile's size, one per line."""
    return pile_lines_of(c.state, c.lang)


def pile_lines_of(state: State, lang: str) -> str:
    """``pile_lines`` of a game ``state`` (the table's, or a replay's)."""
    colour = f"{colour_mark(state.colour)} {colour_words(lang, state.colour)}"
    if IS_WILD[state.top]:
        lines = [text(lang, "classic.wished", colour=colour)]
    else:
        lines = [text(lang, "classic.colour", colour=colour)]
    if state.pending:
        lines.append("‼ " + text(lang, "classic.pending", count=state.pending))
    lines.append(
        text(lang, "classic.clockwise" if state.direction == 1 else "classic.counterclockwise")
    )
    lines.append(f"{text(lang, 'classic.draw_pile')}: {len(state.draw_pile)}")
    return "\n".join(lines)


def status_line(c: ClassicController) -> str:
    """Whose turn it is (or the game's end)."""
    state = c.state
    if c.over:
        return text(c.lang, "game.game_over")
    if state.turn == HUMAN:
        return text(c.lang, "tui.your_turn")
    return text(c.lang, "game.turn_of", player=c.names[state.turn])


def hand_title(c: ClassicController) -> str:
    """ "Your hand", its size, and the place once out."""
    parts = [
        text(c.lang, "game.your_hand"),
        text(c.lang, "game.cards_count", count=len(c.state.hands[HUMAN])),
    ]
    place = place_of(c, HUMAN)
    if place is not None:
        parts.append(text(c.lang, "classic.place", place=place))
    return " · ".join(parts)


def alert(c: ClassicController) -> str:
    """A bot's reaction test under way, with its countdown."""
    seat = c.bot_reacting
    remaining = c.remaining()
    if seat is None or remaining is None:
        return ""
    return text(c.lang, "classic.reaction_bot", player=c.names[seat], seconds=f"{remaining:.1f}")


def playable_cards(actions: Iterable[Action]) -> set[int]:
    """The hand cards a legal action plays."""
    return {a.card for a in actions if a.kind == Kind.PLAY}


def countdown(c: ClassicController, width: int = 20) -> str:
    """The person's reaction test: a bar of the time left, the seconds and the hits.

    >>> from dos.rules.classic import FakeClock, ReactionTest
    >>> from dos.tui.clock import ManualClock
    >>> game = ClassicController(players=2, seed=1, clock=ManualClock())
    >>> game.reaction = ReactionTest([(0.5, 0.5)], 3.0, clock=FakeClock())
    >>> countdown(game, 10)
    '██████████ Time left: 3.0 s · targets hit: 0 of 1'
    """
    test = c.reaction
    if test is None:
        return ""
    remaining = test.remaining()
    full = round(width * remaining / test.time_limit)
    bar = "█" * full + "░" * (width - full)
    words = text(
        c.lang,
        "classic.reaction_countdown",
        seconds=f"{remaining:.1f}",
        hits=test.hits,
        targets=len(test.targets),
    )
    return f"{bar} {words}"


def is_reaction(c: ClassicController) -> bool:
    """Whether the person's reaction test is on screen."""
    return c.reaction is not None and c.state.phase == Phase.REACTION
